"""Helpers shared by the web server tests (tests/test_server*.py): rooms over HTTP and
protocol messages over the TestClient's websockets; a real uvicorn on a free loopback
port, raw sockets to it, and a websocket client that never reads."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time

from shengji.protocol import PROTOCOL_VERSION

#: the tests speak to the server as http://127.0.0.1 (an IP literal passes the Host check)
BASE = "http://127.0.0.1"
WS = "ws://127.0.0.1/ws"


def new_room(client, **body) -> str:
    r = client.post("/api/rooms", json={"seed": 1, "max_deals": 1, **body})
    assert r.status_code == 200, r.text
    return r.json()["room"]


def room_of(client, code):
    return client.app.state.lobby.rooms[code]


def send(ws, **msg) -> None:
    ws.send_text(json.dumps(msg))


def join(ws, code, **extra) -> dict:
    send(ws, **{"type": "join", "protocol": PROTOCOL_VERSION, "room": code, **extra})
    msg = ws.receive_json()
    assert msg["type"] == "welcome", msg
    return msg


def until(ws, kind: str) -> dict:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg


def some_action(state: dict) -> dict:
    legal = state["legal"]
    if legal["kind"] == "bury":
        return {"type": "Bury", "cards": " ".join(state["view"]["hand"].split()[:legal["count"]])}
    if legal["kind"] == "call":  # finding friends: `count` of the single calls listed
        calls = [a["calls"][0] for a in legal["actions"][:legal["count"]]]
        return {"type": "CallFriends", "calls": calls}
    return legal["actions"][0]


# ---------------------------------------------------------------- a real server

@contextlib.contextmanager
def live(limits, **app_kw):
    """``shengji serve``'s app on uvicorn (conns.server_config) in a thread, on a free
    port of 127.0.0.1; yields (port, config). ``config.app`` is the app."""
    import uvicorn

    from shengji.frontends.web.app import create_app
    from shengji.frontends.web.conns import server_config

    app_kw.setdefault("variants", ["two-deck-80"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(limits=limits, **app_kw)
    config = server_config(app, host="127.0.0.1", port=port, limits=limits,
                           log_level="critical", lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.started, "uvicorn did not start"
    try:
        yield port, config
    finally:
        srv.should_exit = True
        thread.join(10)


def dial(port: int, source: str = "127.0.0.1", rcvbuf: int | None = None) -> socket.socket:
    s = socket.socket()
    if rcvbuf is not None:  # before connecting: the window the server sees
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def closed_within(s: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed ``s`` (EOF or reset), None if still open. Reads
    (and drops) whatever is waiting."""
    start = time.monotonic()
    s.settimeout(seconds)
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return time.monotonic() - start
    except TimeoutError:
        return None
    except ConnectionResetError:
        return time.monotonic() - start


def settled(read, want, seconds: float = 10.0, stay: float = 0.3):
    """``read()`` once it equals ``want`` and still does ``stay`` seconds later (or what
    it is when ``seconds`` run out): the server accepts and closes sockets in its own
    thread, at the pace a loaded machine gives it, so a fixed sleep reads it too early;
    the second look catches a count that only passes through ``want`` on its way."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if read() == want:
            time.sleep(stay)
            if read() == want:
                break
        time.sleep(0.02)
    return read()


class SilentSocket:
    """A websocket client over a real socket with a small receive buffer that, once the
    handshake is done, never reads: what a stalled phone or an attacker looks like to
    the server. It can still send protocol messages (until the server cuts it off)."""

    def __init__(self, port: int, source: str = "127.0.0.1", rcvbuf: int = 4096):
        from websockets.client import ClientProtocol
        from websockets.protocol import State
        from websockets.uri import parse_uri

        self.sock = dial(port, source, rcvbuf)
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws"))
        self.proto.send_request(self.proto.connect())
        self._flush()
        self.sock.settimeout(5)
        while self.proto.state is State.CONNECTING:
            data = self.sock.recv(256)  # no further than the handshake's end, if we can
            assert data, "the server closed the handshake"
            self.proto.receive_data(data)
        self.sock.settimeout(0.5)  # a send that cannot go on within this is given up
        self.cut = False

    def _flush(self) -> None:
        self.sock.sendall(b"".join(self.proto.data_to_send()))

    def send(self, **msg) -> bool:
        """Send one message; False once the server has cut this socket off (or the
        socket cannot take more)."""
        if self.cut:
            return False
        try:
            self.proto.send_text(json.dumps(msg).encode())
            self._flush()
        except (OSError, Exception):  # reset, broken pipe, timeout, closed protocol
            self.cut = True
        return not self.cut

    def close(self) -> None:
        self.sock.close()
