"""The DMC trainer (shengji.env.dmc) runs a few steps, its loss is finite and falls on a
fixed batch, checkpoints save and load to the same Q values; the policy adapter
(shengji.env.policy) plays any callable as a bot in whole-move and card-by-card modes,
its observation equals the environments'."""

import math
import random

import numpy as np
import pytest

from shengji.bots import make_bot
from shengji.engine.game import Game
from shengji.engine.runner import play
from shengji.env import raw_env
from shengji.env.dmc import Trainer, outcome, target
from shengji.env.observation import Encoder
from shengji.env.policy import policy_bot
from shengji.env.qnet import QNet
from shengji.env.viewobs import SeatMemory, ViewEncoder
from shengji.errors import ShengjiError
from shengji.harness.arena import arena
from shengji.variants import load_variant


def test_trainer_steps_finite_loss_and_checkpoint_round_trip(tmp_path):
    t = Trainer("one-deck-40", fit_every=64, max_moves=16, hidden=16, hidden2=8)
    losses = [x for x in (t.step() for _ in range(6)) if x is not None]
    assert losses and all(math.isfinite(x) for x in losses)
    assert t.samples > 0 and t.deals == 6
    path = tmp_path / "m.npz"
    t.net.save(path)
    back = QNet.load(path)
    obs = np.random.default_rng(0).random(len(t.env.layout.high)).astype(np.float32)
    moves = np.random.default_rng(1).random((5, 70)).astype(np.float32)
    assert np.allclose(back.q_values(obs, moves), t.net.q_values(obs, moves))
    assert back.meta["variant"] == "one-deck-40" and back.meta["max_moves"] == 16
    point = t.evaluate(boards=1)  # duplicate: the board at both teams' seats
    assert point["deals"] == 6 and 0 <= point["deal_win_rate"] <= 1
    assert t.net.meta["curve"][-1] is point


def test_fitting_lowers_the_loss_on_a_fixed_batch():
    t = Trainer("one-deck-40", fit_every=10_000, max_moves=16, hidden=32, hidden2=16, lr=3e-3)
    for _ in range(4):
        t.play_deal()
    S, A = np.asarray(t._S), np.asarray(t._A)
    y = np.asarray(t._y, np.float32)
    first, _ = t.net.loss_and_grads(S, A, y)
    for _ in range(60):
        _, g = t.net.loss_and_grads(S, A, y)
        t.opt.step(t.net.params, g)
    last, _ = t.net.loss_and_grads(S, A, y)
    assert last < 0.5 * first


def test_gradients_match_finite_differences():
    net = QNet(np.ones(12, np.float32) * 3, hidden=6, hidden2=4, seed=2)
    rng = np.random.default_rng(0)
    S = rng.random((5, 12)).astype(np.float32)
    A = rng.random((5, 70)).astype(np.float32)
    y = rng.random(5).astype(np.float32)
    _, g = net.loss_and_grads(S, A, y)
    for name in ("W2", "Ws", "b1", "w3"):
        p = net.params[name].reshape(-1)
        i = int(rng.integers(len(p)))
        old = p[i]
        p[i] = old + 1e-2
        up, _ = net.loss_and_grads(S, A, y)
        p[i] = old - 1e-2
        down, _ = net.loss_and_grads(S, A, y)
        p[i] = old
        assert abs((up - down) / 2e-2 - g[name].reshape(-1)[i]) < 2e-2, name


def test_outcome_signs():
    from shengji.engine.events import DealScored

    ev = DealScored(deal=0, dealer=0, trick_points=120, kitty=(), kitty_points=0,
                    multiplier=0, kitty_bonus=0, penalty=0, attacker_points=120,
                    next_side="attackers", rise=1, rising=(1, 3), levels=(0, 1, 0, 1),
                    next_dealer=1, side=(0, 2))
    assert outcome(ev, 1) == 1 and outcome(ev, 0) == -1
    assert target(1, 40) == 0.5 + 1 and target(-2, -20) == -1 - 0.5


def test_view_observation_equals_the_environments():
    for variant in ("two-deck-80", "finding-friends"):
        e = raw_env(variant, actions="moves")
        ve, ref = ViewEncoder(e.variant), Encoder(e.variant)
        e.reset(seed=4)
        rng = random.Random(4)
        mem = [SeatMemory() for _ in range(e.variant.players)]
        tracker = ref.new_tracker()
        tracker.update(e.game.events)
        seen = len(e.game.events)
        while not e.game.over:
            g, dec = e.game, e.decision
            tracker.update(g.events[seen:])
            seen = len(g.events)
            s = g.to_act
            view = g.view(s)
            mem[s].see(view)
            assert np.array_equal(ve.encode(view, dec.kind, mem[s]),
                                  ref.encode(g, s, dec, tracker))
            i = rng.randrange(len(dec.moves))
            if dec.kind == "bury":
                mem[s].bury(dec.moves[i].cards)
            e.step(i)


