"""The OpenSpiel game's play phase in C (shengji.env.cplay, as in the PettingZoo
environment) against the per-step Python path (``cplay.ENABLED = False``): the same
legal actions, observation tensors, returns, events and actions on the same seeded deals,
and clones, pickles and serialised states taken while C plays that go on exactly as the
original does."""

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402

import shengji.env.openspiel  # noqa: E402, F401 - registers the game
from shengji.env import cplay  # noqa: E402

pytestmark = pytest.mark.skipif(cplay.lib is None, reason="no C core")


def _chance(state, rng):
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    return rng.choices(outcomes, probs)[0]


def _trace(variant, seed, c, peek=0.0):
    """A random deal: at every decision the seat's legal actions and observation tensor
    (now and then every seat's); with ``peek``, the state's ``game`` read now and then
    (C hands over mid-decision and takes up again at the next play)."""
    old = cplay.ENABLED
    cplay.ENABLED = c
    try:
        game = pyspiel.load_game("shengji", {"variant": variant})
        obs = make_observation(game)
        state = game.new_initial_state()
        rng = random.Random(seed)
        out, used_c = [], False
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_chance(state, rng))
                continue
            used_c |= state._cp is not None
            p = state.current_player()
            seats = range(game.num_players()) if rng.random() < 0.1 else (p,)
            for s in seats:
                obs.set_from(state, s)
                out.append((s, obs.tensor.tobytes()))
            legal = state.legal_actions()
            out.append((p, tuple(legal)))
            if peek and rng.random() < peek:
                out.append(len(state.game.actions))
            state.apply_action(rng.choice(legal))
        g = state.game
        return (out, state.returns(), list(map(repr, g.events)), list(map(repr, g.actions)),
                state.history(), used_c, state)
    finally:
        cplay.ENABLED = old


@pytest.mark.parametrize("variant,seeds", [
    ("two-deck-80", 3), ("one-deck-40", 2), ("four-deck", 1),  # four-deck: no throws
    ("finding-friends", 2), ("three-deck-titanic", 1)])
def test_c_play_phase_equals_python(variant, seeds):
    for seed in range(seeds):
        a = _trace(variant, seed, False)
        b = _trace(variant, seed, True)
        assert b[5] and not a[5]  # the C path was taken, and only there
        assert a[0] == b[0]  # observations and legal actions, step by step
        assert a[1:5] == b[1:5]  # returns, events, actions, history
        sa, sb = a[6], b[6]
        for p in range(sa.num_players()):  # the information state, caught up at the end
            assert sa.information_state_string(p) == sb.information_state_string(p)
            assert sa.information_state_tensor(p) == sb.information_state_tensor(p)


def test_reading_game_mid_decision_hands_over_exactly():
    b = _trace("two-deck-80", 5, True, peek=0.05)
    c = _trace("two-deck-80", 5, False, peek=0.05)
    assert b[5] and any(isinstance(x, int) for x in b[0])
    assert b[0] == c[0] and b[1:5] == c[1:5]


def _in_c_play(game, rng):
    """A state whose play phase runs in C, a few plays in and a card or two built."""
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        elif state._cp is not None and state._cp.st.trick_number >= 2 and state._cp.b.n:
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def _finish(state, rng, obs):
    out = []
    while not state.is_terminal():
        p = state.current_player()
        obs.set_from(state, p)
        legal = state.legal_actions()
        out.append((obs.tensor.tobytes(), tuple(legal)))
        state.apply_action(rng.choice(legal))
    return out, state.returns(), list(map(repr, state.game.events)), state.history()


@pytest.mark.parametrize("variant", ["two-deck-80", "finding-friends"])
def test_copies_taken_in_c_go_on_as_the_original(variant):
    game = pyspiel.load_game("shengji", {"variant": variant})
    obs = make_observation(game)
    state = _in_c_play(game, random.Random(7))
    copies = [state.clone(), pickle.loads(pickle.dumps(state)),
              game.deserialize_state(state.serialize())]
    assert all(c._cp is not None for c in copies[:2])  # copied in C, not handed over
    assert state._cp is not None  # copying leaves the original in C
    want = _finish(state, random.Random(8), obs)
    for c in copies:
        assert _finish(c, random.Random(8), obs) == want
    # and the Python path from the same point (the same seeded deal without C)
    old = cplay.ENABLED
    cplay.ENABLED = False
    try:
        py = _in_c_play_py(game, random.Random(7))
        assert _finish(py, random.Random(8), obs) == want
    finally:
        cplay.ENABLED = old


def _in_c_play_py(game, rng):
    """``_in_c_play``'s state on the Python path: the same draws, stopped at the same
    step (found by replaying the C path's history)."""
    cplay.ENABLED = True
    target = _in_c_play(game, rng).history()
    cplay.ENABLED = False
    state = game.new_initial_state()
    for a in target:
        state.apply_action(a)
    assert state._cp is None and state.decision.cards  # mid-decision, in Python
    return state


def test_clone_in_c_is_independent():
    game = pyspiel.load_game("shengji", {"variant": "two-deck-80"})
    state = _in_c_play(game, random.Random(3))
    before = str(state.clone())
    c = state.clone()
    c.apply_action(c.legal_actions()[0])
    while c.current_player() == state.current_player():
        c.apply_action(c.legal_actions()[-1])
    assert str(state) == before and str(c) != before


def test_illegal_action_in_c_is_refused_as_in_python():
    game = pyspiel.load_game("shengji", {"variant": "two-deck-80"})
    msgs = []
    for state in (_in_c_play(game, random.Random(4)), _python_twin(game, 4)):
        bad = next(a for a in range(60) if a not in state.legal_actions())
        with pytest.raises(ValueError) as e:
            state.apply_action(bad)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1] and "not legal" in msgs[0]


def _python_twin(game, seed):
    old = cplay.ENABLED
    try:
        return _in_c_play_py(game, random.Random(seed))
    finally:
        cplay.ENABLED = old


def test_resampling_a_state_in_c():
    import shengji.env.openspiel as sos

    game = pyspiel.load_game("shengji", {"variant": "two-deck-80"})
    state = _in_c_play(game, random.Random(9))
    player = state.current_player()
    legal = state.legal_actions()
    r = sos.resample(state, player, random.Random(0))
    assert state._cp is not None  # the original stays in C
    assert r.legal_actions() == legal
    assert r.information_state_string(player) == state.information_state_string(player)
    assert r.game.hands[player] == state.game.hands[player]
