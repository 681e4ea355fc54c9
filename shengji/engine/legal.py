"""The legal actions offered to a seat (what a bot or a frontend chooses from).

``Legal`` is a read-only sequence of actions with a ``kind``:

- ``declare``: ``Pass`` first, then every ``Declare`` the variant's hooks accept now
  (homogeneous groups of level cards or jokers the seat holds).
- ``bury``: no listed actions (there are too many): bury any ``count`` cards of the hand.
- ``lead``: every single structure the hand holds — each distinct single, each tuple
  (pair, triple, quad up to the variant's widest), each tractor (every run of consecutive
  tuples, in every length the variant allows) — plus, when throws exist, the whole of
  each effective suit that is more than one structure. Other multi-structure leads are
  legal *attempts* too (``Game.can`` accepts any one-suit lead); they are just not listed.
- ``follow``: the core's legal follows (``Context.legal_follows``), enumerated up to
  ``FOLLOW_LIMIT``; ``total`` is the true count and ``truncated`` says the list is a
  prefix of it (every listed play is still legal).
- ``choose``: one ``ChooseForced`` per forced-play option after a failed throw.
- ``none``: not this seat's turn.

Follow plays are kept as core ``Hand`` objects and turned into ``Play`` actions only when
read, so that listing hundreds of follows costs little.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ..cards import NUM_KINDS
from .actions import Play


class Legal(Sequence):
    __slots__ = ("kind", "seat", "_items", "total", "count", "_set")

    def __init__(self, kind: str, seat, items, total: int | None = None, count: int = 0):
        self.kind = kind
        self.seat = seat
        self._items = items
        self.total = len(items) if total is None else total
        self.count = count
        self._set = None

    @property
    def truncated(self) -> bool:
        return self.total > len(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        item = self._items[i]
        if self.kind == "follow":
            return Play(self.seat, tuple(item.cards()))
        return item

    def __contains__(self, action) -> bool:
        if self._set is None:
            self._set = set(self)
        return action in self._set

    def __repr__(self) -> str:
        return f"Legal({self.kind}, seat {self.seat}, {len(self)} of {self.total})"


def lead_structures(game, seat: int) -> tuple:
    """Leads listed for ``seat``: single structures, plus whole-suit throws (see above)."""
    hand = game.hands[seat]
    eff, strength, rules = game._eff, game._str, game.rules
    max_w = rules.max_tuple
    by_suit: dict[int, list[int]] = {}
    for k in range(NUM_KINDS - 1, -1, -1):
        if hand[k]:
            by_suit.setdefault(eff[k], []).append(k)
    out: dict = {}
    for suit, kinds in by_suit.items():
        structures = []
        for k in kinds:
            for w in range(1, min(hand[k], max_w) + 1):
                structures.append((k,) * w)
        if rules.tractors:
            for w in range(rules.tractor_min_width, max_w + 1):
                structures.extend(_tractors(hand, kinds, strength, w, rules.tractor_min_length))
        for cards in structures:
            out.setdefault(Play(seat, cards), None)
        n_suit = sum(hand[k] for k in kinds)
        if rules.throws and n_suit > 1:
            whole = Play(seat, tuple(k for k in kinds for _ in range(hand[k])))
            if whole not in out:
                out[whole] = None
    return tuple(out)


def _tractors(hand, kinds, strength, w: int, min_len: int) -> list:
    """Every run of ≥ min_len w-tuples at consecutive strengths (one kind per strength)."""
    at: dict[int, list[int]] = {}
    for k in kinds:
        if hand[k] >= w:
            at.setdefault(strength[k], []).append(k)
    found = []
    levels = sorted(at)
    i = 0
    while i < len(levels):
        j = i
        while j + 1 < len(levels) and levels[j + 1] == levels[j] + 1:
            j += 1
        run = levels[i:j + 1]
        for a in range(len(run)):
            for b in range(a + min_len, len(run) + 1):
                for choice in product(*(at[s] for s in run[a:b])):
                    found.append(tuple(k for k in choice for _ in range(w)))
        i = j + 1
    return found
