"""The lobby: every room of one server process by its code, and the way in to them. It
makes rooms (a code nobody holds, of this process's shard; the room cap shared fairly
between addresses, admission.py), reads a room back from the store on first use (its
lease first, lease.py), counts the websockets against their caps, and takes each
inbound message: its budget, its checks, then ``join``/``watch`` here and the rest to
the connection's room (rooms.py). Lookups by code that fail count against the address.
"""

from __future__ import annotations

import logging
import secrets

from ...errors import ShengjiError
from ...protocol import PROTOCOL_VERSION, ProtocolError, error_message
from . import admission
from .houserules import room_rules, stored_variant
from .limits import Limits, PerAddress, address_key
from .rooms import (
    CODE_ALPHABET,
    CODE_LENGTH,
    DEFAULT_BOT_DELAY,
    DEFAULT_TURN_TIMER,
    STORE_CLOSE,
    Room,
)
from .seats import Conn
from .store import StoreError

log = logging.getLogger("shengji.web")


class Lobby:
    """All rooms of one server, the per-address limits, and the store (or None)."""

    def __init__(self, *, variants: dict | None = None, bot_delay: float = DEFAULT_BOT_DELAY,
                 bot: str = "heuristic", limits: Limits | None = None, store=None,
                 shard: tuple[int, int] | None = None):
        self.shard = shard   # (index, count): this process serves the codes of one shard
        self.rooms: dict[str, Room] = {}
        self._created: dict[str, set[str]] = {}  # address key -> codes of its rooms
        self.variants = variants or {}
        self._sized: dict[tuple, object] = {}  # (name, players) -> the variant at that size
        self.bot_delay = bot_delay
        self.bot = bot
        self.limits = limits or Limits()
        self.addresses = PerAddress(self.limits)
        self.connections = 0
        self.store = store

    # ----------------------------------------------------------------- connections

    def connect(self, address: str) -> ProtocolError | None:
        """Count a new connection; an error (to send before closing) when over a cap."""
        if self.connections >= self.limits.max_connections:
            return ProtocolError("server_full", "the server has too many connections; try "
                                                "again later")
        if not self.addresses.connect(address, self.connections):
            return ProtocolError("too_many_connections",
                                 "too many connections from your address are open already")
        self.connections += 1
        return None

    def disconnect(self, conn: Conn) -> None:
        self.connections -= 1
        self.addresses.disconnect(conn.address)
        self.leave(conn)

    # ----------------------------------------------------------------- rooms

    def variant(self, name: str, players: int | None = None):
        """An offered variant, at ``players`` seats if given (each size loaded once). A
        size the variant cannot seat is a ``bad_variant`` refusal naming the sizes."""
        base = self.variants.get(name)
        if base is None:
            raise ProtocolError("bad_variant", f"variant {name!r} is not offered here")
        if players is None or players == base.players:
            return base
        key = (name, players)
        got = self._sized.get(key)
        if got is None:
            from ...variants import load_variant
            try:
                got = load_variant(name, players=players)
            except ShengjiError as e:
                raise ProtocolError("bad_variant", f"{name} at {players} seats: "
                                                   f"{str(e).splitlines()[0]}") from None
            self._sized[key] = got
        return got

    async def create(self, variant_name: str, seed=0, max_deals=None, address: str = "?",
                     turn_timer: float = DEFAULT_TURN_TIMER, players: int | None = None,
                     house=None) -> Room:  # house: checked HouseRules, played instead
        variant = house.variant if house is not None else self.variant(variant_name, players)
        lim = self.limits
        key = address_key(address)
        live = admission.held(self.rooms, self._created.get(key))
        if live >= lim.rooms_per_address:
            raise ProtocolError("too_many_rooms", f"your address holds {live} unfinished rooms "
                                                  "already; finish or leave one first")
        admission.check_share(self.rooms, live, lim)
        if not self.addresses.bucket("room", address).take():
            raise ProtocolError("rate_limited", "rooms are created too fast from your address; "
                                                "wait a little")
        code = await self._new_code()
        self._make_space(address)
        room = Room(code, variant, seed, variant_name=variant_name,
                    max_deals=max_deals, bot=self.bot, bot_delay=self.bot_delay, limits=lim,
                    creator=key, turn_timer=turn_timer, store=self.store,
                    rules=room_rules(variant, house))
        if self.store is not None:
            self.store.add_room(code, variant_name, seed, max_deals, room.settings(),
                                [s.record() for s in room.seats])
        self.rooms[code] = room
        self._created.setdefault(key, set()).add(code)
        try:
            await room._stored()  # the code is told once the room is stored
        except StoreError:
            self._drop(code)
            raise
        return room

    def _make_space(self, address: str | None) -> None:
        admission.make_space(self.rooms, self.limits.max_rooms, address, self._drop)

    def _drop(self, code: str) -> None:
        """Forget a room (admission.make_space chose it); one nobody ever joined is
        deleted from the store too, so that a flood of them leaves nothing behind."""
        room = self.rooms.pop(code)
        room.stop()
        codes = self._created.get(room.creator)
        if codes is not None:
            codes.discard(code)
            if not codes:
                del self._created[room.creator]
        if self.store is not None:  # its lease given back; deleted if nobody ever joined
            self.store.release(code, drop=room.unjoined)

    async def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.shard is not None and admission.shard_of(code, self.shard[1]) \
                    != self.shard[0]:
                continue
            if code not in self.rooms and (self.store is None
                                           or not await self.store.code_used(code)):
                return code

    async def get(self, code: str, address: str) -> Room:
        """The room of a code as typed (any case, spaces and dashes ignored), read back
        from the store if it is not in memory. Every lookup by code comes here: a miss
        counts against ``address``'s failed lookups, and an address out of them is
        refused before looking (admission.py)."""
        admission.check_guesses(self.addresses, address)
        key = admission.normal_code(code, CODE_LENGTH)
        if key and self.shard is not None:
            admission.check_shard(key, *self.shard)
        room = self.rooms.get(key) if key else None
        if room is not None and self.store is not None and self.store.failed(key):
            self._drop(room.code)  # its writes failed: read back what was committed
            room = None
        if room is None and key and self.store is not None:
            room = await self._restore(key, address)
        if room is None:
            admission.count_miss(self.addresses, address)
            shown = code[:20] if isinstance(code, str) else code
            raise ProtocolError("no_such_room", f"no room {shown!r}")
        return room

    async def _restore(self, code: str, address: str | None = None) -> Room | None:
        rec = await self.store.claim(code)  # its lease, then the room (lease.py)
        if code in self.rooms:  # restored meanwhile, for another connection
            return self.rooms[code]
        if rec is None:
            return None
        try:
            # the rules stored with the room, not the variant file as it is now
            variant = stored_variant(rec.settings) or self.variant(rec.variant,
                                                                   rec.settings.get("players"))
        except ShengjiError as e:
            log.warning("room %s: not restored: %s", code, e)
            return None
        self._make_space(address)
        try:
            room = Room.restore(rec, variant, bot=self.bot, bot_delay=self.bot_delay,
                                limits=self.limits, store=self.store)
        except ShengjiError as e:
            log.error("room %s: cannot replay its stored actions: %s", code, e)
            return None
        self.rooms[code] = room
        return room

    async def _join(self, conn: Conn, msg: dict) -> None:
        """Joins that fail for want of a secret (a room code, a token) are rate-limited per
        address, so that codes and tokens cannot be guessed by trying."""
        room = await self.get(msg["room"], conn.address)  # a wrong code counts there
        try:
            if msg["type"] == "watch":
                await room.watch(conn, msg)
            else:
                await room.join(conn, msg)
        except ProtocolError as e:
            if e.code == "bad_token":
                admission.count_miss(self.addresses, conn.address)
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
                conn.send({"type": "pong", "protocol": PROTOCOL_VERSION})
            elif kind in ("join", "watch"):
                await self._join(conn, msg)
            elif conn.room is None:
                raise ProtocolError("not_joined", f"{kind}: join a room first")
            elif conn.watching and kind not in ("replay", "chat"):
                raise ProtocolError("not_joined", f"{kind}: spectators only watch (join a "
                                                  "seat to play)")
            else:
                await conn.room.handle(conn, msg)
        except ShengjiError as e:
            if isinstance(e, StoreError):
                log.error("%s", e)
                conn.closing = STORE_CLOSE  # the socket closes with 1011 after the error
            conn.send(error_message(e))

    def leave(self, conn: Conn) -> None:
        if conn.room is not None:
            conn.room.leave(conn)
