"""Limits on raw TCP connections, below HTTP and websockets.

The websocket caps of ``lobby.Lobby`` only see connections that finished a handshake;
a socket that sends nothing, or one header byte every few seconds, never gets there. So
the uvicorn protocol classes are wrapped here (``server_config``):

- **caps**: sockets at once per address (IPv6 per /64, ``limits.address_key``) and in
  all, the last eighth of the total kept for addresses holding fewer than sixteen (so
  the biggest holders cannot leave a newcomer nothing); a socket over a cap is closed
  as soon as it is accepted, before a byte is read;
- **header timeout**: a request's headers must be complete within ``header_timeout``
  seconds of the connection (or of the previous response on a keep-alive connection),
  and within ``max_header_bytes``;
- **body timeout**: its body within ``body_timeout`` seconds past that deadline;
- **websockets**: socket buffers of ``send_buffer`` bytes (what a client that does not
  read can hold up), and an abort the app can call (the scope extension
  ``ABORT_EXTENSION``) to cut such a client off.

What uvicorn has itself is passed to it: the idle keep-alive timeout
(``timeout_keep_alive``), the 503 past a number of connections and tasks
(``limit_concurrency``, a second line behind the caps here), websocket frame size and
ping. docs/serving.md lists which limit lives where.
"""

from __future__ import annotations

import socket
import time

from .limits import Limits, address_key, kept_for_others

#: the ASGI scope extension by which a websocket's app may abort its socket (a client
#: that stops reading cannot be closed politely: the close frame would wait behind data
#: it never reads); {"abort": callable}
ABORT_EXTENSION = "shengji.abort"


class SocketCaps:
    """Counts of open sockets per address key and in all; a socket is counted from its
    acceptance until whichever protocol holds it last (HTTP, then perhaps websocket)
    loses it."""

    def __init__(self, limits: Limits, exempt=()):
        self.per_address = limits.sockets_per_address
        self.total = limits.max_sockets
        self.share, self.crowded = limits.sockets_reserved_share, limits.sockets_when_crowded
        self.exempt = {address_key(a) for a in exempt}  # a trusted proxy: total cap only
        self.counts: dict[str, int] = {}
        self.held: dict[int, str] = {}   # id(transport) -> address key
        self.refused = 0

    def admit(self, transport) -> bool:
        peer = transport.get_extra_info("peername")
        key = address_key(peer[0] if isinstance(peer, tuple) and peer else "?")
        n = self.counts.get(key, 0)
        if len(self.held) >= self.total or (key not in self.exempt and (
                n >= self.per_address
                or kept_for_others(len(self.held), self.total, n, self.share, self.crowded))):
            self.refused += 1
            return False
        self.counts[key] = n + 1
        self.held[id(transport)] = key
        return True

    def release(self, transport) -> None:
        key = self.held.pop(id(transport), None)
        if key is None:
            return
        n = self.counts[key] - 1
        if n:
            self.counts[key] = n
        else:
            del self.counts[key]

    def __len__(self) -> int:
        return len(self.held)


