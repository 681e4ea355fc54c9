"""Idle rooms leave memory: the app checks every room once a minute (``reclaim_idle``).

- A room nobody is in is forgotten when its match is over or nobody has touched it for
  an hour (``rooms.IDLE_SECONDS``).
- A room somebody is connected to is reclaimed when nobody there has sent anything (an
  action, a chat line, "next", a hint) for ``Limits.idle_room_seconds`` (30 minutes):
  a player who walked away from an open tab holds the table, since the turn timer only
  starts for a player with no connection. Everyone there gets an ``error`` with code
  ``idle`` and the socket is closed with code 4000 (the page then does not reconnect by
  itself; reloading it rejoins).

A forgotten room gives its lease back (lease.py) and stays in the store: the next join
or replay request reads it back, here or on another process.
"""

from __future__ import annotations

import asyncio
import time

from ...protocol import ProtocolError, error_message
from .rooms import IDLE_SECONDS

#: seconds between two looks at the rooms
SWEEP_SECONDS = 60.0
#: the close code of a socket whose room was reclaimed (the page does not reconnect)
IDLE_CLOSE = 4000


def idle(room, now: float, limit: float) -> bool:
    """Whether a room is reclaimed now (see the module's docstring)."""
    age = now - room.touched
    if room.conns or room.watchers:
        return age > limit
    return room.table.over or age > IDLE_SECONDS


async def reclaim(lobby, now: float | None = None) -> list[str]:
    """Forget the idle rooms of ``lobby`` (closing their sockets); their codes."""
    now = time.monotonic() if now is None else now
    limit = lobby.limits.idle_room_seconds
    codes = [code for code, room in lobby.rooms.items() if idle(room, now, limit)]
    for code in codes:
        room = lobby.rooms.get(code)
        if room is None or not idle(room, now, limit):
            continue  # gone or busy again while a socket was being closed
        # the sockets leave the room first: nothing they do later moves it (no bots
        # started again by a leave, no broadcast), then it is forgotten
        people, room.conns, room.watchers = room.conns + room.watchers, [], []
        for conn in people:
            conn.room = None
        lobby._drop(code)
        message = error_message(ProtocolError(
            "idle", f"room {code} was idle for {limit / 60:g} minutes: closed; it is kept, "
                    "come back with the same page to play on"))
        for conn in people:  # queued (outbox.py): a silent socket holds nothing up
            conn.send(message)
            conn.close(IDLE_CLOSE, "idle")
    return codes


async def reclaim_idle(lobby, every: float = SWEEP_SECONDS) -> None:
    """The app's task: ``reclaim`` every ``every`` seconds."""
    while True:
        await asyncio.sleep(every)
        await reclaim(lobby)
