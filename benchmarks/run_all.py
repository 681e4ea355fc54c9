"""Every speed figure of the project in one run (one process = one core).

    python benchmarks/run_all.py            # tables (progress on stderr)
    python benchmarks/run_all.py --json     # the same figures for machines
    python benchmarks/run_all.py --quick    # smaller samples (a smoke run)

Works from a source checkout after ``pip install .`` or ``pip install -e .`` alike: it
imports the installed ``shengji`` and takes only the oracle (``tests/oracle``) and the C
sources (``core_c/``, for the C-only column) from the checkout.

1. The rules core per call: C alone (a C driver, ``core_only.c``), the same calls from
   Python, and the pure-Python oracle, on the same positions (decompose, follow check,
   legal follows, trick winner, and the batch forms; two and three decks), with the
   ratios Python / C and oracle / Python (``bench_core.py``).
2. The Python engine: whole deals per CPU-second with random bots (``bench_engine.py``),
   and ``shengji simulate``'s own loop (``harness.simulation.simulate``, one job) on the
   same variant.
3. Play-phase playouts: the C playout (``shengji.playout.playouts``, one C call per
   batch) against its Python reference (the same random policy through the engine), per
   variant, from the start of the play phase of seeded deals; playouts per CPU-second.
   Anchor: a compiled Python engine elsewhere reports 3,500-4,100 rollouts/s per core;
   the goal here is 20,000 two-deck play phases per second per core.
4. Memory: peak resident set of this process, and its growth over the playout runs.

Times are CPU time of this process (``time.process_time``) so that other load on the
shared machine counts as little as it can; medians of a few repeats. Not a test.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import bench_core  # noqa: E402  (it appends tests/ for the oracle, after site-packages)
import bench_engine  # noqa: E402

from shengji.bots import make_bot  # noqa: E402
from shengji.engine import Game  # noqa: E402
from shengji.harness.simulation import simulate  # noqa: E402
from shengji.playout import Position, playouts, reference_playout  # noqa: E402
from shengji.variants import load_variant  # noqa: E402

PLAYOUT_VARIANTS = ("two-deck-80", "one-deck-40", "three-deck-titanic", "four-deck",
                    "finding-friends@5", "finding-friends@8", "finding-friends@12")
GOAL = 20_000
ANCHOR = (3_500, 4_100)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def play_phase(variant, seed) -> Game:
    g = Game(variant, seed)
    bots = [make_bot("random", variant, f"{seed}/{s}") for s in range(g.players)]
    while g.phase != "play":
        s = g.to_act
        g.apply(bots[s].act(g.view(s), g.legal_actions(s)))
    return g


def cpu(fn, repeat: int = 3) -> float:
    """Median CPU seconds of ``repeat`` runs of ``fn``."""
    return max(statistics.median(_cpu_once(fn) for _ in range(repeat)), 1e-9)


def _cpu_once(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def bench_playouts(name: str, positions: int, per_position: int, ref_deals: int) -> dict:
    """``name``: a variant, or ``variant@N`` at N seats (finding friends: calls open)."""
    base, _, seats = name.partition("@")
    v = load_variant(base, players=int(seats) if seats else None)
    games = [play_phase(v, f"bench/{i}") for i in range(positions)]
    pos = [Position.from_game(g) for g in games]
    rss0 = rss_mb()
    t = cpu(lambda: [playouts(p, per_position, seed=i) for i, p in enumerate(pos)])
    c_rate = positions * per_position / t
    # the Python reference plays the same policy through the engine (it consumes games)
    fresh = [Game.from_dict(g.to_dict()) for g in games[:ref_deals]]
    t0 = time.process_time()
    for i, g in enumerate(fresh):
        reference_playout(g, i)
    py_rate = len(fresh) / max(time.process_time() - t0, 1e-9)
    return dict(variant=name, c_per_s=round(c_rate), python_per_s=round(py_rate, 1),
                ratio=round(c_rate / py_rate), rss_growth_mb=round(rss_mb() - rss0, 1))


def bench_engine_deals(name: str, deals: int, repeat: int = 5) -> dict:
    """Deals per CPU-second through the engine (``bench_engine.run``) and through
    ``simulate`` (one job, random bots: what ``shengji simulate`` runs), side by side:
    both warmed up first, then ``repeat`` runs of each, alternated (a change of load on
    the shared machine hits both alike), medians. simulate does more by design: a new
    game and bots per unit of 20 deals (seeds independent of --jobs), the variant loaded
    afresh per run, its statistics read from the events."""
    v = load_variant(name)
    players = ["random"] * v.players
    bench_engine.run(v, 20, "warmup")
    simulate(name, players, deals=20, seed="warmup", progress=False)
    engine, sim = [], []
    for i in range(repeat):
        # new seeds each run: a variant's games share their declaration caches, so
        # replaying the same deals would find every state already known
        seed = f"bench{i}"
        engine.append(_cpu_once(lambda s=seed: bench_engine.run(v, deals, s)))
        sim.append(_cpu_once(lambda s=seed: simulate(name, players, deals=deals, seed=s,
                                                     progress=False)))
    t, ts = statistics.median(engine), statistics.median(sim)
    return dict(variant=name, deals_per_s=round(deals / t, 1),
                simulate_deals_per_s=round(deals / ts, 1), simulate_over_engine=round(ts / t, 2))


def _log(msg: str) -> None:
    print(f"run_all: {msg}", file=sys.stderr, flush=True)


def run(quick: bool) -> dict:
    n, slow_n = (40, 5) if quick else (200, 20)
    _log(f"rules core: C alone, from Python, the oracle ({n} positions per deck count)")
    core = bench_core.run(n, seed=1, slow_n=slow_n)
    engine = []
    for name in ("two-deck-80", "three-deck-titanic"):
        _log(f"engine and simulate: {name}")
        engine.append(bench_engine_deals(name, 40 if quick else 600, 3 if quick else 5))
    play = []
    for name in PLAYOUT_VARIANTS:
        _log(f"playouts: {name}")
        play.append(bench_playouts(name, 10 if quick else 40, 100 if quick else 500,
                                   3 if quick else 15))
    two = next(p for p in play if p["variant"] == "two-deck-80")
    two_engine = engine[0]["deals_per_s"]
    goal_rows = [r for r in core["rows"]
                 if r["operation"] in ("decompose", "check_follow", "trick_winner")]
    return dict(
        machine=dict(python=platform.python_version(), cpu=platform.processor() or
                     platform.machine()),
        core=core,
        engine=engine,
        playouts=play,
        summary=dict(
            c_playouts_two_deck_per_s=two["c_per_s"],
            goal_per_s=GOAL,
            meets_goal=two["c_per_s"] >= GOAL,
            vs_anchor=round(two["c_per_s"] / ANCHOR[1], 1),
            vs_python_engine_deals=round(two["c_per_s"] / two_engine, 1),
            python_over_c_max=max((r["python_over_c"] for r in goal_rows
                                   if r["python_over_c"] is not None), default=None),
            simulate_over_engine=engine[0]["simulate_over_engine"],
            peak_rss_mb=round(rss_mb(), 1),
        ),
    )


def print_tables(res: dict) -> None:
    bench_core.print_table(res["core"])
    print("\nPython engine, whole deals with random bots (per CPU-second)")
    print(f"{'variant':<20} {'engine':>10} {'simulate':>10} {'sim/engine time':>16}")
    for r in res["engine"]:
        print(f"{r['variant']:<20} {r['deals_per_s']:>10,.1f} {r['simulate_deals_per_s']:>10,.1f} "
              f"{r['simulate_over_engine']:>15.2f}x")
    print("\nPlay-phase playouts, random policy (per CPU-second)")
    print(f"{'variant':<20} {'C':>10} {'Python ref':>11} {'ratio':>8}")
    for r in res["playouts"]:
        print(f"{r['variant']:<20} {r['c_per_s']:>10,} {r['python_per_s']:>11,.1f} "
              f"{r['ratio']:>7,}x")
    s = res["summary"]
    print(f"\ntwo-deck C playouts: {s['c_playouts_two_deck_per_s']:,}/s "
          f"(goal {s['goal_per_s']:,}: {'met' if s['meets_goal'] else 'NOT met'}; "
          f"{s['vs_anchor']}x the 4,100/s anchor); a two-deck deal through the engine "
          f"costs {s['vs_python_engine_deals']:,} C playouts")
    if s["python_over_c_max"] is not None:
        print(f"from Python, decompose / follow check / trick winner: at most "
              f"{s['python_over_c_max']:.2f}x the C-only time")
    growth = max(r["rss_growth_mb"] for r in res["playouts"])
    print(f"peak memory: {s['peak_rss_mb']} MB resident; growth during playouts "
          f"≤ {growth} MB")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--quick", action="store_true", help="small samples (smoke run)")
    args = ap.parse_args(argv)
    res = run(args.quick)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_tables(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
