"""A warm start for the ``learned`` bot: Q(s, a) taught to pick the moves a teacher bot
(``heuristic``) picks, NumPy only.

    python -m shengji.env.distill --deals 1500 --out warm.npz
    python -m shengji.env.dmc --resume warm.npz --deals 800 --out learned.npz  # optional

Deals are played in the PettingZoo environment in whole-move mode (``actions="moves"``,
``shengji.env.moves``). One team's seats (alternating deal by deal) are played by the
teacher, the others by ``--opponents`` (comma-separated specs, cycled deal by deal).
Every decision of a seat the teacher plays (the other team's too when the opponent is
the teacher) with more than one listed move is a sample: the observation and the listed
moves' features exactly as the environment (and so the ``learned`` bot, whose view-built
observation the tests hold equal) gives them, and the index of the listed move the
teacher chose. A teacher's move that is not listed (a list over ``max_moves`` is a
sample) is played but not kept.

With ``--behaviour SPEC`` (DAgger: Ross, Gordon and Bagnell, 2011) the teacher only
labels: at its seats it still chooses at every decision, and that choice is the sample,
but the lead or follow played is the ``behaviour`` bot's (for example an earlier
student, ``learned:model=student.npz``; declaring, burying and calling stay the
teacher's). The samples then come from the positions the student
reaches, its own mistakes included, which the teacher's play never visits; a student
fitted on the teacher's play alone has never seen how to recover from them.

The network (``shengji.env.qnet``, unchanged, so inference is unchanged) is fitted by a
softmax cross-entropy over each decision's listed moves, with Adam. Why cross-entropy
and not a regression or a margin: the bot only takes the argmax, so only the order of
the Q values of one decision matters; the cross-entropy is the likelihood of the
teacher's choice, uses every listed move of the decision at once (no target value to
invent for the moves the teacher did not take) and has smooth gradients, where a
margin loss stops learning from decisions already right by the margin. The Q values it
leaves are logits, not level/point estimates: a DMC run from this start
(``dmc --resume``) first refits their scale.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from ..cards import NUM_KINDS
from ..engine.actions import Play
from .aec import ShengjiEnv
from .moves import MOVE_FEATURES, MoveDecision
from .qnet import Adam, QNet


def move_key(action) -> tuple:
    """An engine action as a comparable key (cards as a multiset)."""
    return (type(action).__name__, tuple(sorted(getattr(action, "cards", ()))),
            getattr(action, "option", None), getattr(action, "calls", None))


def listed_index(moves, action) -> int | None:
    """Where ``action`` is in a decision's listed ``moves``, or None when it is not."""
    key = move_key(action)
    return next((j for j, m in enumerate(moves) if move_key(m) == key), None)


def ce_loss_and_grads(net: QNet, S, A, starts, labels, targets=None):
    """Mean softmax cross-entropy of the teacher's choice over each decision's listed
    moves, and its gradients. ``S``: B states; ``A``: the B decisions' listed moves one
    after another (M rows); ``starts``: where each decision's rows begin (B, ascending,
    the first 0); ``labels``: the chosen row of each decision, counted from its start.
    ``targets`` (M, each decision's summing to 1; ``soft_targets``): a distribution to
    match instead of the one-hot choice."""
    p = net.params
    B = len(starts)
    counts = np.diff(np.append(starts, len(A)))
    seg = np.repeat(np.arange(B), counts)
    s = S * net.inv_high
    a = A * net.inv_move
    hs = s @ p["Ws"]
    layers, q = net.tail(a @ p["Wa"] + hs[seg] + p["b1"])
    m = np.maximum.reduceat(q, starts)
    e = np.exp(q - m[seg])
    z = np.add.reduceat(e, starts)
    dq = e / z[seg]
    if targets is None:
        chosen = starts + labels
        loss = float(np.mean(np.log(z) + m - q[chosen]))
        dq[chosen] -= 1.0
    else:
        logp = q - m[seg] - np.log(z)[seg]
        loss = float(-np.add.reduceat(targets * logp, starts).mean())
        dq -= targets
    g, dz1 = net.tail_grads(layers, (dq / B).astype(np.float32)[:, None])
    g["Wa"] = a.T @ dz1
    g["Ws"] = s.T @ np.add.reduceat(dz1, starts)
    return loss, g


