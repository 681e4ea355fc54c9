"""Memory of the module caches over many deals (a benchmark, not a test)

    python benchmarks/cache_memory.py [--variant two-deck-80] [--deals 10000]

Plays ``--deals`` single deals with the heuristic bot at every seat in this process and
reports resident memory (start, peak, end; Linux ``/proc/self/statm``), deals per CPU
second, and each module cache's entries and approximate bytes at the end (keys, values
and the Hands' count bytes, ``sys.getsizeof``). Run it on two checkouts with
``PYTHONPATH=...`` to compare them.
"""

from __future__ import annotations

import argparse
import sys
import time

import shengji.bots.cardsense as heur
import shengji.core as core
import shengji.engine.tricks as tricks_mod
from shengji.bots import make_bot
from shengji.engine import Game
from shengji.engine.runner import play
from shengji.variants import load_variant


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def size(o, seen: set) -> int:
    if id(o) in seen:
        return 0
    seen.add(id(o))
    s = sys.getsizeof(o)
    if isinstance(o, dict):
        s += sum(size(k, seen) + size(v, seen) for k, v in o.items())
    elif isinstance(o, (list, tuple)):
        s += sum(size(x, seen) for x in o)
    elif hasattr(o, "_b"):  # a core Hand: its counts
        s += size(o._b, seen)
    return s


def caches() -> dict:
    """name -> the dicts of that cache (both generations where there are two)."""
    def both(mod, name, old):
        return [getattr(mod, name), getattr(mod, old, {})]  # a checkout without _OLD: {}

    return {"core._IDS_DESC": both(core, "_IDS_DESC", "_IDS_OLD"),
            "core._IDS_DISPLAY": both(core, "_IDS_DISPLAY", "_IDS_DISPLAY_OLD"),
            "cardsense._HANDS": both(heur, "_HANDS", "_HANDS_OLD"),
            "cardsense._CARDS": both(heur, "_CARDS", "_CARDS_OLD"),
            "cardsense._DECOMPOSED": [heur._DECOMPOSED],
            "tricks._HAND_CACHE": both(tricks_mod, "_HAND_CACHE", "_HAND_CACHE_OLD")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="two-deck-80")
    ap.add_argument("--deals", type=int, default=10_000)
    args = ap.parse_args()
    v = load_variant(args.variant)
    start, peak, t = rss_mb(), 0.0, time.process_time()
    for d in range(args.deals):
        g = Game(v, f"m/{d}", max_deals=1)
        play(g, [make_bot("heuristic", v, f"m/{d}/{s}") for s in range(v.players)])
        if d % 500 == 499:
            peak = max(peak, rss_mb())
    cpu = time.process_time() - t
    peak = max(peak, rss_mb())
    print(f"{args.variant}, {args.deals} heuristic deals: {args.deals / cpu:.1f} deals per "
          f"CPU-second; resident {start:.1f} MB at the start, peak {peak:.1f}, "
          f"end {rss_mb():.1f}")
    for name, dicts in caches().items():
        if name.endswith("DECOMPOSED"):
            entries = sum(len(e[1]) for e in dicts[0].values())
        else:
            entries = sum(len(d) for d in dicts)
        mb = sum(size(d, set()) for d in dicts) / 2**20
        print(f"  {name}: {entries} entries, {mb:.1f} MB")


if __name__ == "__main__":
    main()
