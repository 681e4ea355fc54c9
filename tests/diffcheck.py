"""What the differential tests (the C core against the oracle, tests/test_differential*.py)
share: how a drawn context is set up on both sides, how counts are shown, and the legal
follows compared as sets."""

from __future__ import annotations

from hypothesis import note
from hypothesis import strategies as st
from oracle.follow import sub_multisets
from strategies import contexts

from shengji.cards import format_counts
from shengji.core import Context, Hand


def H(counts):
    return Hand.from_counts(counts)


def show(counts):
    return format_counts(counts) or "(none)"


def setup(data, decks):
    """(C context, oracle context) for one drawn rule set, level and trump."""
    rules, level, trump, octx = data.draw(contexts(decks))
    note(f"rules={rules!r} level={level} trump={trump}")
    return Context(rules, level, trump), octx


def same_legal_follows(cctx, octx, lead, hand):
    """The C core lists exactly the oracle's legal follows (and counts them); returns
    that set."""
    want = octx.legal_follows(lead, hand)
    got = cctx.legal_follows(H(lead), H(hand), limit=100_000)
    got_set = {p.counts for p in got.plays}
    assert got.total == len(got.plays)
    assert got_set == want, (
        "C only: " + "; ".join(show(p) for p in got_set - want),
        "oracle only: " + "; ".join(show(p) for p in want - got_set),
    )
    return want


def same_follow_verdicts(data, cctx, octx, lead, hand, most: int = 6):
    """check_follow's verdict and reason agree on up to `most` drawn plays of the
    lead's size from the hand."""
    plays = list(sub_multisets(hand, sum(lead)))
    for i in data.draw(st.lists(st.integers(0, len(plays) - 1), max_size=most)):
        p = plays[i]
        r = cctx.check_follow(H(lead), H(hand), H(p))
        assert (r.ok, r.reason) == octx.check_follow(lead, hand, p), show(p)


def same_throw_check(cctx, octx, lead, others):
    """The C core judges a throw as the oracle does: validity, the forced play, the
    blocker and every option (under `smallest` the one forced play is the only one)."""
    note(f"lead={show(lead)} others={[show(h) for h in others]}")
    valid, forced, options, blocker = octx.check_throw(lead, others)
    r = cctx.check_throw(H(lead), [H(h) for h in others])
    assert r.valid == valid
    assert (r.forced.counts if r.forced is not None else None) == forced
    assert r.blocker == blocker
    assert [o.counts for o in r.forced_options] == options
