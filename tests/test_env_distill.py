"""The distillation warm start (shengji.env.distill): the teacher's recorded move is the
one it played, the cross-entropy's gradients match finite differences, a few deals and
a fit give a finite loss that falls, and the checkpoint saves and loads for the learned
bot's inference."""

import math

import numpy as np
import pytest

from shengji.bots import make_bot
from shengji.engine.game import Game
from shengji.env.distill import Distiller, _pack, ce_loss_and_grads, main, move_key
from shengji.env.moves import MoveDecision
from shengji.env.qnet import QNet
from shengji.variants import load_variant


def test_cross_entropy_gradients_match_finite_differences():
    net = QNet(np.ones(12, np.float32) * 3, hidden=6, hidden2=4, seed=2)
    net.params = {k: v.astype(np.float64) for k, v in net.params.items()}
    rng = np.random.default_rng(0)
    S = rng.random((3, 12))
    A = [rng.random((k, 70)) for k in (2, 5, 3)]
    y = np.array([1, 4, 0])
    args = (S, *_pack(A, y, np.arange(3)))
    loss, g = ce_loss_and_grads(net, *args)
    # three decisions of 2, 5 and 3 moves: near log(n) each before training
    assert abs(loss - np.mean(np.log([2, 5, 3]))) < 1.0
    for name in ("W2", "Ws", "Wa", "b1", "w3"):
        p = net.params[name].reshape(-1)
        i = int(np.argmax(np.abs(g[name].reshape(-1))))
        old = p[i]
        p[i] = old + 1e-6
        up, _ = ce_loss_and_grads(net, *args)
        p[i] = old - 1e-6
        down, _ = ce_loss_and_grads(net, *args)
        p[i] = old
        assert abs((up - down) / 2e-6 - g[name].reshape(-1)[i]) < 1e-5, name


def test_recorded_label_is_the_teachers_move():
    v = load_variant("two-deck-80")
    g = Game(v, "distill-label", max_deals=1)
    bot = make_bot("heuristic", v, "t")
    found = 0
    while not g.over and found < 20:
        s = g.to_act
        action = bot.act(g.view(s), g.legal_actions(s))
        dec = MoveDecision.of_game(g, s, 64)
        hits = [m for m in dec.moves if move_key(m) == move_key(action)]
        if hits:
            found += 1
            assert len(hits) == 1  # a listed move is one key: the label is exact
        g.apply(action)
    assert found == 20


def test_distill_few_deals_finite_loss_that_falls_and_round_trip(tmp_path):
    d = Distiller("one-deck-40", hidden=16, hidden2=8, lr=3e-3, batch=64, max_moves=16,
                  opponents="random")
    for _ in range(3):
        d.play_deal()
    assert d.deals == 3 and len(d.y) == len(d.S) == len(d.A) > 20
    assert all(0 <= y < len(a) and len(a) > 1 for y, a in zip(d.y, d.A, strict=True))
    assert d.skipped < len(d.y) / 4  # the teacher's move is nearly always listed
    rows = d.fit(epochs=15)
    assert all(math.isfinite(r["loss"]) for r in rows)
    assert rows[-1]["loss"] < rows[0]["loss"]
    path = tmp_path / "warm.npz"
    d.net.save(path)
    back = QNet.load(path)
    S, A, _ = d.arrays()
    assert np.allclose(back.q_values(S[0], A[0]), d.net.q_values(S[0], A[0]))
    assert back.meta["trainer"] == "shengji.env.distill" and back.meta["max_moves"] == 16


def test_distill_command_line(tmp_path, capsys):
    out = tmp_path / "w.npz"
    main(["--variant", "one-deck-40", "--deals", "2", "--epochs", "1",
          "--eval-boards", "0", "--out", str(out)])
    assert "saved" in capsys.readouterr().out
    assert QNet.load(out).meta["distill_deals"] == 2


