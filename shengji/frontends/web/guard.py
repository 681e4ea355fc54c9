"""The server's HTTP-level defences, as one ASGI middleware around the app:

- **Host check** (DNS rebinding): a page on an attacker's domain that resolves to
  127.0.0.1 sends ``Host: evil.example``. Only IP literals, ``localhost`` and the names
  given with ``--allowed-host`` are served; anything else gets 400. An IP literal cannot
  be rebound, so a server bound to every interface stays reachable by address.
- **Origin check**: a browser always sends ``Origin`` on a websocket and on a cross-site
  POST. A websocket or a POST whose origin is not this server (scheme-less host:port
  equal to ``Host``, or one of ``--allowed-origin``) is refused (403); so is a request a
  browser marks ``Sec-Fetch-Site: cross-site``. Clients that are not browsers send no
  Origin and are let through: they hold no victim's cookies (there are none anyway).
- **Headers** on every response: a strict Content-Security-Policy (scripts, styles and
  connections from this origin only; no inline script; no framing), ``nosniff``,
  ``X-Frame-Options: DENY``, no referrer.

Starlette's TrustedHostMiddleware checks Host against a list of patterns; this one
differs in accepting any IP literal and in checking Origin too.
"""

from __future__ import annotations

import ipaddress
import json
from urllib.parse import urlsplit

# 'wasm-unsafe-eval' lets the page compile core.wasm (its own origin's file) and nothing
# else: JavaScript eval stays forbidden
CSP = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def host_name(header: str | None) -> str | None:
    """``Host`` header → the lower-case name or address without port; None if malformed."""
    if not header:
        return None
    h = header.strip().lower()
    if h.startswith("["):  # [v6]:port
        end = h.find("]")
        if end < 0 or (h[end + 1:] and not (h[end + 1] == ":" and h[end + 2:].isdigit())):
            return None
        return h[1:end]
    name, sep, port = h.partition(":")
    if sep and not port.isdigit():
        return None
    return name or None


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """``Guard(app, allowed_hosts=("example.org",), allowed_origins=("https://x.org",))``.
    ``allowed_hosts`` containing ``"*"`` turns the Host check off."""

    def __init__(self, app, *, allowed_hosts=(), allowed_origins=()):
        self.app = app
        self.hosts = {"localhost"} | {h.lower() for h in allowed_hosts}
        self.any_host = "*" in self.hosts
        self.origins = {o.lower().rstrip("/") for o in allowed_origins}

    def host_ok(self, header: str | None) -> bool:
        name = host_name(header)
        if name is None:
            return False
        return self.any_host or name in self.hosts or is_ip(name)

    def origin_ok(self, origin: str, host_header: str) -> bool:
        origin = origin.strip().lower().rstrip("/")
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc == host_header.strip().lower()

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {}
        for k, v in scope.get("headers", ()):
            headers.setdefault(k.decode("latin-1"), v.decode("latin-1"))
        host = headers.get("host")
        if not self.host_ok(host):
            return await self._refuse(kind, send, "bad_host",
                                      f"this server does not answer to host {host!r} (a DNS "
                                      "rebinding guard; the operator can add names with "
                                      "--allowed-host)")
        if kind == "websocket" or scope.get("method", "GET") not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None:
                ok = self.origin_ok(origin, host)
            else:
                ok = headers.get("sec-fetch-site") not in ("cross-site", "same-site")
            if not ok:
                return await self._refuse(kind, send, "cross_site",
                                          f"requests from {origin or 'another site'} are "
                                          "refused: open the page of this server itself")
        if kind == "websocket":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", ())) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _refuse(kind: str, send, code: str, text: str) -> None:
        if kind == "websocket":
            # closing before accepting: the server answers the handshake with 403
            await send({"type": "websocket.close", "code": 1008})
            return
        from ...protocol import PROTOCOL_VERSION
        from ...protocol.codes import http_status

        status = http_status(code)

        body = json.dumps({"type": "error", "protocol": PROTOCOL_VERSION, "code": code,
                           "message": text, "reason": "", "rule": ""}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]
                    + SECURITY_HEADERS})
        await send({"type": "http.response.body", "body": body})
