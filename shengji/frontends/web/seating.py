"""Room controls before the start (shengji.io's room settings): the host — the person who
sat down first — moves players (swaps two seats), shuffles the seats, sets each
seat's starting level and chooses the first dealer. Message ``arrange`` (docs/protocol.md):

    {"type": "arrange", "token": T, "swap": [0, 2]}           two seats change places
    {"type": "arrange", "token": T, "shuffle": 1}             the seats in a random order
    {"type": "arrange", "token": T, "levels": ["2", "5", "2", "5"], "first_dealer": 1}

Nothing has been played before the start, so the room's table is built again with the
new controls (``Game(start_levels=, first_dealer=)``); the controls are stored with the
room. A moved player's connection follows its seat and is told with a ``seated`` message.
"""

from __future__ import annotations

import secrets

from ...errors import ShengjiError
from ...protocol import PROTOCOL_VERSION, ProtocolError, Table


def host_of(room) -> int | None:
    """The host's seat: the first seat a person holds when the room is first shown (the
    creator's, who joins first), kept in the room's controls from then on; it moves with
    the host's seat."""
    if room.controls.get("host") is None:
        people = [i for i, s in enumerate(room.seats) if s.kind == "human"]
        if not people:
            return None
        room.controls["host"] = people[0]
        if room.store is not None:
            room.store.save_settings(room.code, room.settings())
    return room.controls["host"]


async def arrange(room, seat: int, msg: dict) -> None:
    if room.started:
        raise ProtocolError("started", "the game has started: seats and levels are set")
    if seat != host_of(room):
        raise ProtocolError("not_host", "only the host (who sat down first) arranges the room")
    n = room.table.players
    order = list(range(n))  # order[new seat] = old seat
    swap = msg.get("swap")
    if swap is not None:
        if not (isinstance(swap, list) and len(swap) == 2
                and all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n
                        for s in swap)):
            raise ProtocolError("bad_message", f"arrange.swap: two seats 0..{n - 1}")
        a, b = swap
        order[a], order[b] = order[b], order[a]
    if msg.get("shuffle"):
        secrets.SystemRandom().shuffle(order)
    controls = {k: v for k, v in room.controls.items() if k != "host"}
    if "levels" in msg:
        controls["start_levels"] = msg["levels"]
    if "first_dealer" in msg:
        controls["first_dealer"] = msg["first_dealer"]
    game = room.table.game
    try:  # the engine checks levels (partners share one) and seats
        table = Table(game.variant, game.seed, max_deals=game.max_deals,
                      start_levels=controls.get("start_levels"),
                      first_dealer=controls.get("first_dealer"))
    except ShengjiError as e:
        raise ProtocolError("bad_message", f"arrange: {e}") from None
    if table.game.start_levels is not None:
        controls["start_levels"] = list(table.game.start_levels)
    room.table = table
    room.seats = [room.seats[old] for old in order]
    moved = []
    for conn in room.conns:
        new = order.index(conn.seat)
        if new != conn.seat:
            conn.seat = new
            moved.append(conn)
    controls["host"] = order.index(seat)  # the host arranges (checked above)
    room.controls = controls
    room._scanned = len(table.game.events)
    room.saved = 0
    if room.store is not None:
        room.store.save_seats(room.code, [s.record() for s in room.seats])
        room.store.save_settings(room.code, room.settings())
    for conn in moved:
        conn.send({"type": "seated", "protocol": PROTOCOL_VERSION, "room": room.code,
                   "seat": conn.seat})
    await room.broadcast()


def game_args(controls: dict | None) -> dict:
    """The Game arguments of a room's controls."""
    given = controls or {}
    return {k: given[k] for k in ("start_levels", "first_dealer") if given.get(k) is not None}


def controls_fields(room) -> dict:
    """What the room and state messages say of the controls."""
    c = room.controls
    return {"host": host_of(room), "start_levels": c.get("start_levels"),
            "first_dealer": c.get("first_dealer")}
