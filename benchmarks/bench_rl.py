"""Deals per second of the research environments, side by side in one run (one core).

    python benchmarks/bench_rl.py [--variant two-deck-80] [--seconds 2] [--repeat 3]
                                  [--only simulate,openspiel shengji,...]

Every contender plays whole deals (or games) with uniformly random legal actions, and
reads an observation at every decision where it has one, as a learner would:

- ``simulate``: the engine with random bots (what ``shengji simulate`` runs; the C play
  driver plays the play phase), no observations: the reference for the ratios;
- ``pettingzoo raw`` / ``pettingzoo env()``: ``shengji.env`` (card-by-card actions), the
  observation vector and the mask at every step; ``pettingzoo raw, py``: the same with
  the play phase on the per-step Python path (``shengji.env.cplay.ENABLED = False``, as
  before it ran in C); ``pettingzoo moves``: whole-move mode;
- ``openspiel shengji``: our OpenSpiel game, its observation tensor at every decision
  (``make_observation(game).set_from``); ``openspiel shengji, py``: the same with the
  play phase on the per-step Python path (``cplay.ENABLED = False``);
- ``openspiel hearts``: OpenSpiel's C++ hearts through pyspiel,
  ``state.information_state_tensor`` at every decision (hearts has no observation
  tensor);
- ``rlcard doudizhu``: RLCard's DouDizhu in a step loop (``env.step`` returns the next
  state, observation included) — skipped when rlcard is not installed.

The contenders run in turn, ``--repeat`` rounds, each for about ``--seconds`` of CPU
time (``time.process_time``: other load on the machine does not count); the medians and
the ratios to ``simulate`` are printed (``--json`` for one JSON object; ``--only``: a
comma-separated subset of the contenders, by name).
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


def pettingzoo(variant, wrapped: bool, **kw):
    from shengji.env import env, raw_env

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
    off): the environment as it was before the play phase ran in C."""
    from shengji.env import cplay

    def run(i):
        cplay.ENABLED = False
        try:
            one(i)
        finally:
            cplay.ENABLED = True
    return run


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
    ap.add_argument("--only", default="", help="comma-separated contender names")
    args = ap.parse_args()
    from shengji.variants import load_variant

    v = load_variant(args.variant)
    contenders = {
        "simulate": lambda: simulate(v),
        "pettingzoo raw": lambda: pettingzoo(v, False),
        "pettingzoo env()": lambda: pettingzoo(v, True),
        "pettingzoo raw, py": lambda: python_play_phase(pettingzoo(v, False)),
        "pettingzoo moves": lambda: pettingzoo(v, False, actions="moves"),
        "openspiel shengji": lambda: openspiel_game("shengji", {"variant": args.variant}),
        "openspiel shengji, py": lambda: python_play_phase(
            openspiel_game("shengji", {"variant": args.variant})),
        "openspiel hearts": lambda: openspiel_game("hearts"),
        "rlcard doudizhu": rlcard_doudizhu,
    }
    only = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in only if n not in contenders]
    if unknown:
        ap.error(f"--only: no contender {', '.join(unknown)} (known: {', '.join(contenders)})")
    players = {}
    for name, make in contenders.items():
        if only and name not in only:
            continue
        try:
            players[name] = make()
        except ImportError as e:  # rlcard is optional
            print(f"skipping {name}: {e}")
        except Exception as e:  # noqa: BLE001 - a contender this checkout lacks
            print(f"skipping {name}: {type(e).__name__}: {e}")
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
        print(f"  {name:18s} {r['deals_per_s']:9,.1f} deals/s  {ratio}  runs {r['runs']}")


if __name__ == "__main__":
    main()
