"""API behaviour of shengji.core on the seeds' own examples (docs/rules.md digest, seeds/).

Each test names its seed and rule section. Hands are written in CONFORMANCE.md notation.
"""

import pytest

from shengji.cards import parse_card
from shengji.core import Component, Context, FollowResult, Hand
from shengji.errors import HandError, RulesError
from shengji.rules import PlayRules

TWO = PlayRules(decks=2)
THREE = PlayRules(decks=3)
L10S = Context(TWO, "10", "S")  # the seeds' running example: playing 10, spades trump


# ------------------------------------------------------------------ Hand


def test_hand_multiset_operations():
    h = Hand("HA HA HK")
    assert len(h) == 3
    assert h.counts[parse_card("HA")] == 2
    assert Hand("HK HA HA") == h and hash(Hand("HK HA HA")) == hash(h)
    assert Hand("HA HK") in h and Hand("HK HK") not in h
    assert h - Hand("HA") == Hand("HA HK")
    assert h + Hand("BJ") == Hand("BJ HA HA HK")
    assert str(Hand("H2 BJ SA H10")) == "BJ SA H10 H2"
    assert h.cards() == [parse_card("HA"), parse_card("HA"), parse_card("HK")]
    assert Hand.from_counts(h.counts) == h


def test_context_is_cached_frozen_and_parses_level_and_trump():
    # one call after the other: L10S itself was made at import, and the cache keeps the
    # last 2,048 contexts only (a whole run in one process makes more in between)
    ctx = Context(TWO, 8, 0)
    assert Context(TWO, "10", "♠") is ctx and ctx == L10S
    assert Context(TWO, "10", None) == Context(TWO, "T", "none")
    with pytest.raises(AttributeError):
        L10S.level = 3


# ------------------------------------------------------------------ order (§2)


@pytest.mark.parametrize(
    "high,low",
    [("BJ", "LJ"), ("LJ", "S10"), ("S10", "H10"), ("H10", "SA"), ("SA", "SK"), ("SJ", "S9"),
     ("S2", "HA"), ("HA", "HK"), ("HJ", "H9")],
)  # fmt: skip
def test_trump_order_level_10_spades(high, low):
    """seed 000, 牌的大小順序: 大王, 小王, 主10, 副10, A, K, Q, J, 9 ... 2."""
    assert L10S.compare(high, low) == "higher"
    assert L10S.compare(low, high) == "lower"


def test_off_suit_level_cards_equal_first_played_wins():
    """seed 000, 出牌規則: 同等大小的牌以先出者為大 (♥10 = ♣10 = ♦10)."""
    assert L10S.strength("H10") == L10S.strength("C10") == L10S.strength("D10")
    assert L10S.compare("H10", "D10") == "equal"
    assert L10S.compare("HA", "CA") == "unrelated"
    assert L10S.is_trump("D10") and L10S.is_trump("S3") and not L10S.is_trump("HA")
    assert L10S.effective_suit("LJ") == 4 and L10S.effective_suit("HA") == 1


def test_constant_two_ranks_below_level_cards():
    """seed 000/001, 2為常主: 大王, 小王, 主10, 副10, 主2, 副2, A ... 3."""
    ctx = Context(PlayRules(decks=2, constant_ranks=(0,)), "10", "S")
    order = ["BJ", "LJ", "S10", "H10", "S2", "H2", "SA", "S3"]
    for a, b in zip(order, order[1:], strict=False):
        assert ctx.compare(a, b) == "higher", (a, b)
    assert ctx.is_trump("H2") and ctx.compare("H3", "H4") == "lower"


# ------------------------------------------------------------------ tractors (§3)


@pytest.mark.parametrize(
    "cards",
    ["HK HK HQ HQ", "HJ HJ H9 H9", "H5 H5 H4 H4 H3 H3", "LJ LJ S10 S10", "S10 S10 H10 H10",
     "H10 H10 SA SA", "S10 S10 H10 H10 SA SA", "LJ LJ BJ BJ"],
)  # fmt: skip
def test_tractors_seed_000(cards):
    """seed 000, 拖拉機的構成 (playing 10, ♠ trump): these are tractors."""
    assert L10S.is_tractor(cards)


