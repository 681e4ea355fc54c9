"""The nginx configuration that routes rooms to ``shengji serve --shard I/N`` processes by
the first letter of their code (admission.shard_of), as docs/serving.md shows it:

    python -m shengji.frontends.web.proxyconf 10.0.0.1:8000 10.0.0.2:8000 > shengji.conf

The addresses are the shards in order (the first is ``--shard 0/N``). The output goes in
nginx's ``http`` block (e.g. /etc/nginx/conf.d/). A request that names a room —
``/ws/CODE`` (the page's websocket), ``/api/rooms/CODE``, ``/api/rooms/CODE/replay`` —
goes to the room's shard; anything else (the page, ``POST /api/rooms``, the rules API)
to any shard (a shard that refuses connections, being restarted, is passed over for
those).
"""

from __future__ import annotations

import argparse
import re
import sys

from .admission import shard_of
from .rooms import CODE_ALPHABET

#: HOST:PORT: a host name or IPv4 address, or an IPv6 address in brackets, and a port
_ADDRESS = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
                      r":(\d{1,5})")
#: nginx's listen directive as this command takes it: PORT or ADDRESS:PORT
_LISTEN = re.compile(r"(?:(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):)?(\d{1,5})")


def _check(value: str, pattern: re.Pattern, what: str) -> None:
    """A ValueError naming ``value`` unless it is one ``what`` (the port in 1..65535): the
    text goes into nginx's configuration as it is, so nothing else may."""
    found = pattern.fullmatch(value)
    if not found or not 1 <= int(found.group(1)) <= 65535:
        raise ValueError(f"{value!r} is not {what}")


def letters(index: int, count: int) -> str:
    """The first letters of the codes of shard ``index`` of ``count``."""
    return "".join(c for c in CODE_ALPHABET if shard_of(c, count) == index)


def nginx_config(shards: list[str], listen: str = "80") -> str:
    """The ``http``-level configuration for the shards at ``shards`` (host:port each)."""
    if not shards:
        raise ValueError("no shards: give at least one HOST:PORT")
    for a in shards:
        _check(a, _ADDRESS, "HOST:PORT (e.g. 10.0.0.1:8000 or [::1]:8000)")
    _check(listen, _LISTEN, "PORT or ADDRESS:PORT for nginx's listen")
    n = len(shards)
    routes = "\n".join(f"    ~*^/(ws|api/rooms)/[{letters(i, n)}] shengji_shard{i};"
                       for i in range(n))
    groups = "\n".join(f"upstream shengji_shard{i} {{ server {a}; }}"
                       for i, a in enumerate(shards))
    anyone = " ".join(f"server {a};" for a in shards)
    return f"""\
# shengji: {n} shard(s), rooms routed by the first letter of their code
map $uri $shengji_upstream {{
{routes}
    default shengji_any;
}}
map $http_upgrade $shengji_connection {{ default upgrade; '' close; }}
{groups}
upstream shengji_any {{ {anyone} }}
server {{
    listen {listen};
    location / {{
        proxy_pass http://$shengji_upstream;
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $shengji_connection;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_read_timeout 1h;
        proxy_next_upstream error non_idempotent;
    }}
}}
"""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m shengji.frontends.web.proxyconf",
                                description=__doc__.splitlines()[0])
    p.add_argument("shards", nargs="+", metavar="HOST:PORT",
                   help="the shards in order: the first serves --shard 0/N")
    p.add_argument("--listen", default="80", help="nginx's listen directive (80)")
    args = p.parse_args(argv)
    try:
        config = nginx_config(args.shards, args.listen)
    except ValueError as e:
        p.error(str(e))
    sys.stdout.write(config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
