"""Deals per second of the research environments, side by side in one run (one core).

    python benchmarks/bench_rl.py [--variant two-deck-80] [--seconds 2] [--repeat 3]
                                  [--only NAME ...]

Every contender plays whole deals (or games) with uniformly random legal actions, and
reads an observation at every decision where it has one, as a learner would:

- ``simulate``: the engine with random bots (what ``shengji simulate`` runs; the C play
  driver plays the play phase), no observations: the reference for the ratios;
- ``pettingzoo raw`` / ``pettingzoo env()``: ``shengji.env`` (card-by-card actions), the
  observation vector and the mask at every step (``env()`` makes PettingZoo's order
  checks itself; ``pettingzoo wrapper``: raw inside PettingZoo's OrderEnforcingWrapper,
  what ``env()`` returned before); ``pettingzoo raw, py``: the same with
  the play phase on the per-step Python path (``shengji.env.cplay.ENABLED = False``, as
  before it ran in C); ``pettingzoo moves``: whole-move mode (``pettingzoo moves, py``:
  its play phase on the per-step Python path and its moves listed by the Python
  reference, as before whole moves ran in C); ``…, skip_forced``: the
  option ``skip_forced=True``, the environment taking itself every action that is the
  only one allowed (about half the card-by-card steps of a deal);
- ``openspiel shengji``: our OpenSpiel game, its observation tensor at every decision
  (``make_observation(game).set_from``); ``openspiel shengji, py``: the same with the
  play phase on the per-step Python path (``cplay.ENABLED = False``);
- ``openspiel empty``: the floor of any Python OpenSpiel game here, a game that does
  nothing (``_register_empty``) through the same loop, with as many chance nodes (and
  outcomes) and decisions per deal as ``openspiel shengji`` has on the variant (counted
  on a few deals first), ten legal actions each and an observer that writes nothing;
- ``openspiel shengji, skip_forced`` / ``openspiel empty, skip_forced``: the same with
  the game parameter ``skip_forced=True`` (the empty game shaped as that deal);
- ``openspiel infostate``: our OpenSpiel game with the information state of the seat
  to act at every decision, ``state.information_state_tensor(p)`` (a list of floats);
  ``openspiel infostate, observer``: the perfect-recall observer's NumPy tensor instead
  (``make_observation(game, IIGObservationType(perfect_recall=True)).set_from``);
- ``openspiel hearts``: OpenSpiel's C++ hearts through pyspiel,
  ``state.information_state_tensor`` at every decision (hearts has no observation
  tensor);
- ``rlcard doudizhu``: RLCard's DouDizhu in a step loop (``env.step`` returns the next
  state, observation included) — skipped when rlcard is not installed.

The contenders run in turn, ``--repeat`` rounds, each for about ``--seconds`` of CPU
time (``time.process_time``: other load on the machine does not count); the medians and
the ratios to ``simulate`` are printed (``--json`` for one JSON object; ``--only NAME``,
repeated: those contenders alone). ``--base CHECKOUT`` compares: each round runs the
contenders in a process on that checkout (its ``shengji`` package, built) and then in
one on this checkout, alternating, and prints the medians side by side with the ratio
after/before and the load average.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np


def _timed(play_one, seconds: float) -> float:
    """Deals per CPU second: whole deals until ``seconds`` have passed."""
    n = 0
    t0 = time.process_time()
    while True:
        play_one(n)
        n += 1
        dt = time.process_time() - t0
        if dt >= seconds:
            return n / dt


def simulate(variant):
    from shengji.bots import make_bot
    from shengji.engine.game import Game
    from shengji.engine.runner import play

    def one(i):
        g = Game(variant, f"bench/{i}", max_deals=1)
        play(g, [make_bot("random", variant, f"bench/{i}/{s}") for s in range(g.players)])
    return one


def pettingzoo(variant, wrapped: bool | str, **kw):
    from shengji.env import env, raw_env

    if wrapped == "pettingzoo":  # what env() returned before it made the checks itself
        from pettingzoo.utils.wrappers import OrderEnforcingWrapper

        e = OrderEnforcingWrapper(raw_env(variant, **kw))
    else:
        e = (env if wrapped else raw_env)(variant, **kw)
    rng = random.Random(0)

    def one(i):
        e.reset(seed=i)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
    return one


def python_play_phase(one):
    """``one`` with the play phase on the per-step Python path (``shengji.env.cplay``
    off) and whole moves listed by the Python reference (``shengji.env.moves``'s
    ``C_LISTING`` off, where it exists): the environment as it was before they ran in
    C."""
    from shengji.env import cplay, moves

    def run(i):
        cplay.ENABLED = False
        old = getattr(moves, "C_LISTING", None)
        moves.C_LISTING = False
        try:
            one(i)
        finally:
            cplay.ENABLED = True
            moves.C_LISTING = old
    return run


def openspiel_infostate(variant_name: str, observer: bool):
    """Our OpenSpiel game with the information state of the seat to act read at every
    decision: ``state.information_state_tensor(p)`` (a list of floats), or with
    ``observer`` the perfect-recall observer (``make_observation(game,
    IIGObservationType(perfect_recall=True)).set_from``: a NumPy array)."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import shengji.env.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("shengji", {"variant": variant_name})
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(0)

    def one(i):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            p = s.current_player()
            if observer:
                obs.set_from(s, p)
            else:
                s.information_state_tensor(p)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return one


