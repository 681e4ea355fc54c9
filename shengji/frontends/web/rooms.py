"""Rooms: a code, its seats, one protocol ``Table`` (shengji.protocol), the connections
of the people sitting there and of those watching. Independent of the web framework: a
connection is a ``Conn`` around any ``async send(message)`` (a dict, or JSON text).

Seats are open until someone takes them; each taken seat gets a secret token, and joining
again with that token (a reload, another device) restores the seat. Only a hash of each
token is kept. ``start`` fills the open seats with bots. Every inbound message is
rate-limited, then checked by the protocol module (lobby.py, which hands it to the
room); a refused message gets an ``error`` reply and changes nothing. The limits are in
``limits.Limits``.

The room runs the bots, and two things that keep a table moving without freezing it:

- after a deal is scored, the bots wait until every connected player has sent ``next``
  (they have seen the last trick and the result): a player reading the result is waited
  for as one thinking about a play is, and one who leaves is no longer waited for;
- when a player who is to act has no connection, the turn timer starts; when it runs
  out, a stand-in bot plays that seat until the player joins again.

With a store (store.py: SQLite, pgstore.py: PostgreSQL) every room, seat and action is
committed before anyone is told of it, and a room is read back (its game replayed from
the actions) on first use after a restart, or on another process.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time

from ...engine import DealScored
from ...errors import ShengjiError
from ...protocol import PROTOCOL_VERSION, ProtocolError, Table, error_message
from ...wasm import rules_json
from .chat import ChatLog
from .houserules import room_rules, stored_rules
from .limits import Limits
from .replays import RoomReplays
from .seating import arrange, controls_fields, game_args
from .seats import MAX_NAME, Conn, Seat, clean_name, encode, token_hash  # noqa: F401 (re-exported)
from .store import StoreError

log = logging.getLogger("shengji.web")

#: room codes use letters that cannot be mistaken for each other; 8 of 32 = 40 bits, and
#: failed joins are rate-limited per address (limits.Limits.failed_join_*)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
IDLE_SECONDS = 3600
#: seconds between two bot plays, so that people can follow the trick
DEFAULT_BOT_DELAY = 0.6
#: seconds a disconnected player's turn may last before a stand-in bot plays; a room
#: setting, 0 = wait for ever
DEFAULT_TURN_TIMER = 60
#: the close reason of a socket whose room's database failed (close code 1011)
STORE_CLOSE = "database error"


class Room(RoomReplays):
    def __init__(self, code: str, variant, seed, *, variant_name: str | None = None,
                 max_deals=None, bot="heuristic", bot_delay: float = DEFAULT_BOT_DELAY,
                 limits: Limits | None = None, creator: str = "",
                 turn_timer: float = DEFAULT_TURN_TIMER, store=None, actions=None,
                 seats=None, started: bool = False, rules: dict | None = None, controls=None,
                 chat=()):
        self.code = code
        self.controls = dict(controls or {})  # the host's room controls (seating.py)
        self.table = Table(variant, seed, max_deals=max_deals, actions=actions,
                           **game_args(controls))
        self.rules = rules or room_rules(variant)  # the rules in force (houserules.py)
        # the one name of every message (house rules: their own, as the record says)
        self.variant_name = variant.name if self.rules.get("house") else (
            variant_name or self.table.game.variant_ref)
        self.bot = bot
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.creator = creator
        self.turn_timer = turn_timer
        self.store = store
        self.seats = seats or [Seat() for _ in range(self.table.players)]
        self.conns: list[Conn] = []       # players' connections
        self.watchers: list[Conn] = []    # spectators' connections
        self.started = started
        self.touched = time.monotonic()
        self.saved = len(self.table.game.actions)   # actions already in the store
        self.standins: set[int] = set()   # seats a bot plays while their player is away
        self.waiting: set[int] = set()    # players yet to send "next" after a scored deal
        self.chat = ChatLog(store=store, room=code, lines=chat,  # chat.py: in no record
                            rate=self.limits.chat_rate, burst=self.limits.chat_burst)
        self._scanned = len(self.table.game.events)
        self._runner: asyncio.Task | None = None
        self._timer: asyncio.Task | None = None
        self._timer_key = None
        self._replays: dict[tuple, str] = {}   # (seat, deal) -> encoded replay message
        self._public_deals: dict[int, str] = {}  # deal -> its public replay, encoded
        self._scored: list[int] = []      # deals scored, from events[:self._indexed]
        self._indexed = 0
        self._public: tuple | None = None      # (events then, encoded public replay)
        self._advice: tuple | None = None      # ((seat, actions then), encoded advice)
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                self.table.set_bot(i, bot)

    @classmethod
    def restore(cls, rec, variant, **kw) -> Room:
        """A room read back from the store: its game replayed from its actions."""
        from ...engine.actions import action_from_dict

        seats = [Seat(k, n, t) for k, n, t in rec.seats]
        return cls(rec.code, variant, rec.seed, variant_name=rec.variant,
                   max_deals=rec.max_deals, actions=[action_from_dict(a) for a in rec.actions],
                   seats=seats, started=rec.started, rules=stored_rules(rec.settings),
                   controls=rec.settings.get("controls"),
                   turn_timer=rec.settings.get("turn_timer", DEFAULT_TURN_TIMER),
                   chat=rec.chat, **kw)

    def settings(self) -> dict:
        return {"turn_timer": self.turn_timer, "players": self.table.players,
                "rules": self.rules, "controls": self.controls}

    # ----------------------------------------------------------------- info

    def live(self, seat: int | None) -> bool:
        return any(c.seat == seat for c in self.conns)

    def seat_infos(self) -> list[dict]:
        live = {c.seat for c in self.conns}
        return [{"seat": i, "kind": s.kind, "name": s.name, "connected": i in live,
                 "standin": i in self.standins} for i, s in enumerate(self.seats)]

    def room_message(self) -> dict:
        return {"type": "room", "protocol": PROTOCOL_VERSION, "room": self.code,
                "variant": self.variant_name, "started": self.started,
                "seats": self.seat_infos(), "watchers": len(self.watchers),
                "turn_timer": self.turn_timer, **controls_fields(self)}

    def state_for(self, conn: Conn) -> dict:
        self._save_actions()  # stored before anyone sees them (a no-op when nothing is new)
        msg = self.table.state(conn.seat, since=conn.cursor)
        conn.cursor = msg["event_index"]
        msg["room"] = self.code
        msg["variant"] = self.variant_name
        msg["seats"] = self.seat_infos()
        msg["waiting"] = sorted(self.waiting)
        msg["watchers"] = len(self.watchers)
        # the rules' text is fetched once (GET /api/rooms/CODE), not sent with every state
        msg["rules_fingerprint"] = self.rules["fingerprint"]
        return msg

    @property
    def unjoined(self) -> bool:
        """Nobody ever took a seat (and so it never started)."""
        return not self.started and all(s.kind == "open" for s in self.seats)

    @property
    def idle(self) -> bool:
        """Nobody is here, and the game is over, or untouched for IDLE_SECONDS, or never
        joined and untouched for ``unjoined_seconds`` (minutes: a flood of rooms made and
        left does not hold the room cap for long)."""
        if self.conns or self.watchers:
            return False
        age = time.monotonic() - self.touched
        return self.table.over or age > IDLE_SECONDS or (
            self.unjoined and age > self.limits.unjoined_seconds)

    def stop(self) -> None:
        """The room is forgotten: its bot runner and timer end."""
        for task in (self._runner, self._timer):
            if task is not None:
                task.cancel()

    # ----------------------------------------------------------------- seats

    def _seat_of_token(self, token: str) -> int | None:
        h = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        return None

    def _check_token(self, conn: Conn, token) -> int:
        if conn.seat is None:
            raise ProtocolError("not_joined", "join a room (take a seat) first")
        if token is None or not hmac.compare_digest(self.seats[conn.seat].token_hash,
                                                    token_hash(token)):
            raise ProtocolError("bad_token", "this token does not hold your seat")
        return conn.seat

    @staticmethod
    def _check_entry(conn: Conn, msg: dict) -> None:
        """What a player and a spectator must both pass to enter: our protocol version,
        and a connection that is in no room yet."""
        if msg["protocol"] != PROTOCOL_VERSION:
            raise ProtocolError("bad_version", f"protocol version {msg['protocol']} is not "
                                               f"spoken here (version {PROTOCOL_VERSION})")
        if conn.room is not None:
            raise ProtocolError("already_joined", f"this connection is in room "
                                                  f"{conn.room.code} already")

    async def join(self, conn: Conn, msg: dict) -> None:
        self._check_entry(conn, msg)
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
                    raise ProtocolError("room_full", f"room {self.code} is "
                                        + ("playing" if self.started else "full")
                                        + " and has no open seat; you can watch it")
            elif not 0 <= seat < len(self.seats):
                raise ProtocolError("no_such_seat", f"no seat {seat}: seats are "
                                                    f"0..{len(self.seats) - 1}")
            elif self.seats[seat].kind != "open":
                raise ProtocolError("seat_taken", f"seat {seat} is taken ({self.seats[seat].kind})")
            token = secrets.token_urlsafe(18)
            s = self.seats[seat]
            s.kind, s.token_hash = "human", token_hash(token)
            s.name = clean_name(msg.get("name", ""), f"player {seat}")
            self._save_seats()
            await self._stored()  # the seat is stored before its token is told
        conn.seat, conn.room = seat, self
        conn.cursor = self.table.deal_start_index()
        self.conns.append(conn)
        self.touched = time.monotonic()
        if seat in self.standins:  # back: the stand-in bot leaves
            self.standins.discard(seat)
            self.table.remove_bot(seat)
        conn.send(self._welcome(seat, token))
        self.chat.send_history(conn)
        if not self.started and all(s.kind == "human" for s in self.seats):
            await self.start()
        else:
            await self.broadcast()
            self._arm()

    def _welcome(self, seat: int | None, token: str | None) -> dict:
        return {"type": "welcome", "protocol": PROTOCOL_VERSION, "room": self.code,
                "seat": seat, "token": token, "variant": self.variant_name,
                "play_rules": rules_json(self.table.variant.play_rules),
                "rules_fingerprint": self.rules["fingerprint"]}

    async def watch(self, conn: Conn, msg: dict) -> None:
        """A spectator: no seat, no token, the public view only."""
        self._check_entry(conn, msg)
        if len(self.watchers) >= self.limits.watchers_per_room:
            raise ProtocolError("room_full", f"room {self.code} has "
                                             f"{len(self.watchers)} spectators already")
        conn.room, conn.seat, conn.watching = self, None, True
        conn.cursor = self.table.deal_start_index()
        self.watchers.append(conn)
        conn.send({**self._welcome(None, None), "watching": True})
        self.chat.send_history(conn)
        await self._stored()  # nothing uncommitted is told
        conn.send(self.state_for(conn) if self.started else self.room_message())

    async def start(self) -> None:
        """Fill the open seats with bots and let the game run."""
        if self.started:
            return
        for i, s in enumerate(self.seats):
            if s.kind == "open":
                s.kind, s.name = "bot", f"bot {i}"
                self.table.set_bot(i, self.bot)
        self.started = True
        self._save_seats()
        await self.broadcast()
        self._arm()

    def leave(self, conn: Conn) -> None:
        if conn in self.conns:
            self.conns.remove(conn)
            if not self.live(conn.seat) and conn.seat in self.waiting:
                self.waiting.discard(conn.seat)
            self._arm()
        elif conn in self.watchers:
            self.watchers.remove(conn)
        self.touched = time.monotonic()

    # ----------------------------------------------------------------- messages

    async def handle(self, conn: Conn, msg: dict) -> None:
        """A checked message from a connection in this room."""
        kind = msg["type"]
        self.touched = time.monotonic()
        if kind == "replay" and conn.watching:
            conn.send(self.replay(None, msg["deal"]))
            return
        if kind == "chat":
            await self.say(conn, msg)
            return
        seat = self._check_token(conn, msg.get("token"))
        if kind == "start":
            await self.start()
        elif kind == "arrange":  # the host's room controls before the start
            await arrange(self, seat, msg)
        elif kind == "replay":
            conn.send(self.replay(seat, msg["deal"]))
        elif kind == "next":
            if seat in self.waiting:
                self.waiting.discard(seat)
                await self.broadcast()
                self._arm()
        elif kind == "hint":
            if not self.started:
                raise ProtocolError("not_started", "the game has not started: no advice yet")
            # the room's bot kind advises, from the seat's own state message only; the
            # advice of one position is computed once (asking again costs nothing)
            key = (seat, len(self.table.game.actions))
            if self._advice is None or self._advice[0] != key:
                self._advice = (key, encode(self.table.advice(seat, self.bot)))
            conn.send(self._advice[1])
        elif kind == "action":
            if not self.started:
                raise ProtocolError("not_started", "the game has not started: send start "
                                                   "(open seats get bots) or wait for players")
            if seat in self.standins:
                raise ProtocolError("illegal", "a stand-in bot plays your seat", "standin")
            self.table.act(seat, msg["action"])
            self.waiting.discard(seat)  # acting in the next deal: seen the last one
            await self.changed()

    async def say(self, conn: Conn, msg: dict) -> None:
        """A chat line (chat.py): a player's under its seat's name, a spectator's as one;
        to everyone in the room."""
        if conn.watching:
            seat, name = None, "spectator"
        else:
            seat = self._check_token(conn, msg.get("token"))
            name = self.seats[seat].name
        line = encode(self.chat.add(seat, name, msg["text"]))
        await self._stored()
        for other in self.conns + self.watchers:
            other.send(line)  # queued: never waits for one client (outbox.py)

    async def changed(self) -> None:
        """After the game moved: note a scored deal, tell everyone (which stores the new
        actions first), then let the bots and the timer go on."""
        self._note_deal_end()
        await self.broadcast()
        self._arm()

    async def broadcast(self) -> None:
        """Tell everyone in the room, once the store has committed what they are told.
        Each message is queued on its connection and sent by that connection's own task
        (outbox.py): a client that does not read is cut off, and never holds up the
        others. Only the store is awaited, never a client."""
        # the store first: nobody is told of an action that a killed server would lose
        # (and the bots' declarations while dealing go to the store in one commit)
        try:
            await self._stored()
        except StoreError as e:  # nothing unsaved is told: everyone gets the error, closed
            log.error("room %s: %s", self.code, e)
            for conn in self.conns + self.watchers:
                conn.send(error_message(e))
                conn.close(1011, STORE_CLOSE)
            return
        if not self.started:
            text = encode(self.room_message())
            for conn in self.conns + self.watchers:
                conn.send(text)
            return
        # built and queued at once after the commit (outbox.py: never waits for a client)
        for conn in self.conns + self.watchers:
            conn.send(self.state_for(conn))

    def _note_deal_end(self) -> None:
        events = self.table.game.events
        scored = any(type(e) is DealScored for e in events[self._scanned:])
        self._scanned = len(events)
        if scored and not self.table.over:
            self.waiting = {i for i, s in enumerate(self.seats)
                            if s.kind == "human" and i not in self.standins and self.live(i)}

    # ----------------------------------------------------------------- the store

    def _save_seats(self) -> None:
        if self.store is not None:
            self.store.save_seats(self.code, [s.record() for s in self.seats], self.started)

    def _save_actions(self) -> None:
        actions = self.table.game.actions
        if self.store is not None and len(actions) > self.saved:
            self.store.add_actions(self.code, self.saved,
                                   [a.to_dict() for a in actions[self.saved:]],
                                   finished=self.table.over)
        self.saved = len(actions)

    async def _stored(self) -> None:
        """Every write of the room so far committed, and the actions made meanwhile (a
        store commits a room's writes in order): nothing is told before."""
        self._save_actions()
        while self.store is not None:
            await self.store.flush(self.code)
            if self.saved == len(self.table.game.actions):
                return
            self._save_actions()

    # ----------------------------------------------------------------- bots and timer

    def _arm(self) -> None:
        """Start the bot runner if a bot may act; (re)start or stop the turn timer."""
        if not self.started or self.table.over:
            return
        loop = asyncio.get_running_loop()
        if not self.waiting and self.table.bot_to_act() is not None:
            if self._runner is None or self._runner.done():
                self._runner = loop.create_task(self._run_bots())
        key = self._blocked()
        if key != self._timer_key:
            if self._timer is not None:
                self._timer.cancel()
            self._timer, self._timer_key = None, key
            if key is not None and self.turn_timer > 0:
                self._timer = loop.create_task(self._expire(key))

    def _blocked(self):
        """What the table waits for that a timer may end: a player to act who has no
        connection (while somebody else is here). Players yet to press "next" are here
        (``leave`` stops waiting for one who goes): no timer cuts their reading short, or
        the next deal's dealing and declaring would go on without them."""
        if self.waiting:
            return None
        seat = self.table.game.to_act
        if (seat is not None and self.seats[seat].kind == "human"
                and seat not in self.standins and not self.live(seat) and self.conns):
            return ("away", len(self.table.game.actions), seat)
        return None

    async def _expire(self, key) -> None:
        await asyncio.sleep(self.turn_timer)
        if self._blocked() != key:
            return
        self._timer_key = None
        seat = key[2]
        self.standins.add(seat)
        self.table.set_bot(seat, self.bot)
        await self.broadcast()
        self._arm()

    async def _run_bots(self) -> None:
        table = self.table
        unsent = False  # bot actions nobody has been told of yet
        while not self.waiting and table.bot_to_act() is not None:
            # pause only in the play, where people watch each card land; while dealing,
            # bots' declarations follow each other at once and are told in one message
            playing = table.game.phase in ("play", "choose")
            if playing and unsent:
                await self.broadcast()
                unsent = False
            await asyncio.sleep(self.bot_delay if playing else 0)
            if self.waiting:
                break
            try:
                if not table.step_bot():
                    continue  # a player came back to the seat meanwhile
            except ShengjiError as e:  # a bot bug must not kill the server: tell the table
                log.error("room %s: bot failed: %s", self.code, e)
                try:
                    self._save_actions()
                except StoreError:
                    pass  # told below, with the bot's error
                for conn in list(self.conns):
                    conn.send(error_message(e))
                return
            self._note_deal_end()
            unsent = True
            if playing:
                await self.broadcast()
                unsent = False
        if unsent:
            await self.broadcast()
        self._arm()
