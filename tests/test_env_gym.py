"""The single-seat Gymnasium environment (shengji.env.gym): Gymnasium's env checker in
both action modes, seeded replay, bots at the other seats, illegal actions, the vector
form with same-step autoreset."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from shengji.engine import IllegalAction
from shengji.env.gym import ShengjiGymEnv, make_vec
from shengji.env.moves import MOVE_FEATURES
from shengji.errors import ShengjiError


@pytest.mark.parametrize("kw", [
    {}, {"actions": "moves", "opponents": "heuristic"},
    {"variant": "finding-friends", "seat": 3, "reward": "points"}])
def test_gymnasium_env_checker(kw):
    check_env(ShengjiGymEnv(**kw), skip_render_check=True)


def _episode(e, seed, pick_seed=0):
    rng = np.random.default_rng(pick_seed)
    obs, _ = e.reset(seed=seed)
    trace, total = [], 0.0
    while True:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, r, term, trunc, info = e.step(a)
        trace.append((a, r, obs["observation"].tobytes()))
        total += r
        if term or trunc:
            return trace, total


def test_seeded_episodes_replay():
    e = ShengjiGymEnv(opponents=["random", "heuristic", "random"], seat=1)
    a, b = _episode(e, 5), _episode(e, 5)
    assert a == b
    c, _ = _episode(e, 6)
    assert c != a[0]
    assert e.aec.game.over and len(a[0]) > 10


def test_levels_reward_is_the_seats_rise():
    e = ShengjiGymEnv(seat=0)
    _, total = _episode(e, 3)
    ev = [x for x in e.aec.game.events if type(x).__name__ == "DealScored"][-1]
    assert total == (ev.rise if 0 in ev.rising else -ev.rise)


def test_bad_arguments_are_one_line_errors():
    with pytest.raises(ShengjiError, match="seat"):
        ShengjiGymEnv(seat=4)
    with pytest.raises(ShengjiError, match="3 other seats"):
        ShengjiGymEnv(opponents=["random", "random"])
    with pytest.raises(ShengjiError, match="unknown bot"):
        ShengjiGymEnv(opponents="nobody")


def test_illegal_actions_end_or_raise():
    e = ShengjiGymEnv()
    obs, _ = e.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, r, term, _, info = e.step(bad)
    assert term and r == -4.0 and info["illegal_action"] == bad
    with pytest.raises(ShengjiError, match="reset"):
        e.step(0)
    e = ShengjiGymEnv(illegal="raise")
    obs, _ = e.reset(seed=1)
    with pytest.raises(IllegalAction):
        e.step(bad)


def test_vector_env_same_step_autoreset():
    v = make_vec(2, actions="moves", max_moves=32)
    obs, _ = v.reset(seed=0)
    assert obs["moves"].shape == (2, 32, MOVE_FEATURES)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        assert obs["action_mask"].any(axis=1).all(), "every env has a move to make"
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, r, term, trunc, info = v.step(acts)
        ended += int(term.sum())
    assert ended >= 2
    v.close()
