"""Differential tests of ``play.follow_requirements: shengji_io`` (docs/semantics.md §4):
the C core (core_c/sio_follow.c, hooked into follow.c) against the oracle's independent
reading of shengji.io's is_legal_play (tests/oracle/sio_follow.py), on leads where the
knob decides: Titanics, triple tractors and quads at three and four decks, two of them
thrown together, against hands of runs of mixed widths, under every follow_protection
and either decomposition. The legal follows are compared as sets (so the enumeration's
requirement sets and the single check agree), and check_follow on a few plays.
"""

from __future__ import annotations

import dataclasses

import pytest
from diffcheck import same_follow_verdicts, same_legal_follows, show
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from oracle import OracleContext
from strategies import (
    contexts,
    effective_suits,
    full,
    kinds_by_strength,
    minus,
    suited_group,
    tuple_run,
)
from tiers import depth

from shengji.cards import NUM_KINDS
from shengji.core import Context
from shengji.rules import FOLLOW_PROTECTIONS

# bounded by default, deeper under --long (tests/tiers.py)
pytestmark = pytest.mark.scaled
FAST = settings(
    max_examples=depth(20, 150, env="SHENGJI_DIFF_EXAMPLES"),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ZERO = tuple([0] * NUM_KINDS)


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


@st.composite
def wide_follow_case(draw, octx, decks):
    """(lead, hand): one or two runs of the widest tuples the rules have (a Titanic, a
    triple tractor, a quad; pairs and pair tractors below three decks), at most nine
    cards, and a hand of the led suit made of runs of every width from 1 to the deck
    count (so a pair next to a triple, a triple inside a longer tuple, ...), holding
    more of the suit than was led, sometimes with a few cards of other suits."""
    rules = octx.rules
    suit = draw(st.sampled_from(effective_suits(octx)))
    avail = full(octx)
    lead = ZERO
    top = rules.max_tuple
    for _ in range(draw(st.integers(1, 2))):
        w = draw(st.integers(max(1, min(2, top)), top))
        ln = draw(st.integers(1, 3)) if rules.tractors and w >= rules.tractor_min_width else 1
        if sum(lead) + w * ln > 9:
            ln = 1
        if sum(lead) + w * ln > 9:
            break
        lead = _add(lead, tuple_run(draw, octx, suit, minus(avail, lead), w, ln))
    if sum(lead) == 0:
        lead = draw(suited_group(octx, suit, 1, avail))
    avail = minus(avail, lead)
    hand = ZERO
    if draw(st.booleans()):  # kinds side by side, each of its own width
        kinds = [k for k in kinds_by_strength(octx, suit) if avail[k]]
        start = draw(st.integers(0, max(0, len(kinds) - 1)))
        for k in kinds[start:start + draw(st.integers(2, 5))]:
            v = draw(st.integers(0, avail[k]))
            hand = _add(hand, tuple(v if i == k else 0 for i in range(NUM_KINDS)))
    for _ in range(draw(st.integers(0, 3))):
        if sum(hand) >= sum(lead) + 5:
            break
        w = draw(st.integers(1, octx.rules.decks))
        ln = draw(st.integers(1, 3))
        hand = _add(hand, tuple_run(draw, octx, suit, minus(avail, hand), w, ln))
    in_suit = sum(hand)
    want = draw(st.integers(sum(lead) + 1, sum(lead) + 4))
    if in_suit < want:
        hand = _add(hand, draw(suited_group(octx, suit, want - in_suit, minus(avail, hand))))
    if draw(st.integers(0, 3)) == 0:
        others = [k for k in range(NUM_KINDS) if octx.suit[k] != suit]
        rest = tuple(minus(avail, hand)[k] if k in others else 0 for k in range(NUM_KINDS))
        extra = draw(st.integers(0, 3))
        pool = [k for k in range(NUM_KINDS) for _ in range(rest[k])]
        if len(pool) >= extra:
            picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=extra,
                                  max_size=extra, unique=True))
            for i in picks:
                hand = _add(hand, tuple(1 if k == pool[i] else 0 for k in range(NUM_KINDS)))
    return lead, hand


def _setup(data, decks):
    rules, level, trump, _ = data.draw(contexts(decks))
    rules = dataclasses.replace(
        rules, follow_requirements="shengji_io", must_break_tuples=None,
        follow_protection=data.draw(st.sampled_from(FOLLOW_PROTECTIONS)))
    note(f"rules={rules!r} level={level} trump={trump}")
    return Context(rules, level, trump), OracleContext(rules, level, trump)


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
@given(data=st.data())
@FAST
def test_follow_shengji_io(decks, data):
    """§4 under follow_requirements: shengji_io: every legal follow, and the verdict and
    reason of check_follow on a few plays, C against the oracle."""
    cctx, octx = _setup(data, decks)
    lead, hand = data.draw(wide_follow_case(octx, decks))
    note(f"lead={show(lead)} hand={show(hand)}")
    if sum(hand) < sum(lead):  # the packs ran short of the suit
        return
    same_legal_follows(cctx, octx, lead, hand)
    same_follow_verdicts(data, cctx, octx, lead, hand)
