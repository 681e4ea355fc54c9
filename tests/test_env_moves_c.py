"""Whole-move mode in C (core_c/moves.c, shengji.env.cmoves) against the Python listing
(shengji.env.moves with ``C_LISTING = False``, the play phase on the per-step path):
the same moves, features, observations, masks, rewards, events and actions, step by
step, with every seat observed now and then; the listings sampled past ``max_moves``;
the burials; and C's replica of CPython's ``random.sample``."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from shengji.engine.phase import PLAYING  # noqa: E402
from shengji.env import cplay, moves, raw_env  # noqa: E402

_lib = pytest.importorskip("shengji._core").lib


def _trace(variant, seed, c, *, players=None, max_moves=256, reward="levels",
           skip_forced=False, peek=False):
    """Random masked play of a deal in whole-move mode, C on or off: every observation
    (vector, mask, move features), reward and termination, all seats' observations now
    and then; with ``peek``, ``env.game`` read now and then in the play phase (C hands
    its state over mid-deal)."""
    old = cplay.ENABLED, moves.C_LISTING
    cplay.ENABLED = moves.C_LISTING = c
    try:
        e = raw_env(variant, players=players, actions="moves", max_moves=max_moves,
                    reward=reward, skip_forced=skip_forced)
        e.reset(seed=seed)
        rng = random.Random(seed)
        out = []
        in_c = sampled = 0
        for agent in e.agent_iter():
            cp = e._cp
            if cp is not None:
                in_c += 1
                sampled += cp.b.total > max_moves
            obs, r, term, trunc, _ = e.last()
            out.append((agent, *(obs[k].tobytes() for k in sorted(obs)), r, term))
            if term or trunc:
                e.step(None)
                continue
            if rng.random() < 0.1:
                for a in e.possible_agents:
                    o = e.observe(a)
                    out.append((a, *(o[k].tobytes() for k in sorted(o))))
            if peek and rng.random() < 0.05 and e._gm.phase == PLAYING:
                out.append(len(e.game.actions))
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        g = e.game
        return out, list(map(repr, g.events)), list(map(repr, g.actions)), in_c, sampled
    finally:
        cplay.ENABLED, moves.C_LISTING = old


def _same(variant, seed, **kw):
    a = _trace(variant, seed, False, **kw)
    b = _trace(variant, seed, True, **kw)
    assert b[3] and not a[3]  # the C play phase was taken, and only there
    assert len(a[0]) == len(b[0])
    for i, (x, y) in enumerate(zip(a[0], b[0], strict=True)):
        assert x == y, f"step {i}"
    assert a[1:3] == b[1:3]
    return b


@pytest.mark.parametrize("variant,seed,kw", [
    ("two-deck-80", 0, {}),
    ("two-deck-80", 1, {"reward": "points", "max_moves": 8}),  # samples past max_moves
    ("finding-friends", 2, {"players": 6, "reward": "points"}),  # called cards
    ("four-deck", 3, {"max_moves": 16}),  # no throws: listed leads
])
def test_c_moves_equal_the_python_listing(variant, seed, kw):
    b = _same(variant, seed, **kw)
    if kw.get("max_moves", 256) < 20:
        assert b[4] > 0  # some listings were sampled in C


def test_handing_over_mid_deal_and_skip_forced_are_exact():
    _same("two-deck-80", 4, peek=True, max_moves=12)
    _same("one-deck-40", 5, skip_forced=True)


@pytest.mark.long
@pytest.mark.parametrize("variant,players", [
    ("one-deck-40", None), ("two-deck-80", None), ("three-deck-titanic", None),
    ("four-deck", None), ("constant-two", None), ("finding-friends", 5),
    ("finding-friends", 8), ("finding-friends", 12), ("house/kitty-theft", None),
    ("house/finding-friends-6p-3packs", None), ("house/turn-kitty", None),
    ("house/ran", None)])  # (the bury settings, a failed throw's penalty)
@pytest.mark.parametrize("max_moves", [256, 64, 6])
def test_c_moves_equal_the_python_listing_everywhere(variant, players, max_moves):
    for seed in range(3):
        _same(variant, seed, players=players, max_moves=max_moves,
              reward=("levels", "points")[seed % 2], skip_forced=seed == 2)


def test_features_of_every_decision_kind_in_c_equal_the_reference():
    """MoveDecision's features (declarations, burials, calls, take-backs, plays listed
    in Python) made in C (sj_move_features) equal the Python reference's."""
    from shengji.bots import make_bot
    from shengji.engine.game import Game
    from shengji.env.moves import MoveDecision
    from shengji.variants import load_variant

    kinds = set()
    for name, players, seed in (("house/kitty-theft", None, 1), ("finding-friends", 6, 2),
                                ("two-deck-80", None, 3)):
        v = load_variant(name, players=players)
        g = Game(v, f"features:{seed}", max_deals=1)
        bots = [make_bot("random", v, f"f{s}") for s in range(v.players)]
        while not g.over:
            s = g.to_act
            for max_moves in (256, 5):
                lists = []
                for c in (True, False):
                    moves.C_LISTING = c
                    try:
                        dec = MoveDecision.of_game(g, s, max_moves)
                    finally:
                        moves.C_LISTING = True
                    lists.append((list(map(repr, dec.moves)), dec.features().tobytes()))
                assert lists[0] == lists[1], (dec.kind, max_moves)
                kinds.add(dec.kind)
            g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
    assert {"declare", "bury", "call", "takeback", "lead", "follow"} <= kinds


def test_c_sample_is_cpythons():
    from shengji.core.positions import seed_key

    ffi = pytest.importorskip("shengji._core").ffi
    rng = random.Random(7)
    cases = [(33, 8), (40, 5), (21, 3), (22, 3), (85, 8), (86, 8), (1045, 256),
             (1046, 256), (2**40 + 3, 256), (2**62 + 1, 64), (7, 7), (1, 1), (0, 0)]
    cases += [(n, rng.randint(0, min(n, 256))) for n in
              (rng.randint(1, 3000) for _ in range(60))]
    for i, (n, k) in enumerate(cases):
        seed = f"moves:{i}:{n}"
        key = seed_key(seed)
        out = ffi.new("int64_t[]", max(k, 1))
        assert _lib.sj_py_sample(key, len(key), n, k, out) == 0
        assert list(out)[:k] == random.Random(seed).sample(range(n), k), (n, k)
