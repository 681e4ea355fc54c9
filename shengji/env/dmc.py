"""A small Deep Monte Carlo trainer (DouZero style) for whole moves, NumPy only.

    python -m shengji.env.dmc --minutes 15 --out learned.npz --plot curve.png
    python -m shengji.env.dmc --ray --actors 2 --deals 2000     # actors on a local Ray
    python -m shengji.env.dmc --ray HOST:PORT --actors 100 ...  # on a Ray cluster

One network ``Q(s, a)`` (``shengji.env.qnet``) scores every listed move of a decision
(``actions="moves"``, ``shengji.env.moves``); the learner plays the seats of one team
(the team alternates deal by deal) against bots (``--opponents``, default ``random``;
several, comma-separated, are cycled deal by deal),
choosing the move of highest Q, or a random one with probability ε (from 0.2 down to
0.02). When a deal ends, every move each learning seat made is a sample whose target
(``target``) is half the levels the seat gained (−those the others gained) plus the card
points its side gained from that move to the end of the deal over 40 (the environment's
``reward="points"``: a denser signal than levels alone, and without the tricks before
the move). Samples are fitted by mean squared error with Adam, a few thousand at a time.
Every ``--eval-every`` deals the greedy policy plays ``--eval-boards`` duplicate boards
against ``random`` (counted as the arena counts them); those results are the
learning curve (``--plot FILE.png`` draws it, matplotlib). The checkpoint (``--out``) is
one ``.npz`` with the curve in its metadata; ``shengji.bots.learned`` plays it.
``--minutes`` is wall-clock time; the lines printed give it and this process's CPU time.

With ``--ray [ADDRESS]`` the deals are played by ``--actors`` Ray actors (``RayActor``:
each an ``Actor``, the code the local trainer plays with) while the learner (the network,
Adam, the fits, the evaluations) stays in this process: each actor plays
``--deals-per-task`` deals with the weights it was handed and sends their samples back;
after each fit the new weights go to the object store once and every next task takes
them (docs/rl.md: what changes at 100 actors).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from ..engine.events import DealScored
from ..errors import ShengjiError
from .aec import ShengjiEnv
from .qnet import Adam, QNet

#: the target's parts: levels of the deal, and card points from the move on
LEVELS_WEIGHT = 0.5
POINTS_SCALE = 40.0


def outcome(ev: DealScored, seat: int) -> float:
    """The levels part of the target of a seat's moves in a deal scored ``ev``."""
    return float(ev.rise if seat in ev.rising else -ev.rise)


def target(levels: float, points_to_go: float) -> float:
    """A move's target: ``LEVELS_WEIGHT`` × the deal's levels for the seat, plus the
    points its side gained (+) or conceded (−) from the move to the end of the deal over
    ``POINTS_SCALE`` (the tricks before the move do not depend on it: leaving them out
    lowers the variance)."""
    return LEVELS_WEIGHT * levels + points_to_go / POINTS_SCALE


