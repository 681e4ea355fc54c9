"""Where a deal of the PettingZoo environment spends its time (``bench_rl.py``'s
``pettingzoo env()`` loop, taken apart).

    python benchmarks/bench_env_parts.py [--variant two-deck-80] [--deals 300] [--repeat 3]

The loop of ``bench_rl.py`` (``agent_iter``, ``last()``, a uniform choice among the
allowed actions, ``step``) over the same seeded deals, every part timed with
``time.perf_counter`` (its own cost, measured, taken off each timed span):

- ``reset``: ``env.reset`` (the engine's new game, its dealing to the first decision);
- ``python steps``: ``last()`` + ``step`` of the decisions on the per-step Python path
  (declarations, burial, ...), the engine's actions included;
- in the play phase run in C (``shengji.env.cplay``), per step: ``agent_iter``,
  ``last()``, ``step`` and the caller's own choice (``np.flatnonzero`` of the mask,
  ``random.randrange``); and, timed apart on the same state before each ``last()``, what
  ``last()`` holds: the C observation call alone, and ``cplay.Handout.observe`` (that
  call written into a free pair of the pool, and the dict handed to the caller);
- ``deal end``: the step that ends the deal (the engine's events and actions built in
  bulk, the scoring), and the finished agents' ``last()`` and ``step(None)``.

Medians over ``--repeat`` rounds, in ms per deal, next to ``simulate``'s whole deal in
the same run (CPU time). The spans are timed with ``perf_counter`` (a CPU clock costs
more than some spans) and scaled by the whole loop's CPU time over its wall time, so that
other processes on the machine count as little as they can. Timing every span slows
the loop a little: the parts add up to somewhat more than ``bench_rl.py``'s whole loop.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np


def parts(variant: str, deals: int) -> dict[str, float]:
    from shengji.env import env

    e = env(variant)
    rng = random.Random(0)
    pc = time.perf_counter
    t0 = pc()
    for _ in range(10000):
        pc()
    tick = (pc() - t0) / 10000  # one perf_counter call
    acc: dict[str, float] = dict.fromkeys(
        ["reset", "python steps", "C: agent_iter", "C: last()", "C:   observe call",
         "C:   Handout.observe", "C: caller's choice", "C: step", "deal end: last play",
         "deal end: agents done"], 0.0)
    n_c = 0
    wall0, cpu0 = pc(), time.process_time()
    for i in range(deals):
        ta = pc()
        e.reset(seed=i)
        acc["reset"] += pc() - ta - tick
        it = iter(e.agent_iter())
        while True:
            ta = pc()
            try:
                next(it)
            except StopIteration:
                break
            tb = pc()
            cp = e._cp
            if cp is None:
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    acc["deal end: agents done"] += pc() - tb - tick
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[rng.randrange(len(legal))]))
                acc["python steps"] += pc() - tb - tick
                continue
            n_c += 1
            acc["C: agent_iter"] += tb - ta - tick
            # the observation call alone, and with the handout around it, on the same
            # state (C writes the same vector again: nothing changes), to split last()
            seat = cp.st.to_act
            t1 = pc()
            cp._obs(cp.o, cp.st, cp.b, seat, cp._out, cp.size, cp._mask, 60)
            t2 = pc()
            _ = e._handout.observe(cp, seat)
            t3 = pc()
            del _  # (the pair back in the pool, as the loop's own observation)
            acc["C:   observe call"] += t2 - t1 - tick
            acc["C:   Handout.observe"] += t3 - t2 - tick
            t1 = pc()
            obs, _, term, trunc, _ = e.last()
            t2 = pc()
            legal = np.flatnonzero(obs["action_mask"])
            a = int(legal[rng.randrange(len(legal))])
            t3 = pc()
            acc["C: last()"] += t2 - t1 - tick
            acc["C: caller's choice"] += t3 - t2 - tick
            t1 = pc()
            e.step(a)
            t2 = pc()
            if e._cp is None and e._gm.over:  # the step that ended the deal
                acc["deal end: last play"] += t2 - t1 - tick
            else:
                acc["C: step"] += t2 - t1 - tick
    # the spans are wall time (perf_counter: cheap enough for spans of a microsecond);
    # other processes' share of the core is taken out by the loop's CPU / wall ratio
    scale = (time.process_time() - cpu0) / (pc() - wall0)
    out = {k: 1e3 * v * scale / deals for k, v in acc.items()}
    out["sum of the parts"] = sum(v for k, v in out.items() if not k.startswith("C:  "))
    out["C steps per deal"] = n_c / deals
    return out


def simulate_ms(variant: str, deals: int) -> float:
    from shengji.bots import make_bot
    from shengji.engine.game import Game
    from shengji.engine.runner import play
    from shengji.variants import load_variant

    v = load_variant(variant)
    t0 = time.process_time()
    for i in range(deals):
        g = Game(v, f"bench/{i}", max_deals=1)
        play(g, [make_bot("random", v, f"bench/{i}/{s}") for s in range(g.players)])
    return 1e3 * (time.process_time() - t0) / deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    runs: list[dict[str, float]] = []
    sims: list[float] = []
    for _ in range(args.repeat):
        sims.append(simulate_ms(args.variant, args.deals))
        runs.append(parts(args.variant, args.deals))
    print(f"{args.variant}: ms per deal, median of {args.repeat} x {args.deals} deals")
    print(f"  {'simulate (whole deal, CPU)':28s} {statistics.median(sims):7.3f}")
    for k in runs[0]:
        print(f"  {k:28s} {statistics.median(r[k] for r in runs):7.3f}")


if __name__ == "__main__":
    main()
