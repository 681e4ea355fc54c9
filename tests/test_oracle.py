"""The oracle against the rule examples of docs/rules.md and the seeds (each test names its
seed), so that the reference the C core is checked against is itself anchored."""

from __future__ import annotations

import pytest
from oracle import OracleContext

from shengji.cards import format_counts, parse_card
from shengji.errors import HandError
from shengji.rules import PlayRules


def ctx(level="10", trump="S", **rules):
    return OracleContext(PlayRules(**rules), level, trump)


def comps(c, cards):
    return [format_counts(x[2]) for x in c.decompose(cards)]


def ordered(c, tokens):
    """True if the cards are strictly decreasing, or equal where written with '='."""
    groups = [[parse_card(t) for t in g.split("=")] for g in tokens.split()]
    for g in groups:
        assert len({c.strength(k) for k in g}) == 1, g
        assert len({c.effective_suit(k) for k in g}) == 1, g
    for hi, lo in zip(groups, groups[1:], strict=False):
        assert c.effective_suit(hi[0]) == c.effective_suit(lo[0])
        assert c.strength(hi[0]) > c.strength(lo[0]), (hi, lo)
    return True


# -- card order ------------------------------------------------------------------------


def test_order_level_10_spade_trump():
    """seed 000/001/004, 牌的大小順序 (2 不為常主)."""
    c = ctx()
    assert ordered(c, "BJ LJ S10 H10=C10=D10 SA SK SQ SJ S9 S8 S7 S6 S5 S4 S3 S2")
    assert ordered(c, "HA HK HQ HJ H9 H8 H7 H6 H5 H4 H3 H2")
    assert c.compare(parse_card("S2"), parse_card("HA")) == "higher"
    assert c.compare(parse_card("HA"), parse_card("S2")) == "lower"
    assert c.compare(parse_card("HA"), parse_card("CA")) == "unrelated"
    assert c.compare(parse_card("H10"), parse_card("C10")) == "equal"
    assert not c.is_trump(parse_card("HA")) and c.is_trump(parse_card("D10"))


def test_order_constant_two():
    """seed 000/001, 牌的大小順序 (2 為常主)."""
    c = ctx(constant_ranks=(0,))
    assert ordered(c, "BJ LJ S10 H10=C10=D10 S2 H2=C2=D2 SA SK SQ SJ S9 S8 S7 S6 S5 S4 S3")
    assert ordered(c, "HA HK HQ HJ H9 H8 H7 H6 H5 H4 H3")
    assert c.is_trump(parse_card("H2"))


def test_order_no_trump():
    """seed 002: 無將 — only jokers and the level cards are trumps, level cards equal."""
    c = ctx(trump=None)
    assert ordered(c, "BJ LJ S10=H10=C10=D10")
    assert ordered(c, "SA SK SQ SJ S9 S8 S7 S6 S5 S4 S3 S2")


# -- tractors ----------------------------------------------------------------------------

TRACTORS_000 = [
    "HK HK HQ HQ",
    "HJ HJ H9 H9",
    "H5 H5 H4 H4 H3 H3",
    "LJ LJ S10 S10",
    "S10 S10 H10 H10",
    "H10 H10 SA SA",
    "S10 S10 H10 H10 SA SA",
    "LJ LJ BJ BJ",
]
NOT_TRACTORS_000 = [
    "H5 H5 H4",
    "H5 H4 H4",
    "H5 H5 H3 H3",
    "HJ HJ HQ",
    "H10 H10 C10 C10",
    "HJ HJ H10 H10",
    "HA HA H2 H2",
]


@pytest.mark.parametrize("cards", TRACTORS_000)
def test_tractors_seed_000(cards):
    """seed 000, 拖拉機的構成 (level 10, ♠ trump)."""
    assert ctx().is_tractor(cards)


@pytest.mark.parametrize("cards", NOT_TRACTORS_000)
def test_not_tractors_seed_000(cards):
    """seed 000, 拖拉機的構成: 554, 544, 5533, JJQ, 兩對副10, JJ1010, AA22."""
    assert not ctx().is_tractor(cards)


