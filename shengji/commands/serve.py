"""``shengji serve``: the browser frontend (shengji.frontends.web) on uvicorn."""

from __future__ import annotations


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="serve the browser frontend (rooms, websockets)",
        description="Serve the page and the protocol websocket. Rooms have a code and four "
                    "seats; empty seats get bots. Needs the web extra: pip install 'shengji[web]'.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                                                        "127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--variant", default="two-deck-80",
                   help="default variant of new rooms (a name, or a YAML path the server "
                        "operator trusts); the built-ins are offered too")
    p.add_argument("--bot", default="heuristic", help="bot that fills empty seats")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds between two bot plays (default 0.6; 0 for no pause)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import ShengjiError

    try:
        import uvicorn

        from ..frontends.web.app import create_app
    except ImportError as e:
        raise ShengjiError(f"shengji serve needs the web extra ({e.name} is missing): "
                           "pip install 'shengji[web]'") from None
    if not 0 <= args.port <= 65535:
        raise ShengjiError(f"--port {args.port}: not a port number")
    if args.bot_delay < 0:
        raise ShengjiError("--bot-delay: cannot be negative")
    from ..bots import make_bot
    from ..variants import load_variant

    make_bot(args.bot, load_variant(args.variant))  # an unknown bot fails here, not in a room
    app = create_app(default_variant=args.variant, bot=args.bot, bot_delay=args.bot_delay)
    print(f"shengji: serving on http://{args.host}:{args.port}/ (Ctrl-C to stop)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                ws_max_size=1 << 20)
    return 0