def openspiel_game(name: str, params: dict | None = None):
    import pyspiel

    if name == "shengji":
        import shengji.env.openspiel  # noqa: F401 - registers the game
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name, params or {})
    if hasattr(game, "make_py_observer"):  # a Python game: its observer
        observer = make_observation(game)

        def observe(s):
            observer.set_from(s, s.current_player())
            return observer.tensor
    elif game.get_type().provides_observation_tensor:  # a C++ game: the state's tensor
        def observe(s):
            return s.observation_tensor(s.current_player())
    else:  # hearts: the information-state tensor is all it gives
        def observe(s):
            return s.information_state_tensor(s.current_player())
    rng = random.Random(0)

    def one(i):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                r, acc = rng.random(), 0.0
                pick = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        pick = a
                        break
                s.apply_action(pick)
                continue
            observe(s)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return one


def openspiel_empty(variant_name: str, skip_forced: bool = False):
    """``openspiel_game`` on a Python game that does nothing, shaped as our deal."""
    import pyspiel

    import shengji.env.openspiel  # noqa: F401 - registers the game

    ours = pyspiel.load_game("shengji", {"variant": variant_name,
                                         "skip_forced": skip_forced})
    rng = random.Random(1)
    decisions = []
    for _ in range(5):
        s = ours.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                n += 1
        decisions.append(n)
    counts = list(ours.variant.composition.counts)
    params = {"counts": ",".join(map(str, counts)),
              "decisions": round(statistics.mean(decisions)),
              "players": ours.num_players()}
    _register_empty(pyspiel)
    return openspiel_game("bench_rl_empty", params)


