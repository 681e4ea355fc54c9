"""Differential tests of the play knobs issue 35 added (house rules of real tables), the C
core against the oracle with each knob forced on: ``throw_following: tuples`` (上海 80分:
a throw holding a tractor asks only for pairs), ``ruff_compare: cover_winner`` (Ran's
table: a later ruff must hold the winner's own shapes), ``failed_throw: fewest_cards``
(上海 80分) and ``kitty_throw: whole`` (ejfn/Tractor, 上海 80分). tests/strategies.py draws
the same knobs for every other differential test; here the positions are built so that
each knob decides. ``--long``: more examples.
"""

from __future__ import annotations

import dataclasses

import pytest
from diffcheck import H, same_follow_verdicts, same_legal_follows, same_throw_check, show
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from oracle import OracleContext
from oracle.structures import structure_counts, structures
from strategies import (
    contexts,
    effective_suits,
    filled,
    full,
    grouping_follow_case,
    kinds_by_strength,
    leads,
    minus,
    other_holdings,
    ruffed_throw,
    shaped_group,
    structure,
    suited_group,
)

from shengji.cards import NUM_KINDS
from shengji.core import Context

FAST = settings(max_examples=20, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DEEP = settings(max_examples=400, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _forced(data, decks, **knobs):
    """(C context, oracle) for drawn rules with ``knobs`` set."""
    rules, level, trump, _ = data.draw(contexts(decks))
    if knobs.get("kitty_throw") == "whole" and rules.kitty == "table":
        knobs["kitty"] = data.draw(st.sampled_from(["exponential", "power", "twice_size"]))
    rules = dataclasses.replace(rules, **knobs)
    note(f"rules={rules!r} level={level} trump={trump}")
    return Context(rules, level, trump), OracleContext(rules, level, trump)


def _add(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


@st.composite
def tractor_throw_case(draw, octx):
    """(lead, hand): a throw of a tractor and another structure of one suit, and a hand of
    that suit rich in pairs and short tractors, so what the tractor asks decides."""
    suit = draw(st.sampled_from(effective_suits(octx)))
    avail = full(octx)
    found = list(structures(octx, avail, 2, draw(st.integers(2, 3)), suit=suit))
    if not found or octx.rules.max_tuple < 2:
        return None
    lead = structure_counts(draw(st.sampled_from(found)))
    part = draw(structure(octx, suit, minus(avail, lead), 3))
    lead = _add(lead, part)
    if sum(part) == 0:
        top = [k for k in kinds_by_strength(octx, suit) if avail[k] - lead[k]]
        if not top:
            return None
        lead = _add(lead, tuple(1 if k == top[-1] else 0 for k in range(NUM_KINDS)))
    avail = minus(avail, lead)
    hand = tuple([0] * NUM_KINDS)
    for _ in range(draw(st.integers(2, 4))):
        hand = _add(hand, draw(structure(octx, suit, minus(avail, hand), 4)))
    hand = _add(hand, draw(suited_group(octx, suit, draw(st.integers(0, 3)),
                                        minus(avail, hand))))
    return lead, hand


def _tractor_throw(data, cctx, octx):
    case = data.draw(tractor_throw_case(octx))
    if case is None:
        return
    lead, hand = case
    note(f"lead={show(lead)} hand={show(hand)}")
    if sum(hand) < sum(lead):
        return
    same_legal_follows(cctx, octx, lead, hand)
    same_follow_verdicts(data, cctx, octx, lead, hand)


@pytest.mark.parametrize("decks", [2, 3, 4])
@given(data=st.data())
@FAST
def test_throw_following_tuples(decks, data):
    """§4: under throw_following tuples no component of a throw asks for a tractor (the
    led tractor, the groupings and explicit patterns holding one are left out)."""
    cctx, octx = _forced(data, decks, throw_following="tuples", follow_requirements="seeds")
    _tractor_throw(data, cctx, octx)


@pytest.mark.parametrize("decks", [2, 3, 4])
@given(data=st.data())
@FAST
def test_throw_following_tuples_keeps_a_lone_tractor(decks, data):
    """§4: a lead of one tractor is no throw: under throw_following tuples it still asks
    for a tractor (and the groupings), as the default does."""
    cctx, octx = _forced(data, decks, throw_following="tuples", follow_requirements="seeds")
    lead, hand = data.draw(grouping_follow_case(octx))
    note(f"lead={show(lead)} hand={show(hand)}")
    if sum(hand) < sum(lead):
        return
    same_legal_follows(cctx, octx, lead, hand)


@st.composite
def covering_ruffs(draw, octx, decks):
    """A plain-suit throw and two or three trump plays of its size: the lead's shapes, or
    one wide structure (a tractor or a tuple) filled up with trumps, so that a ruff holding
    the winner's shapes and a larger structure is common."""
    plays = draw(ruffed_throw(octx, decks))
    n = sum(plays[0])
    avail = full(octx)
    for p in plays:
        avail = minus(avail, p)
    for i in range(1, len(plays)):
        if draw(st.booleans()):
            continue
        avail = _add(avail, plays[i])
        wide = draw(structure(octx, 4, avail, n))
        if sum(wide) > n:  # a tuple wider than the lead
            wide = tuple([0] * NUM_KINDS)
        p = draw(filled(octx, wide, minus(avail, wide), n, prefer=4))
        avail = minus(avail, p)
        plays[i] = p
    return plays


@pytest.mark.parametrize("decks", [2, 3, 4])
@given(data=st.data())
@FAST
def test_ruff_compare_cover_winner(decks, data):
    """§7 cover_winner: ruff against ruff by the winner's own shapes, then the larger,
    higher largest structure."""
    cctx, octx = _forced(data, decks, ruff_compare="cover_winner")
    plays = data.draw(covering_ruffs(octx, decks))
    note(f"plays={[show(p) for p in plays]}")
    assert cctx.trick_winner([H(p) for p in plays]) == octx.trick_winner(plays)


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
@given(data=st.data())
@FAST
def test_failed_throw_fewest_cards(decks, data):
    """§6 fewest_cards: of the beaten parts, the fewest cards, then the lowest."""
    cctx, octx = _forced(data, decks, failed_throw="fewest_cards")
    suit, lead = data.draw(leads(octx, max_size=7, modes=("throw",)))
    same_throw_check(cctx, octx, lead, data.draw(other_holdings(octx, suit, lead)))


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
@given(data=st.data())
@FAST
def test_kitty_throw_whole(decks, data):
    """§8 kitty_throw whole: the policy's formula over every component of the last lead
    (of the winning play, and of the play alone)."""
    cctx, octx = _forced(data, decks, kitty_throw="whole")
    plays = data.draw(ruffed_throw(octx, decks)) if decks > 1 else [
        data.draw(leads(octx, max_size=5))[1]]
    note(f"plays={[show(p) for p in plays]}")
    lead = plays[0]
    assert cctx.kitty_multiplier(H(lead)) == octx.kitty_multiplier(lead)
    win = octx.trick_winner(plays) if len(plays) > 1 else 0
    assert cctx.kitty_multiplier(H(plays[win]), H(lead)) == octx.kitty_multiplier(
        plays[win], lead)


@pytest.mark.long
@pytest.mark.parametrize("decks", [2, 3, 4])
@given(data=st.data())
@DEEP
def test_house_knobs_deep(decks, data):
    """The four knobs together, more examples (--long)."""
    cctx, octx = _forced(data, decks, throw_following="tuples", follow_requirements="seeds",
                         ruff_compare="cover_winner", failed_throw="fewest_cards",
                         kitty_throw="whole")
    _tractor_throw(data, cctx, octx)
    plays = data.draw(covering_ruffs(octx, decks))
    note(f"plays={[show(p) for p in plays]}")
    win = octx.trick_winner(plays)
    assert cctx.trick_winner([H(p) for p in plays]) == win
    assert cctx.kitty_multiplier(H(plays[win]), H(plays[0])) == octx.kitty_multiplier(
        plays[win], plays[0])
    others = [data.draw(shaped_group(octx, octx.suit[next(k for k, c in enumerate(plays[0])
                                                         if c)],
                                     [c[:2] for c in octx.decompose(plays[0])],
                                     minus(full(octx), plays[0])))]
    same_throw_check(cctx, octx, plays[0], others)
