"""``shengji watch``: bots play, and every card is shown as it lands, at a readable pace."""

from __future__ import annotations

from . import add_color_arguments, add_seats_argument, parse_seed


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "watch", help="watch bots play, at a readable pace",
        description="Bots take every seat; each play is printed as it lands, every hand "
                    "shown. Ctrl-C stops.")
    p.add_argument("--variant", default="two-deck-80", help="variant name or YAML path")
    add_seats_argument(p)
    p.add_argument("--seed", default="0", help="seed (int or text); same seed, same game")
    p.add_argument("--players", default="heuristic",
                   help="bot per seat, comma separated, or one bot for every seat "
                        "(default heuristic)")
    p.add_argument("--deals", type=int, default=1, help="deals to play (default 1)")
    p.add_argument("--delay", type=float, default=0.8,
                   help="seconds between two plays (default 0.8; 0 for no pause)")
    add_color_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    import sys

    from ..bots import make_bot
    from ..errors import ShengjiError
    from ..frontends.replay import watch
    from ..variants import load_variant

    if args.deals < 1:
        raise ShengjiError(f"--deals {args.deals}: needs a positive number")
    if args.delay < 0:
        raise ShengjiError("--delay: cannot be negative")
    if not args.delay <= 3600:  # also NaN; inf would end in OverflowError from time.sleep
        raise ShengjiError(f"--delay {args.delay}: at most 3600 seconds")
    bots = [b.strip() for b in args.players.split(",")]
    variant = load_variant(args.variant, players=args.seats)
    for name in set(bots):
        make_bot(name, variant)  # an unknown bot is named before anything is printed
    seed = parse_seed(args.seed)
    color = args.color if args.color is not None else sys.stdout.isatty()
    return watch(variant, seed, bots=bots, deals=args.deals, delay=args.delay,
                 out=sys.stdout, color=color)
