"""Every speed figure of the project in one run (one process = one core).

    python benchmarks/run_all.py            # tables
    python benchmarks/run_all.py --json     # the same figures for machines
    python benchmarks/run_all.py --quick    # smaller samples (a smoke run)

1. C core against the pure-Python oracle (decompose, follow check, legal follows,
   trick winner; two and three decks), as ratios (``bench_core.py``).
2. The Python engine: whole deals per CPU-second with random bots (``bench_engine.py``).
3. Play-phase playouts: the C playout (``shengji.playout.playouts``, one C call per
   batch) against its Python reference (the same random policy through the engine), per
   variant, from the start of the play phase of seeded deals; playouts per CPU-second.
   Anchor: a compiled Python engine elsewhere reports 3,500-4,100 rollouts/s per core;
   the goal here is 20,000 two-deck play phases per second per core.
4. Memory: peak resident set of this process, and its growth over the playout runs.

Times are CPU time of this process (``time.process_time``) so that other load on the
shared machine does not count; best of a few repeats. Not a test.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

import bench_core  # noqa: E402
import bench_engine  # noqa: E402

from shengji.bots import make_bot  # noqa: E402
from shengji.engine import Game  # noqa: E402
from shengji.playout import Position, playouts, reference_playout  # noqa: E402
from shengji.variants import load_variant  # noqa: E402

PLAYOUT_VARIANTS = ("two-deck-80", "one-deck-40", "three-deck-titanic", "four-deck")
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
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return max(best, 1e-9)


def bench_playouts(name: str, positions: int, per_position: int, ref_deals: int) -> dict:
    v = load_variant(name)
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


def bench_engine_deals(name: str, deals: int) -> dict:
    v = load_variant(name)
    bench_engine.run(v, 10, "warmup")
    t = cpu(lambda: bench_engine.run(v, deals, "bench"), repeat=2)
    return dict(variant=name, deals_per_s=round(deals / t, 1))


def run(quick: bool) -> dict:
    n, slow_n = (40, 5) if quick else (200, 20)
    core = bench_core.run(n, seed=1, slow_n=slow_n)
    engine = [bench_engine_deals(name, 20 if quick else 120)
              for name in ("two-deck-80", "three-deck-titanic")]
    play = [bench_playouts(name, 10 if quick else 40, 100 if quick else 500,
                           3 if quick else 15) for name in PLAYOUT_VARIANTS]
    two = next(p for p in play if p["variant"] == "two-deck-80")
    two_engine = engine[0]["deals_per_s"]
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
            vs_python_engine_deals=round(two["c_per_s"] / two_engine),
            peak_rss_mb=round(rss_mb(), 1),
        ),
    )


def print_tables(res: dict) -> None:
    print("C core against the Python oracle (µs per call, CPU-bound, same inputs)")
    print(f"{'operation':<14} {'decks':>5} {'n':>5} {'C µs':>9} {'oracle µs':>12} {'ratio':>9}")
    for r in res["core"]["rows"]:
        print(f"{r['operation']:<14} {r['decks']:>5} {r['n']:>5} {r['c_us']:>9.2f} "
              f"{r['oracle_us']:>12.1f} {r['ratio']:>8.1f}x")
    print(f"follow check, 25-card hand: {res['core']['follow_check_25_cards_us']:.2f} µs\n")
    print("Python engine, whole deals with random bots")
    for r in res["engine"]:
        print(f"  {r['variant']:<20} {r['deals_per_s']:>10,.1f} deals/s")
    print("\nPlay-phase playouts, random policy (per CPU-second)")
    print(f"{'variant':<20} {'C':>10} {'Python ref':>11} {'ratio':>8}")
    for r in res["playouts"]:
        print(f"{r['variant']:<20} {r['c_per_s']:>10,} {r['python_per_s']:>11,.1f} "
              f"{r['ratio']:>7,}x")
    s = res["summary"]
    print(f"\ntwo-deck C playouts: {s['c_playouts_two_deck_per_s']:,}/s "
          f"(goal {s['goal_per_s']:,}: {'met' if s['meets_goal'] else 'NOT met'}; "
          f"{s['vs_anchor']}x the 4,100/s anchor; {s['vs_python_engine_deals']:,}x "
          "Python-engine deals/s)")
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
