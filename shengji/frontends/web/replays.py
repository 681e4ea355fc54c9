"""A room's replays of finished deals: per seat, built once and kept; the public ones
also kept as dicts for the room's public replay (``public_replay``, GET .../replay). A
deal not scored yet is refused from an index of the scored deals kept up to date from
the new events only, so asking for it again and again costs no scan of the game. Mixed
into ``rooms.Room``, whose ``__init__`` sets the caches used here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import DealScored
from ...protocol import PROTOCOL_VERSION, ProtocolError
from .houserules import rules_fields
from .seats import encode

if TYPE_CHECKING:
    from ...protocol.table import Table


class RoomReplays:
    # set by rooms.Room.__init__
    table: Table
    _replays: dict[tuple[int | None, int], str]
    _indexed: int
    _scored: list[int]
    _public_deals: dict[int, dict]
    _public: tuple | None
    code: str
    variant_name: str
    seats: list
    rules: dict

    def replay(self, seat: int | None, deal: int) -> str:
        """A finished deal never changes: its replay is built once per seat and kept. A
        deal not scored yet is refused from the index of scored deals, without a look at
        the events."""
        key = (seat, deal)
        text = self._replays.get(key)
        if text is None:
            text = self._replays[key] = encode(self._deal_replay(seat, deal))
        return text

    def _scored_deals(self) -> list[int]:
        """The deals scored so far, in order (only the events since the last call are
        looked at)."""
        events = self.table.game.events
        for e in events[self._indexed:]:
            if type(e) is DealScored:
                self._scored.append(e.deal)
        self._indexed = len(events)
        return self._scored

    def _deal_replay(self, seat: int | None, deal: int) -> dict:
        if deal not in self._scored_deals():
            raise ProtocolError("not_finished", f"deal {deal} has not been scored yet: only a "
                                                "finished deal can be replayed")
        if seat is None:  # the public replay is kept as a dict for public_replay too
            got = self._public_deals.get(deal)
            if got is None:
                got = self._public_deals[deal] = self.table.replay(None, deal)
            return got
        return self.table.replay(seat, deal)

    def public_replay(self, allow) -> str:
        """The room's public replay: every scored deal as a spectator saw it, and the whole
        game record (variant, seed, actions) once the match is over — before that the
        seed would tell the hands still to come. Built when the game has moved since the
        last time, if ``allow()`` says this client may have one built."""
        key = len(self.table.game.events)
        if self._public is not None and self._public[0] == key:
            return self._public[1]
        if not allow():
            raise ProtocolError("rate_limited", "too many replays asked for; wait a little")
        game = self.table.game
        deals = [self._deal_replay(None, d) for d in self._scored_deals()]
        msg = {"type": "public_replay", "protocol": PROTOCOL_VERSION, "room": self.code,
               "variant": self.variant_name, "over": game.over, "winner": game.winner,
               "seats": [{"seat": i, "kind": s.kind, "name": s.name}
                         for i, s in enumerate(self.seats)],
               "deals": deals, **rules_fields(self.rules)}
        if game.over:
            from ...engine.serial import game_to_dict
            msg["record"] = {**game_to_dict(game), "rules": self.rules["text"]}  # in force
        self._public = (key, encode(msg))
        return self._public[1]