def test_samples_saved_and_loaded_fit_the_same(tmp_path):
    """A slow teacher's samples are saved once and fitted later: the loaded samples are
    the saved ones (observations to float16 precision), with the deals' records."""
    d = Distiller("one-deck-40", hidden=8, hidden2=4, max_moves=16, opponents="random")
    d.play_deal()
    path = tmp_path / "samples.npz"
    d.save_samples(path)
    e = Distiller("one-deck-40", hidden=8, hidden2=4, max_moves=16)
    assert e.load_samples(path) == len(d.y) > 0
    assert e.y == d.y and e.at == d.at and e.records == d.records and e.deals == 1
    assert all(np.array_equal(a, b) for a, b in zip(e.A, d.A, strict=True))
    assert np.allclose(np.asarray(e.S), np.asarray(d.S), rtol=1e-3)
    # a decision's place replays to the state it was listed in
    from shengji.engine.serial import loads
    deal, at = d.at[0]
    g = loads(d.records[deal])
    assert len(g.actions) >= at
    other = Distiller("one-deck-40", max_moves=8)
    with pytest.raises(ValueError, match="16 moves"):
        other.load_samples(path)


def test_a_searching_teachers_values_are_kept_with_its_choice(tmp_path):
    """With mc as the teacher each sample keeps mc's mean outcome of the listed moves
    its search judged (NaN for the others): its choice is a judged move (the best of the
    last round of its successive halving: a candidate dropped earlier, on fewer worlds,
    may show a higher mean); the values survive saving."""
    d = Distiller("one-deck-40", teacher="mc:budget=60", opponents="random", hidden=8,
                  hidden2=4, max_moves=16)
    d.play_deal()
    judged = [(v, y) for v, y in zip(d.V, d.y, strict=True) if np.isfinite(v).any()]
    assert len(d.V) == len(d.y) and len(judged) >= 3
    assert all(np.isfinite(v[y]) for v, y in judged)
    assert sum(v[y] == np.nanmax(v) for v, y in judged) > len(judged) / 2
    path = tmp_path / "s.npz"
    d.save_samples(path)
    e = Distiller("one-deck-40", max_moves=16)
    e.load_samples(path)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(e.V, d.V, strict=True))
    # the student's checkpoint names the teacher of the samples it fitted, not its own
    assert e.net.meta["teacher"] == "mc:budget=60"
    assert e.net.meta["sample_files"] == [{"file": "s.npz", "teacher": "mc:budget=60",
                                           "deals": 1, "samples": len(d.y)}]


def test_soft_targets_and_their_gradients():
    """Targets spread over the judged moves by their values: each decision's sums to 1,
    the choice keeps 1 - mix; the cross-entropy's gradients against them match finite
    differences, and with one-hot targets it is the plain cross-entropy."""
    from shengji.env.distill import soft_targets

    nan = np.nan
    V = [np.array([0.2, nan, 0.5], np.float32), np.array([nan, nan], np.float32),
         np.array([0.1, 0.1, nan, 0.3, 0.0], np.float32)]
    y = np.array([2, 1, 3])
    t = soft_targets(V, y, range(3), 0.5, 0.1)
    parts = np.split(t, [3, 5])
    assert all(abs(x.sum() - 1) < 1e-6 for x in parts)
    assert parts[1].tolist() == [0, 1] and parts[0][1] == 0 and parts[0][2] > 0.5
    net = QNet(np.ones(12, np.float32) * 3, hidden=6, hidden2=4, seed=2)
    net.params = {k: v.astype(np.float64) for k, v in net.params.items()}
    rng = np.random.default_rng(0)
    S = rng.random((3, 12))
    A = [rng.random((len(v), 70)) for v in V]
    args = (S, *_pack(A, y, np.arange(3)))
    hard = np.concatenate([np.eye(len(v))[k] for v, k in zip(V, y, strict=True)])
    assert np.isclose(ce_loss_and_grads(net, *args)[0],
                      ce_loss_and_grads(net, *args, targets=hard)[0])
    loss, g = ce_loss_and_grads(net, *args, targets=t)
    for name in ("W2", "Ws", "Wa"):
        q = net.params[name].reshape(-1)
        i = int(np.argmax(np.abs(g[name].reshape(-1))))
        old = q[i]
        q[i] = old + 1e-6
        up, _ = ce_loss_and_grads(net, *args, targets=t)
        q[i] = old - 1e-6
        down, _ = ce_loss_and_grads(net, *args, targets=t)
        q[i] = old
        assert abs((up - down) / 2e-6 - g[name].reshape(-1)[i]) < 1e-5, name