@pytest.mark.parametrize(
    "cards,expect",
    [
        ("H2 H2 H3 H3", True),
        ("H9 H9 HJ HJ", True),
        ("S2 S2 S3 S3", True),
        ("S9 S9 SJ SJ", True),
        ("SA SA D10 D10", True),
        ("C10 C10 S10 S10", True),
        ("S10 S10 LJ LJ", True),
        ("LJ LJ BJ BJ", True),
        ("H9 H9 H10 H10", False),
        ("S10 S10 SJ SJ", False),
        ("D10 D10 C10 C10", False),
    ],
)
def test_tractors_seed_002(cards, expect):
    """seed 002, 出牌: 以打10，♠將牌為例."""
    assert ctx().is_tractor(cards) is expect


def test_no_trump_tractors_seed_002():
    """seed 002: 在無主牌局中，兩對級牌不能構成拖拉機，但小王可以和任何一對級牌構成拖拉機."""
    c = ctx(trump=None)
    assert not c.is_tractor("H10 H10 C10 C10")
    for s in "SHCD":
        assert c.is_tractor(f"LJ LJ {s}10 {s}10")
    assert c.is_tractor("LJ LJ BJ BJ")


@pytest.mark.parametrize(
    "cards,trump,expect",
    [
        ("H3 H3 H3 H4 H4 H4", "S", True),
        ("H4 H4 H4 H6 H6 H6", "S", True),
        ("H5 H5 H5 S5 S5 S5", "S", True),  # 副5主5
        ("LJ LJ LJ BJ BJ BJ", "S", True),  # 大王小王
        ("SA SA SA H5 H5 H5", "S", True),  # AAA 副5
        ("S5 S5 S5 LJ LJ LJ", "S", True),  # 主5小王
        ("H5 H5 H5 H6 H6 H6", "S", False),  # 5 is trump, 6 is not
        ("H5 H5 H5 C5 C5 C5", None, False),  # no trump: level cards are equal
    ],
)
def test_titanics_level_5_seed_000(cards, trump, expect):
    """seed 000/001, 新增牌型 泰坦尼克 (three decks, playing 5)."""
    assert ctx("5", trump, decks=3).is_tractor(cards) is expect


def test_titanic_skips_level_seed_003():
    """seed 003, 牌型: 例如6是级牌时，同花色的555777可以组成拖拉机."""
    assert ctx("6", "S", decks=3).is_tractor("H5 H5 H5 H7 H7 H7")
    assert not ctx("6", "S", decks=3, tractor_bridges_level_gap=False).is_tractor(
        "H5 H5 H5 H7 H7 H7"
    )


def test_four_decks_no_tractors_seed_003():
    """seed 003: 四副牌时没有拖拉机."""
    c = ctx("2", "S", decks=4, tractors=False, throws=False)
    assert not c.is_tractor("H5 H5 H6 H6")
    assert comps(c, "H6 H6 H6 H6") == ["H6 H6 H6 H6"]


# -- decomposition -----------------------------------------------------------------------


def test_decompose_throws_seed_000():
    """seed 000, 出牌規則: AAK, AKK, AQQJJ, 98844 split into their combinations."""
    c = ctx()
    assert comps(c, "HA HA HK") == ["HA HA", "HK"]
    assert comps(c, "HA HK HK") == ["HK HK", "HA"]
    assert comps(c, "HA HQ HQ HJ HJ") == ["HQ HQ HJ HJ", "HA"]
    assert comps(c, "H9 H8 H8 H4 H4") == ["H8 H8", "H4 H4", "H9"]


def test_decompose_longest_first():
    """semantics §3 (three decks): a 4-pair tractor before a Titanic + pair; a Titanic
    before a tractor + singles; a triple before a pair + single."""
    c = ctx("2", "S", decks=3)
    assert comps(c, "H9 H9 H9 H8 H8 H8 H7 H7 H6 H6") == ["H9 H9 H8 H8 H7 H7 H6 H6", "H9", "H8"]
    assert comps(c, "H9 H9 H9 H8 H8 H8") == ["H9 H9 H9 H8 H8 H8"]
    assert comps(c, "H9 H9 H9") == ["H9 H9 H9"]
    assert comps(c, "HA HA HA HQ") == ["HA HA HA", "HQ"]
    # more cards first: the tractor AAKK before the triple AAA
    assert comps(c, "HA HA HA HK HK") == ["HA HA HK HK", "HA"]


