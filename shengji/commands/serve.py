"""``shengji serve``: the browser frontend (shengji.frontends.web) on uvicorn."""

from __future__ import annotations

import ipaddress
import sys

from ..errors import ShengjiError
from . import add_seats_argument

EXPOSED_WARNING = (
    "WARNING: --host {host} listens on every network interface: anyone who can reach "
    "this machine can open the page, create rooms and sit at open seats. There are no "
    "accounts and the traffic is plain HTTP; put the server behind a TLS reverse proxy "
    "for anything but a trusted network (docs/serving.md).")


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "serve", help="serve the browser frontend (rooms, websockets)",
        description="Serve the page and the protocol websocket. Rooms have a code and "
                    "seats; empty seats get bots. Needs the web extra: "
                    "pip install 'shengji[web]'. See docs/serving.md.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only). "
                        "WARNING: 0.0.0.0 or :: listens on every interface, open to anyone "
                        "who can reach the machine (plain HTTP, no accounts)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--variant", default="two-deck-80",
                   help="default variant of new rooms (a name, or a YAML path the server "
                        "operator trusts); the built-ins are offered too")
    add_seats_argument(p)
    p.add_argument("--bot", default="heuristic", help="bot that fills empty seats")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds between two bot plays (default 0.6; 0 for no pause)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name the page is served under (IP addresses and localhost "
                        "always are; other names are refused against DNS rebinding)")
    p.add_argument("--allowed-origin", action="append", default=[], metavar="URL",
                   help="another origin whose pages may open websockets here "
                        "(default: only this server's own page)")
    p.add_argument("--db", default=None, metavar="PATH|URL",
                   help="SQLite file keeping rooms, seats and every game's actions, so that "
                        "a restart loses nothing (default: rooms.sqlite3 in "
                        "$XDG_STATE_HOME/shengji, else ~/.local/state/shengji, made if "
                        "missing; ':memory:' keeps nothing; its folder must exist, unless "
                        "--create-db-dir), or a PostgreSQL database "
                        "postgresql://USER@HOST/DB shared by several processes and hosts "
                        "(the postgres extra; docs/serving.md)")
    p.add_argument("--create-db-dir", action="store_true",
                   help="make the folder of --db PATH (and its parents) if it is missing")
    p.add_argument("--proxy-headers", action="store_true",
                   help="trust X-Forwarded-For from a reverse proxy on 127.0.0.1 (the "
                        "per-address limits then count the real clients)")
    p.add_argument("--no-custom-rules", action="store_true",
                   help="rooms play only the offered variants: no house rules from the page")
    p.add_argument("--bases", default=None, metavar="NAME,...",
                   help="the offered variants a house file from the page may extend "
                        "(default: all of them)")
    p.add_argument("--shard", default=None, metavar="I/N",
                   help="serve shard I of N: make and serve only the room codes of that shard "
                        "(the first letter of a code tells its shard; docs/scaling.md); "
                        "every shard may share one --db")
    p.set_defaults(func=run)


def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    index, sep, count = text.partition("/")
    if not (sep and index.isdigit() and count.isdigit() and 0 <= int(index) < int(count) <= 32):
        raise ShengjiError(f"--shard {text!r}: I/N with 0 <= I < N <= 32, e.g. 0/2")
    return int(index), int(count)


def exposed(host: str) -> bool:
    """True unless ``host`` is a loopback address (or localhost)."""
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return True  # a name: it may resolve to anything


def default_db() -> str:
    import os
    from pathlib import Path

    base = os.environ.get("XDG_STATE_HOME") or os.path.join(Path.home(), ".local", "state")
    return os.path.join(base, "shengji", "rooms.sqlite3")


def check_postgres(url: str) -> None:
    """Connect, apply the migrations and leave: a database that cannot be reached or
    refuses is one line here, before the server starts (the app connects again)."""
    import asyncio

    from ..frontends.web.pgstore import PgStore

    async def check():
        store = PgStore(url, pool_size=1)
        await store.open()
        await store.aclose()
    asyncio.run(check())


def database_path(given: str | None, create_dir: bool = False) -> str:
    """The database --db names, checked once: '' is an error (it used to mean the
    default, silently); a ``postgresql://`` URL is connected to (``check_postgres``); a
    file is opened, and a folder that does not exist is an error unless ``create_dir``
    (--create-db-dir) or the default's (the user's state folder)."""
    import os
    import sqlite3

    from ..frontends.web.pgstore import is_url

    if given is not None and not given.strip():
        raise ShengjiError("--db '': give a file (or ':memory:' to keep nothing; leave "
                           "--db out for the default, " + default_db() + ")")
    db = given or default_db()
    if db == ":memory:":
        return db
    if is_url(db):
        check_postgres(db)
        return db
    folder = os.path.dirname(os.path.abspath(db))
    try:
        if given is None or create_dir:
            os.makedirs(folder, exist_ok=True)
        elif not os.path.isdir(folder):
            raise ShengjiError(f"--db {db}: no folder {folder} (make it, or add "
                               "--create-db-dir)")
        sqlite3.connect(db).close()
    except (OSError, sqlite3.Error) as e:
        raise ShengjiError(f"--db {db}: cannot open ({e})") from None
    return db


def run(args) -> int:

    try:
        import uvicorn

        from ..frontends.web.app import create_app
    except ImportError as e:
        raise ShengjiError(f"shengji serve needs the web extra ({e.name} is missing): "
                           "pip install 'shengji[web]'") from None
    if not 0 <= args.port <= 65535:
        raise ShengjiError(f"--port {args.port}: not a port number")
    shard = parse_shard(args.shard)
    if args.bot_delay < 0:
        raise ShengjiError("--bot-delay: cannot be negative")
    if not args.bot_delay <= 3600:  # also NaN; inf would end in OverflowError from time.sleep
        raise ShengjiError(f"--bot-delay {args.bot_delay}: at most 3600 seconds")
    from ..bots import make_bot
    from ..protocol import MAX_MESSAGE_BYTES
    from ..variants import load_variant

    # an unknown bot or table size fails here, not in a room
    make_bot(args.bot, load_variant(args.variant, players=args.seats))
    db = database_path(args.db, args.create_db_dir)
    from ..frontends.web.limits import Limits, fit_to_descriptors
    from ..frontends.web.pgstore import shown_url

    limits, note = fit_to_descriptors(Limits())
    if note:
        print(f"shengji: {note}", file=sys.stderr)
    app = create_app(default_variant=args.variant, bot=args.bot, bot_delay=args.bot_delay,
                     allowed_hosts=args.allowed_host, allowed_origins=args.allowed_origin,
                     db=db, seats=args.seats, gc_pauses=True, limits=limits, shard=shard,
                     custom_rules=not args.no_custom_rules,
                     bases=[b.strip() for b in args.bases.split(",") if b.strip()]
                     if args.bases else None)
    if exposed(args.host):
        print(EXPOSED_WARNING.format(host=args.host), file=sys.stderr)
    print(f"shengji: serving on http://{args.host}:{args.port}/ (Ctrl-C to stop); "
          f"rooms kept in {shown_url(db)}")
    sys.stdout.flush()
    from ..frontends.web.conns import server_config

    # every connection-level limit (conns.py), frames a little over the protocol's limit
    config = server_config(app, host=args.host, port=args.port, limits=limits,
                           proxy_headers=args.proxy_headers, log_level="warning",
                           ws_max_size=4 * MAX_MESSAGE_BYTES)
    uvicorn.Server(config).run()
    return 0
