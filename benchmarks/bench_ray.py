"""Simulation on Ray: deals per second with 1 and 2 workers, the overhead per task, and
the same results as a local run.

    python benchmarks/bench_ray.py [--deals 10000] [--variant two-deck-80] [--repeat 3] [--json]

Each configuration starts its own local Ray (``ray.init(num_cpus=N)``: N worker
processes) and is timed after a warm-up run, so Ray's start-up (seconds) is reported
apart and not counted in deals per second. Figures are medians of ``--repeat`` runs
in wall time (the work is spread over processes), so the machine must be quiet: the
load average (``os.getloadavg``) is printed before and after. The per-task overhead is
measured with tasks that do nothing: the wall time per task of 2,000 such tasks in
flight (throughput) and of 200 run one after the other (latency of a round trip).

Why 10,000 deals by default: a run must be long next to what each run pays once. At
about 640 deals/s per process, 2,000 deals last about 1.6 s on two workers, and in
such a short run the fixed costs are a large share: filling the window of tasks at the
start, the last batch (about 0.2 s of work) running on one worker while the other has
nothing left, and 3-4 ms per task round trip. The lead measured 1 -> 2 workers at 1.59x
with 2,000 deals and 2.19x with 10,000 (docs/scaling.md), so smaller runs measure the
tail, not the scaling.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import ray

from shengji.distributed import ray_mapper
from shengji.harness.simulation import simulate

TIMING = ("seconds", "deals_per_second", "jobs", "backend")


def _noop(x):
    return x


def results(summary):
    return {k: v for k, v in summary.items() if k not in TIMING}


def run_local(args) -> tuple[float, dict]:
    rates, last = [], None
    for _ in range(args.repeat):
        last = simulate(args.variant, ["random"] * 4, deals=args.deals, seed=args.seed,
                        progress=False)
        rates.append(last["deals_per_second"])
    return statistics.median(rates), last


def run_ray(args, cpus: int) -> dict:
    t0 = time.perf_counter()
    mapper = ray_mapper(None, cpus=cpus)
    startup = time.perf_counter() - t0
    try:
        simulate(args.variant, ["random"] * 4, deals=200, seed="warm-up", progress=False,
                 mapper=mapper)
        rates, last = [], None
        for _ in range(args.repeat):
            last = simulate(args.variant, ["random"] * 4, deals=args.deals, seed=args.seed,
                            progress=False, mapper=mapper)
            rates.append(last["deals_per_second"])
        noop = ray.remote(_noop)
        ray.get([noop.remote(i) for i in range(200)])  # warm
        t = time.perf_counter()
        ray.get([noop.remote(i) for i in range(2000)])
        throughput_us = (time.perf_counter() - t) / 2000 * 1e6
        t = time.perf_counter()
        for i in range(200):
            ray.get(noop.remote(i))
        latency_us = (time.perf_counter() - t) / 200 * 1e6
    finally:
        mapper.close()
    return {"workers": mapper.workers, "startup_s": startup,
            "deals_per_s": statistics.median(rates), "runs": [round(r, 1) for r in rates],
            "task_overhead_us": throughput_us, "task_round_trip_us": latency_us,
            "summary": last}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--deals", type=int, default=10_000,
                    help="deals per timed run (default 10000: see the docstring)")
    ap.add_argument("--seed", default="bench-ray")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    load_before = os.getloadavg()
    local_rate, local = run_local(args)
    one = run_ray(args, 1)
    two = run_ray(args, 2)
    load_after = os.getloadavg()
    same = results(local) == results(one["summary"]) == results(two["summary"])
    out = {
        "variant": args.variant, "deals": args.deals, "repeat": args.repeat,
        "load_before": load_before, "load_after": load_after,
        "local_1_process_deals_per_s": local_rate,
        "ray": {str(r["workers"]): {k: v for k, v in r.items() if k != "summary"}
                for r in (one, two)},
        "speedup_1_to_2": two["deals_per_s"] / one["deals_per_s"],
        "ray_1_worker_vs_local": one["deals_per_s"] / local_rate,
        "same_results": same,
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.variant}, {args.deals} deals (random bots), median of {args.repeat}, "
          f"wall time; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"  local, 1 process      {local_rate:8.1f} deals/s")
    for r in (one, two):
        print(f"  Ray, {r['workers']} worker(s)       {r['deals_per_s']:8.1f} deals/s  "
              f"(runs {r['runs']}; Ray start {r['startup_s']:.1f} s; per task "
              f"{r['task_overhead_us']:.0f} µs in flight, {r['task_round_trip_us']:.0f} µs "
              "round trip)")
    print(f"  1 -> 2 workers: {out['speedup_1_to_2']:.2f}x; Ray with 1 worker / local: "
          f"{out['ray_1_worker_vs_local']:.2f}; same results as local: {same}")


if __name__ == "__main__":
    main()