def _first_allowed(obs, mask):
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("actions", ["moves", "cards"])
def test_any_callable_plays_a_whole_game(actions):
    v = load_variant("two-deck-80")
    calls = []

    def policy(obs, mask):
        calls.append(obs["observation"].shape)
        assert set(obs) >= {"observation", "action_mask"}
        return int(np.random.default_rng(len(calls)).choice(np.flatnonzero(mask)))

    name = policy_bot(policy, name=f"test-policy-{actions}", actions=actions)
    g = Game(v, "adapter", max_deals=1)
    play(g, [make_bot(name, v, s) if s % 2 == 0 else make_bot("random", v, s)
             for s in range(4)])
    assert g.over and calls


def test_a_policy_outside_its_mask_is_a_clear_error():
    v = load_variant("two-deck-80")
    name = policy_bot(lambda obs, mask: len(mask) + 3, name="test-policy-bad")
    with pytest.raises(ShengjiError, match="test-policy-bad.*not allowed"):
        play(Game(v, "bad", max_deals=1), [make_bot(name, v, s) for s in range(4)])
    with pytest.raises(ShengjiError, match="taken by a built-in"):
        policy_bot(_first_allowed, name="heuristic")


def test_policy_spec_imports_only_allowed_modules():
    v = load_variant("two-deck-80")
    with pytest.raises(ShengjiError, match="not allowed"):
        make_bot("policy:fn=tests_policy_mod.pick", v)
    with pytest.raises(ShengjiError, match="needs fn"):
        make_bot("policy", v)


def test_policy_spec_plays_an_allowed_module(tmp_path, monkeypatch):
    (tmp_path / "rl_policy_mod.py").write_text(
        "import numpy as np\n"
        "def pick(obs, mask):\n"
        "    return int(np.flatnonzero(mask)[-1])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SHENGJI_ALLOW_PLUGINS", "rl_policy_mod")
    s = arena("one-deck-40", ["policy:fn=rl_policy_mod.pick", "random"], boards=2,
              progress=False)
    assert s["pairs"][0]["deals"] == 4


def test_trainer_opponents_cycle_deal_by_deal(monkeypatch):
    t = Trainer("one-deck-40", opponents="random, heuristic", fit_every=10_000,
                max_moves=16, hidden=16, hidden2=8)
    assert t.opponent_specs == ["random", "heuristic"]
    made = []
    import shengji.bots as bots

    real = bots.make_bot
    monkeypatch.setattr(bots, "make_bot", lambda spec, *a: made.append(spec) or real(spec, *a))
    t.play_deal()
    t.play_deal()
    assert set(made[:len(made) // 2]) == {"random"} and set(made[len(made) // 2:]) == {
        "heuristic"}
    with pytest.raises(ShengjiError, match="unknown bot"):
        Trainer("one-deck-40", opponents="random,nobody")


@pytest.mark.long
def test_dmc_actors_on_a_local_ray(tmp_path):
    """DMC with its actors on a local Ray (2 actors, 48 deals, a few hundred steps of
    Adam), the learner here: both actors play, the fits' losses are finite and fall
    from the first, the weights handed out change with each fit, the checkpoint
    saves."""
    pytest.importorskip("ray")
    from shengji.env.dmc import train

    t = Trainer("one-deck-40", fit_every=256, max_moves=16, hidden=16, hidden2=8, batch=16,
                lr=3e-3)
    out = tmp_path / "ray.npz"
    lines: list = []
    train(t, deals=48, eval_every=24, eval_boards=1, out=str(out), ray="", actors=2,
          per_task=4, log=lines.append)
    played = t.net.meta["actor_deals"]
    assert sorted(played) == ["1", "2"] and all(n >= 8 for n in played.values())
    assert t.deals >= 48 and t.fits >= 3 and t.samples >= 3 * 256
    losses = [v for _, v in t.net.meta["losses"]]
    assert all(math.isfinite(v) for v in losses) and min(losses[1:]) < losses[0]
    assert QNet.load(out).meta["actor_deals"] == played
    assert any(x.startswith("eval ") for x in lines)


def test_dmc_command_line_ray_errors_are_one_line(capsys):
    import socket

    from shengji.env.dmc import main

    with pytest.raises(SystemExit):
        main(["--ray", "--actors", "0"])
    assert "--actors and --deals-per-task need at least 1" in capsys.readouterr().err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ShengjiError, match=f"--ray 127.0.0.1:{port}: no Ray cluster"):
        main(["--variant", "one-deck-40", "--deals", "1", "--eval-boards", "1",
              "--ray", f"127.0.0.1:{port}", "--out", "/nonexistent/x.npz"])