def test_decompose_rejects_bad_leads():
    c = ctx()
    with pytest.raises(HandError):
        c.decompose("")
    with pytest.raises(HandError):
        c.decompose("HA SA")


# -- following ---------------------------------------------------------------------------


def follows(c, lead, hand, play):
    return c.check_follow(lead, hand, play)


def test_pair_led_must_pair_seed_000():
    """seed 000, 出牌規則: 首家出對牌時，其餘家有對牌必須出對牌（包括拖拉機中的對牌）."""
    c = ctx()
    assert follows(c, "H5 H5", "HK HK H3 H4 S2", "H3 H4") == (False, "must_follow_shape")
    assert follows(c, "H5 H5", "HK HK H3 H4 S2", "HK HK") == (True, "ok")
    assert follows(c, "H5 H5", "HQ HQ HJ HJ H3", "HQ HQ") == (True, "ok")
    assert follows(c, "H5 H5", "HQ HQ HJ HJ H3", "HQ H3") == (False, "must_follow_shape")
    assert follows(c, "H5 H5", "HK H3 H4 S2 S2", "H3 H4") == (True, "ok")


def test_pair_out_of_triple_seed_002():
    """seed 002, 跟牌: 領出對子：對子（包括刻子中拆的）>兩單張."""
    c = ctx("2", "S", decks=3)
    assert follows(c, "H5 H5", "H7 H7 H7 H3 H4", "H3 H4")[0] is False
    assert follows(c, "H5 H5", "H7 H7 H7 H3 H4", "H7 H7")[0] is True


def test_tractor_led_seed_000():
    """seed 000: 首家出拖拉機時，其餘家有拖拉機必須出拖拉機，若無拖拉機，則必須出對牌."""
    c = ctx()
    lead = "H5 H5 H4 H4"
    hand = "HQ HQ HJ HJ H8 H8 H3"
    assert follows(c, lead, hand, "HQ HQ HJ HJ")[0]
    assert not follows(c, lead, hand, "HQ HQ H8 H8")[0]
    hand = "HQ HQ H8 H8 H3 H2 SA"
    assert follows(c, lead, hand, "HQ HQ H8 H8")[0]
    assert not follows(c, lead, hand, "HQ HQ H3 H2")[0]
    hand = "HQ HQ H8 H6 H3 H2"
    assert follows(c, lead, hand, "HQ HQ H3 H2")[0]
    assert not follows(c, lead, hand, "H8 H6 H3 H2")[0]


def test_follow_suit_and_counts():
    """seed 002, 跟牌: 在有領出者所出花色的牌時必須跟牌."""
    c = ctx()
    assert follows(c, "H5 H5 H4 H4", "H9 H8 H7 SA CA", "H9 H8 H7 SA") == (True, "ok")
    assert follows(c, "H5 H5 H4 H4", "H9 H8 H7 SA CA", "H9 H8 SA CA") == (
        False,
        "must_follow_suit",
    )
    assert follows(c, "H5", "H9 SA", "SA") == (False, "must_follow_suit")
    assert follows(c, "H5", "H9 SA", "HA") == (False, "not_in_hand")
    assert follows(c, "H5", "H9 SA", "H9 SA") == (False, "wrong_count")


FOUR_DECKS_003 = dict(
    decks=4,
    tractors=False,
    throws=False,
    must_break_tuples=False,
    following=(
        ((4, 1), (((4, 1),), ((3, 1),), ((2, 1), (2, 1)), ((2, 1),), ())),
        ((3, 1), (((3, 1),), ((2, 1),), ())),
        ((2, 1), (((2, 1),), ())),
    ),
)


def test_held_triple_or_quad_need_not_be_broken_seed_003():
    """seed 003, 跟牌: 如果有同花色的四张牌或三张牌时可以不拆."""
    c = ctx("2", "S", **FOUR_DECKS_003)
    assert follows(c, "H5 H5", "H7 H7 H7 H3 H4", "H3 H4")[0]
    assert follows(c, "H5 H5", "H7 H7 H7 H7 H3 H4", "H3 H4")[0]
    assert not follows(c, "H5 H5", "H7 H7 H9 H9 H9 H3", "H9 H3")[0]
    assert follows(c, "H5 H5 H5", "HQ HQ HQ HQ H3 H4 H6", "H3 H4 H6")[0]
    # the same hands when tuples must be broken (seeds 000/002)
    broken = ctx("2", "S", **{**FOUR_DECKS_003, "must_break_tuples": True})
    assert not broken.check_follow("H5 H5", "H7 H7 H7 H3 H4", "H3 H4")[0]


