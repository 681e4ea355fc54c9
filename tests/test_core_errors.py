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
    with pytest.raises(HandError, match="5 copies"):
        Hand("HA " * 5)


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
        Context(PlayRules(), 13, "S")
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
    """Random counts (including too many copies) and mixed suits: only ShengjiErrors."""
    rng = random.Random(20240601)
    ctxs = [Context(PlayRules(decks=d), rng.randrange(13), rng.choice([None, 0, 1, 2, 3]))
            for d in (1, 2, 3, 4)]  # fmt: skip
    for _ in range(400):
        ctx = rng.choice(ctxs)
        groups = [
            Hand.from_counts([rng.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(54)])
            for _ in range(3)
        ]
        a, b, c = groups
        op, args = rng.choice([
            (ctx.decompose, (a,)), (ctx.is_tractor, (a,)), (ctx.check_follow, (a, b, c)),
            (ctx.check_throw, (a, [b, c])), (ctx.trick_winner, (groups,)),
            (ctx.kitty_multiplier, (a,)), (ctx.legal_follows, (a, b, 5)),
        ])  # fmt: skip
        try:
            op(*args)
        except ShengjiError:
            pass


@pytest.mark.parametrize(
    "following",
    [
        [("pair",)], {"pair": "pair"}, {"pair": 3}, {"bogus": ["pair"]},
        [((9, 1), ["pair"])], [(("x", 1), ["pair"])],
    ],
)
def test_malformed_following_ladders_are_rules_errors(following):
    """A fuzz finding: PlayRules(following=...) must reject bad ladders with RulesError."""
    with pytest.raises(RulesError):
        PlayRules(following=following)


def test_following_may_be_a_mapping():
    rules = PlayRules(decks=3, following={"titanic": ["titanic", "triple + triple"]})
    assert rules.ladder_for((3, 2)) == (((3, 2),), ((3, 1), (3, 1)))