class Actor:
    """Plays deals for the trainer: the learning seats by a network (the move of highest
    Q, or with probability ε a random one), the others by bots; each deal's samples.
    The local trainer holds one; with ``--ray`` each Ray actor holds one (``RayActor``),
    fed the learner's weights."""

    def __init__(self, variant="two-deck-80", *, players: int | None = None, seed: int = 0,
                 opponents: str = "random", max_moves: int = 64, stream: int = 0):
        from ..bots import parse_specs

        # several specs, comma-separated: the opponents of a deal cycle through them
        self.opponent_specs = parse_specs(opponents)
        self.env = ShengjiEnv(variant, players=players, actions="moves",
                              max_moves=max_moves, reward="points")
        self.variant = self.env.variant
        self.seed = seed
        self.stream = stream
        # stream 0 (the local trainer): the generator of the trainer before actors
        self.rng = np.random.default_rng(seed if not stream else [seed, stream])

    def play_deal(self, net: QNet, eps: float, deal: int) -> tuple[list, list, list]:
        """Deal number ``deal`` (its learning team and opponents: ``deal`` alternates
        and cycles them): its samples (observations, chosen moves' features, targets)."""
        from ..bots import make_bot

        env = self.env
        teams = self.variant.teams
        team = teams[deal % len(teams)] if len(set(teams)) > 1 else None
        learners = {s for s in range(len(teams)) if team is None or teams[s] == team}
        if team is None:  # every seat its own team (finding friends): one learning seat
            learners = {deal % len(teams)}
        others = [s for s in range(len(teams)) if s not in learners]
        env.external_seats = frozenset(others)
        env.reset(seed=int(self.rng.integers(2**62)))
        g = env._game()
        spec = self.opponent_specs[deal % len(self.opponent_specs)]
        tag = f"{self.seed}:{deal}" if not self.stream else f"{self.seed}/{self.stream}:{deal}"
        bots = {s: make_bot(spec, self.variant, f"dmc:{tag}:{s}") for s in others}
        mine: dict = {s: ([], [], []) for s in learners}
        agents = env.possible_agents
        got = dict.fromkeys(learners, 0.0)  # each learning seat's points reward so far
        while not g.over:
            s = g.to_act
            assert s is not None  # a game not over has a seat to act
            if s in learners:
                obs = env.observe(agents[s])
                n = int(obs["action_mask"].sum())
                moves = obs["moves"][:n]
                if n > 1 and self.rng.random() < eps:
                    i = int(self.rng.integers(n))
                else:
                    i = int(np.argmax(net.q_values(obs["observation"], moves))) if n > 1 else 0
                mine[s][0].append(obs["observation"])
                mine[s][1].append(moves[i].copy())
                mine[s][2].append(got[s])
                env.step(i)
            else:
                env.act_engine(bots[s].act(g.view(s), g.legal_actions(s)))
            for t in learners:
                got[t] += env.rewards[agents[t]]
        scored = [ev for ev in g.events if type(ev) is DealScored][-1]
        S: list = []
        A: list = []
        y: list = []
        for s, (obs_s, moves_s, before) in mine.items():
            levels = outcome(scored, s)
            S.extend(obs_s)
            A.extend(moves_s)
            y.extend(target(levels, got[s] - b) for b in before)
        return S, A, y


