"""The information-state tensor of the OpenSpiel game (perfect recall, fixed size).

For one seat, the deal's history as that seat saw it, in order, as a float32 vector of
two pieces:

=========  ====================  ======================================================
piece      shape                 content
=========  ====================  ======================================================
dealt      H×54                  the seat's cards in the order dealt to it (row i: the
                                 i-th card, one-hot; H = the hand size)
events     R×(11+P+1+54+1)       one row per event the seat saw, in order: its type
                                 (one-hot, ``ROW_TYPES``), the seat it concerns
                                 (relative, one-hot; last: none), its cards (counts) and
                                 one number (below); rows past the last are zero
=========  ====================  ======================================================

Row types and their number: ``declare`` / ``pass`` / ``takeback`` (a seat's
declaration, pass, withdrawal; number = cards dealt to this seat by then, which places
the event among its own dealt cards), ``kitty`` (the kitty this seat took; others: no
cards), ``bury`` (likewise), ``call`` (the dealer's friend calls: card counts are the
ordinals), ``play`` (number 1 for a lead), ``throw_failed`` (the attempt; number = the
penalty), ``forced`` (number = the option chosen), ``redeal`` (a redeal: the kitty
turned face up), ``building`` (the cards this seat has chosen so far in its current
decision, the last row; while the dealer calls friends: the calls chosen, each card
counted by its ordinal, and number = the ordinal waiting for its card). Dealing cards
to the other seats is no row: the schedule is fixed, so their count is known from the
dealt piece and the events' numbers.

``R`` bounds the rows of any deal of the variant: every ask to declare of the attempt
that was played (each a declaration or a pass, a take-back at most once each), a row per
redeal before it (up to ``REDEALS``), and two rows per card played (a play, and a failed
throw at most once per trick). A redeal replaces the rows of the attempt it ends by its
own row: those hands were shuffled away, and nobody declared in them; this is the one
place where the tensor forgets what the information-state string keeps.
"""

from __future__ import annotations

import sys

import numpy as np

from ..cards import NUM_KINDS
from ..engine.events import (
    BidTakenBack,
    Buried,
    CardDealt,
    DealStarted,
    Declared,
    ForcedChosen,
    FriendsCalled,
    KittyTaken,
    Passed,
    Played,
    Redealt,
    ThrowFailed,
)
from .building import seen_call

#: an object's reference count (CPython's; elsewhere None: lists are copied)
_refs = sys.getrefcount if sys.implementation.name == "cpython" else None


def _free_count() -> int:
    """The count of a list kept in a seat's tuple that nothing else holds, read as
    ``InfoRows.as_list`` reads it."""
    kept = (None, [0.0])
    return _refs(kept[1]) if _refs is not None else 0


_FREE = _free_count()

ROW_TYPES = ("declare", "pass", "takeback", "kitty", "bury", "call", "play",
             "throw_failed", "forced", "redeal", "building")
_T = {name: i for i, name in enumerate(ROW_TYPES)}
_REDEAL = _T["redeal"]
#: redeals a deal's rows are sized for (the engine's own limit is lower)
REDEALS = 16


class InfoLayout:
    def __init__(self, variant):
        p = variant.players
        self.players = p
        self.hand = variant.hand_size
        asks = variant.hand_size * p + p
        deck = variant.composition.total
        self.rows = 2 * asks + 2 * deck + REDEALS + 8
        self.width = len(ROW_TYPES) + p + 1 + NUM_KINDS + 1
        self.dealt_size = self.hand * NUM_KINDS
        self.size = self.dealt_size + self.rows * self.width

    def split(self, vector) -> dict:
        return {"dealt": vector[:self.dealt_size].reshape(self.hand, NUM_KINDS),
                "events": vector[self.dealt_size:].reshape(self.rows, self.width)}


