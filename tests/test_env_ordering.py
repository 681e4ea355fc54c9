"""env()'s order checks (shengji.env.ordering): every misuse PettingZoo's
OrderEnforcingWrapper catches raises the same error from our environment, which makes
the checks itself instead of being wrapped. Each case runs on both and compares."""

import random

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from shengji.engine import IllegalAction
from shengji.env import env, raw_env
from shengji.env.aec import ShengjiEnv
from shengji.env.building import N_ACTIONS


def wrapped():
    return OrderEnforcingWrapper(raw_env("two-deck-80"))


def ours():
    return env("two-deck-80")


def raised(fn):
    """(type, message) of what ``fn()`` raises."""
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


BEFORE_RESET_CALLS = {
    "step": lambda e: e.step(0),
    "observe": lambda e: e.observe("player_0"),
    "render": lambda e: e.render(),
    "state": lambda e: e.state(),
    "agent_iter": lambda e: e.agent_iter(),
    "last": lambda e: e.last(),
}


@pytest.mark.parametrize("call", sorted(BEFORE_RESET_CALLS))
def test_calls_before_reset_raise_the_wrappers_error(call):
    fn = BEFORE_RESET_CALLS[call]
    got = raised(lambda: fn(ours()))
    assert got == raised(lambda: fn(wrapped()))
    assert "reset" in got[1]


@pytest.mark.parametrize("name", ["rewards", "terminations", "truncations", "infos",
                                  "agent_selection", "num_agents", "agents"])
def test_episode_attributes_before_reset_raise_attribute_error_naming_them(name):
    got = raised(lambda: getattr(ours(), name))
    assert got == raised(lambda: getattr(wrapped(), name))
    assert got == (AttributeError, f"{name} cannot be accessed before reset")
    assert not hasattr(ours(), name)  # hasattr sees an AttributeError


def test_unknown_attribute_is_a_plain_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        ours().nonsense  # noqa: B018


def test_a_loop_over_agent_iter_that_does_not_step_is_caught():
    for make in (ours, wrapped):
        e = make()
        e.reset(seed=1)
        it = iter(e.agent_iter())
        next(it)
        with pytest.raises(AssertionError, match="need to call step"):
            next(it)


def play_to_the_end(e, seed=0):
    e.reset(seed=seed)
    rng = random.Random(seed)
    for _ in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    assert not e.agents


def test_step_after_every_agent_is_done_warns_and_does_nothing():
    for make in (ours, wrapped):
        e = make()
        play_to_the_end(e)
        EnvLogger.flush()
        EnvLogger.suppress_output()
        try:
            e.step(0)
        finally:
            EnvLogger.unsuppress_output()
        assert any("step() called after all agents are terminated" in m
                   for m in EnvLogger.mqueue)
        EnvLogger.flush()
        assert not e.agents


def test_raw_env_step_after_every_agent_is_done_is_a_clear_error():
    e = raw_env("two-deck-80")
    play_to_the_end(e)
    with pytest.raises(IllegalAction, match="after the game ended"):
        e.step(0)


def test_the_same_episode_through_both():
    """Same seeds, same observations, rewards and ends: checks change nothing."""
    a, b = ours(), wrapped()
    for e in (a, b):
        e.reset(seed=5)
    rng = random.Random(5)
    for agent in a.agent_iter():
        assert agent == b.agent_selection
        oa, ra, ta, ua, _ = a.last()
        ob, rb, tb, ub, _ = b.last()
        assert (ra, ta, ua) == (rb, tb, ub)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        if ta or ua:
            a.step(None)
            b.step(None)
            continue
        legal = np.flatnonzero(oa["action_mask"])
        act = int(legal[rng.randrange(len(legal))])
        a.step(act)
        b.step(act)
    assert not b.agents


def to_the_play_phase(e):
    """Steps until the C play phase (cplay) holds the decision."""
    e.reset(seed=2)
    while e.unwrapped._cp is None:
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[0]))


@pytest.mark.parametrize("phase", ["deal", "play"])
@pytest.mark.parametrize("action", [-1, N_ACTIONS, 10**9, None])
def test_out_of_range_and_none_actions_are_refused(phase, action):
    """(AssertOutOfBoundsWrapper's check: our IllegalAction names the allowed actions.)"""
    for make in (ours, lambda: raw_env("two-deck-80")):
        e = make()
        if phase == "play":
            to_the_play_phase(e)
        else:
            e.reset(seed=2)
        before = e.observe(e.agent_selection)
        with pytest.raises(IllegalAction, match="not allowed now|needs an action number"):
            e.step(action)
        after = e.observe(e.agent_selection)  # nothing changed
        assert np.array_equal(before["observation"], after["observation"])


def test_env_is_our_environment_itself():
    e = ours()
    assert type(e) is ShengjiEnv and e.unwrapped is e
    assert str(e) == str(wrapped()) == "shengji_v0"
    r = raw_env("two-deck-80")
    with pytest.raises(Exception, match="call reset"):  # raw: the engine's own error
        r.step(0)


@pytest.mark.parametrize("phase", ["deal", "play"])
@pytest.mark.parametrize("action", [1.0, 1.5, "1", np.float32(2), np.array([1, 2])])
def test_actions_that_are_not_integers_are_refused_not_rounded(phase, action):
    """(AssertOutOfBoundsWrapper refuses what Discrete does not contain.)"""
    e = ours()
    if phase == "play":
        to_the_play_phase(e)
    else:
        e.reset(seed=2)
    before = e.observe(e.agent_selection)
    with pytest.raises(IllegalAction, match="is not an action number"):
        e.step(action)
    after = e.observe(e.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_numpy_integer_actions_are_accepted():
    a, b = ours(), ours()
    for e in (a, b):
        e.reset(seed=4)
    for _ in range(60):  # through the dealing into the play phase
        legal = np.flatnonzero(a.observe(a.agent_selection)["action_mask"])
        a.step(legal[0])  # np.int64
        b.step(int(legal[0]))
        assert np.array_equal(a.observe(a.agent_selection)["observation"],
                              b.observe(b.agent_selection)["observation"])


@pytest.mark.parametrize("phase", ["deal", "play"])
def test_each_observation_is_the_callers_own(phase):
    """The encoders write into one buffer each and hand out copies: an observation kept
    does not change with later ones, and writing into it changes nothing else."""
    import pickle

    e = ours()
    if phase == "play":
        to_the_play_phase(e)
    else:
        e.reset(seed=2)
    first = e.observe(e.agent_selection)
    kept = {k: v.copy() for k, v in first.items()}
    other = e.observe(e.possible_agents[(e.possible_agents.index(e.agent_selection) + 1)
                                        % len(e.possible_agents)])
    first["observation"][:] = -1
    first["action_mask"][:] = 0
    again = e.observe(e.agent_selection)
    for k in kept:
        assert np.array_equal(again[k], kept[k])
    assert not np.shares_memory(again["observation"], other["observation"])
    legal = np.flatnonzero(again["action_mask"])
    e.step(int(legal[0]))
    assert np.array_equal(again["observation"], kept["observation"])
    pickle.loads(pickle.dumps(e.encoder))  # its buffer is not pickled
