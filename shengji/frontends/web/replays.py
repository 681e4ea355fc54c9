"""A room's replays of finished deals: per seat, built once and kept (the last
REPLAYS_KEPT of them: a room's memory does not grow with every seat's replay of every
deal); the public ones, encoded, for every deal (``public_replay``, GET .../replay,
joins them). A deal not scored yet is refused from an index of the scored deals kept up
to date from the new events only, so asking for it again and again costs no scan of the
game. Mixed into ``rooms.Room``, whose ``__init__`` sets the caches used here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import DealScored
from ...protocol import PROTOCOL_VERSION, ProtocolError
from .houserules import rules_fields
from .seats import encode

if TYPE_CHECKING:
    from ...protocol.table import Table


#: encoded replays a room keeps (seat and deal), the least recently asked for dropped
#: first: every seat's replay of the last few deals
REPLAYS_KEPT = 64


class RoomReplays:
    # set by rooms.Room.__init__
    table: Table
    _replays: dict[tuple[int | None, int], str]
    _indexed: int
    _scored: list[int]
    _public_deals: dict[int, str]
    _public: tuple | None
    code: str
    variant_name: str
    seats: list
    rules: dict

    def replay(self, seat: int | None, deal: int) -> str:
        """A finished deal never changes: its replay is built once per seat and kept. A
        deal not scored yet is refused from the index of scored deals, without a look at
        the events."""
        if seat is None:
            return self._public_deal(deal)
        key = (seat, deal)
        text = self._replays.pop(key, None)  # (put back last: the most recently asked)
        if text is None:
            self._check_scored(deal)
            text = encode(self.table.replay(seat, deal))
            if len(self._replays) >= REPLAYS_KEPT:
                del self._replays[next(iter(self._replays))]
        self._replays[key] = text
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

    def _check_scored(self, deal: int) -> None:
        if deal not in self._scored_deals():
            raise ProtocolError("not_finished", f"deal {deal} has not been scored yet: only a "
                                                "finished deal can be replayed")

    def _public_deal(self, deal: int) -> str:
        """A deal's public replay, encoded: kept for every deal (the public replay of the
        room is these texts joined)."""
        text = self._public_deals.get(deal)
        if text is None:
            self._check_scored(deal)
            text = self._public_deals[deal] = encode(self.table.replay(None, deal))
        return text

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
        msg = {"type": "public_replay", "protocol": PROTOCOL_VERSION, "room": self.code,
               "variant": self.variant_name, "over": game.over, "winner": game.winner,
               "seats": [{"seat": i, "kind": s.kind, "name": s.name}
                         for i, s in enumerate(self.seats)], **rules_fields(self.rules)}
        if game.over:
            from ...engine.serial import game_to_dict
            msg["record"] = {**game_to_dict(game), "rules": self.rules["text"]}  # in force
        # each deal's public replay is kept encoded (_public_deal): joined, not built again
        deals = ",".join(self._public_deal(d) for d in self._scored_deals())
        self._public = (key, f'{encode(msg)[:-1]},"deals":[{deals}]}}')
        return self._public[1]
