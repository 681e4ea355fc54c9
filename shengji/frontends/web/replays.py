"""A room's replays of finished deals: per seat, built once and kept; the public ones
also kept as dicts for ``Room.public_replay``. A deal not scored yet is refused from an
index of the scored deals kept up to date from the new events only, so asking for it
again and again costs no scan of the game. Mixed into ``rooms.Room``, whose
``__init__`` sets the caches used here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import DealScored
from ...protocol import ProtocolError
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