class InfoRows:
    """Every seat's rows, kept from the events (tuples; the tensor is made on demand).

    Rows are only ever appended within an attempt, so each seat's tensor is kept (as a
    NumPy array for the observer, as a list of floats for ``as_list``) and only the rows
    (and dealt cards) added since the last call are written into it; a new attempt
    drops the kept tensors. Copies start without them (cloning stays cheap; the first
    tensor asked of a copy is written in full)."""

    __slots__ = ("dealt", "rows", "_kept", "_lists")

    def __init__(self, players: int):
        #: per seat: the cards dealt to it; the rows (type, seat, cards, value) it saw
        self.dealt: list[list[int]] = [[] for _ in range(players)]
        self.rows: list[list[tuple[int, int | None, tuple[int, ...], int | None]]] = [
            [] for _ in range(players)]
        #: per seat: (layout, tensor, dealt cards written, rows written) or None; the
        #: tensor a NumPy array (``tensor``) or a list of floats (``as_list``)
        self._kept: list[tuple | None] = [None] * players
        self._lists: list[tuple | None] = [None] * players

    def _drop_kept(self) -> None:
        self._kept = [None] * len(self.rows)
        self._lists = [None] * len(self.rows)

    def copy(self) -> InfoRows:
        new = InfoRows.__new__(InfoRows)
        new.dealt = [d[:] for d in self.dealt]
        new.rows = [r[:] for r in self.rows]
        new._drop_kept()
        return new

    def __getstate__(self):
        return self.dealt, self.rows

    def __setstate__(self, state):
        self.dealt, self.rows = state
        self._drop_kept()

    def __deepcopy__(self, memo):
        return self.copy()

    def update(self, events) -> None:
        dealt, rows = self.dealt, self.rows
        row: tuple[int, int | None, tuple[int, ...], int | None]
        for ev in events:
            t = type(ev)
            if t is CardDealt:
                dealt[ev.seat].append(ev.card)
                continue
            if t is Played:
                row = (_T["play"], ev.seat, ev.cards, int(ev.lead))
            elif t is Declared:
                row = (_T["declare"], ev.seat, ev.cards, None)
            elif t is Passed:
                row = (_T["pass"], ev.seat, (), None)
            elif t is BidTakenBack:
                row = (_T["takeback"], ev.seat, ev.cards, None)
            elif t is ThrowFailed:
                row = (_T["throw_failed"], ev.seat, ev.attempted, ev.penalty)
            elif t is ForcedChosen:
                row = (_T["forced"], ev.seat, (), ev.option)
            elif t is FriendsCalled:
                row = (_T["call"], ev.seat,
                       tuple(c for n, c in map(seen_call, ev.calls) for _ in range(n)), 0)
            elif t is KittyTaken or t is Buried:
                kind = _T["kitty"] if t is KittyTaken else _T["bury"]
                for s, r in enumerate(rows):  # the cards for their seat only
                    r.append((kind, ev.seat, ev.cards if s == ev.seat else (), 0))
                continue
            elif t is Redealt:
                row = (_T["redeal"], None, ev.kitty, 0)
            elif t is DealStarted and ev.attempt == 0:
                for s in range(len(rows)):
                    dealt[s].clear()
                    rows[s].clear()
                self._drop_kept()
                continue
            elif t is DealStarted:  # a redeal: the hands start again
                for s in range(len(rows)):
                    dealt[s].clear()
                    rows[s] = [r for r in rows[s] if r[0] == _REDEAL]
                self._drop_kept()
                continue
            else:
                continue
            for s, r in enumerate(rows):
                if row[3] is None:  # declarations: placed among this seat's dealt cards
                    r.append((row[0], row[1], row[2], len(dealt[s])))
                else:
                    r.append(row)

    def _brought_up(self, kept: tuple | None, layout: InfoLayout, seat: int, extra: int,
                    make) -> tuple:
        """A seat's kept tensor (``make(size)`` when there is none for this layout) with
        the dealt cards and rows added since it was written."""
        if kept is None or kept[0] is not layout:
            kept = (layout, make(layout.size), 0, 0)
        _, full, n_dealt, n_rows = kept
        dealt = self.dealt[seat][:layout.hand]
        for i in range(n_dealt, len(dealt)):
            if dealt[i] is not None:
                full[i * NUM_KINDS + dealt[i]] = 1.0
        rows = self.rows[seat]
        if len(rows) + extra > layout.rows:
            raise ValueError(f"information state of {len(rows) + extra} rows: more than "
                             f"the {layout.rows} sized for (redeals beyond {REDEALS}?)")
        self._write_rows(layout, seat, full, rows, n_rows)
        return (layout, full, len(dealt), len(rows))

    def tensor(self, layout: InfoLayout, seat: int, building=(), pending: int = 0,
               out=None) -> np.ndarray:
        extra = 1 if building or pending else 0
        kept = self._kept[seat] = self._brought_up(
            self._kept[seat], layout, seat, extra, lambda n: np.zeros(n, dtype=np.float32))
        full = kept[1]
        if out is None:
            out = full.copy()
        else:
            out[:] = full
        if extra:  # the decision being built: this call's alone, never kept
            self._write_rows(layout, seat, out,
                             [(_T["building"], seat, tuple(building), pending)], 0,
                             at=len(self.rows[seat]))
        return out

    def as_list(self, layout: InfoLayout, seat: int, building=(), pending: int = 0) -> list:
        """``tensor(...)`` as a list of floats, the caller's own. One list is kept per
        seat and handed out itself; it is written again (in place: the rows added
        since, the decision being built) only once CPython's reference count shows that
        nothing outside holds it any more, else a copy is (so a list handed out never
        changes). The usual loop (ask, use, drop) thus neither makes nor frees 33,000
        list entries at every call, as pyspiel's conversion does."""
        extra = 1 if building or pending else 0
        kept = self._lists[seat]
        if kept is not None and kept[0] is layout:
            # (counted before ``lst`` holds it too)
            held = _refs is None or _refs(kept[1]) != _FREE
            lst = kept[1][:] if held else kept[1]  # held outside: the caller's stays
            if kept[4] is not None:  # the decision being built, written last: zeros
                a = layout.dealt_size + kept[4] * layout.width
                lst[a:a + layout.width] = [0.0] * layout.width
            kept = (layout, lst, kept[2], kept[3])
        kept = self._brought_up(kept, layout, seat, extra, lambda n: [0.0] * n)
        lst = kept[1]
        at = None
        if extra:  # the decision being built: cleared before the next call's rows
            at = len(self.rows[seat])
            self._write_rows(layout, seat, lst,
                             [(_T["building"], seat, tuple(building), pending)], 0, at=at)
        self._lists[seat] = (*kept, at)
        return lst

    def add_plays(self, plays, penalty: int) -> None:
        """The rows of plays (seat, cards, lead, a failed throw's attempt or None) read
        from the play driver's log before the game has their events (``ThrowFailed``,
        ``Played``): the rows those events would add, the same for every seat."""
        new: list = []
        for seat, cards, lead, attempted in plays:
            if attempted is not None:
                new.append((_T["throw_failed"], seat, attempted, penalty))
            new.append((_T["play"], seat, cards, int(lead)))
        for r in self.rows:
            r.extend(new)

    @staticmethod
    def _write_rows(layout: InfoLayout, seat: int, out, rows, start: int,
                    at: int | None = None) -> None:
        """Write rows[start:] into out (an array or a list of floats) as rows at, at + 1,
        … (at: start)."""
        p = layout.players
        w = layout.width
        cards_at = len(ROW_TYPES) + p + 1
        a = layout.dealt_size + (start if at is None else at) * w
        for kind, who, cards, number in rows[start:]:
            out[a + kind] = 1.0
            out[a + len(ROW_TYPES) + (p if who is None else (who - seat) % p)] = 1.0
            for c in cards:
                out[a + cards_at + c] += 1.0
            out[a + w - 1] = float(number)
            a += w