@pytest.mark.parametrize(
    "cards",
    ["H5 H5 H4", "H5 H4 H4", "H5 H5 H3 H3", "HJ HJ HQ", "H10 H10 C10 C10", "HJ HJ H10 H10",
     "HA HA H2 H2"],
)  # fmt: skip
def test_not_tractors_seed_000(cards):
    """seed 000, 拖拉機的構成: 554, 544, 5533, JJQ, 兩對副10, JJ1010, AA22 are not."""
    assert not L10S.is_tractor(cards)


def test_level_gap_knob():
    """docs/rules.md §3 [knob] tractor_bridges_level_gap: without the bridge JJ99 is no tractor."""
    ctx = Context(PlayRules(decks=2, tractor_bridges_level_gap=False), "10", "S")
    assert not ctx.is_tractor("HJ HJ H9 H9")
    assert ctx.is_tractor("HQ HQ HJ HJ")


def test_no_trump_level_pairs_seed_002():
    """seed 002: with no trump two level pairs are no tractor; a LJ pair and one is."""
    ctx = Context(TWO, "10", None)
    assert not ctx.is_tractor("H10 H10 C10 C10")
    assert ctx.is_tractor("LJ LJ C10 C10")


@pytest.mark.parametrize(
    "cards,expect",
    [("S3 S3 S3 S4 S4 S4", True), ("S4 S4 S4 S6 S6 S6", True), ("H5 H5 H5 S5 S5 S5", True),
     ("LJ LJ LJ BJ BJ BJ", True), ("SA SA SA H5 H5 H5", True), ("S5 S5 S5 LJ LJ LJ", True),
     ("S5 S5 S5 S6 S6 S6", False)],
)  # fmt: skip
def test_titanic_examples_level_5_seed_000(cards, expect):
    """seed 000, 新增牌型 (three decks, playing 5, ♠ trump): Titanics and a non-Titanic."""
    assert Context(THREE, "5", "S").is_tractor(cards) is expect


def test_titanic_examples_seed_003_and_no_trump():
    """seed 003: level 6, ♥555777 is a Titanic; seed 000: no-trump 555555 of two suits is not."""
    assert Context(THREE, "6", "S").is_tractor("H5 H5 H5 H7 H7 H7")
    assert not Context(THREE, "5", None).is_tractor("H5 H5 H5 C5 C5 C5")


def test_decompose_best_first():
    """semantics §3: longest structures first, a triple before a pair + single."""
    comps = L10S.decompose("HA HA HK HK H9 H9 H8 H4 H4")
    assert [(c.width, c.length, str(c.cards)) for c in comps] == [
        (2, 2, "HA HA HK HK"),
        (2, 1, "H9 H9"),
        (2, 1, "H4 H4"),
        (1, 1, "H8"),
    ]
    assert isinstance(comps[0], Component) and comps[0].shape == (2, 2)
    ctx3 = Context(THREE, "10", "S")
    assert [c.shape for c in ctx3.decompose("HA HA HA HK HK HK HQ HQ")] == [(3, 2), (2, 1)]
    assert [c.shape for c in ctx3.decompose("H7 H7 H7 H6")] == [(3, 1), (1, 1)]


# ------------------------------------------------------------------ following (§4, §5)


def test_pair_led_must_follow_pair_seed_000():
    """seed 000, 出牌規則: 首家出對牌時，其餘家有對牌必須出對牌 (包括拖拉機中的對牌)."""
    hand = Hand("HK HK HQ HQ H3 SA")
    assert L10S.check_follow("HA HA", hand, "HQ HQ") == FollowResult(True, "ok", "")
    bad = L10S.check_follow("HA HA", hand, "HK H3")
    assert not bad.ok and bad.reason == "must_follow_shape" and "pair" in bad.detail
    # no pair in the suit: any two hearts
    assert L10S.check_follow("HA HA", "HK HQ H3 SA", "HK H3").ok


def test_must_follow_suit_and_wrong_count():
    """seed 000: must follow the led suit as far as possible; as many cards as led."""
    res = L10S.check_follow("HA HA", "HK C3 C4 S5", "C3 C4")
    assert res.reason == "must_follow_suit"
    assert L10S.check_follow("HA HA", "HK C3 C4 S5", "HK C4").ok
    assert L10S.check_follow("HA HA", "HK HQ C4", "HK").reason == "wrong_count"


