"""The observation built in C (core_c/observe.c, shengji.env.cobserve) against the
Python reference encoder (shengji.env.observation.Encoder): the same vector, for every
seat, at every step of random masked play, on variants with fixed teams and with
finding friends, at several history lengths; and the C entry points' argument checks."""

import copy
import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shengji.env import raw_env
from shengji.env.cobserve import CEncoder, ffi, lib
from shengji.env.observation import Encoder

pytestmark = pytest.mark.skipif(lib is None, reason="the C core is not built")

TABLES = [("two-deck-80", None), ("one-deck-40", None), ("finding-friends", None),
          ("finding-friends", 8), ("three-deck-titanic", None)]


def _compare_deal(variant, players, history, seed, every=1):
    e = raw_env(variant, players=players, history=history)
    assert isinstance(e.encoder, CEncoder)
    ref = Encoder(e.variant, history)
    e.reset(seed=seed)
    py_tracker = ref.new_tracker()
    py_tracker.update(e.game.events)
    seen = len(e.game.events)
    rng = random.Random(seed)
    steps = 0
    for _agent in e.agent_iter(100_000):
        g = e.game
        py_tracker.update(g.events[seen:])
        seen = len(g.events)
        if steps % every == 0:
            for seat in range(g.players):
                dec = e.decision if g.to_act == seat and not g.over else None
                got = e.encoder.encode(g, seat, dec, e.tracker)
                want = ref.encode(g, seat, dec, py_tracker)
                if not np.array_equal(got, want):
                    bad = {name: (piece, ref.layout.split(want)[name])
                           for name, piece in e.layout.split(got).items()
                           if not np.array_equal(piece, ref.layout.split(want)[name])}
                    raise AssertionError(f"{variant} seed {seed} step {steps} seat {seat}: "
                                         f"{sorted(bad)} differ: {bad}")
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


@settings(max_examples=6, deadline=None)
@given(table=st.sampled_from(TABLES), history=st.sampled_from([0, 1, 8, 64]),
       seed=st.integers(0, 2**32))
def test_c_observation_equals_python(table, history, seed):
    variant, players = table
    assert _compare_deal(variant, players, history, seed, every=3) > 50


def test_c_observation_every_step_two_deck():
    _compare_deal("two-deck-80", None, 8, 7, every=1)


def test_tracker_copies_and_pickles():
    e = raw_env("two-deck-80")
    e.reset(seed=3)
    rng = random.Random(3)
    for _ in range(150):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g, seat = e.game, e.game.to_act
    want = e.encoder.encode(g, seat, e.decision, e.tracker)
    for t in (e.tracker.copy(), copy.deepcopy(e.tracker), pickle.loads(pickle.dumps(e.tracker))):
        assert np.array_equal(e.encoder.encode(g, seat, e.decision, t), want)


def test_history_length_is_checked():
    from shengji.errors import ShengjiError

    with pytest.raises(ShengjiError, match="history"):
        raw_env("two-deck-80", history=65)


def test_c_entry_points_refuse_bad_arguments():
    o = ffi.new("sj_obs *")
    o.players, o.history, o.buried_by = 4, 8, -1
    size = lib.sj_obs_size(4, 8)
    out = ffi.new("float[]", size)
    assert lib.sj_observe(o, 0, out, size) == 0
    assert lib.sj_observe(o, 0, out, size - 1) < 0          # wrong buffer length
    assert lib.sj_observe(o, 4, out, size) < 0              # no such seat
    assert lib.sj_observe(ffi.NULL, 0, out, size) < 0
    o.dealer = 9
    assert lib.sj_observe(o, 0, out, size) < 0              # a seat out of range
    o.dealer = -1
    o.n_calls = 5
    assert lib.sj_observe(o, 0, out, size) < 0
    o.n_calls = 1
    o.calls[0], o.calls[1] = 1, 54                          # no such card
    assert lib.sj_observe(o, 0, out, size) < 0
    o.n_calls = 0
    assert lib.sj_obs_move(o, 0, 0, bytes([54]), 1) < 0     # no such card
    assert lib.sj_obs_move(o, 7, 0, bytes([3]), 1) < 0      # no such seat
    assert lib.sj_obs_bury(o, 0, bytes([1, 2]), -1) < 0
    assert lib.sj_obs_size(1, 8) < 0 and lib.sj_obs_size(4, 65) < 0
    o.players = 40                                           # a corrupted table size
    assert lib.sj_observe(o, 0, out, size) < 0
    assert lib.sj_obs_move(o, 0, 0, bytes([3]), 1) < 0
