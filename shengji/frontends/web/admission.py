"""Who may hold a room, and who may look one up: the room cap shared fairly between
addresses, and one failed-guess limit for every lookup by room code (HTTP and
websocket alike). Used by ``lobby.Lobby``; the numbers are ``limits.Limits`` fields.

**The room cap.** The server keeps at most ``max_rooms`` rooms. When it is full, rooms
nobody is in that are idle (finished, untouched for an hour, or never joined for
``unjoined_seconds``) are dropped first. If it is still full, the newcomer's address
(IPv6 per /64) is compared with the address holding the most rooms: when that one holds
at least two more, its least recently used room that nobody is in right now makes
way. So a flood from 200 addresses ends up holding an equal share, and a newcomer
still gets a room; only when every address holds about as many rooms as the newcomer,
or every room has somebody in it, is the answer ``server_full``.

**A share kept for newcomers.** Rooms somebody is in never make way, so 200 addresses
holding ten joined rooms each would fill the table for as long as they stay. The last
``rooms_reserved_share`` of the table (a quarter) is kept for addresses holding fewer
than ``rooms_when_crowded`` rooms (two): once fewer places than that are left, an
address holding that many is refused (``too_many_rooms``) while a newcomer still gets
one.

**Lookups by code.** Room codes are 40 bits; what keeps them from being guessed is
that every lookup that finds no room (over HTTP or a websocket) takes a token from the
address's ``join`` bucket, and an address whose bucket is empty is refused before any
lookup is done (no dictionary probe, no SQLite query).
"""

from __future__ import annotations

from collections import Counter

from ...protocol import ProtocolError
from .limits import address_key, kept_for_others

#: what a code can be after normalising (rooms.CODE_ALPHABET, rooms.CODE_LENGTH)
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_CODE_CHARS = frozenset(_ALPHABET)


def normal_code(code, length: int = 8) -> str | None:
    """A code as typed (any case, spaces and dashes ignored) → the code, or None when it
    cannot be one (wrong length or letters: no lookup needed to know it is a miss)."""
    if not isinstance(code, str) or len(code) > 64:
        return None
    key = "".join(c for c in code.upper() if c.isalnum())
    if len(key) != length or not set(key) <= _CODE_CHARS:
        return None
    return key


def shard_of(code: str, count: int) -> int:
    """The shard of a room code among ``count``: its first letter's place in the
    alphabet, modulo ``count`` (a proxy can route on the first letter of the code)."""
    return _ALPHABET.index(code[0]) % count


def check_shard(code: str, index: int, count: int) -> None:
    """Refuse a code that another shard serves (no lookup: its first letter says so)."""
    owner = shard_of(code, count)
    if owner != index:
        raise ProtocolError("wrong_shard", f"room {code} is served by shard {owner} of "
                                           f"{count}, not this one ({index})")


def check_guesses(addresses, address: str) -> None:
    """Refuse an address that has used up its failed lookups, before looking."""
    if addresses.bucket("join", address).empty():
        raise ProtocolError("rate_limited", "too many failed lookups of room codes from your "
                                            "address; wait a minute and check the code")


def count_miss(addresses, address: str) -> None:
    addresses.bucket("join", address).take()


def held(rooms: dict, codes) -> int:
    """Unfinished, non-idle rooms among ``codes`` (those created from one address)."""
    return sum(1 for c in codes or () if (r := rooms.get(c)) is not None
               and not r.table.over and not r.idle)


def check_share(rooms: dict, held_now: int, limits) -> None:
    """Refuse an address holding ``held_now`` rooms a place in the share kept for
    newcomers (see the module's docstring)."""
    if held_now < limits.rooms_when_crowded or not int(limits.max_rooms
                                                        * limits.rooms_reserved_share):
        return
    taken = sum(1 for r in rooms.values() if not r.idle)
    if kept_for_others(taken, limits.max_rooms, held_now, limits.rooms_reserved_share,
                       limits.rooms_when_crowded):
        raise ProtocolError("too_many_rooms", f"the server is nearly full: the rooms left "
                                              f"are kept for addresses holding fewer than "
                                              f"{limits.rooms_when_crowded} (yours holds "
                                              f"{held_now}); finish or leave one first")


def make_space(rooms: dict, max_rooms: int, for_address: str | None, drop) -> None:
    """Make room for one more (see the module's docstring) or raise ``server_full``.
    ``drop(code)`` forgets a room."""
    if len(rooms) < max_rooms:
        return
    for code in [c for c, r in rooms.items() if r.idle]:
        drop(code)
    if len(rooms) < max_rooms:
        return
    if for_address is not None:
        key = address_key(for_address)
        counts = Counter(r.creator for r in rooms.values())
        empty = [r for r in rooms.values() if not r.conns and not r.watchers]
        if empty:
            top = max({r.creator for r in empty}, key=lambda c: counts[c])
            if counts[top] >= counts.get(key, 0) + 2:
                victim = min((r for r in empty if r.creator == top), key=lambda r: r.touched)
                drop(victim.code)
                return
    raise ProtocolError("server_full", f"the server holds {max_rooms} rooms; try again later")