def test_quad_led_order_seed_003():
    """seed 003: 四张牌; 没有四张牌时跟三张牌加一单张; 没有三张牌跟两个对; 没有对跟四张单牌."""
    c = ctx("2", "S", **FOUR_DECKS_003)
    lead = "H5 H5 H5 H5"
    assert follows(c, lead, "H7 H7 H7 H3 H9 H9 H4 H4", "H7 H7 H7 H3")[0]
    assert not follows(c, lead, "H7 H7 H7 H3 H9 H9 H4 H4", "H9 H9 H4 H4")[0]
    assert follows(c, lead, "HK H3 H9 H9 H4 H4 H6", "H9 H9 H4 H4")[0]
    assert not follows(c, lead, "HK H3 H9 H9 H4 H4 H6", "H9 H9 HK H3")[0]
    # 没有对跟四张单牌: four singles only without a pair (one pair held: it must be played)
    assert not follows(c, lead, "HK H3 H9 H9 H6 H4", "HK H3 H6 H4")[0]
    assert follows(c, lead, "HK H3 H9 H9 H6 H4", "H9 H9 H6 H4")[0]


TITANIC_001 = (
    (3, 2),
    (
        "titanic",
        "triple + triple",
        "tractor",
        "triple + pair",
        "triple",
        "pair + pair",
        "pair",
        "singles",
    ),
)
TITANIC_000 = (
    (3, 2),
    (
        "titanic",
        "tractor",
        "triple + triple",
        "triple + pair",
        "triple",
        "pair + pair",
        "pair",
        "singles",
    ),
)
TITANIC_002 = (
    (3, 2),
    (
        "titanic",
        "triple + triple",
        "triple + pair",
        "triple",
        "tractor",
        "pair + pair",
        "pair",
        "singles",
    ),
)


def titanic_ctx(ladder):
    """Three decks, level 2, ♠ trump, with the given Titanic ladder."""
    return OracleContext(PlayRules.from_mapping({"decks": 3, "following": [ladder]}), 0, 0)


def test_titanic_follow_order_seed_001():
    """seed 001, 泰坦尼克: 兩副三對 before 一副拖拉機+兩單張 (explicit ladder)."""
    c = titanic_ctx(TITANIC_001)
    lead = "H5 H5 H5 H6 H6 H6"
    hand = "H9 H9 H9 HJ HJ HJ H8 H8 H7 H7 H3"
    assert follows(c, lead, hand, "H9 H9 H9 HJ HJ HJ")[0]
    assert not follows(c, lead, hand, "H8 H8 H7 H7 H9 H3")[0]
    # no two triples: the tractor comes before triple + pair + single
    hand = "H9 H9 H9 H7 H7 H6 H6 HK H3"
    assert follows(c, lead, hand, "H7 H7 H6 H6 HK H3")[0]
    assert not follows(c, lead, hand, "H9 H9 H9 H7 H7 H3")[0]


def test_titanic_follow_order_seed_000_and_002():
    """seed 000 (tractor + any two before two triples); seed 002 main list (triple +
    pair + single before tractor + two singles)."""
    lead = "H5 H5 H5 H6 H6 H6"
    c = titanic_ctx(TITANIC_000)
    hand = "H9 H9 H9 HJ HJ HJ H8 H8 H7 H7 H3"
    assert follows(c, lead, hand, "H8 H8 H7 H7 H9 H3")[0]
    assert not follows(c, lead, hand, "H9 H9 H9 HJ HJ HJ")[0]
    c = titanic_ctx(TITANIC_002)
    hand = "H9 H9 H9 H7 H7 H6 H6 HK H3"
    assert follows(c, lead, hand, "H9 H9 H9 H7 H7 H3")[0]
    assert not follows(c, lead, hand, "H7 H7 H6 H6 HK H3")[0]


