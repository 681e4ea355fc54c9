"""The OpenSpiel game (shengji.env.openspiel): OpenSpiel's own game checks (the C++
random simulation test and the Python games_sim_test) on several variants, pickling,
information-set MCTS with random rollouts, and the resampler's promises."""

import pickle
import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # wheels for Linux x86_64 (test extra there)

import shengji.env.openspiel as sos  # noqa: E402
from shengji.env.building import DONE  # noqa: E402

LONG = pytest.mark.long


def load(variant):
    return pyspiel.load_game(sos.SHORT_NAME, {"variant": variant})


@pytest.mark.parametrize("variant, sims", [
    ("one-deck-40", 1), ("two-deck-80", 1),
    pytest.param("two-deck-80", 5, marks=LONG), pytest.param("four-deck", 3, marks=LONG),
    pytest.param("three-deck-titanic", 3, marks=LONG),
    pytest.param("constant-two", 3, marks=LONG), pytest.param("house/turn-kitty", 3, marks=LONG),
    pytest.param("house/kitty-theft", 3, marks=LONG),
    pytest.param(str(Path(__file__).parent / "cases" / "house" / "kitty-theft.yaml"), 3,
                 marks=LONG, id="take-back"),
])
def test_openspiel_random_sim_test(variant, sims):
    # OpenSpiel's C++ checks: legal-action masks, chance probabilities, clone and
    # serialisation round trips, observations and information states for every player
    pyspiel.random_sim_test(load(variant), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", [
    "one-deck-40", pytest.param("three-deck-titanic", marks=LONG),
    pytest.param("two-deck-80", marks=LONG)])
def test_games_sim_test(variant):
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    t = GamesSimTest()  # its sim_game checks, outside absltest
    np.random.seed(3)
    t.sim_game(load(variant))  # pickling, clone checks, utilities in bounds


@pytest.mark.parametrize("players", [6, pytest.param(8, marks=LONG), pytest.param(5, marks=LONG)])
def test_openspiel_at_other_seat_counts(tmp_path, players):
    from research_tables import write_tables

    path = write_tables(tmp_path / "tables.yaml")
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": path, "players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def random_state(game, rng, stop):
    state = game.new_initial_state()
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_deal_ends_with_level_returns():
    game = load("two-deck-80")
    state = random_state(game, random.Random(0), lambda s: False)
    g = state.game
    (scored,) = [e for e in g.events if type(e).__name__ == "DealScored"]
    want = [scored.rise if s in scored.rising else -scored.rise for s in range(g.players)]
    assert state.returns() == want
    assert len(state.history()) > 108  # the chance player ordered the whole deck first


def test_state_pickles_and_clones():
    game = load("one-deck-40")
    state = random_state(game, random.Random(1), lambda s: s.game is not None
                         and s.game.phase == "play" and len(s.game.tricks) == 3)
    for other in (pickle.loads(pickle.dumps(state)), state.clone()):
        assert str(other) == str(state) and other.history() == state.history()
        assert other.legal_actions() == state.legal_actions()
    c = state.clone()
    c.apply_action(c.legal_actions()[0])
    assert str(c) != str(state)


def test_resample_keeps_the_information_state():
    game = load("two-deck-80")
    rng = random.Random(2)
    for phase, tricks in (("deal", 0), ("bury", 0), ("play", 4), ("play", 11)):
        state = random_state(game, rng, lambda s, p=phase, n=tricks: s.game is not None
                             and s.game.phase == p and len(s.game.tricks) >= n)
        if state.is_terminal():
            continue
        player = state.current_player()
        info = state.information_state_string(player)
        g = state.game
        changed = False
        for i in range(5):
            r = sos.resample(state, player, random.Random(i))
            assert r.information_state_string(player) == info
            assert r.legal_actions() == state.legal_actions()
            assert r.game.hands[player] == g.hands[player]
            hidden = sum(map(sum, r.game.hands)) + sum(r.game.buried)
            assert hidden == sum(map(sum, g.hands)) + sum(g.buried)
            changed |= any(r.game.hands[s] != g.hands[s] for s in range(4) if s != player)
            # the sampled world plays on legally to the end
            end = random_state_from(r, random.Random(i))
            assert end.is_terminal()
        assert changed


def random_state_from(state, rng):
    s = state.clone()
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def test_ismcts_with_random_rollouts_plays_a_deal():
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("one-deck-40")
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng,
                           allow_inconsistent_action_sets=True)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0 and state.game.phase == "play" and searched < 6:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched == 6
    assert len(state.returns()) == 4


def test_actions_and_outcomes_print():
    game = load("one-deck-40")
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 53) == "deck:BJ"
    state = random_state(game, random.Random(4), lambda s: s.game is not None)
    assert state.action_to_string(state.current_player(), DONE) == "done"
    assert game.num_distinct_actions() == 60 and game.max_chance_outcomes() == 54


@pytest.mark.parametrize("outcome", [-2, 54, 10**6])  # (-1: pyspiel refuses it)
def test_a_chance_outcome_that_is_no_card_kind_is_a_clear_error(outcome):
    state = load("two-deck-80").new_initial_state()
    with pytest.raises(ValueError, match=f"chance outcome {outcome}: not a card kind"):
        state.apply_action(outcome)
    state.apply_action(0)  # the state is unharmed: a real outcome still applies
    assert len(state.history()) == 1