def soft_targets(V, y, idx, mix: float, temperature: float) -> np.ndarray:
    """Each decision's target distribution over its listed moves, one after another:
    ``1 - mix`` on the teacher's choice and ``mix`` spread over the moves its search
    judged by a softmax of their values over ``temperature`` (all on the choice when
    none was judged)."""
    out = []
    for i in idx:
        v = V[i]
        t = np.zeros(len(v), np.float64)
        t[y[i]] = 1.0
        judged = np.isfinite(v)
        if mix and judged.any():
            w = np.zeros(len(v))
            x = (v[judged] - v[judged].max()) / temperature
            w[judged] = np.exp(x) / np.exp(x).sum()
            t = (1 - mix) * t + mix * w
        out.append(t)
    return np.concatenate(out)


class Distiller:
    def __init__(self, variant="two-deck-80", *, players: int | None = None, seed: int = 0,
                 teacher: str = "heuristic",
                 opponents: str = "random,heuristic", hidden: int = 128, hidden2: int = 64,
                 lr: float = 1e-3, batch: int = 256, max_moves: int = 64,
                 behaviour: str | None = None):
        from ..bots import parse_spec, parse_specs

        parse_spec(teacher)
        if behaviour is not None:
            parse_spec(behaviour)
        self.opponent_specs = parse_specs(opponents)
        self.teacher = teacher
        #: the bot whose moves are played at the teacher's seats (None: the teacher's)
        self.behaviour = behaviour
        self.env = ShengjiEnv(variant, players=players, actions="moves",
                              max_moves=max_moves)
        self.variant = self.env.variant
        self.seed = seed
        lay = self.env.layout
        self.net = QNet(lay.high, hidden, hidden2, seed, meta={
            "variant": self.variant.name, "players": self.variant.players,
            "history": lay.history, "obs_size": lay.size, "max_moves": max_moves,
            "trainer": "shengji.env.distill", "teacher": teacher, "curve": [],
            "losses": [], **({"behaviour": behaviour} if behaviour else {})})
        self.opt = Adam(self.net.params, lr)
        self.rng = np.random.default_rng(seed)
        self.batch = batch
        self.deals = 0
        self.skipped = 0  # teacher moves not in the list
        self.S: list = []  # per decision: the observation
        self.A: list = []  # per decision: its listed moves' features (n × F)
        self.y: list = []  # per decision: the teacher's index
        #: per decision: the teacher's value of each listed move where its search judged
        #: it (``mc``: the mean outcome of its playouts for this seat's side), else NaN
        self.V: list = []
        #: per decision: where to find it again (the deal's index in ``records``, the
        #: engine actions applied before it), to list other features from the records
        self.at: list = []
        self.records: list = []  # per deal: the game's record (engine.serial.dumps)

    def play_deal(self) -> None:
        """One deal: the teacher at one team's seats, opponents at the others; the
        teacher's decisions are the samples."""
        from ..bots import make_bot

        env = self.env
        teams = self.variant.teams
        team = teams[self.deals % len(teams)] if len(set(teams)) > 1 else None
        spec = self.opponent_specs[self.deals % len(self.opponent_specs)]
        seats = range(len(teams))
        taught = {s for s in seats if team is None or teams[s] == team}
        if team is None:  # every seat its own team: one taught seat
            taught = {self.deals % len(teams)}
        specs = {s: self.teacher if s in taught else spec for s in seats}
        recorded = {s for s in seats if specs[s] == self.teacher}
        env.external_seats = frozenset(s for s in seats if s not in recorded)
        env.reset(seed=int(self.rng.integers(2**62)))
        g = env._game()
        bots = {s: make_bot(specs[s], self.variant, f"distill:{self.seed}:{self.deals}:{s}")
                for s in seats}
        players = {s: make_bot(self.behaviour, self.variant,
                               f"distill:{self.seed}:{self.deals}:{s}:behaviour")
                   for s in recorded} if self.behaviour else {}
        agents = env.possible_agents
        while not g.over:
            s = g.to_act
            assert s is not None  # a game not over has a seat to act
            bot = bots[s]
            if hasattr(bot, "last"):
                bot.last = None  # (set again by a search for this decision)
            view, legal = g.view(s), g.legal_actions(s)
            action = bot.act(view, legal)
            if s in recorded:
                obs = env.observe(agents[s])
                dec = env.decision
                assert isinstance(dec, MoveDecision)  # the env runs in moves mode
                i = listed_index(dec.moves, action)
                n = len(dec.moves)
                if i is None:
                    self.skipped += 1
                elif n > 1:
                    self.S.append(obs["observation"].copy())
                    self.A.append(obs["moves"][:n].copy())
                    self.y.append(i)
                    self.V.append(_values(getattr(bot, "last", None), dec.moves))
                    self.at.append((len(self.records), len(g.actions)))
                if s in players and isinstance(action, Play):
                    # the teacher labelled this lead or follow; the behaviour bot plays
                    # it. (Declaring, burying and calling stay the teacher's: a searching
                    # teacher remembers its own burial, and must not be told a false one.)
                    action = players[s].act(view, legal)
                    i = listed_index(dec.moves, action)
                if i is not None:
                    env.step(i)
                    continue
            env.act_engine(action)
        from ..engine.serial import dumps

        self.records.append(dumps(g))
        self.deals += 1

    def start_from(self, path) -> None:
        """Fit on from the network of a checkpoint (its table and observations must be
        this distiller's); its metadata records where it started."""
        net = QNet.load(path)
        lay = self.env.layout
        if (net.meta["players"], net.meta["obs_size"]) != (self.variant.players, lay.size):
            raise ValueError(f"{path}: a network of {net.meta['players']} seats and "
                             f"{net.meta['obs_size']} observation floats; this fit has "
                             f"{self.variant.players} and {lay.size}")
        net.meta = {**self.net.meta, "init": str(path),
                    "init_meta": {k: v for k, v in net.meta.items()
                                  if k not in ("curve", "losses")}}
        self.net = net
        self.opt = Adam(net.params, self.opt.lr)

    def save_samples(self, path) -> None:
        """The samples gathered so far as one ``.npz`` (no pickles): observations as
        float16 (small integers and fractions of 1: exact enough), each decision's
        listed moves one after another with where each starts, the labels, where each
        decision was (``at``) and the deals' records, so that a slow teacher's decisions
        (``mc``) are played once and fitted as often as wanted (``load_samples``)."""
        S, A, y = self.arrays()
        counts = np.array([len(a) for a in A], np.int64)
        np.savez_compressed(
            path, S=S.astype(np.float16), A=np.concatenate(A) if A else
            np.zeros((0, MOVE_FEATURES), np.float32), counts=counts, y=y,
            V=np.concatenate(self.V).astype(np.float32) if self.V else np.zeros(0, np.float32),
            at=np.asarray(self.at, np.int64).reshape(-1, 2),
            records=np.array(self.records), meta=np.array(json.dumps(
                {"variant": self.variant.name, "players": self.variant.players,
                 "teacher": self.teacher, "deals": self.deals, "skipped": self.skipped,
                 "max_moves": self.env.max_moves})))

    def load_samples(self, path) -> int:
        """Add the samples of a file ``save_samples`` wrote (its table size and maximum
        move count must be this distiller's); returns how many."""
        with np.load(path, allow_pickle=False) as f:
            meta = json.loads(str(f["meta"]))
            if (meta["players"], meta["max_moves"]) != (self.variant.players,
                                                        self.env.max_moves):
                raise ValueError(f"{path}: samples of {meta['players']} seats and "
                                 f"{meta['max_moves']} moves; this fit has "
                                 f"{self.variant.players} and {self.env.max_moves}")
            S = f["S"].astype(np.float32)
            starts = np.concatenate([[0], np.cumsum(f["counts"])])
            A = f["A"]
            base = len(self.records)
            self.S.extend(S)
            self.A.extend(A[starts[i]:starts[i + 1]] for i in range(len(S)))
            self.y.extend(int(v) for v in f["y"])
            V = f["V"] if "V" in f.files else np.full(len(A), np.nan, np.float32)
            self.V.extend(V[starts[i]:starts[i + 1]] for i in range(len(S)))
            self.at.extend((base + int(d), int(k)) for d, k in f["at"])
            self.records.extend(str(r) for r in f["records"])
        self.deals += meta["deals"]
        self.skipped += meta["skipped"]
        # the checkpoint names whose choices it learned: the files' teachers, not this
        # distiller's own (which may have played no deal)
        files = self.net.meta.setdefault("sample_files", [])
        files.append({"file": Path(path).name, "teacher": meta["teacher"],
                      "deals": meta["deals"], "samples": len(S)})
        teachers = ([self.teacher] if self.deals > sum(f["deals"] for f in files) else [])
        teachers += [f["teacher"] for f in files]
        self.net.meta["teacher"] = ",".join(dict.fromkeys(teachers))
        return len(S)

    def arrays(self):
        S = np.asarray(self.S, np.float32)
        y = np.asarray(self.y, np.int64)
        return S, self.A, y

    def fit(self, epochs: int = 1, holdout: float = 0.0, log=None, value_mix: float = 0.0,
            temperature: float = 0.05, augment: bool = False) -> list:
        """``epochs`` passes of Adam over the samples (the last ``holdout`` share kept
        out); per epoch the mean training loss, the held-out loss and the held-out share
        of decisions where the teacher's move has the highest Q. ``value_mix``: the
        share of each target spread over the moves the teacher's search judged, by
        their values (``soft_targets``). ``augment``: each sample seen with its suits
        permuted at random (``SuitPermutations``: the trump suit stays)."""
        S, A, y = self.arrays()
        n = len(y)
        n_fit = n - int(n * holdout)
        perms = SuitPermutations(self.env.layout) if augment else None
        out = []
        for epoch in range(epochs):
            order = self.rng.permutation(n_fit)
            losses = []
            for b in range(0, n_fit, self.batch):
                idx = order[b:b + self.batch]
                targets = soft_targets(self.V, y, idx, value_mix, temperature) \
                    if value_mix else None
                Sb, (Ab, starts, labels) = S[idx], _pack(A, y, idx)
                if perms is not None:
                    Sb, Ab = perms.apply(Sb, Ab, starts, self.rng)
                loss, grads = ce_loss_and_grads(self.net, Sb, Ab, starts, labels,
                                                targets=targets)
                self.opt.step(self.net.params, grads)
                losses.append(loss)
            row = {"epoch": epoch + 1, "samples": n_fit,
                   "loss": float(np.mean(losses)) if losses else float("nan")}
            if n_fit < n:
                row.update(self.agreement(S[n_fit:], A[n_fit:], y[n_fit:]))
            self.net.meta["losses"].append(row)
            out.append(row)
            if log:
                log(row)
        return out

    def agreement(self, S, A, y) -> dict:
        idx = np.arange(len(y))
        loss, _ = ce_loss_and_grads(self.net, S, *_pack(A, y, idx))
        hits = sum(int(np.argmax(self.net.q_values(S[i], A[i]))) == y[i] for i in idx)
        return {"holdout_loss": loss, "holdout_agreement": float(hits) / max(1, len(y))}


