"""How strong is the search bot? (a benchmark, not a test: hours of CPU at full size)

    python benchmarks/mc_strength.py --boards 1000 --jobs 2 --json out.json
    python benchmarks/mc_strength.py --only heuristic:one-deck-40 --boards 200

Runs the arena (duplicate deals: each board is one shuffle played with the sides
swapped) for the issue's goals, at the bot's default budget unless ``--mc`` says
otherwise:

- mc vs random on two-deck-80: deal win rate (goal ≥ 0.98) with its 95% interval;
- mc vs heuristic on two-deck-80, one-deck-40 and three-deck-titanic: levels per deal
  (goal ≥ +0.5, 95% interval above 0);
- the median CPU time of mc's lead/follow decisions (goal ≤ 100 ms on one core).

Each run records the machine's load average before and after (the machine is shared:
CPU time, not wall time, is the decision-time figure). Plan the CPU first: at the default
budget a two-deck game with two mc seats costs about a CPU-second, a three-deck one
about three.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from shengji.engine.arena import arena

RUNS = [("random", "two-deck-80"), ("heuristic", "two-deck-80"), ("heuristic", "one-deck-40"),
        ("heuristic", "three-deck-titanic")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000, help="boards per run (2 deals each)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="strength")
    ap.add_argument("--mc", default="mc", help="the search bot's spec (default: mc)")
    ap.add_argument("--only", action="append", default=None,
                    help="OPPONENT:VARIANT runs to do (repeatable; default: all four)")
    ap.add_argument("--json", metavar="FILE", help="write every summary to FILE")
    args = ap.parse_args()
    runs = [tuple(x.split(":", 1)) for x in args.only] if args.only else RUNS
    out = []
    for opponent, variant in runs:
        load0 = os.getloadavg()
        t = time.time()
        s = arena(variant, [args.mc, opponent], boards=args.boards, seed=args.seed,
                  jobs=args.jobs, progress=True)
        s["load_before"], s["load_after"] = list(load0), list(os.getloadavg())
        s["wall_seconds"] = time.time() - t
        out.append(s)
        p = s["pairs"][0]
        lo, hi = p["level_difference_95"]
        wlo, whi = p["deal_win_rate_95"]
        med = s["ratings"][0]["median_decision_ms"]
        print(f"{args.mc} vs {opponent} on {variant}: {p['deals']} deals ({p['boards']} "
              f"boards); levels/deal {p['level_difference_per_deal']:+.3f} (95% {lo:+.3f} to "
              f"{hi:+.3f}); deal win rate {p['deal_win_rate']:.3f} (95% {wlo:.3f}-{whi:.3f}); "
              f"median decision {med:.1f} ms CPU; load {load0[0]:.1f} -> "
              f"{s['load_after'][0]:.1f}; {s['wall_seconds'] / 60:.0f} min", flush=True)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
