"""Rooms: a code, its seats, one protocol ``Table`` (shengji.protocol), and the
connections of the people sitting there. Independent of the web framework: a connection
is a ``Conn`` around any ``async send(message)`` (a dict, or JSON text already encoded).

Seats are open until someone takes them; each taken seat gets a secret token, and joining
again with that token (a reload, another device) restores the seat. Only a hash of each
token is kept. ``start`` fills the open seats with bots. Every inbound message is
rate-limited, then checked by the protocol module; a refused message gets an ``error``
reply and changes nothing. The limits are in ``limits.Limits``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import time
import unicodedata

from ...errors import ShengjiError
from ...protocol import PROTOCOL_VERSION, ProtocolError, Table, error_message
from .limits import Bucket, Limits, PerAddress

#: room codes use letters that cannot be mistaken for each other; 8 of 32 = 40 bits, and
#: failed joins are rate-limited per address (limits.Limits.failed_join_*)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
IDLE_SECONDS = 3600
#: seconds between two bot plays, so that people can follow the trick
DEFAULT_BOT_DELAY = 0.6
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

    def __init__(self):
        self.kind = "open"      # open | human | bot
        self.token_hash = None
        self.name = ""

    def info(self, seat: int, connected: bool) -> dict:
        return {"seat": seat, "kind": self.kind, "name": self.name, "connected": connected}


class Conn:
    """One connection: the seat it holds, its event cursor, its message budget."""

    __slots__ = ("_send", "seat", "cursor", "room", "address", "bucket", "limited",
                 "dropped", "closing")

    def __init__(self, send, address: str = "?", limits: Limits | None = None):
        limits = limits or Limits()
        self._send = send
        self.seat = None
        self.cursor = 0
        self.room = None
        self.address = address
        self.bucket = Bucket(limits.msg_rate, limits.msg_burst)
        self.limited = False    # over the rate: told once, then messages are dropped
        self.dropped = 0
        self.closing = None     # a reason to close this connection, set by the lobby

    async def send(self, msg: dict | str) -> None:
        await self._send(msg)


class Room:
    def __init__(self, code: str, variant, seed, *, max_deals=None, bot="heuristic",
                 bot_delay: float = DEFAULT_BOT_DELAY, limits: Limits | None = None,
                 creator: str = ""):
        self.code = code
        self.table = Table(variant, seed, max_deals=max_deals)
        self.bot = bot
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.creator = creator
        self.seats = [Seat() for _ in range(self.table.players)]
        self.conns: list[Conn] = []
        self.started = False
        self.touched = time.monotonic()
        self._runner: asyncio.Task | None = None
        self._replays: dict[tuple, str] = {}   # (seat, deal) -> encoded replay message

    # ----------------------------------------------------------------- info

    def seat_infos(self) -> list[dict]:
        live = {c.seat for c in self.conns}
        return [s.info(i, i in live) for i, s in enumerate(self.seats)]

    def room_message(self) -> dict:
        return {"type": "room", "protocol": PROTOCOL_VERSION, "room": self.code,
                "variant": self.table.game.variant_ref, "started": self.started,
                "seats": self.seat_infos()}

    def state_for(self, conn: Conn) -> dict:
        msg = self.table.state(conn.seat, since=conn.cursor)
        conn.cursor = msg["event_index"]
        msg["room"] = self.code
        msg["seats"] = self.seat_infos()
        return msg

    @property
    def idle(self) -> bool:
        return not self.conns and (self.table.over
                                   or time.monotonic() - self.touched > IDLE_SECONDS)

    # ----------------------------------------------------------------- seats

    def _seat_of_token(self, token: str) -> int | None:
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        return None

    def _check_token(self, conn: Conn, token: str) -> int:
        if conn.seat is None:
            raise ProtocolError("not_joined", "join a room first")
        if not hmac.compare_digest(self.seats[conn.seat].token_hash, token_hash(token)):
            raise ProtocolError("bad_token", "this token does not hold your seat")
        return conn.seat

    async def join(self, conn: Conn, msg: dict) -> None:
        if msg["protocol"] != PROTOCOL_VERSION:
            raise ProtocolError("bad_version", f"protocol version {msg['protocol']} is not "
                                               f"spoken here (version {PROTOCOL_VERSION})")
        if conn.seat is not None:
            raise ProtocolError("already_joined", f"this connection already holds seat "
                                                  f"{conn.seat} of room {conn.room.code}")
        token = msg.get("token")
        if token is not None:
            seat = self._seat_of_token(token)
            if seat is None:
                raise ProtocolError("bad_token", f"no seat of room {self.code} has this token")
            held = sum(1 for c in self.conns if c.seat == seat)
            if held >= self.limits.conns_per_seat:
                raise ProtocolError("too_many_connections",
                                    f"seat {seat} is open in {held} places already; close one "
                                    "of them first")
        else:
            seat = msg.get("seat")
            if seat is None:
                seat = next((i for i, s in enumerate(self.seats) if s.kind == "open"), None)
                if seat is None:
                    raise ProtocolError("room_full", f"room {self.code} has no open seat")
            elif not 0 <= seat < len(self.seats):
                raise ProtocolError("no_such_seat", f"no seat {seat}: seats are "
                                                    f"0..{len(self.seats) - 1}")
            elif self.seats[seat].kind != "open":
                raise ProtocolError("seat_taken", f"seat {seat} is taken ({self.seats[seat].kind})")
            token = secrets.token_urlsafe(18)
            s = self.seats[seat]
            s.kind, s.token_hash = "human", token_hash(token)
            s.name = clean_name(msg.get("name", ""), f"player {seat}")
        conn.seat, conn.room = seat, self
        conn.cursor = self.table.deal_start_index()
        self.conns.append(conn)
        self.touched = time.monotonic()
        await conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "room": self.code,
                         "seat": seat, "token": token,
                         "variant": self.table.game.variant_ref})
        if not self.started and all(s.kind == "human" for s in self.seats):
            await self.start()
        else:
            await self.broadcast()

    async def start(self) -> None:
        """Fill the open seats with bots and let the game run."""
        if self.started:
            return
        for i, s in enumerate(self.seats):
            if s.kind == "open":
                s.kind, s.name = "bot", f"bot {i}"
                self.table.set_bot(i, self.bot)
        self.started = True
        await self.broadcast()
        self.kick()

    def leave(self, conn: Conn) -> None:
        if conn in self.conns:
            self.conns.remove(conn)
        self.touched = time.monotonic()

    # ----------------------------------------------------------------- messages

    async def handle(self, conn: Conn, msg: dict) -> None:
        """A checked message from a connection that joined this room."""
        kind = msg["type"]
        seat = self._check_token(conn, msg["token"])
        self.touched = time.monotonic()
        if kind == "start":
            await self.start()
        elif kind == "replay":
            await conn.send(self.replay(seat, msg["deal"]))
        elif kind == "hint":
            if not self.started:
                raise ProtocolError("not_started", "the game has not started: no advice yet")
            # the room's bot kind advises, from the seat's own state message only
            await conn.send(self.table.advice(seat, self.bot))
        elif kind == "action":
            if not self.started:
                raise ProtocolError("not_started", "the game has not started: send start "
                                                   "(open seats get bots) or wait for players")
            self.table.act(seat, msg["action"])
            await self.broadcast()
            self.kick()

    def replay(self, seat: int, deal: int) -> str:
        """A finished deal never changes: its replay is built once per seat and kept."""
        key = (seat, deal)
        text = self._replays.get(key)
        if text is None:
            text = self._replays[key] = encode(self.table.replay(seat, deal))
        return text

    async def broadcast(self) -> None:
        for conn in list(self.conns):
            msg = self.state_for(conn) if self.started else self.room_message()
            try:
                await conn.send(msg)
            except Exception:  # a closed socket: forget the connection, keep the room
                self.leave(conn)

    # ----------------------------------------------------------------- bots

    def kick(self) -> None:
        """Start the bot runner if a bot is to act and it is not running."""
        if self.table.bot_to_act() is not None and (self._runner is None or self._runner.done()):
            self._runner = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        table = self.table
        while table.bot_to_act() is not None:
            # pause only in the play, where people watch each card land
            playing = table.game.phase in ("play", "choose")
            await asyncio.sleep(self.bot_delay if playing else 0)
            try:
                if not table.step_bot():
                    break
            except ShengjiError as e:  # a bot bug must not kill the server: tell the table
                for conn in list(self.conns):
                    await conn.send(error_message(e))
                return
            await self.broadcast()


class Lobby:
    """All rooms of one server, and the per-address limits."""

    def __init__(self, *, bot_delay: float = DEFAULT_BOT_DELAY, bot: str = "heuristic",
                 limits: Limits | None = None):
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay
        self.bot = bot
        self.limits = limits or Limits()
        self.addresses = PerAddress(self.limits)
        self.connections = 0

    # ----------------------------------------------------------------- connections

    def connect(self, address: str) -> ProtocolError | None:
        """Count a new connection; an error (to send before closing) when over a cap."""
        if self.connections >= self.limits.max_connections:
            return ProtocolError("server_full", "the server has too many connections; try "
                                                "again later")
        if not self.addresses.connect(address):
            return ProtocolError("too_many_connections",
                                 f"{self.limits.conns_per_address} connections from your "
                                 "address are open already")
        self.connections += 1
        return None

    def disconnect(self, conn: Conn) -> None:
        self.connections -= 1
        self.addresses.disconnect(conn.address)
        self.leave(conn)

    # ----------------------------------------------------------------- rooms

    def create(self, variant, seed=0, max_deals=None, address: str = "?") -> Room:
        lim = self.limits
        live = sum(1 for r in self.rooms.values()
                   if r.creator == address and not r.table.over and not r.idle)
        if live >= lim.rooms_per_address:
            raise ProtocolError("too_many_rooms", f"your address holds {live} unfinished rooms "
                                                  "already; finish or leave one first")
        if len(self.rooms) >= lim.max_rooms:
            for code in [c for c, r in self.rooms.items() if r.idle]:
                del self.rooms[code]
            if len(self.rooms) >= lim.max_rooms:
                raise ProtocolError("server_full", f"the server holds {lim.max_rooms} rooms; "
                                                   "try again later")
        if not self.addresses.bucket("room", address).take():
            raise ProtocolError("rate_limited", "rooms are created too fast from your address; "
                                                "wait a little")
        code = self._new_code()
        self.rooms[code] = Room(code, variant, seed, max_deals=max_deals, bot=self.bot,
                                bot_delay=self.bot_delay, limits=lim, creator=address)
        return self.rooms[code]

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def get(self, code: str) -> Room:
        key = "".join(c for c in code.upper() if c.isalnum()) if isinstance(code, str) else ""
        room = self.rooms.get(key)
        if room is None:
            raise ProtocolError("no_such_room", f"no room {code!r}")
        return room

    async def _join(self, conn: Conn, msg: dict) -> None:
        """Joins that fail for want of a secret (a room code, a token) are rate-limited per
        address, so that codes and tokens cannot be guessed by trying."""
        bucket = self.addresses.bucket("join", conn.address)
        if bucket.empty():
            raise ProtocolError("rate_limited", "too many failed joins from your address; "
                                                "wait a minute and check the room code")
        try:
            await self.get(msg["room"]).join(conn, msg)
        except ProtocolError as e:
            if e.code in ("no_such_room", "bad_token"):
                bucket.take()
            raise

    def _admit(self, conn: Conn) -> bool:
        """The connection's message budget: False (drop the message) when over it; the
        first refused message is answered, the rest are not; too many close the socket."""
        if conn.bucket.take():
            conn.limited = False
            return True
        conn.dropped += 1
        if conn.dropped >= self.limits.msg_dropped_close:
            conn.closing = "too many messages"
        return False

    async def receive(self, conn: Conn, text) -> None:
        """One inbound message: budget, parse, check, dispatch; a refusal → an error reply."""
        from ...protocol import parse_message

        try:
            if not self._admit(conn):
                if not conn.limited:
                    conn.limited = True
                    raise ProtocolError("rate_limited", "too many messages: slow down (messages "
                                                        "are ignored until you do)")
                return
            msg = parse_message(text)
            kind = msg["type"]
            if kind == "ping":
                await conn.send({"type": "pong", "protocol": PROTOCOL_VERSION})
            elif kind == "join":
                await self._join(conn, msg)
            elif conn.room is None:
                raise ProtocolError("not_joined", f"{kind}: join a room first")
            else:
                await conn.room.handle(conn, msg)
        except ShengjiError as e:
            await conn.send(error_message(e))

    def leave(self, conn: Conn) -> None:
        if conn.room is not None:
            conn.room.leave(conn)
