"""Bad input to shengji.core → typed ShengjiError subclasses naming card and rule (§9),
and the C entry points reject bad buffers with error codes instead of crashing."""

import random

import pytest

from shengji import core
from shengji.core import Context, Hand
from shengji.errors import CardError, HandError, RulesError, ShengjiError
from shengji.rules import PlayRules

CTX = Context(PlayRules(decks=2), "10", "S")


@pytest.mark.parametrize("token", ["HX", "Z5", "H1", "H", "10", "SS"])
def test_malformed_tokens(token):
    """CONFORMANCE.md card notation: malformed tokens are input errors."""
    with pytest.raises(CardError, match="malformed|unknown"):
        Hand(token)
    with pytest.raises(CardError):
        CTX.is_tractor(token)


def test_too_many_copies_names_card_and_decks():
    with pytest.raises(HandError, match="3 copies of HA but 2 deck"):
        Hand("HA HA HA", decks=2)
    # the core checks counts against the context's decks
    with pytest.raises(HandError, match="lead: 3 copies of HA but 2 deck\\(s\\) hold only 2"):
        CTX.decompose("HA HA HA")
    with pytest.raises(HandError, match="hand: 3 copies of HK"):
        CTX.check_follow("HA", "HK HK HK", "HK")
    with pytest.raises(HandError, match="11 copies of HA but at most 10 decks"):
        Hand("HA " * 11)  # MAX_DECKS: ten packs
    assert max(Hand("HA " * 10).counts) == 10


def test_play_not_in_hand():
    with pytest.raises(HandError, match="play: HA is not in the hand"):
        CTX.check_follow("HK", "HQ HJ", "HA")
    with pytest.raises(HandError, match="not in the hand"):
        Hand("HA") - Hand("HK")


def test_empty_lead():
    with pytest.raises(HandError, match="empty lead"):
        CTX.decompose("")
    with pytest.raises(HandError, match="empty lead"):
        CTX.check_follow("", "HA", "")
    with pytest.raises(HandError, match="empty lead"):
        CTX.trick_winner(["", ""])


def test_mixed_suit_lead():
    with pytest.raises(HandError, match=r"lead: cards of two suits \((H and trump|trump and H)"):
        CTX.decompose("HA S3")
    with pytest.raises(HandError, match="two suits"):
        CTX.check_throw("HA CA", [])
    assert CTX.is_tractor("HA HA CA CA") is False  # a question, not an error


def test_mismatched_sizes():
    with pytest.raises(HandError, match=r"plays\[2\]: 1 cards but the lead has 2"):
        CTX.trick_winner(["HA HA", "HK HK", "HQ"])
    with pytest.raises(HandError, match="as many cards as the lead"):
        CTX.kitty_multiplier("HA", lead="HK HK")
    with pytest.raises(HandError, match="2..64 plays"):
        CTX.trick_winner(["HA"])


def test_bad_context_arguments():
    with pytest.raises(RulesError):
        Context(PlayRules(), 14, "S")  # 13 is the no-trump level (NT above A)
    with pytest.raises(CardError):
        Context(PlayRules(), "11", "S")
    with pytest.raises(CardError):
        Context(PlayRules(), "10", "X")
    with pytest.raises(RulesError):
        Context("two-deck", "10", "S")
    with pytest.raises(CardError):
        CTX.strength(54)
    with pytest.raises(HandError):
        Hand.from_counts([0] * 53)
    with pytest.raises(HandError):
        CTX.legal_follows("HA", "HK", limit=-1)


def test_c_entry_points_reject_bad_buffers():
    """semantics §9: the C core validates lengths, counts and kinds itself."""
    ffi, lib = core.ffi, core.lib
    r = CTX._r
    good = Hand("HA HA")._buf
    lead = ffi.new("sj_lead *")
    err = ffi.new("sj_err *")
    assert lib.sj_decompose(r, good, 53, lead, err) == lib.SJ_ERR_LENGTH
    assert lib.sj_decompose(r, ffi.NULL, 54, lead, err) == lib.SJ_ERR_LENGTH
    bad = ffi.new("uint8_t[54]", [255] * 54)
    assert lib.sj_decompose(r, bad, 54, lead, err) == lib.SJ_ERR_COPIES
    assert err.card == 0 and err.count == 255
    assert lib.sj_compare(r, -1, 60) == lib.SJ_ERR_KIND
    assert lib.sj_trick_winner(r, good, 54, 2, err) == lib.SJ_ERR_ARG
    # a lead prepared by other rules is refused, as is an unprepared rules struct
    other = Context(PlayRules(decks=3), "10", "S")
    assert lib.sj_decompose(other._r, good, 54, lead, err) == 0
    assert lib.sj_check_follow(r, lead, good, 54, good, 54, ffi.NULL, err) == lib.SJ_ERR_CONTEXT
    blank = ffi.new("sj_rules *")
    assert lib.sj_decompose(blank, good, 54, lead, err) == lib.SJ_ERR_CONTEXT
    blank.decks = 9
    assert lib.sj_prepare(blank, err) == lib.SJ_ERR_RULES