def _values(last, moves) -> np.ndarray:
    """The teacher's values of ``moves`` from its last search (``mc``'s ``last``: its
    candidates' cards and mean outcomes), NaN for the moves it did not judge."""
    out = np.full(len(moves), np.nan, np.float32)
    if not last or "means" not in last:
        return out
    at = {tuple(sorted(getattr(m, "cards", ()))): j for j, m in enumerate(moves)}
    for cards, mean in zip(last["candidates"], last["means"], strict=True):
        j = at.get(tuple(sorted(cards)))
        if j is not None and np.isfinite(mean):
            out[j] = mean
    return out


class SuitPermutations:
    """The suits are alike but for trumps: a decision with its plain suits permuted
    (every card of suit s named as the same rank of suit σ(s), in every 54-card piece of
    the observation and in each listed move's cards) is the same decision, the teacher's
    choice and values the same. ``apply`` permutes a batch, each sample by a permutation
    drawn at random among those keeping its trump suit (any when there is none)."""

    def __init__(self, layout) -> None:
        from itertools import permutations

        from .moves import MOVE_LAYOUT

        self.perms = list(permutations(range(4)))
        self.trump = layout.slices["trump"][:2]
        # per permutation: the observation's and a move row's columns, read from
        obs = []
        mov = []
        m0, m1 = MOVE_LAYOUT.slices["cards"]
        for perm in self.perms:
            kind = np.arange(NUM_KINDS)
            for suit in range(4):  # new kind (perm[s], r) reads old kind (s, r)
                kind[perm[suit] * 13:perm[suit] * 13 + 13] = np.arange(suit * 13,
                                                                       suit * 13 + 13)
            cols = np.arange(layout.size)
            for _name, (a, b, shape) in layout.slices.items():
                block = np.arange(a, b).reshape(shape)
                if shape[-1] == NUM_KINDS:
                    block = block[..., kind]
                elif shape[-1] > NUM_KINDS and len(shape) == 2:  # history: cards last
                    block = block.copy()
                    block[:, -NUM_KINDS:] = block[:, -NUM_KINDS:][:, kind]
                cols[a:b] = block.reshape(-1)
            obs.append(cols)
            m = np.arange(MOVE_LAYOUT.size)
            m[m0:m1] = m0 + kind
            mov.append(m)
        self.obs = np.array(obs)
        self.mov = np.array(mov)
        # the permutations keeping each trump suit, and all of them
        self.keeping = [np.array([i for i, p in enumerate(self.perms) if p[t] == t])
                        for t in range(4)]
        self.all = np.arange(len(self.perms))

    def apply(self, S, A, starts, rng) -> tuple:
        """(S, A) with each sample's suits permuted (its moves' rows, from ``starts``,
        as the sample)."""
        a, b = self.trump
        trump = np.argmax(S[:, a:b], axis=1)
        pick = np.array([rng.choice(self.keeping[t] if t < 4 else self.all)
                         for t in trump])
        S = np.take_along_axis(S, self.obs[pick], axis=1)
        seg = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(A))))
        A = np.take_along_axis(A, self.mov[pick[seg]], axis=1)
        return S, A


