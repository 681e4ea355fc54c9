"""Differential tests at five to ten packs: the C core against the pure-Python oracle
(tests/oracle) with five to ten copies of a card, where tuples of width 5..10 exist and
follow.c's plain packing search (five copies give 3+2, eight give 4+4, 5+3, 6+2 ...)
replaces the counting argument of one to four packs (docs/semantics.md §11).

Leads are drawn wide (a tuple or tractor of width 5..decks most of the time) and hands
are kept to about a dozen cards of the suit, so the oracle's brute force stays quick.
The default run draws a few examples per pack count; ``pytest --long`` (marker ``long``)
draws many more. SHENGJI_DIFF_EXAMPLES raises both.
"""

from __future__ import annotations

import os

import pytest
from diffcheck import H, same_follow_verdicts, same_legal_follows, same_throw_check, setup, show
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from strategies import (
    effective_suits,
    filled,
    full,
    holdings,
    kinds_by_strength,
    minus,
    shaped_group,
    suited_group,
    tuple_run,
)

from shengji.cards import NUM_KINDS
from shengji.core import Context, Hand

_EXTRA = os.environ.get("SHENGJI_DIFF_EXAMPLES")
QUICK = settings(max_examples=int(_EXTRA or 40), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LONG = settings(max_examples=int(_EXTRA or 300), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ZERO = tuple([0] * NUM_KINDS)


def add(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


@st.composite
def wide_structure(draw, octx, suit, avail, room):
    """A tuple or tractor of ``suit`` from ``avail`` in at most ``room`` cards, its width
    mostly 5..max_tuple (falls back to narrower ones, or nothing, when absent)."""
    rules = octx.rules
    top = min(rules.max_tuple, room)
    if top < 1:
        return ZERO
    wide = top >= 5 and draw(st.integers(0, 3)) > 0
    w = draw(st.integers(5, top)) if wide else draw(st.integers(1, top))
    ln = 1
    if (rules.tractors and w >= max(2, rules.tractor_min_width)
            and room // w >= max(2, rules.tractor_min_length) and draw(st.booleans())):
        ln = max(2, rules.tractor_min_length)
    return tuple_run(draw, octx, suit, avail, w, ln)


@st.composite
def wide_lead(draw, octx, max_size):
    suit = draw(st.sampled_from(effective_suits(octx)))
    avail = full(octx)
    lead = ZERO
    for _ in range(draw(st.sampled_from([1, 1, 1, 2]))):
        room = max_size - sum(lead)
        if room <= 0:
            break
        lead = add(lead, draw(wide_structure(octx, suit, minus(avail, lead), room)))
    if sum(lead) == 0:
        k = [k for k in kinds_by_strength(octx, suit) if avail[k]][-1]
        lead = tuple(1 if i == k else 0 for i in range(NUM_KINDS))
    return suit, lead


@st.composite
def wide_hand(draw, octx, suit, avail, in_suit, extra):
    """About ``in_suit`` cards of ``suit``, often in wide tuples, plus ``extra`` others."""
    a = ZERO
    while sum(a) < in_suit and draw(st.booleans()):
        a = add(a, draw(wide_structure(octx, suit, minus(avail, a), in_suit - sum(a))))
    a = add(a, draw(suited_group(octx, suit, in_suit - sum(a), minus(avail, a))))
    return add(a, draw(holdings(octx, suit, minus(avail, a), 0, extra)))


@st.composite
def wide_follow(draw, octx):
    suit, lead = draw(wide_lead(octx, max_size=min(10, octx.rules.decks + 2)))
    n = sum(lead)
    avail = minus(full(octx), lead)
    in_suit = draw(st.integers(n + 1, n + 4) | st.integers(0, n + 1))
    extra = draw(st.integers(max(0, n - in_suit), max(3, n - in_suit)))
    return lead, draw(wide_hand(octx, suit, avail, in_suit, extra))


@st.composite
def wide_trick(draw, octx):
    suit, lead = draw(wide_lead(octx, max_size=min(12, octx.rules.decks + 4)))
    n = sum(lead)
    avail = minus(full(octx), lead)
    plays = [lead]
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from([suit, 4]))
        if draw(st.booleans()):
            p = draw(shaped_group(octx, target, [c[:2] for c in octx.decompose(lead)], avail))
        else:
            p = draw(suited_group(octx, target, n, avail))
        p = draw(filled(octx, p, minus(avail, p), n))
        avail = minus(avail, p)
        plays.append(p)
    return plays


def check_decompose(data, decks):
    cctx, octx = setup(data, decks)
    for _ in range(4):
        _, lead = data.draw(wide_lead(octx, max_size=2 * decks))
        note(f"lead={show(lead)}")
        got = [(c.width, c.length, c.cards.counts) for c in cctx.decompose(H(lead))]
        assert got == octx.decompose(lead), show(lead)
        assert cctx.is_tractor(H(lead)) == octx.is_tractor(lead), show(lead)
        assert cctx.kitty_multiplier(H(lead)) == octx.kitty_multiplier(lead), show(lead)


def check_follow(data, decks):
    cctx, octx = setup(data, decks)
    lead, hand = data.draw(wide_follow(octx))
    note(f"lead={show(lead)} hand={show(hand)}")
    if sum(hand) < sum(lead):
        return
    same_legal_follows(cctx, octx, lead, hand)
    same_follow_verdicts(data, cctx, octx, lead, hand)


def check_throw(data, decks):
    cctx, octx = setup(data, decks)
    suit, lead = data.draw(wide_lead(octx, max_size=decks + 4))
    avail = minus(full(octx), lead)
    others = []
    for _ in range(3):
        h = data.draw(wide_hand(octx, suit, avail, data.draw(st.integers(0, decks + 1)), 2))
        avail = minus(avail, h)
        others.append(h)
    same_throw_check(cctx, octx, lead, others)


def check_trick(data, decks):
    cctx, octx = setup(data, decks)
    plays = data.draw(wide_trick(octx))
    note(f"plays={[show(p) for p in plays]}")
    want = octx.trick_winner(plays)
    assert cctx.trick_winner([H(p) for p in plays]) == want
    lead, win = plays[0], plays[want]
    assert cctx.kitty_multiplier(H(win), H(lead)) == octx.kitty_multiplier(win, lead)


CHECKS = [check_decompose, check_follow, check_throw, check_trick]


@pytest.mark.parametrize("decks", [5, 10])
@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__)
@given(data=st.data())
@QUICK
def test_packs(check, decks, data):
    check(data, decks)


@pytest.mark.long
@pytest.mark.parametrize("decks", [5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("check", CHECKS, ids=lambda f: f.__name__)
@given(data=st.data())
@LONG
def test_packs_long(check, decks, data):
    check(data, decks)


def _counts(text):
    return Hand(text).counts


@pytest.mark.parametrize("lead, hand, want", [
    # a sextuple led: six of the eight nines, nothing else
    ("H5 " * 6, "H9 " * 8 + "HK", ["H9 " * 6]),
    # two quads thrown: eight copies give 4 + 4 (the counting argument stops at four)
    ("H5 " * 4 + "H3 " * 4, "H9 " * 8 + "HK", ["H9 " * 8]),
    # a quintuple and a triple thrown: the quintuple out of the six nines, then the
    # triple out of the three eights (one nine is left, too few)
    ("H5 " * 5 + "H3 " * 3, "H9 " * 6 + "H8 " * 3 + "HK", ["H9 " * 5 + "H8 " * 3]),
    # a pair tractor led, the hand's only tractor cut from two sextuples
    ("H6 H6 H5 H5", "HQ " * 6 + "HJ " * 6, ["HQ HQ HJ HJ"]),
])
def test_wide_follows_by_hand(lead, hand, want):
    """Legal follows worked out by hand at eight packs (docs/semantics.md §4 with wider
    tuples): the oracle and the C core each give exactly these."""
    from oracle import OracleContext

    from shengji.rules import PlayRules

    rules = PlayRules(decks=8, throws=True)
    want_set = {_counts(w) for w in want}
    octx = OracleContext(rules, 0, 0)  # level 2, spades trump: hearts plain
    assert octx.legal_follows(_counts(lead), _counts(hand)) == want_set
    got = Context(rules, 0, 0).legal_follows(H(_counts(lead)), H(_counts(hand)), limit=100)
    assert {p.counts for p in got.plays} == want_set