def test_tractor_led_tractor_else_pairs_seed_000():
    """seed 000: tractor led → a tractor if held; else as many pairs as possible."""
    lead = "HA HA HK HK"
    assert L10S.check_follow(lead, "HQ HQ HJ HJ H7 H7 H3", "HQ HQ HJ HJ").ok
    assert not L10S.check_follow(lead, "HQ HQ HJ HJ H7 H7 H3", "HQ HQ H7 H7").ok
    assert L10S.check_follow(lead, "HQ HQ H7 H7 H3 H2", "HQ HQ H7 H7").ok
    assert not L10S.check_follow(lead, "HQ HQ H7 H7 H3 H2", "HQ HQ H3 H2").ok
    assert L10S.check_follow(lead, "HQ HQ H8 H7 H3 H2", "HQ HQ H3 H2").ok


def test_held_triple_need_not_be_broken_seed_003():
    """seed 003 (four decks): pair led → pair > two singles; a held triple need not break."""
    rules = PlayRules(decks=4, tractors=False, throws=False, must_break_tuples=False)
    ctx = Context(rules, "10", "S")
    assert ctx.check_follow("HA HA", "HK HK HK H3 H2", "H3 H2").ok
    assert PlayRules(decks=4).must_break_tuples  # default: breaking required
    ctx_break = Context(PlayRules(decks=4, tractors=False, throws=False), "10", "S")
    assert not ctx_break.check_follow("HA HA", "HK HK HK H3 H2", "H3 H2").ok


def test_explicit_titanic_ladder_seed_001():
    """seed 001: Titanic > two triples > tractor + two singles > triple + pair + single ..."""
    rules = PlayRules.from_mapping(
        {"decks": 3, "following": {"titanic": [
            "titanic", "triple + triple", "tractor", "triple + pair", "triple",
            "pair + pair", "pair", "singles"]}}
    )  # fmt: skip
    ctx = Context(rules, "10", "S")
    lead = "HA HA HA HK HK HK"
    hand = "H9 H9 H8 H8 H6 H6 H6 H3 H3 H2"
    # tractor + two singles ranks above triple + pair + single in 001's order
    assert ctx.check_follow(lead, hand, "H9 H9 H8 H8 H6 H2").ok
    assert not ctx.check_follow(lead, hand, "H6 H6 H6 H3 H3 H2").ok


def test_legal_follows_counts_and_limit():
    """semantics §5 on seed 000's pair rule: the legal follows are exactly the pairs."""
    res = L10S.legal_follows("HA HA", "HK HK HQ HQ H3 SA")
    assert set(res.plays) == {Hand("HK HK"), Hand("HQ HQ")} and res.total == 2
    # out of the suit: every two-card choice of the rest is legal
    res = L10S.legal_follows("HA HA", "C3 C4 D5 D6")
    assert res.total == 6 and len(res.plays) == 6
    res = L10S.legal_follows("HA HA", "C3 C4 D5 D6", limit=2)
    assert res.total == 6 and len(res.plays) == 2
    for play in L10S.legal_follows("HA HA HK HK", "HQ HQ H7 H7 H3 H2 SA").plays:
        assert L10S.check_follow("HA HA HK HK", "HQ HQ H7 H7 H3 H2 SA", play).ok


# ------------------------------------------------------------------ throws (§6)


def test_throw_98844_seed_000():
    """seed 000, 出牌規則: 98844 fails to the 9 when someone holds the J, to 44 on QQ or 55."""
    lead = "H9 H8 H8 H4 H4"
    assert L10S.check_throw(lead, ["H3 H2", "C5", "H7 H6"]).valid
    res = L10S.check_throw(lead, ["H3", "HJ C2", "H7"])
    assert not res.valid and res.forced == Hand("H9") and res.blocker == 1
    # QQ beats the 9 (as a single Q), the 88 and the 44: the lowest beaten part is forced
    res = L10S.check_throw(lead, ["HQ HQ", "H3", "H2"])
    assert res.forced == Hand("H4 H4") and res.blocker == 0
    res = L10S.check_throw(lead, ["H3", "H2", "H5 H5"])
    assert res.forced == Hand("H4 H4") and res.blocker == 2


def test_throw_trumps_never_block_seed_000():
    """semantics §6: ruffing never blocks a throw."""
    assert L10S.check_throw("HA HK", ["BJ BJ S10", "", ""]).valid