def limited_protocols(http_cls, ws_cls, caps: SocketCaps, limits: Limits):
    """Subclasses of uvicorn's HTTP and websocket protocol classes (h11 or httptools;
    any of its websocket implementations) that apply ``caps`` and the read timeouts."""
    header_timeout, body_timeout = limits.header_timeout, limits.body_timeout
    send_buffer = limits.send_buffer
    max_header_bytes = limits.max_header_bytes

    class LimitedHTTP(http_cls):
        _sj_timer = None
        _sj_body_deadline = None
        _sj_bytes = 0

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if not caps.admit(transport):
                transport.abort()  # connection_lost follows: nothing else is read
                return
            self._sj_arm(header_timeout)

        def connection_lost(self, exc) -> None:
            self._sj_cancel()
            caps.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._sj_waiting():
                self._sj_bytes += len(data)
                if self._sj_bytes > max_header_bytes:
                    self.transport.abort()
                    return
            super().data_received(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # the next request's headers are due within header_timeout again
            # (uvicorn's own keep-alive timer closes an idle connection sooner)
            self._sj_bytes, self._sj_body_deadline = 0, None
            if not self.transport.is_closing():
                self._sj_arm(header_timeout)

        def _sj_waiting(self) -> bool:
            """True while no request's headers are complete (none yet, or the last
            one answered)."""
            cycle = self.cycle
            return cycle is None or cycle.response_complete

        def _sj_arm(self, delay: float) -> None:
            self._sj_cancel()
            self._sj_timer = self.loop.call_later(delay, self._sj_check)

        def _sj_cancel(self) -> None:
            if self._sj_timer is not None:
                self._sj_timer.cancel()
                self._sj_timer = None

        def _sj_check(self) -> None:
            self._sj_timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or upgraded to a websocket (which has its own limits)
            if self._sj_waiting():
                transport.abort()   # no complete headers in time: slow or silent
                return
            if self.cycle.more_body:  # the body is still arriving
                now = time.monotonic()
                if self._sj_body_deadline is None:
                    self._sj_body_deadline = now + body_timeout
                if now >= self._sj_body_deadline:
                    transport.abort()  # the app reads a disconnect
                else:
                    self._sj_arm(self._sj_body_deadline - now)
            # else: the app is answering; on_response_complete arms the timer again

    class LimitedWS(ws_cls):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            if send_buffer is not None:  # what a client that does not read can hold up
                sock = transport.get_extra_info("socket")
                if sock is not None:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
                transport.set_write_buffer_limits(high=send_buffer)

        def connection_lost(self, exc) -> None:
            caps.release(self.transport)
            super().connection_lost(exc)

        async def run_asgi(self) -> None:
            # the app may cut a client off that stops reading: closing such a socket
            # politely waits for buffers that never drain (outbox.py)
            self.scope.setdefault("extensions", {})[ABORT_EXTENSION] = {
                "abort": self.transport.abort}
            await super().run_asgi()

    LimitedHTTP.__name__ = LimitedHTTP.__qualname__ = f"Limited{http_cls.__name__}"
    LimitedWS.__name__ = LimitedWS.__qualname__ = f"Limited{ws_cls.__name__}"
    return LimitedHTTP, LimitedWS


def server_config(app, *, host: str = "127.0.0.1", port: int = 8000,
                  limits: Limits | None = None, proxy_headers: bool = False,
                  ws_max_size: int = 1 << 15, **kw):
    """A ``uvicorn.Config`` serving ``app`` with every connection-level limit on. Its
    ``caps`` attribute is the ``SocketCaps`` (for tests and figures)."""
    import uvicorn
    from uvicorn.importer import import_from_string

    limits = limits or Limits()
    http_cls = import_from_string("uvicorn.protocols.http.auto:AutoHTTPProtocol")
    ws_cls = import_from_string("uvicorn.protocols.websockets.auto:AutoWebSocketsProtocol")
    # behind a proxy every client is the proxy: its sockets count in the total only
    caps = SocketCaps(limits, exempt=("127.0.0.1",) if proxy_headers else ())
    http, ws = limited_protocols(http_cls, ws_cls, caps, limits)
    config = uvicorn.Config(
        app, host=host, port=port, http=http, ws=ws,
        # uvicorn annotates an int but hands it to loop.call_later, which takes seconds as a
        # float: the tests use half a second
        timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
        limit_concurrency=limits.max_sockets + 64,
        h11_max_incomplete_event_size=limits.max_header_bytes,
        # frames a little over the protocol's own limit; no compression (it costs CPU on
        # every message and a small frame may inflate to a large one)
        ws_max_size=ws_max_size, ws_per_message_deflate=False,
        proxy_headers=proxy_headers, forwarded_allow_ips="127.0.0.1", **kw)
    config.caps = caps  # type: ignore[attr-defined]  # our attribute on uvicorn's Config
    return config
