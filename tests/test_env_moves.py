"""Whole-move mode (shengji.env.moves, ``actions="moves"``): PettingZoo's api_test and
OpenSpiel's sim tests in that mode, every listed move legal, the features describe the
moves, the lists are a function of the state, and burials/calls sample within the cap."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from shengji.engine.actions import Bury
from shengji.env import env, raw_env
from shengji.env.building import KINDS
from shengji.env.moves import MOVE_FEATURES

pyspiel = pytest.importorskip("pyspiel")
import shengji.env.openspiel as sos  # noqa: E402


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("variant", ["two-deck-80", "finding-friends"])
def test_pettingzoo_api_test_moves(variant):
    api_test(env(variant, actions="moves"), num_cycles=300)


@pytest.mark.parametrize("variant", ["one-deck-40", "two-deck-80"])
def test_openspiel_random_sim_test_moves(variant):
    game = pyspiel.load_game(sos.SHORT_NAME, {"variant": variant, "actions": "moves"})
    assert game.num_distinct_actions() == 256
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_games_sim_test_moves():
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    np.random.seed(1)
    GamesSimTest().sim_game(pyspiel.load_game(
        sos.SHORT_NAME, {"variant": "one-deck-40", "actions": "moves", "max_moves": 64}))


@pytest.mark.parametrize("variant, max_moves", [("two-deck-80", 256), ("finding-friends", 16),
                                                ("one-deck-40", 4)])
def test_every_listed_move_is_legal_and_described(variant, max_moves):
    e = raw_env(variant, actions="moves", max_moves=max_moves)
    rng = random.Random(5)
    kinds = set()
    for seed in range(2):
        e.reset(seed=seed)
        for _agent in e.agent_iter(10_000):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            dec = e.unwrapped.decision
            g = e.unwrapped.game
            n = len(dec.moves)
            kinds.add(dec.kind)
            assert 1 <= n <= max_moves
            assert list(np.flatnonzero(obs["action_mask"])) == list(range(n))
            f = obs["moves"]
            assert f.shape == (max_moves, MOVE_FEATURES) and not f[n:].any()
            assert (f[:n, KINDS.index(dec.kind)] == 1).all()
            for m, row in zip(dec.moves, f[:n], strict=False):
                cards = getattr(m, "cards", None)
                if cards is not None:
                    assert np.array_equal(row[len(KINDS):len(KINDS) + 54],
                                          np.bincount(cards, minlength=54))
                    assert g.can(m), f"listed move {m} is not legal"
            assert len({repr(m) for m in dec.moves}) == n, "moves are distinct"
            e.step(rng.randrange(n))
    assert {"declare", "bury", "lead", "follow"} <= kinds


def test_lists_are_a_function_of_the_state():
    a, b = (raw_env("two-deck-80", actions="moves", max_moves=8) for _ in range(2))
    for e in (a, b):
        e.reset(seed=11)
    rng = random.Random(0)
    for _ in range(60):
        da, db = a.decision, b.decision
        assert [repr(m) for m in da.moves] == [repr(m) for m in db.moves]
        i = rng.randrange(len(da.moves))
        a.step(i)
        b.step(i)


def test_burial_list_starts_with_the_heuristic_burial():
    e = raw_env("two-deck-80", actions="moves", max_moves=32)
    e.reset(seed=2)
    while e.decision.kind != "bury":
        e.step(0)
    moves = e.decision.moves
    assert len(moves) == 32 and all(type(m) is Bury for m in moves)
    assert len({m.cards for m in moves}) == 32


def _reference_features(view, variant, moves, kind, max_moves):
    """Each move's features computed one by one (the module computes them as arrays)."""
    from shengji.cards import point_value
    from shengji.engine.actions import Pass

    out = np.zeros((max_moves, MOVE_FEATURES), dtype=np.float32)
    c0, tail = len(KINDS), len(KINDS) + 54
    for i, m in enumerate(moves):
        out[i, KINDS.index(kind)] = 1
        cards = getattr(m, "cards", None)
        if cards is None:
            cards = tuple(c for n, c in getattr(m, "calls", ()) for _ in range(n))
        for c in cards:
            out[i, c0 + c] += 1
        out[i, tail:tail + 4] = [len(cards), sum(point_value(c) for c in cards),
                                 type(m) is Pass, len(set(cards))]
    if not view.trump_set:
        return out
    ctx = variant.context(view.level, view.trump)
    strength = [ctx.strength(k) for k in range(54)]
    trick = view.trick
    partner, pts, joined = 0.0, 0, b""
    for _, cards in trick:
        joined += bytes(np.bincount(cards, minlength=54).astype(np.uint8))
        pts += sum(point_value(c) for c in cards)
    if trick:
        w = trick[ctx.trick_winner([list(c) for _, c in trick]) if len(trick) > 1 else 0][0]
        partner = float(view.same_side(w, view.seat) is True)
    for i, m in enumerate(moves):
        cards = getattr(m, "cards", None)
        if not cards:
            continue
        wins = 0
        if kind == "follow" and trick:
            c = bytes(np.bincount(cards, minlength=54).astype(np.uint8))
            wins = ctx._winner_of(joined + c, len(trick) + 1) == len(trick)
        out[i, tail + 4:tail + 9] = [sum(ctx.effective_suit(c) == 4 for c in cards),
                                     max(strength[c] for c in cards) / max(strength),
                                     wins, partner, pts]
    return out


@pytest.mark.parametrize("variant", ["two-deck-80", "finding-friends"])
def test_features_equal_the_move_by_move_reference(variant):
    from shengji.env.moves import MoveDecision

    e = raw_env(variant, actions="moves", max_moves=64)
    e.reset(seed=9)
    rng = random.Random(9)
    checked = set()
    while not e.game.over:
        g = e.game
        s = g.to_act
        dec = MoveDecision.of_game(g, s, 64)
        want = _reference_features(g.view(s), g.variant, dec.moves, dec.kind, 64)
        assert np.allclose(dec.features(), want), dec.kind
        checked.add(dec.kind)
        e.step(rng.randrange(len(e.decision.moves)))
    assert {"lead", "follow", "bury"} <= checked


def test_move_layout_names_every_column():
    """MOVE_LAYOUT.split names the feature columns (no offsets to count): the kind is
    one-hot, n_cards and n_kinds follow from the cards, a single row splits too."""
    from shengji.env.moves import MOVE_FEATURES, MOVE_LAYOUT

    assert MOVE_LAYOUT.size == MOVE_FEATURES == 70
    assert [n for n, _ in MOVE_LAYOUT.pieces][:2] == ["kind", "cards"]
    assert MOVE_LAYOUT.index["wins"] == MOVE_LAYOUT.slices["wins"][0] == 67
    e = raw_env("two-deck-80", actions="moves")
    e.reset(seed=3)
    rng = random.Random(3)
    seen = set()
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        n = int(obs["action_mask"].sum())
        f = MOVE_LAYOUT.split(obs["moves"][:n])
        assert (f["kind"].sum(-1) == 1).all() and f["kind"].shape == (n, 7)
        assert np.array_equal(f["n_cards"], f["cards"].sum(-1))
        assert np.array_equal(f["n_kinds"], (f["cards"] > 0).sum(-1))
        row = MOVE_LAYOUT.split(obs["moves"][0])
        assert row["cards"].shape == (54,) and row["wins"] == obs["moves"][0, 67]
        seen.add(int(np.argmax(f["kind"][0])))
        e.step(rng.randrange(n))
    assert {1, 2, 3} <= seen  # burials, leads and follows
