"""Finding friends (找朋友) in the research environments: the dealer's calls are built as
an ordinal action then a card (shengji.env.building.Calls), every allowed set of calls
and nothing else; random masked agents finish deals at several table sizes; OpenSpiel's
checks pass."""

import itertools
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from shengji.engine import Game
from shengji.engine.events import DealScored
from shengji.env import env, raw_env
from shengji.env.building import CALL_ORDINAL, DONE, Decision, actions_for
from shengji.friends import calls_problem

FRIENDS = [("finding-friends", None), ("finding-friends", 8),
           ("house/finding-friends-6p-3packs", None), ("house/finding-friends-shengji-io", None)]


def to_calling(variant, players, seed):
    from shengji.variants import load_variant

    g = Game(load_variant(variant, players=players), seed, max_deals=1)
    rng = random.Random(seed)
    while g.phase != "call":
        d = Decision(g, g.to_act)
        while True:
            out = d.step(rng.choice(d.mask()))
            if out is not None:
                break
        g.apply(out)
    return g


def built_calls(dec):
    """Every set of calls the masks can build (DFS)."""
    import copy

    out = set()

    def walk(d):
        m = d.mask()
        assert m, "dead end"
        for a in m:
            c = copy.deepcopy(d)
            action = c.step(a)
            if action is not None:
                out.add(frozenset(action.calls))
            else:
                walk(c)

    walk(dec)
    return out


@pytest.mark.parametrize("variant, players", [
    ("finding-friends", None),
    pytest.param("house/finding-friends-6p-3packs", None, marks=pytest.mark.long)])
def test_calls_build_exactly_the_allowed_sets(variant, players):
    g = to_calling(variant, players, 3)
    dec = Decision(g, g.to_act)
    assert dec.kind == "call"
    singles = sorted({c for a in g.legal_actions() for c in a.calls})
    n = g.friend_rules.calls
    want = {frozenset(cs) for cs in itertools.combinations(singles, n)
            if calls_problem(cs, g.friend_rules, g.ctx, g.composition.counts, g.level) is None}
    got = built_calls(dec)
    assert got == want and len(got) > 1
    for cs in list(got)[:5]:  # actions_for is the inverse
        d = Decision(g, g.to_act)
        action = None
        for a in actions_for(type(g.legal_actions()[0])(g.to_act, tuple(cs))):
            assert a in d.mask()
            action = d.step(a)
        assert frozenset(action.calls) == cs and g.can(action)


@pytest.mark.parametrize("variant, players", FRIENDS)
def test_random_masked_agents_finish_friends_deals(variant, players):
    e = raw_env(variant, players=players)
    rng = random.Random(1)
    for seed in range(2):
        e.reset(seed=seed)
        total = dict.fromkeys(e.possible_agents, 0.0)
        called = False
        while e.agents:
            agent = e.agent_selection
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            if term:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            called |= bool(legal.max() >= CALL_ORDINAL)
            e.step(int(legal[rng.randrange(len(legal))]))
        g = e.game
        (ev,) = [x for x in g.events if isinstance(x, DealScored)]
        assert called and g.calls
        assert [total[a] for a in e.possible_agents] == [
            ev.rise if s in ev.rising else -ev.rise for s in range(g.players)]
        parts = e.layout.split(e.observe(e.possible_agents[0])["observation"])
        assert parts["calls"].sum() == len(g.calls)
        assert parts["side"].sum() == len(g.side)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_checks_on_finding_friends():
    api_test(env("finding-friends"), num_cycles=300)
    seed_test(lambda: env("finding-friends", players=6), num_cycles=200)


def test_openspiel_checks_on_finding_friends():
    pyspiel = pytest.importorskip("pyspiel")
    import shengji.env.openspiel as sos

    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": "finding-friends"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert state.action_to_string(0, CALL_ORDINAL + 1) == "call #2"
    assert state.action_to_string(0, DONE) == "done"


@pytest.mark.long
@pytest.mark.parametrize("variant, players", FRIENDS)
def test_openspiel_checks_on_every_friends_table(variant, players):
    pyspiel = pytest.importorskip("pyspiel")
    import shengji.env.openspiel as sos

    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": variant, "players": players or 0})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("variant, players", [("finding-friends", None), ("finding-friends", 6),
                                              ("finding-friends", 8)])
def test_whole_move_calls_list_the_heuristics_call_first(variant, players):
    """Whole-move mode lists the dealer's calls as it lists burials: the heuristic bot's
    choice first, then other allowed calls, no two alike, up to max_moves; the same
    state lists the same calls. (A random sample of the thousands of calls held the
    heuristic's, the teacher's, in none of 40 deals at six seats: a student never saw
    its teacher's call.)"""
    from shengji.bots import make_bot
    from shengji.env.moves import MoveDecision

    for seed in range(3):
        g = to_calling(variant, players, seed)
        s = g.to_act
        dec = MoveDecision.of_game(g, s, 64)
        assert dec.kind == "call"
        heuristic = make_bot("heuristic", g.variant, "any")
        assert dec.moves[0] == heuristic.act(g.view(s), g.legal_actions(s))
        calls = [frozenset(m.calls) for m in dec.moves]
        assert len(set(calls)) == len(calls) and 1 < len(calls) <= 64
        assert all(g.can(m) for m in dec.moves)
        assert [m.calls for m in MoveDecision.of_game(g, s, 64).moves] == [
            m.calls for m in dec.moves]
        short = MoveDecision.of_game(g, s, 3).moves
        assert len(short) == 3 and short[0] == dec.moves[0]