def _pack(A, y, idx) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [A[i] for i in idx]
    counts = np.array([len(r) for r in rows])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return np.concatenate(rows), starts, y[idx]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m shengji.env.distill",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--deals", type=int, default=1000, help="deals of teacher play")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--teacher", default="heuristic")
    ap.add_argument("--opponents", default="random,heuristic",
                    help="bot spec of the other team (comma-separated: cycled deal by deal)")
    ap.add_argument("--behaviour", metavar="SPEC",
                    help="the bot that plays at the teacher's seats while the teacher only "
                         "labels (DAgger; e.g. learned:model=student.npz)")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    ap.add_argument("--holdout", type=float, default=0.05,
                    help="share of decisions kept out to measure the agreement")
    ap.add_argument("--eval-boards", type=int, default=20,
                    help="duplicate boards against random after fitting (0: none)")
    ap.add_argument("--out", default="warm.npz")
    ap.add_argument("--seats", type=int, help="another table size of the variant")
    ap.add_argument("--samples", action="append", default=[], metavar="FILE.npz",
                    help="samples a run saved (--save-samples): fitted with the deals "
                         "played (repeat for more files)")
    ap.add_argument("--save-samples", metavar="FILE.npz",
                    help="save the samples of the deals played (every --save-every deals "
                         "and at the end), to fit them again without the teacher")
    ap.add_argument("--save-every", type=int, default=25)
    ap.add_argument("--value-mix", type=float, default=0.0,
                    help="share of each target spread over the moves a searching "
                         "teacher judged, by their values (0: its choice alone)")
    ap.add_argument("--temperature", type=float, default=0.05,
                    help="the values' softmax temperature (levels) for --value-mix")
    ap.add_argument("--augment", action="store_true",
                    help="see each sample with its plain suits permuted at random")
    ap.add_argument("--init", metavar="CHECKPOINT",
                    help="start from this network (e.g. a shipped checkpoint) instead of "
                         "random weights: fine-tuning on another teacher's samples")
    args = ap.parse_args(argv)
    d = Distiller(args.variant, players=args.seats, seed=args.seed, teacher=args.teacher,
                  opponents=args.opponents, lr=args.lr, behaviour=args.behaviour)
    if args.init:
        d.start_from(args.init)
    for path in args.samples:
        print(f"loaded {d.load_samples(path)} samples from {path}", flush=True)
    t0 = time.process_time()
    played = 0
    while played < args.deals:
        d.play_deal()
        played += 1
        if played % 100 == 0:
            print(f"deals {d.deals}  decisions {len(d.y)}  unlisted {d.skipped}  "
                  f"cpu {time.process_time() - t0:.0f}s", flush=True)
        if args.save_samples and (played % args.save_every == 0 or played == args.deals):
            _save_atomically(d, args.save_samples)
    if not d.y:
        print("no samples to fit")
        return
    d.fit(args.epochs, args.holdout, value_mix=args.value_mix,
          temperature=args.temperature, augment=args.augment, log=lambda row: print(
        "fit", json.dumps(row), f"cpu {time.process_time() - t0:.0f}s", flush=True))
    d.net.meta.update(distill_deals=d.deals, distill_samples=len(d.y))
    if args.eval_boards:
        from .dmc import Trainer

        t = Trainer(d.variant, seed=args.seed, max_moves=d.env.max_moves)
        t.net = d.net
        t.deals = 0
        print("eval", json.dumps(t.evaluate(args.eval_boards)), flush=True)
    d.net.save(args.out)
    print(f"saved {args.out}")


def _save_atomically(d: Distiller, path: str) -> None:
    """``d.save_samples(path)`` through a file beside it: a run stopped midway leaves the
    last complete file."""
    import os

    tmp = f"{path}.part.npz"
    d.save_samples(tmp)
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