def _register_empty(pyspiel) -> None:
    if "bench_rl_empty" in pyspiel.registered_names():
        return
    gtype = pyspiel.GameType(
        short_name="bench_rl_empty", long_name="bench_rl: a game doing nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=12, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=True,
        parameter_specification={"counts": "2", "decisions": 1, "players": 4})
    legal = list(range(0, 60, 6))  # ten actions

    class EmptyGame(pyspiel.Game):
        def __init__(self, params=None):
            p = dict(params or {})
            self.counts = [int(x) for x in str(p.get("counts", "2")).split(",")]
            self.decisions = int(p.get("decisions", 1))
            m = int(p.get("players", 4))
            info = pyspiel.GameInfo(
                num_distinct_actions=60, max_chance_outcomes=len(self.counts),
                num_players=m, min_utility=-1.0, max_utility=1.0,
                max_game_length=sum(self.counts) + self.decisions)
            super().__init__(gtype, info, p)

        def new_initial_state(self):
            return EmptyState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return EmptyObserver()

    class EmptyState(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.remaining = list(game.counts)
            self.left = sum(game.counts)
            self.todo = game.decisions
            self.players = game.num_players()

        def current_player(self):
            if self.left:
                return pyspiel.PlayerId.CHANCE
            if not self.todo:
                return pyspiel.PlayerId.TERMINAL
            return self.todo % self.players

        def _legal_actions(self, player):
            return list(legal)

        def chance_outcomes(self):
            left = self.left
            return [(k, n / left) for k, n in enumerate(self.remaining) if n]

        def _apply_action(self, action):
            if self.left:
                self.remaining[action] -= 1
                self.left -= 1
            else:
                self.todo -= 1

        def is_terminal(self):
            return not self.left and not self.todo

        def returns(self):
            return [0.0] * self.players

    class EmptyObserver:
        def __init__(self):
            self.tensor = np.zeros(1, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state, player):
            pass

    pyspiel.register_game(gtype, EmptyGame)


def rlcard_doudizhu():
    import rlcard

    e = rlcard.make("doudizhu", config={"seed": 0})
    rng = random.Random(0)

    def one(i):
        state, player = e.reset()
        while not e.is_over():
            legal = list(state["legal_actions"])
            state, player = e.step(legal[rng.randrange(len(legal))])
    return one


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", action="append", default=[], metavar="CONTENDER",
                    help="run this contender (repeat the option for more; default: "
                         "all), e.g. --only simulate --only 'pettingzoo env()'")
    ap.add_argument("--base", metavar="CHECKOUT",
                    help="another checkout (a directory holding its built shengji "
                         "package): each round runs the contenders there and here, in "
                         "turn, each in its own process, and prints both side by side")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.base:
        return compare(args)
    from shengji.variants import load_variant

    v = load_variant(args.variant)
    contenders = {
        "simulate": lambda: simulate(v),
        "pettingzoo raw": lambda: pettingzoo(v, False),
        "pettingzoo env()": lambda: pettingzoo(v, True),
        "pettingzoo wrapper": lambda: pettingzoo(v, "pettingzoo"),
        "pettingzoo raw, py": lambda: python_play_phase(pettingzoo(v, False)),
        "pettingzoo moves": lambda: pettingzoo(v, False, actions="moves"),
        "pettingzoo moves, py": lambda: python_play_phase(
            pettingzoo(v, False, actions="moves")),
        "pettingzoo env(), skip_forced": lambda: pettingzoo(v, True, skip_forced=True),
        "pettingzoo moves, skip_forced": lambda: pettingzoo(v, False, actions="moves",
                                                            skip_forced=True),
        "openspiel shengji": lambda: openspiel_game("shengji", {"variant": args.variant}),
        "openspiel shengji, py": lambda: python_play_phase(
            openspiel_game("shengji", {"variant": args.variant})),
        "openspiel empty": lambda: openspiel_empty(args.variant),
        "openspiel shengji, skip_forced": lambda: openspiel_game(
            "shengji", {"variant": args.variant, "skip_forced": True}),
        "openspiel empty, skip_forced": lambda: openspiel_empty(args.variant, True),
        "openspiel infostate": lambda: openspiel_infostate(args.variant, False),
        "openspiel infostate, observer": lambda: openspiel_infostate(args.variant, True),
        "openspiel hearts": lambda: openspiel_game("hearts"),
        "rlcard doudizhu": rlcard_doudizhu,
    }
    if args.only:
        wanted = args.only
        unknown = [w for w in wanted if w not in contenders]
        if unknown:
            ap.error(f"--only: unknown {', '.join(unknown)} (choose among "
                     f"{', '.join(contenders)})")
        contenders = {k: contenders[k] for k in wanted}
    players = {}
    for name, make in contenders.items():
        try:
            players[name] = make()
        except ImportError as e:  # rlcard is optional
            print(f"skipping {name}: {e}")
        except Exception as e:  # noqa: BLE001 - a contender this checkout lacks
            print(f"skipping {name}: {type(e).__name__}: {e}")
    for one in players.values():  # a deal before the clock: imports, first caches
        one(-1)
    if args.worker:  # one round, for compare(): deals per second as JSON
        print(json.dumps({name: _timed(one, args.seconds) for name, one in players.items()}))
        return
    runs: dict = {name: [] for name in players}
    for _ in range(args.repeat):
        for name, one in players.items():
            runs[name].append(_timed(one, args.seconds))
    med = {name: statistics.median(r) for name, r in runs.items()}
    base = med.get("simulate")
    out = {name: {"deals_per_s": round(m, 1), "runs": [round(x, 1) for x in runs[name]],
                  "vs_simulate": round(m / base, 3) if base else None}
           for name, m in med.items()}
    if args.json:
        print(json.dumps({"variant": args.variant, **out}))
        return
    print(f"{args.variant} (ours) and the others: random legal actions, observations at "
          f"every decision; median of {args.repeat} x {args.seconds:g} s, CPU time")
    for name, r in out.items():
        ratio = f"{r['vs_simulate']:.3f} x simulate" if r["vs_simulate"] is not None else ""
        print(f"  {name:30s} {r['deals_per_s']:9,.1f} deals/s  {ratio}  runs {r['runs']}")