def test_throw_followed_component_by_component_seed_002():
    """seed 002, 領出甩牌：根據甩牌中所包含的組合，按照上述原則跟牌."""
    c = ctx()
    lead = "HA HA HK"  # pair + single
    assert not follows(c, lead, "HQ HQ H3 H4", "HQ H3 H4")[0]
    assert follows(c, lead, "HQ HQ H3 H4", "HQ HQ H3")[0]


def test_legal_follows_enumeration():
    c = ctx()
    plays = c.legal_follows("H5 H5", "HK HK H3 H4 S2")
    assert plays == {c.counts("HK HK")}
    plays = c.legal_follows("H5 H5", "H3 S2 S3 C4")
    assert plays == {c.counts(p) for p in ("H3 S2", "H3 S3", "H3 C4")}


# -- throws ------------------------------------------------------------------------------


@pytest.mark.parametrize("throw", ["HA HA HK", "HA HK HK", "HA HQ HQ HJ HJ"])
def test_throw_of_top_cards_is_valid_seed_000(throw):
    """seed 000, 出牌規則: 同門花色的大牌可以聯出 (nobody holds anything higher)."""
    c = ctx()
    others = ["H9 H8 H7 S3 S3", "HQ H2 H2 SA", "BJ BJ LJ"]
    if "HQ" in throw:
        others[1] = "HK H2 H2 SA"  # a lone K beats no single A and no pair QQ JJ
    assert c.check_throw(throw, others)[0] is True


def test_trumps_never_block_a_throw():
    """semantics §6: trumps in a holding never beat a non-trump throw."""
    assert ctx().check_throw("HA HA HK", ["SA SA SK SK", "BJ", "LJ"])[0]


def test_failed_throw_98844_seed_000():
    """seed 000: 首家試圖聯出98844時，若其餘某家有此花色的J，則首家必須出9，
    若其餘某家有此花色的...55，則首家必須出44."""
    c = ctx()
    valid, forced, options, blocker = c.check_throw("H9 H8 H8 H4 H4", ["S3", "HJ", "C4"])
    assert (valid, format_counts(forced), blocker) == (False, "H9", 1)
    valid, forced, options, blocker = c.check_throw("H9 H8 H8 H4 H4", ["S3", "C4", "H5 H5"])
    assert (valid, format_counts(forced), blocker) == (False, "H4 H4", 2)
    assert c.check_throw("H9 H8 H8 H4 H4", ["H3 H3 H7", "H2 H2", "H6"])[0]


def test_failed_throw_98844_qq_outside_seed_000():
    """seed 000: 若其餘某家有此花色的QQ...，則首家必須出44 — the QQ holder beats the 9,
    the 88 and the 44; the lowest beaten part (44) is forced (semantics §6)."""
    c = ctx()
    _, forced, options, blocker = c.check_throw("H9 H8 H8 H4 H4", ["S3", "HQ HQ", "C4"])
    assert format_counts(forced) == "H4 H4" and blocker == 1
    assert [format_counts(o) for o in options] == ["H4 H4"]


def test_failed_throw_q44_seed_002():
    """seed 002: 甩牌Q44 ... 若既有大於Q的單張也有大於44的對子則由其下家指定其中的一種出牌."""
    c = ctx(failed_throw="next_player_chooses")
    valid, forced, options, blocker = c.check_throw("HQ H4 H4", ["HK", "H5 H5", "S2"])
    assert valid is False
    assert [format_counts(o) for o in options] == ["H4 H4", "HQ"]  # lowest first
    assert format_counts(forced) == "H4 H4" and blocker == 1
    # only one beaten: that one is forced
    _, forced, options, blocker = c.check_throw("HQ H4 H4", ["S2", "H5 H5", "S3"])
    assert [format_counts(o) for o in options] == ["H4 H4"] and blocker == 1
    _, forced, options, blocker = c.check_throw("HQ H4 H4", ["S2", "S3", "HA"])
    assert format_counts(forced) == "HQ" and blocker == 2


# -- trick winner ------------------------------------------------------------------------


