"""Is the heuristic bot clearly stronger than random? (a benchmark, not a test)

    python benchmarks/bots_vs_random.py [--variant two-deck-80] [--deals 2000] [--jobs 2]

Plays ``--deals`` deals with the heuristic bots at seats 0 and 2 against random bots at
1 and 3, then as many with the seats swapped (so neither side profits from a seat), as
consecutive deals of matches (levels, dealers and trumps evolve as in real play).
Reports, for the heuristic side over all deals:
- levels gained per deal (its own rises) and the per-deal level difference to the
  random side, with a 95% normal interval;
- deal win rate (the heuristic side is the side the scoring table favours: it keeps or
  takes the deal) with a 95% Wilson interval;
- matches finished and won.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from shengji.harness.simulation import simulate, wilson


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--deals", type=int, default=2000, help="deals per seating (two seatings)")
    ap.add_argument("--seed", default="bvr")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    from shengji.variants import load_variant

    players = load_variant(args.variant).players
    seatings = [
        ["heuristic" if s % 2 == 0 else "random" for s in range(players)],
        ["random" if s % 2 == 0 else "heuristic" for s in range(players)],
    ]
    t0 = time.perf_counter()
    runs = [simulate(args.variant, p, deals=args.deals, seed=f"{args.seed}/{i}",
                     jobs=args.jobs) for i, p in enumerate(seatings)]
    seconds = time.perf_counter() - t0

    deals = sum(r["deals"] for r in runs)
    h = [r["teams"]["heuristic"] for r in runs]
    rnd = [r["teams"]["random"] for r in runs]
    won = sum(t["deals_won"] for t in h)
    lo, hi = wilson(won, deals)
    # per-deal level difference (heuristic minus random), pooled over both seatings
    diffs = [r["level_difference"] for r in runs]
    mean = sum(d["per_deal"] * r["deals"] * (1 if d["side"] == "heuristic" else -1)
               for d, r in zip(diffs, runs, strict=True)) / deals
    # pooled standard error from each run's interval half-width
    se = math.sqrt(sum(((d["per_deal_95"][1] - d["per_deal_95"][0]) / (2 * 1.96)) ** 2
                       * r["deals"] ** 2 for d, r in zip(diffs, runs, strict=True))) / deals
    result = {
        "variant": args.variant,
        "deals": deals,
        "heuristic_levels_per_deal": sum(t["levels_gained"] for t in h) / deals,
        "random_levels_per_deal": sum(t["levels_gained"] for t in rnd) / deals,
        "level_difference_per_deal": mean,
        "level_difference_95": [mean - 1.96 * se, mean + 1.96 * se],
        "heuristic_deal_win_rate": won / deals,
        "heuristic_deal_win_rate_95": [lo, hi],
        "matches_finished": sum(r["matches"] for r in runs),
        "matches_won_by_heuristic": sum(t["matches_won"] for t in h),
        "seconds": seconds,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.variant}: {deals} deals, heuristic vs random, seats swapped halfway")
    print(f"  levels gained per deal: heuristic {result['heuristic_levels_per_deal']:.3f}, "
          f"random {result['random_levels_per_deal']:.3f}")
    print(f"  level difference per deal: {mean:+.3f} (95% {result['level_difference_95'][0]:+.3f}"
          f" to {result['level_difference_95'][1]:+.3f})")
    print(f"  heuristic deal win rate: {won / deals:.3f} (95% {lo:.3f}–{hi:.3f})")
    print(f"  matches: {result['matches_won_by_heuristic']} of {result['matches_finished']} "
          f"finished matches won by the heuristic side")
    print(f"  {seconds:.1f} s with {args.jobs} job(s)")


if __name__ == "__main__":
    main()
