"""``skip_forced=True``: the environment takes every action that is the only one allowed
itself. The same game as an environment whose caller takes those actions, the same
reward for every agent, and never a decision without a choice — on the play phase in C
and on the per-step Python path, in both action modes."""

import random
from typing import NamedTuple

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from shengji.env import cplay, env, raw_env  # noqa: E402
from shengji.errors import ShengjiError  # noqa: E402


class Episode(NamedTuple):
    actions: list  # the engine's actions (repr)
    total: dict  # each agent's reward, as last() reports it
    by_steps: dict  # each agent's rewards after each step, added up
    seen: int  # decisions presented
    single: int  # of them, those that allowed one action
    used_c: bool  # the play phase ran in C


def _deal(variant, seed, *, skip, **kw) -> Episode:
    """One episode with random choices, a forced action taken without drawing."""
    e = raw_env(variant, skip_forced=skip, **kw)
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    by_steps = dict.fromkeys(e.possible_agents, 0.0)
    seen = single = 0
    used_c = False
    for agent in e.agent_iter():
        used_c |= e._cp is not None
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        seen += 1
        if len(legal) == 1:
            single += 1
            e.step(int(legal[0]))
        else:
            e.step(int(legal[rng.randrange(len(legal))]))
        for a, x in e.rewards.items():
            by_steps[a] += x
    return Episode(list(map(repr, e.game.actions)), total, by_steps, seen, single, used_c)


@pytest.mark.parametrize("variant,seeds", [
    ("two-deck-80", 3), ("one-deck-40", 2), ("four-deck", 1),  # four-deck: no throws
    ("finding-friends", 2), ("three-deck-titanic", 1)])
@pytest.mark.parametrize("reward", ["levels", "points"])
@pytest.mark.parametrize("c", [True, False], ids=["c", "python"])
def test_skipping_plays_the_same_game(variant, seeds, reward, c, monkeypatch):
    monkeypatch.setattr(cplay, "ENABLED", c)
    for seed in range(seeds):
        plain = _deal(variant, seed, skip=False, reward=reward)
        skipped = _deal(variant, seed, skip=True, reward=reward)
        assert plain.used_c == skipped.used_c == c
        assert skipped.actions == plain.actions  # every forced action taken, only those
        assert skipped.total == pytest.approx(plain.total)  # no agent's reward lost
        assert plain.single > 0 and skipped.single == 0  # forced steps; none is shown
        assert skipped.seen == plain.seen - plain.single


@pytest.mark.parametrize("reward", ["levels", "points"])
def test_skipping_in_whole_move_mode(reward):
    for seed in range(2):
        plain = _deal("two-deck-80", seed, skip=False, actions="moves", reward=reward)
        skipped = _deal("two-deck-80", seed, skip=True, actions="moves", reward=reward)
        assert skipped.actions == plain.actions
        assert skipped.total == pytest.approx(plain.total)
        assert plain.single > 0 and skipped.single == 0


@pytest.mark.parametrize("reward", ["levels", "points"])
@pytest.mark.parametrize("variant,seeds", [("two-deck-80", [12, 16]),
                                           ("one-deck-40", range(6))])
def test_rewards_of_a_step_sum_the_forced_steps_after_it(reward, variant, seeds):
    """``rewards`` after each step, added up, give each agent's total as ``last()``
    reports it: a step's rewards stay when forced steps follow it (with points, the
    seeds hold a trick with points ended just before a last trick all forced)."""
    paid = False
    for seed in seeds:
        ep = _deal(variant, seed, skip=True, reward=reward)
        paid |= any(ep.total.values())
        assert ep.by_steps == pytest.approx(ep.total)
    assert paid


# PettingZoo's api_test warns that a dict observation is not a Box: the documented layout
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("actions", ["cards", "moves"])
def test_api_test_with_skip_forced(actions):
    api_test(raw_env("two-deck-80", skip_forced=True, actions=actions), num_cycles=300)
    api_test(env("finding-friends", skip_forced=True, actions=actions), num_cycles=300)


def test_skip_forced_needs_a_bool():
    with pytest.raises(ShengjiError, match="skip_forced"):
        raw_env("two-deck-80", skip_forced="yes")


def test_gymnasium_wrapper_with_skip_forced():
    """The one-seat wrapper passes the option on: the learner sees only choices, gets
    the same episode total as a learner taking its forced actions itself, and the
    env checker passes."""
    gym = pytest.importorskip("shengji.env.gym")
    from gymnasium.utils.env_checker import check_env

    check_env(gym.ShengjiGymEnv(skip_forced=True, reward="points"), skip_render_check=True)
    totals = []
    for skip in (False, True):
        e = gym.ShengjiGymEnv(skip_forced=skip, reward="points", opponents="heuristic")
        rng = random.Random(0)
        obs, _ = e.reset(seed=4)
        total, single = 0.0, 0
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            single += len(legal) == 1
            a = int(legal[0]) if len(legal) == 1 else int(legal[rng.randrange(len(legal))])
            obs, r, term, trunc, _ = e.step(a)
            total += r
            if term or trunc:
                break
        totals.append((total, single, list(map(repr, e.aec.game.actions))))
    (plain, plain_single, plain_actions), (skipped, skipped_single, skipped_actions) = totals
    assert plain_single > 0 and skipped_single == 0
    assert skipped_actions == plain_actions and skipped == pytest.approx(plain)


def _os_deal(game, seed):
    """An OpenSpiel deal with random choices (forced actions taken without drawing):
    the engine's actions, the returns, the decisions seen and how many were forced."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = single = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        legal = state.legal_actions()
        seen += 1
        single += len(legal) == 1
        state.apply_action(legal[0] if len(legal) == 1 else rng.choice(legal))
    return list(map(repr, state.game.actions)), state.returns(), seen, single, state


@pytest.mark.parametrize("variant", ["two-deck-80", "finding-friends"])
@pytest.mark.parametrize("actions", ["cards", "moves"])
def test_openspiel_skip_forced_plays_the_same_game(variant, actions):
    pyspiel = pytest.importorskip("pyspiel")
    import shengji.env.openspiel  # noqa: F401 - registers the game

    def load(skip):
        return pyspiel.load_game("shengji", {"variant": variant, "actions": actions,
                                             "skip_forced": skip})

    for seed in range(2):
        plain = _os_deal(load(False), seed)
        skipped = _os_deal(load(True), seed)
        assert skipped[0] == plain[0] and skipped[1] == plain[1]
        assert plain[3] > 0 and skipped[3] == 0 and skipped[2] == plain[2] - plain[3]
        # the history holds the choices: replaying it takes the same forced actions
        state = skipped[4]
        again = state.get_game().new_initial_state()
        for a in state.history():
            again.apply_action(a)
        assert again.is_terminal() and again.returns() == state.returns()


def test_openspiel_checks_with_skip_forced():
    pyspiel = pytest.importorskip("pyspiel")
    import shengji.env.openspiel as sos

    game = pyspiel.load_game("shengji", {"variant": "one-deck-40", "skip_forced": True})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # resampling another seat's decision never leaves one with a single action
    rng = random.Random(2)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        other = (state.current_player() + 1) % game.num_players()
        new = sos.resample(state, other, rng)
        assert new.is_terminal() or len(new.legal_actions()) > 1
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(Exception, match="skip_forced"):
        pyspiel.load_game("shengji", {"skip_forced": 1})