def test_ruff_needs_the_lead_shape_seed_000():
    """seed 000: 主牌998872可斃副牌AK5544,但不能斃副牌AA5544."""
    c = ctx()
    other = ["H2 H3 H6 H7 H8 H9", "C2 C3 C4 C5 C6 C7"]
    assert c.trick_winner(["HA HK H5 H5 H4 H4", "S9 S9 S8 S8 S7 S2", *other]) == 1
    assert c.trick_winner(["HA HA H5 H5 H4 H4", "S9 S9 S8 S8 S7 S2", *other]) == 0


def test_over_ruff_seed_000():
    """seed 000: 主牌977可斃副牌544, 主牌884可蓋斃; 主牌977可斃副牌567, 主牌884不能蓋斃."""
    c = ctx()
    assert c.trick_winner(["H5 H4 H4", "S9 S7 S7", "S8 S8 S4", "C2 C3 C4"]) == 2
    assert c.trick_winner(["H5 H6 H7", "S9 S7 S7", "S8 S8 S4", "C2 C3 C4"]) == 1


def test_ruff_compare_policies():
    """semantics §7: all_components / highest_card alternatives (seed 002 超吃 rules)."""
    lead = ["H5 H4 H4", "S9 S7 S7", "SA S8 S8", "C2 C3 C4"]
    assert ctx(ruff_compare="strongest").trick_winner(lead) == 2
    assert ctx(ruff_compare="all_components").trick_winner(lead) == 2
    assert ctx(ruff_compare="highest_card").trick_winner(lead) == 2
    lead = ["H5 H4 H4", "SA S7 S7", "S9 S8 S8", "C2 C3 C4"]
    assert ctx(ruff_compare="strongest").trick_winner(lead) == 2
    assert ctx(ruff_compare="all_components").trick_winner(lead) == 1
    assert ctx(ruff_compare="highest_card").trick_winner(lead) == 1


def test_ties_go_to_the_earlier_play_seed_000():
    """seed 000, 出牌規則: 出牌時同等大小的牌以先出者為大."""
    c = ctx()
    assert c.trick_winner(["HA", "HA", "H3", "C2"]) == 0
    assert c.trick_winner(["H3", "H10", "C10", "D10"]) == 1
    assert c.trick_winner(["H3", "S10", "BJ", "BJ"]) == 2


def test_unruffed_throw_won_by_thrower_seed_002():
    """seed 002: 甩牌未被將吃時甩牌者為大; a pair led is not beaten by two singles."""
    c = ctx()
    assert c.trick_winner(["HK H5", "HA HQ", "H2 H3", "C2 C3"]) == 0
    assert c.trick_winner(["HK H5", "HA HQ", "S2 S3", "C2 C3"]) == 2
    assert c.trick_winner(["H5 H5", "HA HK", "H6 H6", "S2 S3"]) == 2


def test_discard_never_wins():
    """seed 003: 若首家出包含对的付牌，其它方即使全部出了主牌，但没有对，也不能算大."""
    c = ctx()
    assert c.trick_winner(["H5 H5", "S2 S3", "BJ LJ", "C2 C2"]) == 0


# -- kitty -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "play,decks,expect",
    [
        ("H4 H4 H4 H5 H5 H5", 3, 64),
        ("H4 H4 H5 H5 H6 H6", 2, 64),
        ("H4 H4 H5 H5", 2, 16),
        ("H5 H5 H5", 3, 8),
        ("HA HK HQ HJ H10 H9 H8 H7 H7", 2, 4),
        ("HA HK HQ HJ", 2, 2),
        ("HA HA HJ HJ", 2, 4),
    ],
)
def test_kitty_exponential_seed_000(play, decks, expect):
    """seed 000, 扣底規則: 2^(cards of the largest combination), at most 64."""
    assert ctx("2", "S", decks=decks).kitty_multiplier(play) == expect


def test_kitty_with_lead_uses_the_lead_format():
    """semantics §8: a ruff is valued by the lead's components."""
    c = ctx()
    assert c.kitty_multiplier("S9 S9 S8 S8 S7 S2", lead="HA HK H5 H5 H4 H4") == 16


@pytest.mark.parametrize(
    "play,expect", [("H4", 2), ("H4 H4", 4), ("H4 H4 H5 H5", 8), ("H4 H4 H5 H5 H6 H6", 16)]
)
def test_kitty_power_seed_004(play, expect):
    """seed 004, 扣底規則: 一對4倍, 二連對8倍, 每多一對再加倍."""
    assert ctx("2", "S", kitty="power").kitty_multiplier(play) == expect


