"""A room's seats and connections: what a seat keeps (its kind, a display name, the
SHA-256 of its token), how names are cleaned, and ``Conn``, one websocket's state (its
seat, event cursor, message budget, outgoing queue). Used by rooms.py; independent of the
web framework."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from typing import Protocol

from .limits import Bucket, Limits
from .outbox import Outbox

MAX_NAME = 24


def token_hash(token: str) -> bytes:
    """What a room keeps of a seat's token (any text hashes: a forged non-ASCII token is
    simply wrong)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def clean_name(name: str, default: str) -> str:
    """A display name: no control or format characters, spaces collapsed, MAX_NAME long.
    It is shown as text everywhere (never as markup)."""
    text = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in name or "")
    text = " ".join(text.split())[:MAX_NAME]
    return text or default


def encode(msg: dict) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


class Seat:
    __slots__ = ("kind", "token_hash", "name")

    def __init__(self, kind: str = "open", name: str = "", token_hash: bytes | None = None):
        self.kind = kind        # open | human | bot
        self.token_hash = token_hash
        self.name = name

    def record(self) -> tuple:
        return (self.kind, self.name, self.token_hash)


class JoinedRoom(Protocol):
    """What a connection asks of the room it joined (a ``rooms.Room``; rooms.py imports
    this module)."""

    code: str

    async def handle(self, conn: Conn, msg: dict) -> None: ...

    def leave(self, conn: Conn) -> None: ...

    async def broadcast(self) -> None: ...


class Conn:
    """One connection: the seat it holds (None while watching), its event cursor, its
    message budget, its outgoing queue (outbox.py: sending never waits for the client)."""

    __slots__ = ("outbox", "seat", "cursor", "room", "address", "bucket", "limited",
                 "dropped", "closing", "watching")

    def __init__(self, send, address: str = "?", limits: Limits | None = None, close=None,
                 on_fail=None):
        """``send``: async send(text); ``close``: async close(code, reason), or None;
        ``on_fail(reason)``: the client is too slow (or gone) and must be cut off."""
        limits = limits or Limits()
        self.outbox = Outbox(send, close, max_messages=limits.send_queue,
                             max_chars=limits.send_queue_chars, timeout=limits.send_timeout,
                             on_fail=on_fail)
        self.seat: int | None = None
        self.cursor = 0
        self.room: JoinedRoom | None = None
        self.address = address
        self.bucket = Bucket(limits.msg_rate, limits.msg_burst)
        self.limited = False    # over the rate: told once, then messages are dropped
        self.dropped = 0
        self.closing: str | None = None     # a reason to close this connection, set by the lobby
        self.watching = False

    def send(self, msg: dict | str) -> None:
        """Queue a message for this client (never waits; see outbox.py)."""
        self.outbox.put(msg if isinstance(msg, str) else encode(msg))

    def close(self, code: int, reason: str) -> None:
        """Close the socket (with a close frame) once what is queued has gone, e.g. when
        the database fails."""
        self.closing = reason
        self.outbox.close(code, reason)