def test_random_garbage_never_crashes():
    """Random counts (including too many copies) and mixed suits: a HandError whenever a
    group holds more copies than the decks, or a lead is empty or of several suits (§9);
    or the plays of a trick differ in size; otherwise an answer or a ShengjiError, never
    another exception."""
    rng = random.Random(20240601)
    ctxs = [Context(PlayRules(decks=d), rng.randrange(13), rng.choice([None, 0, 1, 2, 3]))
            for d in (1, 2, 3, 4)]  # fmt: skip
    due = 0
    for _ in range(400):
        ctx = rng.choice(ctxs)
        groups = [
            Hand.from_counts([rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(54)])
            for _ in range(3)
        ]
        a, b, c = groups
        name, op, args = rng.choice([
            ("decompose", ctx.decompose, (a,)), ("is_tractor", ctx.is_tractor, (a,)),
            ("check_follow", ctx.check_follow, (a, b, c)),
            ("check_throw", ctx.check_throw, (a, [b, c])),
            ("trick_winner", ctx.trick_winner, (groups,)),
            ("kitty_multiplier", ctx.kitty_multiplier, (a,)),
            ("legal_follows", ctx.legal_follows, (a, b, 5)),
        ])  # fmt: skip
        used = [g for g in args if isinstance(g, Hand)] + [g for x in args
                                                         if isinstance(x, list) for g in x]
        decks = ctx.rules.decks
        too_many = any(n > decks for g in used for n in g.counts)
        suits = {ctx.effective_suit(k) for k in range(54) if a.counts[k]}
        bad_lead = len(suits) != 1 and name in ("decompose", "kitty_multiplier")
        sizes = name == "trick_winner" and len({len(g) for g in groups}) > 1
        if too_many or bad_lead or sizes:
            due += 1
            with pytest.raises(HandError):
                op(*args)
            continue
        try:
            op(*args)
        except ShengjiError:
            pass
    assert due > 100  # most draws hold too many copies: the error branch is exercised


@pytest.mark.parametrize(
    "following",
    [
        [("pair",)], {"pair": "pair"}, {"pair": 3}, {"bogus": ["pair"]},
        [((11, 1), ["pair"])], [(("x", 1), ["pair"])],
    ],
)
def test_malformed_following_ladders_are_rules_errors(following):
    """A fuzz finding: PlayRules(following=...) must reject bad ladders with RulesError."""
    with pytest.raises(RulesError):
        PlayRules(following=following)


def test_following_may_be_a_mapping():
    rules = PlayRules(decks=3, following={"titanic": ["titanic", "triple + triple"]})
    assert rules.ladder_for((3, 2)) == (((3, 2),), ((3, 1), (3, 1)))


# --- PlayRules validates every field's type (issue 12): RulesError naming the field ----


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"max_tuple": "2"}, "max_tuple"),
        ({"max_tuple": 2.0}, "max_tuple"),
        ({"kitty_cap": None}, "kitty_cap"),
        ({"kitty_cap": True}, "kitty_cap"),
        ({"throws": "no"}, "throws"),
        ({"tractors": 1}, "tractors"),
        ({"must_break_tuples": "no"}, "must_break_tuples"),
        ({"follow_protection": "some"}, "follow_protection"),
        ({"shorter_tractors": None}, "shorter_tractors"),
        ({"copies": (2,) * 53}, "copies"),
        ({"copies": (3,) * 54}, "copies"),
        ({"tractor_bridges_level_gap": "yes"}, "tractor_bridges_level_gap"),
        ({"decks": True}, "decks"),
        ({"decks": "2"}, "decks"),
        ({"decks": 11}, "decks"),
        ({"tractor_min_length": 2.5}, "tractor_min_length"),
        ({"tractor_min_width": None}, "tractor_min_width"),
        ({"constant_ranks": "2"}, "constant_ranks"),
        ({"constant_ranks": 0}, "constant_ranks"),
        ({"constant_ranks": (True,)}, "constant_ranks"),
        ({"ruff_compare": ["strongest"]}, "ruff_compare"),
        ({"failed_throw": None}, "failed_throw"),
        ({"kitty": 3}, "kitty"),
        ({"kitty_table": (2, 4, 6, 8, 8, "16")}, "kitty_table.titanic"),
        ({"kitty_table": 5}, "kitty_table"),
        ({"following": 7}, "following"),
        ({"following": [((2, 1), [((2, -1),)])]}, "shape"),
        ({"following": [((2, 1), [((2, 10**30),)])]}, "shape"),
        ({"following": [((2, 1), [None])]}, "pattern"),
    ],
)
def test_play_rules_type_errors_name_the_field(kwargs, field):
    with pytest.raises(RulesError) as e:
        PlayRules(**kwargs)
    assert field in str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("data", [{"max_tuple": "2"}, {"constant_ranks": 2},
                                  {"constant_ranks": ["Z"]}, {"kitty_table": {"pear": 3}},
                                  {"bogus": 1}, ["decks", 2]])
