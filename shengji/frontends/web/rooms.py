"""Rooms: a code, four seats, one protocol ``Table`` (shengji.protocol), and the
connections of the people sitting there. Independent of the web framework: a connection
is any object with ``async send(message: dict)``.

Seats are open until someone takes them; each taken seat gets a secret token, and joining
again with that token (a reload, another device) restores the seat. ``start`` fills the
open seats with bots. Every inbound message is checked by the protocol module first; a
refused message gets an ``error`` reply and changes nothing.
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time

from ...errors import ShengjiError
from ...protocol import PROTOCOL_VERSION, ProtocolError, Table, error_message

#: room codes use letters that cannot be mistaken for each other
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
#: rooms kept at most; finished or idle rooms are dropped first when full
MAX_ROOMS = 2000
IDLE_SECONDS = 3600
#: seconds between two bot plays, so that people can follow the trick
DEFAULT_BOT_DELAY = 0.6
MAX_NAME = 24


class Seat:
    __slots__ = ("kind", "token", "name")

    def __init__(self):
        self.kind = "open"      # open | human | bot
        self.token = None
        self.name = ""

    def info(self, seat: int, connected: bool) -> dict:
        return {"seat": seat, "kind": self.kind, "name": self.name, "connected": connected}


class Conn:
    """What a room knows about one connection: the seat it holds and its event cursor."""

    __slots__ = ("send", "seat", "cursor", "room")

    def __init__(self, send):
        self.send = send
        self.seat = None
        self.cursor = 0
        self.room = None


class Room:
    def __init__(self, code: str, variant, seed, *, max_deals=None, bot="heuristic",
                 bot_delay: float = DEFAULT_BOT_DELAY):
        self.code = code
        self.table = Table(variant, seed, max_deals=max_deals)
        self.bot = bot
        self.bot_delay = bot_delay
        self.seats = [Seat() for _ in range(self.table.players)]
        self.conns: list[Conn] = []
        self.started = False
        self.touched = time.monotonic()
        self._runner: asyncio.Task | None = None

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
        for i, s in enumerate(self.seats):
            if s.token is not None and hmac.compare_digest(s.token, token):
                return i
        return None

    def _check_token(self, conn: Conn, token: str) -> int:
        if conn.seat is None:
            raise ProtocolError("not_joined", "join a room first")
        seat_token = self.seats[conn.seat].token
        if not hmac.compare_digest(seat_token, token):
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
            s = self.seats[seat]
            s.kind, s.token = "human", secrets.token_urlsafe(18)
            s.name = (msg.get("name") or f"player {seat}")[:MAX_NAME]
        conn.seat, conn.room = seat, self
        conn.cursor = self.table.deal_start_index()
        self.conns.append(conn)
        self.touched = time.monotonic()
        await conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "room": self.code,
                         "seat": seat, "token": self.seats[seat].token,
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
            await conn.send(self.table.replay(seat, msg["deal"]))
        elif kind == "action":
            if not self.started:
                raise ProtocolError("not_started", "the game has not started: send start "
                                                   "(open seats get bots) or wait for players")
            self.table.act(seat, msg["action"])
            await self.broadcast()
            self.kick()

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
    """All rooms of one server."""

    def __init__(self, *, bot_delay: float = DEFAULT_BOT_DELAY, bot: str = "heuristic",
                 max_rooms: int = MAX_ROOMS):
        self.rooms: dict[str, Room] = {}
        self.bot_delay = bot_delay
        self.bot = bot
        self.max_rooms = max_rooms

    def create(self, variant, seed=0, max_deals=None) -> Room:
        if len(self.rooms) >= self.max_rooms:
            for code in [c for c, r in self.rooms.items() if r.idle]:
                del self.rooms[code]
            if len(self.rooms) >= self.max_rooms:
                raise ProtocolError("server_full", f"the server holds {self.max_rooms} rooms; "
                                                   "try again later")
        code = self._new_code()
        self.rooms[code] = Room(code, variant, seed, max_deals=max_deals, bot=self.bot,
                                bot_delay=self.bot_delay)
        return self.rooms[code]

    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def get(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper()) if isinstance(code, str) else None
        if room is None:
            raise ProtocolError("no_such_room", f"no room {code!r}")
        return room

    async def receive(self, conn: Conn, text) -> None:
        """One inbound message: parse, check, dispatch; any refusal → an error reply."""
        from ...protocol import parse_message

        try:
            msg = parse_message(text)
            kind = msg["type"]
            if kind == "ping":
                await conn.send({"type": "pong", "protocol": PROTOCOL_VERSION})
            elif kind == "join":
                await self.get(msg["room"]).join(conn, msg)
            elif conn.room is None:
                raise ProtocolError("not_joined", f"{kind}: join a room first")
            else:
                await conn.room.handle(conn, msg)
        except ShengjiError as e:
            await conn.send(error_message(e))

    def leave(self, conn: Conn) -> None:
        if conn.room is not None:
            conn.room.leave(conn)