def test_failed_throw_next_player_chooses_seed_002():
    """seed 002: trying Q44, a higher single only → Q; a higher pair only → 44; both →
    the next player chooses Q or 44 (lowest top first)."""
    ctx = Context(PlayRules(decks=2, failed_throw="next_player_chooses"), "10", "S")
    lead = "HQ H4 H4"
    assert ctx.check_throw(lead, ["HK", "H2", "H3"]).forced_options == [Hand("HQ")]
    assert ctx.check_throw(lead, ["H2", "H5 H5", "H3"]).forced_options == [Hand("H4 H4")]
    res = ctx.check_throw(lead, ["HK", "H5 H5", "H2"])
    assert not res.valid
    assert res.forced_options == [Hand("H4 H4"), Hand("HQ")] and res.forced == Hand("H4 H4")
    assert res.blocker == 1
    smallest = L10S.check_throw(lead, ["HK", "H5 H5", "H2"])
    assert smallest.forced_options == [Hand("H4 H4")]


# ------------------------------------------------------------------ trick winner (§7)


def test_ruff_needs_the_lead_shape_seed_000():
    """seed 000: 主牌 998872 可斃副牌 AK5544, 但不能斃副牌 AA5544."""
    ruff = "S9 S9 S8 S8 S7 S2"
    assert (
        L10S.trick_winner(["HA HK H5 H5 H4 H4", ruff, "C2 C3 C4 C5 C6 C7", "H2 H3 H6 H7 H9 HJ"])
        == 1
    )
    assert (
        L10S.trick_winner(["HA HA H5 H5 H4 H4", ruff, "C2 C3 C4 C5 C6 C7", "H2 H3 H6 H7 H9 HJ"])
        == 0
    )


def test_over_ruff_977_884_seed_000():
    """seed 000: 主牌977可斃副牌544, 主牌884可蓋斃; 977斃567, 884不能蓋斃."""
    assert L10S.trick_winner(["H5 H4 H4", "S9 S7 S7", "S8 S8 S4", "H3 H2 H2"]) == 2
    assert L10S.trick_winner(["H5 H6 H7", "S9 S7 S7", "S8 S8 S4", "H3 H2 HA"]) == 1


def test_trick_winner_single_component_and_any_number_of_plays():
    """seed 000, 出牌規則: the highest matching play wins, ties go to the earlier play."""
    assert L10S.trick_winner(["HK HK", "HA HA", "HQ HQ"]) == 1
    assert L10S.trick_winner(["H10 H10", "C10 C10", "S10 S10", "D10 D10", "HA HA"]) == 2
    assert L10S.trick_winner(["HK HK", "HA HQ", "SA SA", "S3 S3", "BJ BJ"]) == 4
    assert L10S.trick_winner(["HK HK", "SA S3"]) == 0  # not a pair: a discard


# ------------------------------------------------------------------ kitty (§8)


def test_kitty_exponential_seed_000():
    """seed 000, 摳底: 444555 → 64, 4455 → 16, a pair → 4, AKQJ1098 77 → 4."""
    ctx3 = Context(THREE, "10", "S")
    assert ctx3.kitty_multiplier("H4 H4 H4 H5 H5 H5") == 64
    assert L10S.kitty_multiplier("H4 H4 H5 H5") == 16
    assert L10S.kitty_multiplier("H4 H4") == 4
    assert L10S.kitty_multiplier("H4") == 2
    ctx2 = Context(TWO, "2", "S")
    throw = "HA HK HQ HJ H10 H9 H8 H7 H7"
    assert ctx2.kitty_multiplier(throw) == 4
    assert ctx2.kitty_multiplier("S9 S9 S8 S8 S7 S3", lead="HA HA HK HK HQ H3") == 16


def test_kitty_other_policies_seeds_003_004():
    """seed 004: tractor of pairs 8 (each further pair doubles); seed 003 table and power."""
    power = Context(PlayRules(decks=3, kitty="power"), "10", "S")
    assert power.kitty_multiplier("H4 H4 H5 H5") == 8
    assert power.kitty_multiplier("H4 H4 H5 H5 H6 H6") == 16
    assert power.kitty_multiplier("H4 H4 H4 H5 H5 H5") == 18
    assert power.kitty_multiplier("H4 H4 H4") == 6
    table = Context(PlayRules(decks=4, kitty="table"), "10", "S")
    assert table.kitty_multiplier("H4 H4 H4 H4") == 8
    assert table.kitty_multiplier("H4 H4 H4 H5 H5 H5") == 16
    assert Context(PlayRules(kitty="twice_size"), "10", "S").kitty_multiplier("H4 H4") == 4


