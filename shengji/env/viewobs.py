"""The environments' observation, built from what a bot sees (a ``SeatView``): what lets
a policy trained in the environments play as a bot (``shengji.env.policy``).

``ViewEncoder.encode(view, kind, memory)`` writes the vector of
``shengji.env.observation`` for the seat of ``view`` about to decide (``kind``: the
decision's kind, nothing built yet). Everything comes from the view — played cards and
the history from its tricks and declarations, the points each seat took from who won
each trick (the next trick's leader) — except the seat's own burial, which a view shows
only while burying: ``SeatMemory`` keeps it from the seat's own ``Bury`` actions.
The tests hold it equal to the environments' encoder at every decision of random deals
(a declaration taken back, ``declare.takeback``, stays in the environments' history but
leaves the view's declarations: the one difference).
"""

from __future__ import annotations

import numpy as np

from ..cards import NUM_KINDS, point_value
from .building import KINDS
from .observation import HISTORY, Layout

_LEVEL_CAP = 13
_POINTS = [point_value(k) for k in range(NUM_KINDS)]


class SeatMemory:
    """What a seat remembers beyond its view: its own burials this deal."""

    __slots__ = ("deal", "buried")

    def __init__(self):
        self.deal = None
        self.buried = None

    def see(self, view) -> None:
        if view.deal_number != self.deal:
            self.deal = view.deal_number
            self.buried = None

    def bury(self, cards) -> None:
        if self.buried is None:
            self.buried = [0] * NUM_KINDS
        for c in cards:
            self.buried[c] += 1


class ViewEncoder:
    def __init__(self, variant, history: int = HISTORY):
        self.layout = lay = Layout(variant, history)
        self.players = lay.players
        self._s = {name: (a, b) for name, (a, b, _) in lay.slices.items()}

    def encode(self, view, kind: str, memory: SeatMemory | None = None) -> np.ndarray:
        s = self._s
        p = self.players
        seat = view.seat
        out = np.zeros(self.layout.size, dtype=np.float32)

        def at(name):
            return s[name][0]

        def rel(x):
            return p if x is None else (x - seat) % p

        out[at("decision") + KINDS.index(kind)] = 1
        out[at("hand"):s["hand"][1]] = view.hand
        plays = [play for trick in view.tricks for play in trick] + list(view.trick)
        a = at("played")
        for who, cards in plays:
            row = a + rel(who) * NUM_KINDS
            for c in cards:
                out[row + c] += 1
        a = at("trick")
        for who, cards in view.trick:
            row = a + rel(who) * NUM_KINDS
            for c in cards:
                out[row + c] += 1
        if memory is not None and memory.buried is not None:
            out[at("buried"):s["buried"][1]] = memory.buried
        if view.bids:
            bid = view.bids[-1]
            for c in bid.cards:
                out[at("bid") + c] += 1
            out[at("bid_seat") + rel(bid.seat)] = 1
        else:
            out[at("bid_seat") + p] = 1
        dealing = view.phase == "deal"
        out[at("trump") + (5 if dealing else 4 if view.trump is None else view.trump)] = 1
        out[at("level") + view.level] = 1
        out[at("dealer") + rel(view.dealer)] = 1
        out[at("leader") + rel(None if dealing else view.leader)] = 1
        teams = view.teams
        for i in range(p):
            out[at("partners") + i] = teams[(seat + i) % p] == teams[seat]
        for o in view.side:
            out[at("side") + rel(o)] = 1
        for n, c in view.calls:
            out[at("calls") + (n - 1) * NUM_KINDS + c] = 1
        for i in range(p):
            out[at("hand_sizes") + i] = view.hand_sizes[(seat + i) % p]
        levels = view.levels
        others = [levels[o] for o in range(p) if teams[o] != teams[seat]]
        out[at("levels")] = min(levels[seat], _LEVEL_CAP)
        out[at("levels") + 1] = min(max(others, default=0), _LEVEL_CAP)
        out[at("points")] = view.trick_points
        out[at("to_deal")] = view.to_deal if dealing else 0
        out[at("trick_number")] = view.trick_number
        # the points each seat took: trick i was won by trick i+1's leader (the last
        # completed one by the current leader)
        captured = [0] * p
        tricks = view.tricks
        for i, trick in enumerate(tricks):
            winner = tricks[i + 1][0][0] if i + 1 < len(tricks) else view.leader
            captured[winner] += sum(_POINTS[c] for _, cards in trick for c in cards)
        side = set(view.side)
        sides = [0, 0]
        for i in range(p):
            o = (seat + i) % p
            out[at("captured") + i] = captured[o]
            sides[o not in side] += captured[o]
        out[at("side_points")] = sides[0]
        out[at("side_points") + 1] = sides[1]
        # the last moves: the declarations, then the plays
        moves = [(b.seat, 1, b.cards) for b in view.bids] + [(w, 0, c) for w, c in plays]
        n = self.layout.history
        width = p + 1 + NUM_KINDS
        a = at("history")
        for j, (who, k, cards) in enumerate(reversed(moves[max(len(moves) - n, 0):])):
            row = a + j * width
            out[row + rel(who)] = 1
            out[row + p] = k
            for c in cards:
                out[row + p + 1 + c] += 1
        return out
