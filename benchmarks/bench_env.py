"""Steps per second of the PettingZoo environment with random masked actions (one core).

    python benchmarks/bench_env.py [--variant two-deck-80] [--episodes 60] [--repeat 5]

Each step is what a learner's loop pays: ``env.last()`` (the observation vector and the
action mask of the seat to act), a uniform choice among the allowed actions, and
``env.step``. Episodes are one deal each, from seeds 0..episodes-1. Reports the median
of ``--repeat`` runs in CPU time of this process (``time.process_time``: other load on
the machine does not count), for the raw environment and for ``shengji.env.env`` (with
PettingZoo's order checks, made by the environment itself), plus the engine actions
(plays, declarations, burials) per second that those steps amount to.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np

from shengji.env import env, raw_env
from shengji.progress import Progress, add_progress_argument


def run(make, variant: str, episodes: int) -> dict:
    e = make(variant)
    rng = random.Random(0)
    steps = actions = 0
    t0 = time.process_time()
    for ep in range(episodes):
        e.reset(seed=ep)
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        actions += len(e.unwrapped.game.actions)
    dt = time.process_time() - t0
    return {"steps": steps, "actions": actions, "episodes": episodes, "seconds": dt,
            "steps_per_s": steps / dt, "actions_per_s": actions / dt,
            "deals_per_s": episodes / dt}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--episodes", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    add_progress_argument(ap)
    args = ap.parse_args()
    out = {}
    # counted per timed run, outside the timed loop
    bar = Progress(2 * args.repeat, "runs", enabled=args.progress)
    for name, make in (("raw_env", raw_env), ("env (checked)", env)):
        runs = []
        for _ in range(args.repeat):
            runs.append(run(make, args.variant, args.episodes))
            bar.update(1)
        med = statistics.median(r["steps_per_s"] for r in runs)
        out[name] = {
            "steps_per_s": med,
            "actions_per_s": statistics.median(r["actions_per_s"] for r in runs),
            "deals_per_s": statistics.median(r["deals_per_s"] for r in runs),
            "steps_per_deal": runs[0]["steps"] / runs[0]["episodes"],
            "runs": [round(r["steps_per_s"]) for r in runs],
        }
    bar.close()
    if args.json:
        print(json.dumps({"variant": args.variant, **out}))
        return
    print(f"{args.variant}: random masked actions, {args.episodes} deals x {args.repeat} runs "
          "(median, CPU time)")
    for name, r in out.items():
        print(f"  {name:14s} {r['steps_per_s']:9,.0f} steps/s  {r['actions_per_s']:8,.0f} "
              f"engine actions/s  {r['deals_per_s']:6.1f} deals/s  "
              f"({r['steps_per_deal']:.0f} steps/deal; runs {r['runs']})")


if __name__ == "__main__":
    main()