@pytest.mark.parametrize(
    "play,expect",
    [
        ("H4", 2),
        ("H4 H4", 4),
        ("H4 H4 H4", 6),
        ("H4 H4 H5 H5", 8),
        ("H4 H4 H4 H5 H5 H5", 18),
        ("H4 H4 H4 H5 H5 H5 H6 H6 H6", 54),
    ],
)
def test_kitty_power_seed_003_second_text(play, expect):
    """seed 003, 扣底 (second text): Titanic 2·3^len, 三对 6, 拖拉机 2·2^len, 两对 4."""
    assert ctx("2", "S", decks=3, kitty="power").kitty_multiplier(play) == expect


@pytest.mark.parametrize(
    "play,decks,expect",
    [
        ("H4", 2, 2),
        ("H4 H4", 2, 4),
        ("H4 H4 H4", 3, 6),
        ("H4 H4 H4 H4", 4, 8),
        ("H4 H4 H5 H5", 2, 8),
        ("H4 H4 H4 H5 H5 H5", 3, 16),
    ],
)
def test_kitty_table_seed_003_first_text(play, decks, expect):
    """seed 003, 抠底: 单牌2 对牌4 三张6 四张8 对牌拖拉机8 三张牌拖拉机16."""
    assert ctx("2", "S", decks=decks, kitty="table").kitty_multiplier(play) == expect


def test_kitty_twice_size():
    assert ctx("2", "S", kitty="twice_size").kitty_multiplier("H4 H4 H5 H5 HA") == 8


# -- properties of the oracle itself -----------------------------------------------------

from hypothesis import assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from oracle.follow import bomb_kind  # noqa: E402
from oracle.order import TRUMP  # noqa: E402
from oracle.structures import all_shapes, key, structure_counts, structures, sub  # noqa: E402
from oracle.trick import match_value  # noqa: E402
from strategies import contexts, follow_case, leads, trick  # noqa: E402

PROPS = settings(max_examples=60, deadline=None)


@given(data=st.data())
@PROPS
def test_decomposition_is_reached_greedily(data):
    """semantics §3: the lexicographic maximum (found by exhaustive search) equals taking
    the best available component again and again. Not for ``decomposition: shengji_io``,
    which by design chooses another partition (§3: with three decks, three copies each of
    two neighbouring cards and two of the next are a tractor of three pairs and a single
    there, a tractor of two triples and a pair by the §3 key)."""
    _, _, _, c = data.draw(contexts())
    assume(c.rules.decomposition != "shengji_io")
    _, lead = data.draw(leads(c, max_size=8))
    rest, greedy = lead, []
    while sum(rest):
        cands = [s for w, ln in all_shapes(c.rules, sum(rest)) for s in structures(c, rest, w, ln)]
        best = max(cands, key=lambda s: key(c, s))
        greedy.append((best[0], best[1], structure_counts(best)))
        rest = sub(rest, structure_counts(best))
    assert c.decompose(lead) == greedy


@given(data=st.data())
@PROPS
def test_some_follow_is_always_legal(data):
    """semantics §4: a follower can always play (the ladders end in 'any cards')."""
    rules, _, _, c = data.draw(contexts())
    lead, hand = data.draw(follow_case(c, rules.decks))
    if sum(hand) >= sum(lead):
        assert c.legal_follows(lead, hand)


@given(data=st.data())
@PROPS
def test_winner_is_a_matching_play(data):
    """semantics §7: the winner is the lead, a follow-match, a ruff or a bomb (with
    play.bombs: it beats every other play, whatever was led), and the lead still wins
    when every other play is removed."""
    rules, _, _, c = data.draw(contexts())
    plays = data.draw(trick(c, rules.decks))
    w = c.trick_winner(plays)
    if w:
        assert c.trick_winner(plays[: w + 1]) == w
        suit, comps = c.lead_components(plays[0])
        shapes = [x[:2] for x in comps]
        assert (match_value(c, plays[w], shapes, suit) or match_value(c, plays[w], shapes, TRUMP)
                or bomb_kind(c, plays[w]) is not None)
