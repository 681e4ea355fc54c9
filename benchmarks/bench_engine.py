"""Deals per second of the Python engine with random bots (one process = one core).

    python benchmarks/bench_engine.py [--variant two-deck-80] [--deals 1000] [--profile]
                                      [--per-play] [--split]

Counts whole deals (shuffle, dealing with declarations, kitty, every trick, scoring)
played by four ``random`` bots through the runner (``engine.play``: ``legal_actions``,
a lazy view and ``apply`` for the burial; declarations picked by index,
``Bot.declare_index``, without a listing or a view; the plays picked by index,
``Bot.play_index``, and run through the C play driver, ``engine.drive``: one C call and
one Python pick per play, the actions and events rebuilt in bulk at the deal's end),
i.e. what a simulation pays for: every event and action recorded. ``--per-play`` turns
the driver off (the per-play path, ``Game._play_picked``) for comparison. ``--split``
adds a run that times the play phase apart (``drive.drive`` and ``Game._play_picked``,
less the scoring and next deal they end with) and reports the rest of a deal — shuffle,
dealing and declarations, burial, scoring, the runner — in µs per deal.
Reports CPU time of this process (``time.process_time``) so that other load on the
machine does not count, and wall time beside it.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from shengji.bots import make_bot
from shengji.engine import Game, drive, play
from shengji.variants import load_variant


def run(variant, deals: int, seed: str = "bench") -> int:
    played = 0
    m = 0
    while played < deals:
        game = Game(variant, f"{seed}/{m}", max_deals=min(50, deals - played))
        bots = [make_bot("random", variant, f"{seed}/{m}/{s}") for s in range(variant.players)]
        play(game, bots)
        played += game.deals_played
        m += 1
    return played


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile")
    ap.add_argument("--per-play", action="store_true",
                    help="without the C play driver (engine.drive.ENABLED = False)")
    ap.add_argument("--split", action="store_true",
                    help="also time the play phase apart and report the rest per deal")
    args = ap.parse_args()
    if args.per_play:
        drive.ENABLED = False
    v = load_variant(args.variant)
    run(v, 20, "warmup")
    best_cpu = best_wall = 0.0
    for r in range(args.repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        n = run(v, args.deals, f"bench{r}")
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        best_cpu = max(best_cpu, n / cpu)
        best_wall = max(best_wall, n / wall)
        print(f"run {r}: {n} deals, {n / cpu:,.0f} deals/s CPU, {n / wall:,.0f} deals/s wall")
    print(f"{args.variant}: best {best_cpu:,.0f} deals per CPU-second "
          f"({best_wall:,.0f} wall), random bots, one process")
    if args.split:
        split(v, args.deals)
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(run, v, min(args.deals, 300), "profile")
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)


def split(variant, deals: int) -> None:
    """One more run with the play phase timed apart (process CPU time around each entry
    to it, less the ``Game._score`` inside: the scoring and the next deal's start); the
    timing's own cost, measured on an empty function, is taken off the rest."""
    from shengji.engine.game import Game as G

    spent = {"play": 0.0, "score": 0.0, "entries": 0}

    def timed(fn, key):
        def wrapper(*args):
            spent["entries"] += 1
            t = time.process_time()
            try:
                return fn(*args)
            finally:
                spent[key] += time.process_time() - t
        return wrapper

    empty = timed(lambda: None, "calibration")
    spent["calibration"] = 0.0
    c0 = time.process_time()
    for _ in range(20_000):
        empty()
    per_entry = (time.process_time() - c0 - spent["calibration"]) / 20_000
    spent["entries"] = 0
    saved = drive.drive, G._play_picked, G._score
    drive.drive = timed(saved[0], "play")
    G._play_picked = timed(saved[1], "play")
    G._score = timed(saved[2], "score")
    try:
        c0 = time.process_time()
        n = run(variant, deals, "split")
        cpu = time.process_time() - c0
    finally:
        drive.drive, G._play_picked, G._score = saved
    play = spent["play"] - spent["score"]
    rest = cpu - play - spent["entries"] * per_entry
    print(f"split: the play phase {play / n * 1e6:,.0f} us per deal, the rest "
          f"{rest / n * 1e6:,.0f} (timing cost {per_entry * 1e6:.1f} us per entry, "
          f"{spent['entries'] / n:.1f} entries a deal, taken off)")


if __name__ == "__main__":
    main()
