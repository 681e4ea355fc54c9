"""How fast do the bots play? (a benchmark, not a test)

    python benchmarks/bots_speed.py [--variant two-deck-80] [--deals 200] [--repeats 3]

Whole deals (dealing, declaring, burying, play, scoring) through the engine, one bot
kind at every seat, in this process: deals per second of CPU time (``process_time``, so
that other work on a shared machine counts less), the best of ``--repeats`` runs, each
lineup measured side by side in the same run. ``mc`` is measured on fewer deals
(``--mc-deals``) and its median CPU time per lead/follow decision is reported too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from shengji.bots import make_bot
from shengji.engine import Game
from shengji.engine.runner import play
from shengji.variants import load_variant


class Timed:
    def __init__(self, bot, times):
        self.bot, self.times = bot, times
        # as shengji simulate runs it: a bot that reads every view gets it built at once
        # (engine.runner), so its decision times do not include building the view
        self.reads_view = getattr(bot, "reads_view", False)

    def act(self, view, legal):
        if legal.kind not in ("lead", "follow"):
            return self.bot.act(view, legal)
        t = time.process_time()
        a = self.bot.act(view, legal)
        self.times.append(time.process_time() - t)
        return a


def run(variant, spec: str, deals: int, seed: str) -> tuple[float, list]:
    times: list = []
    t = time.process_time()
    for d in range(deals):
        g = Game(variant, f"{seed}/{d}", max_deals=1)
        play(g, [Timed(make_bot(spec, variant, f"{seed}/{d}/{s}"), times)
                 for s in range(variant.players)])
    return deals / (time.process_time() - t), times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--mc-deals", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--bots", default="random,heuristic,mc")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    variant = load_variant(args.variant)
    out = {"variant": args.variant, "bots": {}}
    for spec in args.bots.split(","):
        deals = args.mc_deals if spec.startswith("mc") else args.deals
        best, times = 0.0, []
        for r in range(args.repeats):
            rate, ts = run(variant, spec, deals, f"speed/{r}")
            best = max(best, rate)
            times.extend(ts)
        out["bots"][spec] = {"deals_per_cpu_second": best, "deals": deals,
                             "median_decision_ms": 1000 * statistics.median(times)}
    base = out["bots"].get("random", {}).get("deals_per_cpu_second")
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.variant}: deals per CPU second, best of {args.repeats}")
    for spec, r in out["bots"].items():
        ratio = f"  ({r['deals_per_cpu_second'] / base:.2f}x random)" if base else ""
        print(f"  {spec:<12} {r['deals_per_cpu_second']:8.1f}{ratio}   median decision "
              f"{r['median_decision_ms']:.3f} ms")


if __name__ == "__main__":
    main()
