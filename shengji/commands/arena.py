"""``shengji arena``: bots against bots on duplicate deals, with intervals and ratings."""

from __future__ import annotations

import json
import sys

from ..distributed import add_arguments
from ..errors import ShengjiError
from ..progress import add_progress_argument
from . import add_seats_argument, open_log, parse_seed


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "arena", help="bots against bots: duplicate deals, intervals, ratings",
        description="Every pair of the listed bots plays N boards; each board is one deal "
                    "(or a whole match with --matches) played once per seating, the sides "
                    "swapped, so the luck of the cards cancels. Prints levels per deal, "
                    "deal (and match) win rates with 95%% intervals and Bradley-Terry "
                    "ratings on the Elo scale.")
    p.add_argument("bots", nargs="*", metavar="BOT",
                   help="bots with options, e.g. mc:budget=500 heuristic random "
                        "(or comma separated with --bots)")
    p.add_argument("--bots", dest="bot_list", default=None,
                   help="comma-separated bots (default: heuristic,random)")
    p.add_argument("--variant", default="two-deck-80", help="variant name or YAML path")
    add_seats_argument(p)
    size = p.add_mutually_exclusive_group()
    size.add_argument("--deals", type=int, help="boards per pair, one deal each (default 100)")
    size.add_argument("--matches", type=int, help="boards per pair, one whole match each")
    p.add_argument("--seed", default="0", help="seed (int or text); same seed, same results")
    add_arguments(p, "the ratings with their intervals, the attackers' points by attacking "
                     "bot and the levels each bot gained per deal")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--log", metavar="FILE",
                   help="write every game as a JSON line (its serial form and its events)")
    add_progress_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..distributed import mapper_for
    from ..harness.arena import arena, format_summary

    bots = list(args.bots)
    if args.bot_list:
        bots += [b.strip() for b in args.bot_list.split(",") if b.strip()]
    if not bots:
        bots = ["heuristic", "random"]
    if args.jobs is not None and args.jobs < 1:
        raise ShengjiError(f"--jobs {args.jobs}: needs at least 1 process")
    for name, n in (("--deals", args.deals), ("--matches", args.matches)):
        if n is not None and n < 1:
            raise ShengjiError(f"{name} {n}: needs a positive number")
    boards = args.matches or args.deals or 100
    seed = parse_seed(args.seed)
    if args.plot:
        from ..plots import check_target

        check_target(args.plot)
    mapper = mapper_for(args.ray, args.jobs)
    log = open_log(args.log)
    # with --seats the variant travels to the workers as (name, seats), as in simulate
    ref = args.variant if args.seats is None else (args.variant, args.seats)
    try:
        result = arena(ref, bots, boards=boards, seed=seed,
                       matches=bool(args.matches), log=log,
                       progress=args.progress, mapper=mapper)
    finally:
        if log is not None:
            log.close()
        if hasattr(mapper, "close"):
            mapper.close()
    if args.plot:
        from ..plots import arena_figure

        arena_figure(result, args.plot)
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(format_summary(result))
    return 0