def test_suit_permutations_are_the_same_deal_with_the_suits_renamed():
    """SuitPermutations' view of an observation is the observation of the same deal with
    the plain suits renamed: a deal is played (OpenSpiel, card by card), then dealt again
    with every card of suit s as the same rank of suit σ(s) (σ keeping the trump suit)
    and the same actions renamed; at each decision's start the second deal's observation
    is the first's permuted, and a permutation and its inverse give the sample back."""
    import random

    import pyspiel

    import shengji.env.openspiel  # noqa: F401 - registers the game
    from shengji.env.building import DONE
    from shengji.env.distill import SuitPermutations

    game = pyspiel.load_game("shengji", {"variant": "two-deck-80"})
    layout = game.encoder.layout
    perms = SuitPermutations(layout)
    rng = random.Random(4)
    s = game.new_initial_state()
    history, obs1 = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice([x for x, _ in s.chance_outcomes()])
        else:
            if not s.decision.cards:  # a decision's start: building nothing yet
                obs1.append(np.array(s.observation_tensor(s.current_player()), np.float32))
            a = rng.choice(s.legal_actions())
        history.append((s.is_chance_node(), a))
        s.apply_action(a)
    t = s.game.trump if s.game.trump is not None and s.game.trump < 4 else None
    i = next(i for i, p in enumerate(perms.perms) if p != (0, 1, 2, 3) and
             (t is None or p[t] == t))
    perm = perms.perms[i]

    def rename(k):
        return k if k >= 52 else perm[k // 13] * 13 + k % 13

    s2 = game.new_initial_state()
    obs2 = []
    group: list = []  # one decision's actions: its cards, then DONE
    for chance, a in history:
        if chance:
            s2.apply_action(rename(a))
            continue
        group.append(a)
        if a < DONE:
            continue
        obs2.append(np.array(s2.observation_tensor(s2.current_player()), np.float32))
        for c in sorted((rename(x) for x in group[:-1]), reverse=True):
            s2.apply_action(c)
        s2.apply_action(a)
        group = []
    assert s2.is_terminal() and s2.returns() == s.returns()
    assert len(obs1) == len(obs2) > 60
    for x, y in zip(obs1, obs2, strict=True):
        assert np.array_equal(x[perms.obs[i]], y)
    back = perms.obs[perms.perms.index(tuple(np.argsort(perm)))]
    assert np.array_equal(obs1[50][perms.obs[i]][back], obs1[50])


def _labels_and_plays(d: Distiller):
    """Per sample: the labelled move (rebuilt at the recorded position), the action the
    record shows played there, and the position."""
    from shengji.engine.serial import loads

    games = [loads(r) for r in d.records]
    for (deal, k), moves, y in zip(d.at, d.A, d.y, strict=True):
        whole = games[deal]
        g = Game.replay(whole.variant, whole.seed, whole.actions[:k], max_deals=whole.max_deals)
        dec = MoveDecision.of_game(g, g.to_act, 16)
        assert len(dec.moves) == len(moves)
        yield dec.moves[y], whole.actions[k], g


def test_with_a_behaviour_bot_the_teacher_labels_and_the_behaviour_plays():
    """DAgger (--behaviour): at the teacher's seats every lead and follow is labelled
    with the teacher's choice (a fresh teacher picks the same move at the recorded
    position) while the move played there is the behaviour bot's, so the record and
    the labels part; declaring and burying stay the teacher's. Without a behaviour bot
    the record plays every label."""
    from shengji.engine.actions import Play

    d = Distiller("one-deck-40", teacher="heuristic", behaviour="random", opponents="random",
                  hidden=8, hidden2=4, max_moves=16, seed=3)
    d.play_deal()
    d.play_deal()
    assert d.net.meta["behaviour"] == "random"
    teacher_agrees = parted = plays = 0
    for label, played, g in _labels_and_plays(d):
        teacher = make_bot("heuristic", g.variant, "check")
        s = g.to_act
        teacher_agrees += move_key(teacher.act(g.view(s), g.legal_actions(s))) == move_key(label)
        if isinstance(played, Play):
            plays += 1
            parted += move_key(played) != move_key(label)
        else:  # declaring and burying: the teacher's own
            assert move_key(played) == move_key(label)
    assert plays >= 10 and teacher_agrees == len(d.y)
    assert parted >= plays // 3  # random and heuristic pick apart often

    plain = Distiller("one-deck-40", teacher="heuristic", opponents="random", hidden=8,
                      hidden2=4, max_moves=16, seed=3)
    plain.play_deal()
    pairs = list(_labels_and_plays(plain))
    assert len(pairs) >= 10
    assert all(move_key(label) == move_key(played) for label, played, _ in pairs)