class Trainer:
    def __init__(self, variant="two-deck-80", *, players: int | None = None, seed: int = 0,
                 opponents: str = "random",
                 hidden: int = 128, hidden2: int = 64, lr: float = 1e-3,
                 batch: int = 128, fit_every: int = 2048, epochs: int = 2,
                 max_moves: int = 64,
                 eps_start: float = 0.2, eps_end: float = 0.02, eps_deals: int = 2000):
        self.variant_ref = variant
        self.players = players
        self.actor = Actor(variant, players=players, seed=seed, opponents=opponents,
                           max_moves=max_moves)
        self.opponent_specs = self.actor.opponent_specs
        self.env = self.actor.env
        self.variant = self.env.variant
        self.opponents = opponents
        self.seed = seed
        lay = self.env.layout
        self.net = QNet(lay.high, hidden, hidden2, seed, meta={
            "variant": self.variant.name, "players": self.variant.players,
            "history": lay.history, "obs_size": lay.size, "max_moves": max_moves,
            "trainer": "shengji.env.dmc", "curve": [], "losses": []})
        self.opt = Adam(self.net.params, lr)
        self.rng = self.actor.rng
        self.batch, self.fit_every, self.epochs = batch, fit_every, epochs
        self.eps = (eps_start, eps_end, eps_deals)
        self.deals = 0
        self.samples = 0
        self.fits = 0  # fits made: the weights' version (actors on Ray are sent new ones)
        self._S: list = []
        self._A: list = []
        self._y: list = []

    def epsilon(self, deals: int | None = None) -> float:
        a, b, n = self.eps
        return b + (a - b) * max(0.0, 1 - (self.deals if deals is None else deals) / n)

    def play_deal(self) -> None:
        """One deal: the learner at one team's seats, bots at the others; its samples."""
        self.add(*self.actor.play_deal(self.net, self.epsilon(), self.deals), deals=1)

    def add(self, S, A, y, deals: int) -> None:
        """Samples of ``deals`` deals played (here or by actors elsewhere)."""
        self._S.extend(S)
        self._A.extend(A)
        self._y.extend(y)
        self.deals += deals

    def fit(self) -> float:
        """``epochs`` passes over the samples gathered since the last fit; the mean loss
        of the first (before it moved the network much)."""
        S = np.asarray(self._S, np.float32)
        A = np.asarray(self._A, np.float32)
        y = np.asarray(self._y, np.float32)
        self._S, self._A, self._y = [], [], []
        losses = []
        for epoch in range(self.epochs):
            order = self.rng.permutation(len(y))
            for i in range(0, len(y), self.batch):
                idx = order[i:i + self.batch]
                loss, grads = self.net.loss_and_grads(S[idx], A[idx], y[idx])
                self.opt.step(self.net.params, grads)
                if epoch == 0:
                    losses.append(loss)
        self.samples += len(y)
        self.fits += 1
        loss = float(np.mean(losses)) if losses else float("nan")
        self.net.meta["losses"].append([self.deals, loss])
        return loss

    def step(self) -> float | None:
        """Play a deal; fit when enough samples are in. The fit's loss, or None."""
        self.play_deal()
        if len(self._y) >= self.fit_every:
            return self.fit()
        return None

    def evaluate(self, boards: int = 10, seed: int = 12345) -> dict:
        """The greedy policy against ``random`` on duplicate boards: each board one
        deal played twice, the learner at either team's seats, counted as the arena
        counts it (a side wins a deal when a larger share of its seats rose). Played
        here with the engine alone: ``env`` sits below the arena's layer."""
        from ..bots import make_bot
        from ..engine.events import DealScored
        from ..engine.game import Game
        from ..engine.runner import play
        from .policy import policy_bot

        net = self.net
        name = policy_bot(lambda obs, mask: net.best(obs), name="dmc-training",
                          max_moves=self.env.max_moves, history=self.env.layout.history)
        teams = self.variant.teams
        won = deals = 0
        diff = 0.0
        for b in range(boards):
            for team in sorted(set(teams)):
                mine = [s for s in range(len(teams)) if teams[s] == team]
                g = Game(self.variant, f"dmc-eval:{seed}:{b}", max_deals=1)
                play(g, [make_bot(name if s in mine else "random", self.variant,
                                  f"dmc-eval:{seed}:{b}:{team}:{s}")
                         for s in range(len(teams))])
                ev = [e for e in g.events if type(e) is DealScored][-1]
                share = [0.0, 0.0]
                for s in set(ev.rising):
                    side = 0 if s in mine else 1
                    share[side] += 1 / (len(mine) if side == 0 else len(teams) - len(mine))
                won += share[0] > share[1]
                diff += ev.rise * (share[0] - share[1])
                deals += 1
        lo, hi = wilson(won, deals)
        point = {"deals": self.deals, "samples": self.samples,
                 "deal_win_rate": won / deals, "deal_win_rate_95": [lo, hi],
                 "level_difference_per_deal": diff / deals}
        net.meta["curve"].append(point)
        return point


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of k successes in n."""
    if not n:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    w = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5)
    return ((c - w) / d, (c + w) / d)


def plot_curve(meta: dict, path) -> None:
    from matplotlib.figure import Figure

    curve = meta.get("curve", [])
    fig = Figure(figsize=(9, 3.6), layout="constrained")
    ax, bx = fig.subplots(1, 2)
    xs = [p["deals"] for p in curve]
    ax.plot(xs, [p["deal_win_rate"] for p in curve], marker="o")
    ax.fill_between(xs, [p["deal_win_rate_95"][0] for p in curve],
                    [p["deal_win_rate_95"][1] for p in curve], alpha=0.2)
    ax.set(xlabel="training deals", ylabel="deal win rate vs random (95%)", ylim=(0, 1))
    losses = meta.get("losses", [])
    bx.plot([x for x, _ in losses], [v for _, v in losses])
    bx.set(xlabel="training deals", ylabel="fit loss (MSE)")
    fig.suptitle(f"DMC on {meta.get('variant')}")
    fig.savefig(path)


class RayActor:
    """An ``Actor`` in a Ray worker process: plays deals with the weights it is handed
    (the learner's, as they were when the task was sent) and returns their samples."""

    def __init__(self, variant, players, seed: int, opponents: str, max_moves: int,
                 stream: int):
        self.actor = Actor(variant, players=players, seed=seed, opponents=opponents,
                           max_moves=max_moves, stream=stream)
        self.net = QNet(self.actor.env.layout.high, 1, 1)  # its weights: each task's

    def ready(self) -> int:
        """Answered once the actor is made (its environment and bots loaded)."""
        return self.actor.stream

    def play(self, params: dict, eps: float, first: int, n: int) -> tuple:
        self.net.params = params  # (read only: the object store's arrays)
        S: list = []
        A: list = []
        y: list = []
        for deal in range(first, first + n):
            s, a, t = self.actor.play_deal(self.net, eps, deal)
            S.extend(s)
            A.extend(a)
            y.extend(t)
        f32 = np.float32
        return (np.asarray(S, f32).reshape(len(S), -1), np.asarray(A, f32).reshape(
            len(A), -1), np.asarray(y, f32), n)


def _local_deals(t: Trainer):
    """Deals played in this process, one at a time."""
    while True:
        t.play_deal()
        yield


def _ray_deals(t: Trainer, address: str | None, actors: int, per_task: int):
    """Deals played by ``actors`` Ray actors (``RayActor``), ``per_task`` deals a task;
    the learner stays here. Each finished task's samples are added (its deals counted)
    and the actor is sent the next task with the weights as they are then (a new
    ``ray.put`` after each fit): the actors play with weights at most a task old."""
    from ..distributed import init_ray

    if not isinstance(t.variant_ref, str):
        raise ShengjiError("--ray: the variant must be named (a name or a YAML path)")
    ray, started = init_ray(address or None, cpus=actors)
    remote = ray.remote(num_cpus=1)(RayActor)
    handles = [remote.remote(t.variant_ref, t.players, t.seed, t.opponents,
                             t.env.max_moves, i + 1) for i in range(actors)]
    pending: dict = {}
    sent: dict[str, Any] = {"deals": t.deals, "version": -1, "weights": None}

    def send(h) -> None:
        if sent["version"] != t.fits:
            sent["weights"], sent["version"] = ray.put(t.net.params), t.fits
        first: int = sent["deals"]
        pending[h.play.remote(sent["weights"], t.epsilon(first), first, per_task)] = h
        sent["deals"] = first + per_task

    try:
        ray.get([h.ready.remote() for h in handles])  # every actor up before the first task
        for h in handles:
            send(h)
        while True:
            (ref,), _ = ray.wait(list(pending), num_returns=1)
            h = pending.pop(ref)
            S, A, y, n = ray.get(ref)
            t.add(S, A, y, deals=n)
            played = t.net.meta.setdefault("actor_deals", {})  # deals per actor
            key = str(handles.index(h) + 1)
            played[key] = played.get(key, 0) + n
            yield
            send(h)
    finally:
        for h in handles:
            ray.kill(h)
        if started:
            ray.shutdown()


def train(t: Trainer, *, deals: int = 0, minutes: float = 15.0, eval_every: int = 400,
          eval_boards: int = 20, out: str | None = None, ray: str | None = None,
          actors: int = 2, per_task: int = 4, log=print) -> None:
    """Play and fit until ``deals`` deals (0: ``minutes`` of wall-clock time have
    passed), evaluating (and saving to ``out``) every ``eval_every`` deals; with ``ray``
    (an address, or "" for a local Ray) the deals are played by Ray actors."""
    wall0, cpu0 = time.monotonic(), time.process_time()
    next_eval = (t.deals // eval_every + 1) * eval_every
    source = _local_deals(t) if ray is None else _ray_deals(t, ray, actors, per_task)
    try:
        for _ in source:
            if len(t._y) >= t.fit_every:
                loss = t.fit()
                log(f"deals {t.deals}  samples {t.samples}  loss {loss:.4f}  "
                    f"eps {t.epsilon():.3f}  wall {time.monotonic() - wall0:.0f}s  "
                    f"cpu {time.process_time() - cpu0:.0f}s (this process)")
            if t.deals >= next_eval:
                log("eval " + json.dumps(t.evaluate(eval_boards)))
                next_eval += eval_every
                if out:
                    t.net.save(out)
            if (deals and t.deals >= deals) or \
                    (not deals and time.monotonic() - wall0 >= 60 * minutes):
                break
    finally:
        source.close()
    if not t.net.meta["curve"] or t.net.meta["curve"][-1]["deals"] != t.deals:
        log("eval " + json.dumps(t.evaluate(eval_boards)))
    if out:
        t.net.save(out)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m shengji.env.dmc",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--seats", type=int, help="another table size of the variant")
    ap.add_argument("--minutes", type=float, default=15.0,
                    help="minutes of wall-clock time to train (unless --deals)")
    ap.add_argument("--deals", type=int, default=0, help="stop after this many deals")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--opponents", default="random",
                    help="bot spec of the other seats (comma-separated: cycled deal by deal)")
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    ap.add_argument("--eval-every", type=int, default=400)
    ap.add_argument("--eval-boards", type=int, default=20)
    ap.add_argument("--out", default="learned.npz")
    ap.add_argument("--resume", help="a checkpoint to continue from")
    ap.add_argument("--plot", metavar="FILE.png")
    ap.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                    help="play the deals in Ray actors, the learner here: the cluster at "
                         "ADDRESS (HOST:PORT of `ray start --head`, ray://HOST:PORT, or "
                         "auto), or a local Ray when no address is given")
    ap.add_argument("--actors", type=int, default=2, help="Ray actors (with --ray)")
    ap.add_argument("--deals-per-task", type=int, default=4,
                    help="deals an actor plays with one set of weights (with --ray)")
    args = ap.parse_args(argv)
    if args.actors < 1 or args.deals_per_task < 1:
        ap.error("--actors and --deals-per-task need at least 1")
    t = Trainer(args.variant, players=args.seats, seed=args.seed, opponents=args.opponents,
                lr=args.lr)
    if args.resume:
        t.net = QNet.load(args.resume)
        t.opt = Adam(t.net.params, args.lr)
        t.deals = t.net.meta["curve"][-1]["deals"] if t.net.meta.get("curve") else 0
    if not t.deals:  # the untrained network: where the curve starts
        print("eval", json.dumps(t.evaluate(args.eval_boards)), flush=True)
    train(t, deals=args.deals, minutes=args.minutes, eval_every=args.eval_every,
          eval_boards=args.eval_boards, out=args.out, ray=args.ray, actors=args.actors,
          per_task=args.deals_per_task, log=lambda line: print(line, flush=True))
    print(f"saved {args.out}")
    if args.plot:
        plot_curve(t.net.meta, args.plot)
        print(f"plotted {args.plot}")


if __name__ == "__main__":
    try:
        main()
    except ShengjiError as e:
        raise SystemExit(f"error: {e}") from None