def test_play_rules_from_mapping_errors(data):
    with pytest.raises(RulesError):
        PlayRules.from_mapping(data)


def test_play_rules_limits_match_the_c_struct():
    from shengji._core import lib

    from shengji import rules

    assert rules.MAX_LADDERS == lib.SJ_MAX_LADDERS
    assert rules.MAX_LADDER_PATTERNS == lib.SJ_LADDER_PATS
    assert rules.MAX_PATTERN_SHAPES == lib.SJ_PAT_SHAPES


def test_play_rules_reject_what_the_c_struct_cannot_hold():
    # 17 ladders (explicit shapes 2x2 .. 2x18)
    ladders = {f"2x{n}": ["pair", "singles"] for n in range(2, 19)}
    with pytest.raises(RulesError, match="17 ladders, the core holds at most 16"):
        PlayRules(decks=2, following=ladders)
    with pytest.raises(RulesError, match="25 patterns"):
        PlayRules(decks=2, following={"2x24": ["pair"] * 25})
    with pytest.raises(RulesError, match="91 structures"):  # SJ_PAT_SHAPES: 90
        PlayRules(decks=10, following={"10x24": [" + ".join(["pair"] * 91)]})


@pytest.mark.parametrize(
    "decks, following, words",
    [
        (2, {"pair": ["triple", "singles"]}, ["asks 3 cards", "pair has 2"]),  # issue 12
        (2, {"tractor": ["triple", "singles"]}, ["no hand can supply", "max_tuple is 2"]),
        (3, {"tractor": ["triple", "singles"]}, []),  # fine with triples
        (4, {"quad": ["tractor", "singles"]}, []),
        (4, {"quad": ["tractor"]}, []),
        (2, {"tractor": ["pair + pair + pair"]}, ["asks 6 cards"]),
        (3, {"titanic": ["2x3", "singles"]}, []),  # fine: a 6-card tractor of pairs
    ],
)
def test_following_ladders_no_hand_can_supply(decks, following, words):
    if not words:
        if decks == 4 and "quad" in following:
            with pytest.raises(RulesError, match="tractors: false"):
                PlayRules(decks=4, tractors=False, following=following)
        PlayRules(decks=decks, following=following)
        return
    with pytest.raises(RulesError) as e:
        PlayRules(decks=decks, following=following)
    for w in words:
        assert w in str(e.value)


def test_ladder_for_a_shape_the_rules_never_have_is_unused_not_an_error():
    # a house file lowering max_tuple under four-deck keeps its (now unused) quad ladder
    rules = PlayRules(decks=4, max_tuple=3, following={"quad": ["quad", "triple", "singles"]})
    assert not rules.shape_exists((4, 1))


# --- legal_follows stays within its budget (issue 12) --------------------------------


def test_legal_follows_budget_path_every_rank_constant():
    """Every rank constant, two seats of 4 packs: a hand of 147 trumps against big throws.
    Counting every follow would take minutes; the core stops at its documented budget
    (docs/semantics.md §5) and still answers: legal plays, at least one, exact False."""
    import random

    from shengji.core import Context, Hand

    ctx = Context(PlayRules(decks=4, constant_ranks=tuple(range(13))), "2", "S")
    rng = random.Random(1)
    deck = [k for k in range(54) for _ in range(4)]
    budget_hit = 0
    for _ in range(2):
        rng.shuffle(deck)
        hand = Hand(deck[:147])
        for n in (12, 40, 69):
            lead = Hand(deck[147 : 147 + n])
            res = ctx.legal_follows(lead, hand, limit=20)
            assert 1 <= len(res.plays) <= 20 and res.total >= len(res.plays)
            assert all(ctx.check_follow(lead, hand, p).ok for p in res.plays)
            budget_hit += not res.exact
    assert budget_hit >= 4
    # small cases stay exact
    res = ctx.legal_follows(Hand(deck[147:150]), Hand(deck[:12]))
    assert res.exact and res.total == len(res.plays)
