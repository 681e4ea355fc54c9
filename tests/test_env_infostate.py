"""The OpenSpiel game's information-state tensor (shengji.env.infostate): fixed size,
the seat's dealt cards in order, one row per event it saw, its own building last; the
tensor changes with every action of the seat (it recalls its own moves)."""

import random

import numpy as np
import pyspiel
import pytest

import shengji.env.openspiel  # noqa: F401 - registers the game
from shengji.env.infostate import ROW_TYPES


def _play(variant, seed, check):
    game = pyspiel.load_game("shengji", {"variant": variant})
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        check(game, s)
        s.apply_action(rng.choice(s.legal_actions()))
    return game, s


@pytest.mark.parametrize("variant", ["two-deck-80", "finding-friends"])
def test_information_state_tensor(variant):
    last = {}

    def check(game, s):
        p = s.current_player()
        t = np.asarray(s.information_state_tensor(p))
        assert t.shape == (game.info_layout.size,)
        parts = game.info_layout.split(t)
        dealt = parts["dealt"]
        assert set(np.unique(dealt)) <= {0.0, 1.0} and (dealt.sum(1) <= 1).all()
        # the dealt rows are this seat's cards as dealt: in hand or played/buried since
        n_dealt = int(dealt.sum())
        assert n_dealt == len(s.info.dealt[p])
        rows = parts["events"]
        used = rows[:, :len(ROW_TYPES)].sum(1)
        n = int(used.sum())
        assert (used[:n] == 1).all() and not used[n:].any(), "rows are packed, in order"
        building = bool(s.decision.cards) or (s.decision.kind == "call" and bool(
            s.decision._set.chosen or s.decision._set.pending))
        assert n == len(s.info.rows[p]) + building
        # perfect recall: every action of this seat changed its information state
        if p in last:
            assert not np.array_equal(last[p], t)
        last[p] = t

    _play(variant, 1, check)


def test_tensor_and_string_agree_on_the_seat():
    game = pyspiel.load_game("shengji", {"variant": "one-deck-40"})
    s = game.new_initial_state()
    rng = random.Random(0)
    while s.is_chance_node():
        s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
    # seats see different dealt cards
    a, b = (np.asarray(s.information_state_tensor(p)) for p in (0, 1))
    assert not np.array_equal(a, b)



@pytest.mark.parametrize("variant", ["house/turn-kitty", "finding-friends"])
def test_kept_tensor_equals_one_written_in_full(variant):
    """Each seat's tensor is kept and only the rows added since are written into it: at
    every decision, for every seat, it equals the tensor a cold copy writes in full,
    through redeals (house/turn-kitty redeals a first deal nobody declares: every seat
    passes in the first two attempts here) and in clones."""
    game = pyspiel.load_game("shengji", {"variant": variant})
    layout = game.info_layout
    redeal = ROW_TYPES.index("redeal")
    rng = random.Random(5)
    s = game.new_initial_state()
    steps = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        for p in range(game.num_players()):
            kept = s.info.tensor(layout, p)
            assert np.array_equal(kept, s.info.copy().tensor(layout, p)), (steps, p)
        if steps % 25 == 0:  # a clone starts cold and agrees
            c = s.clone()
            for p in range(game.num_players()):
                assert c.information_state_tensor(p) == s.information_state_tensor(p)
        redeals = sum(r[0] == redeal for r in s.info.rows[0])
        acts = s.legal_actions()
        names = [s.action_to_string(a) for a in acts]
        if s.decision.kind == "declare" and "done" in names and redeals < 2:
            s.apply_action(acts[names.index("done")])
        else:
            s.apply_action(rng.choice(acts))
        steps += 1
    if variant == "house/turn-kitty":
        assert sum(r[0] == redeal for r in s.info.rows[0]) == 2


@pytest.mark.parametrize("variant,params", [
    ("two-deck-80", {}), pytest.param("finding-friends", {"players": 6},
                                      marks=pytest.mark.long),
    ("one-deck-40", {"actions": "moves", "max_moves": 16})])
def test_information_state_tensor_list_equals_pyspiels_and_a_cold_copy(variant, params):
    """``state.information_state_tensor(p)`` (a list kept per seat; C's plays read from
    its log before the game has them) is what pyspiel's own path gives (the observer's
    tensor converted by C++) and what a clone handed over to the Python path writes in
    full, for every seat at every decision, whether C's plays go to the game now and
    then (the text information state reads them) or only at the end."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("shengji", {"variant": variant, **params})
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for hand_over in (False, True):
        rng = random.Random(hand_over)
        s = game.new_initial_state()
        steps = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
                continue
            if hand_over and steps % 4 == 0:
                s.information_state_string(s.current_player())  # C's plays to the game
            if steps % 9 == 0:
                c = s.clone()
                c.game  # noqa: B018 - hands a clone's C play phase over to the Game
                for p in range(game.num_players()):
                    fast = s.information_state_tensor(p)
                    assert type(fast) is list and all(type(x) is float for x in fast[:99])
                    assert fast == pyspiel.State.information_state_tensor(s, p), (steps, p)
                    assert fast == c.information_state_tensor(p), (steps, p)
                    obs.set_from(s, p)
                    assert fast == obs.tensor.tolist()
            else:
                s.information_state_tensor(s.current_player())
            s.apply_action(rng.choice(s.legal_actions()))
            steps += 1
        assert steps > 40
    with pytest.raises(pyspiel.SpielError):
        s.information_state_tensor(game.num_players())


def test_sizes_in_the_docs_are_the_games():
    """docs/rl.md's table of tensor sizes is the code's (issue 39: the page said 33,480
    where the game declared 33,158)."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "rl.md").read_text("utf-8")
    rows = re.findall(r"^  \| (two-deck-80|finding-friends, 6 seats|one-deck-40) \| "
                      r"([\d,]+) \| ([\d,]+) \((\d+)×54 \+ (\d+)×(\d+)\) \|$", text, re.M)
    assert len(rows) == 3
    for name, obs, info, hand, rows_, width in rows:
        variant, _, seats = name.partition(", ")
        game = pyspiel.load_game("shengji", {"variant": variant,
                                             "players": int(seats.split()[0]) if seats else 0})
        lay = game.info_layout
        assert int(obs.replace(",", "")) == game.observation_tensor_size()
        assert int(info.replace(",", "")) == game.information_state_tensor_size() == lay.size
        assert (int(hand), int(rows_), int(width)) == (lay.hand, lay.rows, lay.width)
