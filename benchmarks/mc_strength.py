"""How strong is the search bot? (a benchmark, not a test: hours of CPU at full size)

    python benchmarks/mc_strength.py --boards 500 --jobs 1 --out strength.jsonl
    python benchmarks/mc_strength.py --out strength.jsonl --report      # figures so far
    python benchmarks/mc_strength.py --only heuristic:one-deck-40 --boards 200 --out x.jsonl

The arena's games (duplicate deals: each board is one shuffle played once per seating,
the sides swapped) for the issue's goals, at the bot's default budget unless ``--mc``
says otherwise:

- mc vs random on two-deck-80: deal win rate (goal ≥ 0.98) with its 95% interval;
- mc vs heuristic on two-deck-80, one-deck-40 and three-deck-titanic: levels per deal
  (goal ≥ +0.5, 95% interval above 0);
- the median CPU time of mc's lead/follow decisions (goal ≤ 100 ms on one core).

Every finished game is appended to ``--out`` as one JSON line, so a long run on a shared
machine can be read while it runs (``--report``) and resumed after an interruption (games
already in the file are skipped). Each run records the load average when it starts and
each game's CPU time per decision (wall time measures the machine's load, not the bot).
Plan the CPU first: at the default budget a two-deck game with two mc seats costs about
a CPU-second, a one-deck game a fifth of that, a three-deck game about three.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time

from shengji.harness.arena import (
    GameResult,
    board_specs,
    format_summary,
    local_mapper,
    play_spec,
    reduce_results,
)
from shengji.progress import Progress, add_progress_argument

RUNS = [("heuristic", "one-deck-40"), ("random", "two-deck-80"), ("heuristic", "two-deck-80"),
        ("heuristic", "three-deck-titanic")]


def _read(path) -> list[dict]:
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _task(item):
    run, spec = item
    t = time.process_time()
    res = play_spec(spec)
    return run, res, time.process_time() - t


def report(lines: list[dict], seed) -> None:
    runs: dict = {}
    for ln in lines:
        runs.setdefault((ln["opponent"], ln["variant"]), []).append(ln)
    for (opponent, variant), games in runs.items():
        results = [GameResult(**{k: v for k, v in g["result"].items()}) for g in games]
        s = reduce_results(results, [games[0]["mc"], opponent], variant=variant, seed=seed)
        cpu = sum(g["cpu"] for g in games)
        loads = [g["load"] for g in games]
        print(format_summary(s).split("\nlevels/deal:")[0])
        print(f"CPU {cpu / 60:.0f} min in {len(games)} games; 1-minute load average as "
              f"games ended: {min(loads):.1f} to {max(loads):.1f}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=500, help="boards per run (2 deals each)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", default="strength")
    ap.add_argument("--mc", default="mc", help="the search bot's spec (default: mc)")
    ap.add_argument("--only", action="append", default=None,
                    help="OPPONENT:VARIANT runs to do (repeatable; default: all four)")
    ap.add_argument("--out", required=True, help="JSON lines of finished games (appended)")
    ap.add_argument("--report", action="store_true", help="only print the figures so far")
    add_progress_argument(ap)
    args = ap.parse_args()
    done = _read(args.out)
    if args.report:
        report(done, args.seed)
        return
    runs = [tuple(x.split(":", 1)) for x in args.only] if args.only else RUNS
    seen = {(d["opponent"], d["variant"], d["result"]["board"], d["result"]["seating"])
            for d in done}
    todo = []
    for opponent, variant in runs:
        for spec in board_specs(variant, [args.mc, opponent], boards=args.boards,
                                seed=args.seed):
            if (opponent, variant, spec.board, spec.seating) not in seen:
                todo.append(((opponent, variant), spec))
    print(f"{len(todo)} games to play ({len(seen)} already in {args.out}); load "
          f"{os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    bar = Progress(len(todo), "games", enabled=args.progress)
    with open(args.out, "a", encoding="utf-8") as out:
        for _i, ((opponent, variant), res, cpu) in enumerate(
                local_mapper(args.jobs)(_task, todo)):
            out.write(json.dumps({"mc": args.mc, "opponent": opponent, "variant": variant,
                                  "cpu": cpu, "load": os.getloadavg()[0],
                                  "result": dataclasses.asdict(res)}) + "\n")
            out.flush()
            bar.update(1)
    bar.close()
    report(_read(args.out), args.seed)


if __name__ == "__main__":
    main()
