"""``shengji play``: you against bots in the terminal (shengji.frontends.terminal)."""

from __future__ import annotations

from . import add_color_arguments, add_seats_argument, parse_seed


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="play in the terminal: you against bots",
        description="Play a match in the terminal at one seat; bots take the other seats. "
                    "Type cards like 'HA HA' (or '♥A'), h for hints, p to pass, q to quit.")
    p.add_argument("--variant", default="two-deck-80", help="variant name or YAML path")
    add_seats_argument(p)
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--seed", default="0", help="seed (int or text); same seed, same deal")
    p.add_argument("--bot", default="heuristic",
                   help="bot at the other seats, with options (heuristic, random, mc, "
                        "mc:budget=500)")
    p.add_argument("--advisor", default="heuristic",
                   help="bot whose choice and reason lead the hints (e.g. mc)")
    p.add_argument("--explain", action="store_true",
                   help="with each refusal, the engine's own sentence and the rule behind it "
                        "(docs/rules.md and the source it comes from)")
    p.add_argument("--deals", type=int, default=None, help="stop after this many deals "
                                                            "(default: the whole match)")
    add_color_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import ShengjiError
    from ..frontends.terminal import play

    if args.deals is not None and args.deals < 1:
        raise ShengjiError(f"--deals {args.deals}: needs a positive number")
    seed = parse_seed(args.seed)
    variant = args.variant
    if args.seats is not None:
        from ..variants import load_variant

        variant = load_variant(args.variant, players=args.seats)
    return play(variant, args.seat, seed, bot=args.bot, deals=args.deals, color=args.color,
                advisor=args.advisor, explain=args.explain)
