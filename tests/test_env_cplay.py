"""The card-by-card environment's play phase in C (shengji.env.cplay) against the
per-step Python path: the same observations, masks, rewards, events and actions, step by
step, on every kind of play set (throws, listed leads without throws, fillers, finding
friends' called cards), and the hand-over when ``game`` is read mid-decision."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from shengji.engine.errors import IllegalAction  # noqa: E402
from shengji.engine.phase import PLAYING  # noqa: E402
from shengji.env import cplay, raw_env  # noqa: E402


def _trace(variant, seed, c, reward, peek=False):
    """Random masked play of a deal: every observation and mask, plus all seats' now and
    then; with ``peek``, ``env.game`` read now and then in the play phase (hands C's
    state over to the Game mid-decision)."""
    old = cplay.ENABLED
    cplay.ENABLED = c
    try:
        e = raw_env(variant, reward=reward)
        e.reset(seed=seed)
        rng = random.Random(seed)
        out = []
        used_c = False
        for agent in e.agent_iter():
            used_c |= e._cp is not None
            obs, r, term, trunc, _ = e.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                        r, term))
            if term or trunc:
                e.step(None)
                continue
            if rng.random() < 0.1:
                for a in e.possible_agents:
                    o = e.observe(a)
                    out.append((a, o["observation"].tobytes(), o["action_mask"].tobytes()))
            if peek and rng.random() < 0.05 and e._gm.phase == PLAYING:
                out.append(len(e.game.actions))
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        g = e.game
        return out, list(map(repr, g.events)), list(map(repr, g.actions)), used_c
    finally:
        cplay.ENABLED = old


@pytest.mark.parametrize("variant,seeds", [
    ("two-deck-80", 3), ("one-deck-40", 2), ("four-deck", 2),  # four-deck: no throws
    ("finding-friends", 2), ("three-deck-titanic", 1)])
@pytest.mark.parametrize("reward", ["levels", "points"])
def test_c_play_phase_equals_python(variant, seeds, reward):
    for seed in range(seeds):
        a = _trace(variant, seed, False, reward)
        b = _trace(variant, seed, True, reward)
        assert b[3] and not a[3]  # the C path was taken, and only there
        assert a[0] == b[0]
        assert a[1] == b[1]
        assert a[2] == b[2]


def test_reading_game_mid_decision_hands_over_exactly():
    b = _trace("two-deck-80", 5, True, "points", peek=True)
    c = _trace("two-deck-80", 5, False, "points", peek=True)
    assert b[3] and any(isinstance(x, int) for x in b[0])
    assert b[0] == c[0] and b[1:3] == c[1:3]


def test_illegal_action_in_c_is_the_same_error():
    msgs = []
    for c in (False, True):
        cplay.ENABLED = c
        try:
            e = raw_env("two-deck-80")
            e.reset(seed=3)
            while e._gm.phase != PLAYING:
                mask = e.observe(e.agent_selection)["action_mask"]
                e.step(int(np.flatnonzero(mask)[0]))
            mask = e.observe(e.agent_selection)["action_mask"]
            bad = int(np.flatnonzero(mask == 0)[0])
            with pytest.raises(IllegalAction) as info:
                e.step(bad)
            msgs.append(str(info.value))
            with pytest.raises(IllegalAction):
                e.step(10_000)
        finally:
            cplay.ENABLED = True
    assert msgs[0] == msgs[1]


@pytest.mark.parametrize("seed", range(3))
def _bytes(thing):
    if isinstance(thing, dict):
        return {k: v.tobytes() for k, v in thing.items()}
    return thing.tobytes()


@pytest.mark.parametrize("seed", range(3))
def test_observations_handed_out_never_change_under_the_caller(seed):
    """C writes the play phase's observations into arrays the environment reuses once
    nothing outside holds them (cplay.Handout): whatever the caller keeps (the dict,
    an array, a view, a memoryview, the mask) stays as it was handed out."""
    e = raw_env("two-deck-80")
    e.reset(seed=seed)
    rng = random.Random(seed)
    kept = []  # (what was kept, its bytes then)
    prev = None  # the caller's previous observation, held a step longer
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        x = rng.random()
        vec, mask = obs["observation"], obs["action_mask"]
        if x < 0.05:
            kept.append((obs, _bytes(obs)))
        elif x < 0.10:
            kept.append((vec, vec.tobytes()))
        elif x < 0.15:
            kept.append((vec[3:500], vec[3:500].tobytes()))
        elif x < 0.20:
            kept.append((memoryview(vec), vec.tobytes()))
        elif x < 0.25:
            kept.append((mask, mask.tobytes()))
        elif x < 0.30:  # another seat's observation, asked in between
            o = e.observe(e.possible_agents[rng.randrange(4)])
            kept.append((o, _bytes(o)))
        if prev is not None:
            assert _bytes(prev[0]) == prev[1]
        prev = (obs, _bytes(obs))
        del vec, mask
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    assert len(kept) > 20
    for thing, then in kept:
        now = bytes(thing) if isinstance(thing, memoryview) else _bytes(thing)
        assert now == then


def test_usual_loop_reuses_the_handed_out_arrays():
    """The usual loop (the caller drops each observation for the next) gets the pool's
    arrays again and again (cplay.Handout); a caller holding some or all observations
    gets new ones, and what it holds stays right."""
    if cplay._refs is None:
        pytest.skip("reference counts are CPython's")
    e = raw_env("two-deck-80")
    for hold in (0, 3, 1):  # none, every third one, all
        e.reset(seed=hold)
        rng = random.Random(hold)
        in_c = 0
        held = []
        seen = set()  # the arrays handed out in the play phase in C
        for n, _agent in enumerate(e.agent_iter()):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            if e._cp is not None:
                in_c += 1
                seen.add(id(obs["observation"]))
            if hold and n % hold == 0:
                held.append((obs, _bytes(obs)))
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        assert in_c > 150
        assert all(_bytes(o) == b for o, b in held)
        if hold == 0:  # the pool's pairs, written again and again
            assert len(seen) <= cplay.Handout.POOL
        elif hold == 1:  # each one new
            assert len(seen) == in_c
        else:
            assert cplay.Handout.POOL < len(seen) < in_c
