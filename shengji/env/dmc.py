"""A small Deep Monte Carlo trainer (DouZero style) for whole moves, NumPy only.

    python -m shengji.env.dmc --minutes 15 --out learned.npz --plot curve.png

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
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from ..engine.events import DealScored
from .aec import ShengjiEnv
from .moves import MoveDecision
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


class Trainer:
    def __init__(self, variant="two-deck-80", *, seed: int = 0, opponents: str = "random",
                 hidden: int = 128, hidden2: int = 64, lr: float = 1e-3,
                 batch: int = 128, fit_every: int = 2048, epochs: int = 2,
                 max_moves: int = 64,
                 eps_start: float = 0.2, eps_end: float = 0.02, eps_deals: int = 2000):
        from ..bots import parse_specs

        # several specs, comma-separated: the opponents of a deal cycle through them
        self.opponent_specs = parse_specs(opponents)
        self.variant_ref = variant
        self.env = ShengjiEnv(variant, actions="moves", max_moves=max_moves, reward="points")
        self.variant = self.env.variant
        self.opponents = opponents
        self.seed = seed
        lay = self.env.layout
        self.net = QNet(lay.high, hidden, hidden2, seed, meta={
            "variant": self.variant.name, "players": self.variant.players,
            "history": lay.history, "obs_size": lay.size, "max_moves": max_moves,
            "trainer": "shengji.env.dmc", "curve": [], "losses": []})
        self.opt = Adam(self.net.params, lr)
        self.rng = np.random.default_rng(seed)
        self.batch, self.fit_every, self.epochs = batch, fit_every, epochs
        self.eps = (eps_start, eps_end, eps_deals)
        self.deals = 0
        self.samples = 0
        self._S: list = []
        self._A: list = []
        self._y: list = []

    def epsilon(self) -> float:
        a, b, n = self.eps
        return b + (a - b) * max(0.0, 1 - self.deals / n)

    def play_deal(self) -> None:
        """One deal: the learner at one team's seats, bots at the others; its samples."""
        from ..bots import make_bot

        env, net = self.env, self.net
        teams = self.variant.teams
        team = teams[self.deals % len(teams)] if len(set(teams)) > 1 else None
        learners = {s for s in range(len(teams)) if team is None or teams[s] == team}
        if team is None:  # every seat its own team (finding friends): one learning seat
            learners = {self.deals % len(teams)}
        others = [s for s in range(len(teams)) if s not in learners]
        env.external_seats = frozenset(others)
        env.reset(seed=int(self.rng.integers(2**62)))
        g = env._game()
        spec = self.opponent_specs[self.deals % len(self.opponent_specs)]
        bots = {s: make_bot(spec, self.variant, f"dmc:{self.seed}:{self.deals}:{s}")
                for s in others}
        eps = self.epsilon()
        mine: dict = {s: ([], [], []) for s in learners}
        agents = env.possible_agents
        got = dict.fromkeys(learners, 0.0)  # each learning seat's points reward so far
        while not g.over:
            s = g.to_act
            assert s is not None  # a game not over has a seat to act
            if s in learners:
                obs = env.observe(agents[s])
                dec = env.decision
                assert isinstance(dec, MoveDecision)  # the env runs in moves mode
                n = len(dec.moves)
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
        for s, (S, A, before) in mine.items():
            levels = outcome(scored, s)
            self._S.extend(S)
            self._A.extend(A)
            self._y.extend(target(levels, got[s] - b) for b in before)
        self.deals += 1

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


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m shengji.env.dmc",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--minutes", type=float, default=15.0, help="CPU minutes to train")
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
    args = ap.parse_args(argv)
    t = Trainer(args.variant, seed=args.seed, opponents=args.opponents, lr=args.lr)
    if args.resume:
        t.net = QNet.load(args.resume)
        t.opt = Adam(t.net.params, args.lr)
        t.deals = t.net.meta["curve"][-1]["deals"] if t.net.meta.get("curve") else 0
    if not t.deals:  # the untrained network: where the curve starts
        print("eval", json.dumps(t.evaluate(args.eval_boards)), flush=True)
    t0 = time.process_time()
    while True:
        loss = t.step()
        if loss is not None:
            print(f"deals {t.deals}  samples {t.samples}  loss {loss:.4f}  "
                  f"eps {t.epsilon():.3f}  cpu {time.process_time() - t0:.0f}s", flush=True)
        if t.deals % args.eval_every == 0:
            print("eval", json.dumps(t.evaluate(args.eval_boards)), flush=True)
            t.net.save(args.out)
        done = (args.deals and t.deals >= args.deals) or \
            (not args.deals and time.process_time() - t0 >= 60 * args.minutes)
        if done:
            break
    if t.deals % args.eval_every:
        print("eval", json.dumps(t.evaluate(args.eval_boards)), flush=True)
    t.net.save(args.out)
    print(f"saved {args.out}")
    if args.plot:
        plot_curve(t.net.meta, args.plot)
        print(f"plotted {args.plot}")


if __name__ == "__main__":
    main()
