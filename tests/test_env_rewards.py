"""Each seat's rewards for a deal add up to its final side's share, under both reward
modes, in the PettingZoo environment (card by card and whole moves, the play phase in
C or in Python, skip_forced), the Gymnasium wrapper and OpenSpiel's returns: +rise for
the seats that rose and −rise for the others (``levels``), +the attackers' total for
the attackers and −it for the dealer's side as the deal ends (``points``). In finding
friends a hidden friend counts with the attackers until it joins, when its rewards (and
everyone's, the attackers' points falling by what it took) are settled; with ``points``
every step leaves each seat's rewards of the deal at ±the attackers' points so far by
the sides known then (docs/rl.md "Rewards")."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from shengji.engine.events import DealScored, FriendJoined  # noqa: E402
from shengji.env import cplay, raw_env  # noqa: E402


def _share(ev: DealScored, seat: int, mode: str) -> float:
    if mode == "levels":
        return float(ev.rise if seat in ev.rising else -ev.rise)
    return float(-ev.attacker_points if seat in ev.side else ev.attacker_points)


def _episode(players, seed, mode, actions="cards", skip_forced=False, deals=1):
    """A random masked episode; every step's rewards summed per agent, and (points) the
    running totals checked against the attackers' points by the known sides."""
    e = raw_env("finding-friends", players=players, reward=mode, actions=actions,
                skip_forced=skip_forced, deals=deals)
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    deal = dict.fromkeys(e.possible_agents, 0.0)
    scored = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        for a in e.possible_agents:
            total[a] += e.rewards[a]
            deal[a] += e.rewards[a]
        g = e._gm
        n = sum(type(ev) is DealScored for ev in g.events)
        if n > scored:  # a deal ended: its own check, then the next starts from zero
            ev = [x for x in g.events if type(x) is DealScored][-1]
            for s, a in enumerate(e.possible_agents):
                assert deal[a] == _share(ev, s, mode), (a, deal[a])
            scored = n
            deal = dict.fromkeys(e.possible_agents, 0.0)
        elif mode == "points" and g.side:  # the timing rule, at every step
            # (the Game falls behind while C plays: the points are C's then)
            points = g.trick_points if e._cp is None else e._cp.st.trick_points
            for s, a in enumerate(e.possible_agents):
                want = -points if s in g.side else points
                assert deal[a] == want, (a, deal[a], want)
    g = e.game
    assert scored == deals and g.over
    return g, total


def _joined(g) -> bool:
    return any(type(ev) is FriendJoined and not ev.already for ev in g.events)


@pytest.mark.parametrize("players", [5, 6])
@pytest.mark.parametrize("mode", ["levels", "points"])
def test_pettingzoo_totals_are_the_final_sides_share(players, mode):
    joined = 0
    for seed, actions, skip in ((0, "cards", False), (1, "moves", True)):
        g, total = _episode(players, seed, mode, actions, skip)
        ev = [x for x in g.events if type(x) is DealScored][-1]
        for s, a in enumerate(sorted(total, key=lambda a: int(a.split("_")[1]))):
            assert total[a] == _share(ev, s, mode)
        joined += _joined(g)
    assert joined  # a friend joined mid-deal in these deals


def test_per_step_python_path_and_two_deals_agree(monkeypatch):
    monkeypatch.setattr(cplay, "ENABLED", False)
    _episode(6, 2, "points", deals=2)


@pytest.mark.long
@pytest.mark.parametrize("players", range(5, 13))
@pytest.mark.parametrize("mode", ["levels", "points"])
def test_pettingzoo_totals_every_table_size(players, mode):
    for seed in range(4):
        _episode(players, seed, mode, ("cards", "moves")[seed % 2], seed >= 2,
                 deals=1 + seed % 2)


def _gym_and_openspiel(players, seeds):
    import pyspiel

    import shengji.env.openspiel  # noqa: F401 - registers the game
    from shengji.env.gym import ShengjiGymEnv

    for seed in seeds:
        for mode in ("levels", "points"):
            seat = seed % players
            e = ShengjiGymEnv("finding-friends", players=players, seat=seat,
                              opponents="random", reward=mode)
            obs, info = e.reset(seed=seed)
            total = info["reward_before_first_move"]
            rng = random.Random(seed)
            done = False
            while not done:
                legal = np.flatnonzero(obs["action_mask"])
                obs, r, done, _, _ = e.step(int(legal[rng.randrange(len(legal))]))
                total += r
            ev = [x for x in e.aec.game.events if type(x) is DealScored][-1]
            assert total == _share(ev, seat, mode)
        game = pyspiel.load_game("shengji", {"variant": "finding-friends", "players": players})
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        ev = [x for x in s.game.events if type(x) is DealScored][-1]
        assert s.returns() == [_share(ev, p, "levels") for p in range(players)]


def test_gymnasium_and_openspiel_returns_are_the_final_sides_share():
    _gym_and_openspiel(6, [0])


@pytest.mark.long
@pytest.mark.parametrize("players", range(5, 13))
def test_gymnasium_and_openspiel_every_table_size(players):
    _gym_and_openspiel(players, range(3))
