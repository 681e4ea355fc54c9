"""Finding friends at several table sizes (issue 11): random-bot deals per second through
the engine, and C playouts per second from the first trick of a deal, side by side.

    python benchmarks/bench_seats.py                 # 5, 8 and 12 seats
    python benchmarks/bench_seats.py --seats 5 6 12 --deals 60 --repeats 5 --json

Each repeat plays ``--deals`` whole deals of ``finding-friends`` at every size in turn
(random bots at every seat, the match's deals one after another, no invariant checks),
then times ``--playouts`` C playouts from a position taken after the dealer's calls;
figures are the medians of the repeats (CPU time of this process, ``time.process_time``).
A size the C playout does not take (it seats at most ``SJ_MAX_PLAYERS``) is reported as
such. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from shengji.bots import make_bot
from shengji.engine import Game
from shengji.engine.runner import play
from shengji.errors import ShengjiError
from shengji.variants import load_variant


def deals_per_second(variant, deals: int, seed: str) -> float:
    bots = [make_bot("random", variant, f"{seed}/{s}") for s in range(variant.players)]
    played = 0
    t0 = time.process_time()
    m = 0
    while played < deals:
        game = Game(variant, f"{seed}/{m}", max_deals=deals - played)
        play(game, bots)
        played += game.deals_played
        m += 1
    return played / (time.process_time() - t0)


def playout_position(variant, seed: str):
    """A finding-friends deal just after the dealer's calls (random bots up to there)."""
    from shengji.playout import Position

    game = Game(variant, seed, max_deals=1)
    bots = [make_bot("random", variant, f"{seed}/{s}") for s in range(variant.players)]
    while game.phase != "play":
        seat = game.to_act
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    return Position.from_game(game)


def playouts_per_second(variant, n: int, seed: str) -> float | str:
    from shengji.playout import playouts

    try:
        pos = playout_position(variant, seed)
        playouts(pos, 1, 0)
    except ShengjiError as e:
        return f"not run: {str(e).splitlines()[0]}"
    t0 = time.process_time()
    playouts(pos, n, 1)
    return n / (time.process_time() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, nargs="+", default=[5, 8, 12])
    ap.add_argument("--deals", type=int, default=40, help="deals per size and repeat")
    ap.add_argument("--playouts", type=int, default=2000, help="playouts per size and repeat")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    variants = {n: load_variant("finding-friends", players=n) for n in args.seats}
    runs: dict = {n: {"deals": [], "playouts": []} for n in args.seats}
    for r in range(args.repeats):
        for n, v in variants.items():
            print(f"repeat {r + 1}/{args.repeats}: {n} seats", file=sys.stderr)
            runs[n]["deals"].append(deals_per_second(v, args.deals, f"bench/{r}"))
            runs[n]["playouts"].append(playouts_per_second(v, args.playouts, f"bench/{r}"))
    out = {}
    for n in args.seats:
        p = runs[n]["playouts"]
        out[n] = {
            "deck": variants[n].composition.describe(),
            "deals_per_second": statistics.median(runs[n]["deals"]),
            "playouts_per_second": statistics.median(p) if all(
                isinstance(x, float) for x in p) else p[0],
        }
    if args.json:
        json.dump({"repeats": args.repeats, "deals": args.deals, "playouts": args.playouts,
                   "sizes": out}, sys.stdout)
        print()
        return 0
    print(f"finding-friends, random bots; medians of {args.repeats} repeats "
          f"({args.deals} deals, {args.playouts} playouts each)")
    print(f"{'seats':>5}  {'deck':<36} {'deals/s':>8}  C playouts/s")
    for n, row in out.items():
        pps = row["playouts_per_second"]
        pps = f"{pps:,.0f}" if isinstance(pps, float) else pps
        print(f"{n:>5}  {row['deck']:<36} {row['deals_per_second']:>8.1f}  {pps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