def compare(args) -> None:
    """``--base``: rounds of the contenders in a process on the other checkout, then in
    one on this one (``--worker``), alternating; medians side by side."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    here = str(Path(__file__).resolve().parents[1])
    cmd = [sys.executable, __file__, "--worker", "--variant", args.variant, "--seconds",
           str(args.seconds)] + [x for name in args.only for x in ("--only", name)]
    load0 = os.getloadavg()
    runs: dict = {"before": {}, "after": {}}
    for _ in range(args.repeat):
        for side, path in (("before", args.base), ("after", here)):
            env = {**os.environ, "PYTHONPATH": path}
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True,
                                 cwd=path).stdout
            for name, rate in json.loads(out.splitlines()[-1]).items():
                runs[side].setdefault(name, []).append(rate)
    load1 = os.getloadavg()
    med = {side: {k: statistics.median(v) for k, v in r.items()} for side, r in runs.items()}
    base = {side: m.get("simulate") for side, m in med.items()}
    result = {"variant": args.variant, "base": args.base, "here": here,
              "load_average": [round(x, 2) for x in (*load0, *load1)],
              "contenders": {}}
    for name in med["after"]:
        row = {side: {"deals_per_s": round(med[side][name], 1),
                      "runs": [round(x, 1) for x in runs[side][name]],
                      "vs_simulate": round(med[side][name] / base[side], 3)
                      if base[side] else None}
               for side in ("before", "after") if name in med[side]}
        if "before" in row:
            row["after_over_before"] = round(med["after"][name] / med["before"][name], 2)
        result["contenders"][name] = row
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.variant}: before = {args.base}, after = {here}; {args.repeat} alternating "
          f"rounds of {args.seconds:g} s per contender (CPU time), medians; load average "
          f"{load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f} before, {load1[0]:.2f} "
          f"{load1[1]:.2f} {load1[2]:.2f} after")
    print(f"  {'':32s} {'before deals/s':>15s} {'after deals/s':>14s} {'after/before':>13s}"
          f" {'before x sim':>13s} {'after x sim':>12s}")
    for name, row in result["contenders"].items():
        b, a = row.get("before", {}), row["after"]
        print(f"  {name:32s} {b.get('deals_per_s', float('nan')):15,.1f} "
              f"{a['deals_per_s']:14,.1f} {row.get('after_over_before', float('nan')):13.2f}"
              f" {b.get('vs_simulate') or float('nan'):13.3f} "
              f"{a['vs_simulate'] or float('nan'):12.3f}")


if __name__ == "__main__":
    main()
