"""``shengji replay LOG``: a finished game told trick by trick (shengji.frontends.replay)."""

from __future__ import annotations

from . import add_color_arguments


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "replay", help="tell a logged or saved game trick by trick",
        description="Show the deals of a log trick by trick, every hand visible: the JSON "
                    "lines of `shengji simulate --log`, a saved game record, or a room's "
                    "public replay from `shengji serve` (GET /api/rooms/CODE/replay).")
    p.add_argument("log", metavar="LOG", help="the file to read")
    p.add_argument("--deal", type=int, default=None, help="only this deal (from 1)")
    p.add_argument("--delay", type=float, default=0.0,
                   help="seconds to wait after each trick (default 0: all at once)")
    add_color_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    import sys

    from ..errors import ShengjiError
    from ..frontends.replay import replay

    if args.deal is not None and args.deal < 1:
        raise ShengjiError(f"--deal {args.deal}: deals count from 1")
    if args.delay < 0:
        raise ShengjiError("--delay: cannot be negative")
    if not args.delay <= 3600:  # also NaN; inf would end in OverflowError from time.sleep
        raise ShengjiError(f"--delay {args.delay}: at most 3600 seconds")
    color = args.color if args.color is not None else sys.stdout.isatty()
    return replay(args.log, deal=args.deal, out=sys.stdout, color=color, delay=args.delay / 2)
