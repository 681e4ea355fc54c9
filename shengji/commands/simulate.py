"""``shengji simulate``: play many deals or matches with bots and print a summary."""

from __future__ import annotations

import json
import sys

from ..distributed import add_arguments
from ..errors import ShengjiError
from ..progress import add_progress_argument
from . import add_seats_argument, open_log, parse_seed


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "simulate", help="play many deals with bots and summarise them",
        description="Play N deals (or N whole matches) with bots, in parallel processes, "
                    "and print a summary: hold rate, points, kitty bonus, level changes, speed.")
    p.add_argument("--variant", default="two-deck-80", help="variant name or YAML path")
    add_seats_argument(p)
    size = p.add_mutually_exclusive_group()
    size.add_argument("--deals", type=int, help="number of deals to play (default 1000)")
    size.add_argument("--matches", type=int, help="number of whole matches to play instead")
    p.add_argument("--seed", default="0", help="seed (int or text); same seed, same games")
    p.add_argument("--players", default=None,
                   help="bot per seat, comma separated, e.g. random,heuristic,random,heuristic, "
                        "or one bot for every seat (default: random at every seat)")
    add_arguments(p, "the attackers' points and the level changes per side")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--log", metavar="FILE", help="write every deal's events as JSON lines")
    add_progress_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..distributed import mapper_for
    from ..harness.simulation import _load, format_summary, simulate

    # with --seats the variant travels to the workers as (name, seats)
    ref = args.variant if args.seats is None else (args.variant, args.seats)
    variant = _load(ref)
    players = (args.players.split(",") if args.players else ["random"] * variant.players)
    players = [p.strip() for p in players]
    if len(players) == 1:  # one bot for every seat, as `watch --players` takes it
        players = players * variant.players
    if args.jobs is not None and args.jobs < 1:
        raise ShengjiError(f"--jobs {args.jobs}: needs at least 1 process")
    if args.deals is not None and args.deals < 1 or args.matches is not None and args.matches < 1:
        raise ShengjiError("--deals/--matches: needs a positive number")
    deals = args.deals if args.deals is not None else (0 if args.matches else 1000)
    seed = parse_seed(args.seed)
    if args.plot:
        from ..plots import check_target

        check_target(args.plot)
    mapper = mapper_for(args.ray, args.jobs)
    log = open_log(args.log)
    try:
        result = simulate(ref, players, deals=deals, matches=args.matches or 0,
                          seed=seed, log=log, progress=args.progress, mapper=mapper)
    finally:
        if log is not None:
            log.close()
        if hasattr(mapper, "close"):
            mapper.close()
    if args.plot:
        from ..plots import simulation_figure

        simulation_figure(result, args.plot, variant)
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(format_summary(result))
    return 0

