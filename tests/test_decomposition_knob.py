"""play.decomposition (docs/semantics.md §3): its checks, and the C search's bounds.
What it decides is held to shengji.io by tests/cases/house/decomposition-shengji-io and
to the oracle by tests/test_differential.py (test_decompose_shengji_io, and every
differential test, which draws the knob)."""

from __future__ import annotations

import random

import pytest

from shengji.cards import NUM_KINDS
from shengji.core import Context, Hand, ffi, lib
from shengji.errors import RulesError, ShengjiError
from shengji.rules import PlayRules


def test_the_default_is_the_seeds():
    assert PlayRules(decks=3).decomposition == "seeds"


@pytest.mark.parametrize("kw, words", [
    ({"decks": 3, "max_tuple": 2, "decomposition": "shengji_io"}, ["max_tuple must be 3"]),
    ({"decks": 2, "decomposition": "shengjiio"}, ["decomposition", "seeds, shengji_io"]),
    ({"decks": 2, "decomposition": 1}, ["decomposition"]),
])
def test_bad_settings_are_refused_by_name(kw, words):
    with pytest.raises(RulesError) as e:
        PlayRules(**kw)
    assert all(w in str(e.value) for w in words), str(e.value)


def test_the_core_refuses_what_play_rules_refuses():
    """sj_prepare checks the field itself (a caller of the C API has no PlayRules)."""
    r = ffi.new("sj_rules *")  # a copy: contexts may share their prepared rules
    ffi.memmove(r, Context(PlayRules(decks=3), "9", "S")._r, ffi.sizeof("sj_rules"))
    err = ffi.new("sj_err *")
    for decomposition, max_tuple, ok in [(1, 3, True), (1, 2, False), (2, 3, False),
                                         (-1, 3, False), (0, 2, True)]:
        r.decomposition, r.max_tuple = decomposition, max_tuple
        rc = lib.sj_prepare(r, err)
        assert (rc == 0) is ok, (decomposition, max_tuple)
        if not ok:
            assert rc == lib.SJ_ERR_RULES and err.a == lib.SJ_RF_DECOMPOSITION


def test_whole_trump_suits_decompose_at_once():
    """The memoised search: a lead of every trump at four decks (72 cards) is answered,
    one unit per kind held at most."""
    rules = PlayRules(decks=4, decomposition="shengji_io")
    for trump in (None, 0, 1, 2, 3):
        ctx = Context(rules, "9", trump)
        lead = Hand.from_counts([4 if ctx.is_trump(k) else 0 for k in range(NUM_KINDS)])
        comps = ctx.decompose(lead)
        assert sum(sum(c.cards.counts) for c in comps) == sum(lead.counts)
        assert len(comps) <= len([k for k in range(NUM_KINDS) if ctx.is_trump(k)])


def test_an_exploding_listing_is_a_clear_error_not_a_hang():
    """Constant ranks (which shengji.io does not have) give many kinds per strength, and
    the breadth-first paths of shengji.io's tractor search multiply with them; past the
    core's bound the answer is the budget error, at once."""
    rules = PlayRules(decks=2, decomposition="shengji_io", constant_ranks=[0, 1, 2])
    ctx = Context(rules, "7", "H")
    lead = Hand.from_counts([2 if ctx.is_trump(k) else 0 for k in range(NUM_KINDS)])
    with pytest.raises(ShengjiError, match="budget"):
        ctx.decompose(lead)


def test_random_large_leads_answer_or_raise_a_shengji_error():
    rng = random.Random(28)
    for _ in range(300):
        decks = rng.randint(1, 4)
        rules = PlayRules(decks=decks, decomposition="shengji_io",
                          constant_ranks=rng.choice([(), (), (0,), (0, 5)]),
                          tractor_bridges_level_gap=rng.random() < 0.7)
        ctx = Context(rules, rng.randrange(14), rng.choice([None, 0, 1, 2, 3]))
        suit = ctx.effective_suit(rng.randrange(NUM_KINDS))
        lead = Hand.from_counts([rng.randint(0, decks) if ctx.effective_suit(k) == suit else 0
                                 for k in range(NUM_KINDS)])
        if sum(lead.counts) == 0:
            continue
        try:
            comps = ctx.decompose(lead)
        except ShengjiError:
            continue
        assert sum(sum(c.cards.counts) for c in comps) == sum(lead.counts)