def test_follow_protection_quad_draws_a_tractor_shengji_io():
    """shengji.io TrickDrawPolicy: a led quad's decomposition [4] > [3,1] > [2,2] >
    [2],[2] asks for adjacent pairs unless only tractors draw tractors (generated ladders;
    the four-deck variant's explicit quad ladder, seed 003, has no tractor)."""
    lead, hand = "H3 H3 H3 H3", "H6 H6 H5 H5 H9 H9 HK"
    for protection, apart_ok in [("none", False), ("longer_tuples", False),
                                 ("tractor_on_tractor", True), ("both", True),
                                 ("suit_only", True)]:
        ctx = Context(PlayRules(decks=4, follow_protection=protection), "10", "S")
        assert ctx.check_follow(lead, hand, "H5 H5 H9 H9").ok is apart_ok, protection
        assert ctx.check_follow(lead, hand, "H5 H5 H6 H6").ok
        # the triple still comes first (seed 003: 没有四张牌时跟三张牌加一单张)
        with_triple = "H6 H6 H5 H5 H9 H9 H9 HK"
        assert ctx.check_follow(lead, with_triple, "H5 H5 H6 H6").ok is (protection
                                                                         == "suit_only")


def test_must_break_tuples_is_an_alias_of_follow_protection():
    assert PlayRules(must_break_tuples=False) == PlayRules(follow_protection="longer_tuples")
    assert PlayRules(must_break_tuples=True) == PlayRules()
    assert PlayRules(follow_protection="both").must_break_tuples is False
    with pytest.raises(RulesError, match="contradicts"):
        PlayRules(must_break_tuples=False, follow_protection="none")


def test_shorter_tractors_ladder_seed_000_and_002():
    """有拖拉機必須出拖拉機 (seeds 000/001/004) against seed 002's 三連對 > 三對 > 兩對."""
    literal = PlayRules(decks=2).ladder_for((2, 3))
    assert literal == (((2, 3),), ((2, 2), (2, 1)), ((2, 1),) * 3, ((2, 2),), ((2, 1),) * 2,
                       ((2, 1),), ())
    seed002 = PlayRules(decks=2, shorter_tractors=False).ladder_for((2, 3))
    assert seed002 == (((2, 3),), ((2, 1),) * 3, ((2, 1),) * 2, ((2, 1),), ())
    four = PlayRules(decks=2).ladder_for((2, 4))
    # two tractors before one tractor and two pairs (shengji.io: fewer groups first)
    assert four[:4] == (((2, 4),), ((2, 3), (2, 1)), ((2, 2), (2, 2)), ((2, 2), (2, 1), (2, 1)))


def test_short_packs_keep_the_order_and_adjacency():
    """shengji.io deck.rs: a short pack keeps the ranks from `min` up; the lowest ranks go,
    so no kept rank loses a neighbour (semantics §1)."""
    copies = [2] * 54
    for s in range(4):
        for r in range(3):  # 2, 3, 4 gone from both packs
            copies[s * 13 + r] = 0
    short = Context(PlayRules(decks=2, copies=copies), "10", "S")
    full = Context(PlayRules(decks=2), "10", "S")
    assert short.is_tractor("H5 H5 H6 H6")
    for k in range(54):
        assert short.strength(k) == full.strength(k)
    with pytest.raises(HandError, match="the packs hold only 0"):
        short.decompose("H4")


def test_no_trump_level_has_no_level_cards():
    """Level 13 (NT, shengji.io's no-trump rank above A): every rank keeps its suit, so
    only the jokers (and constant ranks) are trumps besides a trump suit (issue 10)."""
    from shengji.cards import parse_card

    ctx = Context(PlayRules(), "NT", None)
    assert ctx.effective_suit(parse_card("H2")) == parse_card("H2") // 13
    assert ctx.compare(parse_card("HA"), parse_card("HK")) == "higher"
    assert ctx.effective_suit(parse_card("BJ")) == 4
    assert ctx.is_tractor("HA HA HK HK") and ctx.is_tractor("LJ LJ BJ BJ")
    spades = Context(PlayRules(), 13, "S")
    assert spades.effective_suit(parse_card("SA")) == 4
    assert spades.is_tractor("SA SA LJ LJ")  # the top of the trump suit meets the jokers
