"""The legal actions offered to a seat (what a bot or a frontend chooses from).

``Legal`` is a read-only sequence of actions with a ``kind``:

- ``declare``: ``Pass`` first, then every ``Declare`` the variant's hooks accept now
  (homogeneous groups of level cards or jokers the seat holds).
- ``bury``: no listed actions (there are too many): bury any ``count`` cards of the hand,
  at most ``limit[1]`` of them of the kinds ``limit[0]`` when ``limit`` is set (the
  variant's ``bury`` settings: no point cards, no trumps, no called card by a thief).
- ``redeal``: ``Pass`` (keep the deal) or ``RequestRedeal`` (a weak hand asks for it to be
  dealt again; declare.weak_hand_redeal).
- ``lead``: every single structure the hand holds — each distinct single, each tuple
  (pair, triple, quad up to the variant's widest), each tractor (every run of consecutive
  tuples, in every length the variant allows) — plus, when throws exist, the whole of
  each effective suit that is more than one structure (not trumps where the variant
  refuses trump throws, ``play.trump_throws: false``). Other multi-structure leads are
  legal *attempts* too (``Game.can`` accepts any one-suit lead); they are just not listed.
- ``follow``: the core's legal follows (``Context.legal_follows``), enumerated up to
  ``FOLLOW_LIMIT``; ``total`` is the true count and ``truncated`` says the list is a
  prefix of it (every listed play is still legal). Follows that are the led suit held
  plus any other cards are listed all, lazily, up to ``sys.maxsize`` of them.
- ``choose``: one ``ChooseForced`` per forced-play option after a failed throw.
- ``none``: not this seat's turn.

Leads and follows are kept as tuples of card ids (or core ``Hand`` objects, or the kind id
of a single) and turned into ``Play`` actions only when read, so that long lists cost
little; ``Legal.cards()`` gives every play's card ids without making any action (a bot
that judges them all and takes one reads only that one as a ``Play``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, Protocol, overload

from ..cards import NUM_KINDS
from .actions import Action, Play

if TYPE_CHECKING:
    from ..rules import PlayRules

_TRUMP = 4  # the effective suit of trumps (docs/semantics.md §2)

_SINGLES = tuple((k,) for k in range(NUM_KINDS))
_SINGLE_PLAYS: dict[int, tuple[Play, ...]] = {}


def _single_play(seat: int, k: int) -> Play:
    """Play(seat, (k,)): actions are frozen, so one record per seat and card serves."""
    plays = _SINGLE_PLAYS.get(seat)
    if plays is None:
        plays = _SINGLE_PLAYS[seat] = tuple(Play.trusted(seat, c) for c in _SINGLES)
    return plays[k]


class Legal(Sequence[Action]):
    """The actions listed for a seat. Those read from it are remembered (``_given``,
    by identity): when one comes back to ``Game.apply`` while the game is still in the
    state it was listed for (``_stamp``), it is known legal and is not checked again."""

    __slots__ = ("kind", "seat", "_items", "_n", "total", "count", "limit", "_set", "_given",
                 "_stamp", "_play", "_ids_at")
    #: cards to bury or calls to pick (the protocol's ``count``). Its slot hides the
    #: ``Sequence.count`` method, which no caller of a listing uses
    count: int  # type: ignore[assignment]

    def __init__(self, kind: str, seat: int | None, items: Sequence[Any],
                 total: int | None = None, count: int = 0, stamp: int | None = None) -> None:
        self.kind = kind
        self.seat = seat
        self._items = items
        if type(items) is FillerFollows:
            # filler follows may outnumber what a Python sequence can count (len() would
            # raise OverflowError): the listing is then a prefix, like a truncated one
            size = items.size
            self._n = min(size, sys.maxsize)
        else:
            size = self._n = len(items)
        self.total = size if total is None else total
        self.count = count
        #: a burial's limit (variant key ``bury``): (kinds, most) — at most ``most`` of
        #: the cards of those kinds may be buried; None: any cards
        self.limit: tuple[tuple[int, ...], int] | None = None
        self._set: set[Action] | None = None
        self._given: dict[int, object] = {}  # id(action) → the action handed out
        self._stamp = stamp
        self._play = play = kind == "follow" or kind == "lead"
        # a core HandList hands out an item's card ids without making its Hand
        self._ids_at = getattr(items, "ids_at", None) if play else None

    @property
    def truncated(self) -> bool:
        return self.total > self._n

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Action]:
        # what Sequence's __iter__ yields (self[i] in order), without its IndexError probe
        return map(self.__getitem__, range(self._n))

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if type(i) is not int:
            if isinstance(i, slice):
                return [self[j] for j in range(*i.indices(len(self)))]
        # (a play listing always has a seat: ``seat`` None is for the empty "none" listing)
        item: Action
        if self._play:
            ids_at = self._ids_at
            if ids_at is not None:
                cards = ids_at(i)
            else:
                raw = self._items[i]
                t = type(raw)
                if t is int:  # a single: one shared, frozen Play per seat and card
                    item = _single_play(self.seat, raw)  # type: ignore[arg-type]
                    self._given[id(item)] = item
                    return item
                cards = raw if t is tuple else raw.ids_desc()  # else a core Hand
            item = Play.trusted(self.seat, cards)  # type: ignore[arg-type]
        else:
            item = self._items[i]
        self._given[id(item)] = item
        return item

    def cards(self) -> list[tuple[int, ...]]:
        """The card ids (a tuple, ids descending) of every listed play, in listing
        order, without making their ``Play`` actions: for a bot that judges every play
        and takes one (``self[i]``). Leads and follows only."""
        if not self._play:
            raise ValueError(f"a {self.kind} listing holds no plays")
        n = self._n
        ids_at = self._ids_at
        if ids_at is not None:
            return [ids_at(i) for i in range(n)]
        items = self._items
        if type(items) is FillerFollows:
            return [items[i] for i in range(n)]
        # tuples, kind ids of singles, or core Hands (as __getitem__ reads them)
        return [x if type(x) is tuple else _SINGLES[x] if type(x) is int else x.ids_desc()
                for x in items]

    def __contains__(self, action: object) -> bool:
        if isinstance(self._items, FillerFollows):
            return (isinstance(action, Play) and action.seat == self.seat
                    and self._items.holds(action.cards))
        if self._set is None:
            self._set = set(self)
        return action in self._set

    def __repr__(self) -> str:
        return f"Legal({self.kind}, seat {self.seat}, {len(self)} of {self.total})"

    def burial(self, order: Sequence[int]) -> tuple[int, ...]:
        """A burial: the first ``count`` cards of ``order`` (the hand's cards, those to
        bury first at the front) that keep to ``limit`` — a restricted card beyond the
        most allowed is passed over."""
        if self.limit is None:
            return tuple(order[:self.count])
        kinds, most = set(self.limit[0]), self.limit[1]
        out: list[int] = []
        for c in order:
            if len(out) == self.count:
                break
            if c in kinds:
                if not most:
                    continue
                most -= 1
            out.append(c)
        return tuple(out)

    def fits(self, cards: Sequence[int]) -> bool:
        """Does a burial of ``cards`` keep to ``limit``?"""
        return self.limit is None or sum(c in self.limit[0] for c in cards) <= self.limit[1]


class _Dealt(Protocol):
    """What ``lead_structures`` reads of a Game (game.py imports this module)."""

    hands: list[list[int]]
    rules: PlayRules
    _str: list[int]  # each kind's strength in the deal's order
    _suit_kinds: list[list[int]]  # each effective suit's kinds


def lead_structures(game: _Dealt, seat: int) -> tuple[tuple[int, ...], ...]:
    """Leads listed for ``seat`` as card tuples: single structures, plus whole-suit throws
    (see above)."""
    hand = game.hands[seat]
    strength, rules = game._str, game.rules
    max_w = rules.max_tuple
    assert max_w is not None  # PlayRules.__post_init__ fills it in
    tractors = rules.tractors and max_w >= rules.tractor_min_width
    out: dict[tuple[int, ...], None] = {}  # (an ordered set)
    for suit, suit_kinds in enumerate(game._suit_kinds):
        kinds = [k for k in suit_kinds if hand[k]]
        if not kinds:
            continue
        n_suit = 0
        widest = 0
        for k in kinds:
            n = hand[k]
            n_suit += n
            out[(k,)] = None
            if n > 1 and max_w > 1:
                widest = max(widest, n)
                for w in range(2, min(n, max_w) + 1):
                    out[(k,) * w] = None
        if tractors and widest >= rules.tractor_min_width:
            for w in range(rules.tractor_min_width, min(widest, max_w) + 1):
                for cards in _tractors(hand, kinds, strength, w, rules.tractor_min_length):
                    out.setdefault(tuple(sorted(cards, reverse=True)), None)
        if rules.throws and n_suit > 1 and (len(kinds) > 1 or n_suit > max_w) \
                and (rules.trump_throws or suit != _TRUMP):
            whole = []
            for k in kinds:
                whole += [k] * hand[k]
            out.setdefault(tuple(whole), None)
    return tuple(out)


def _tractors(hand: Sequence[int], kinds: Sequence[int], strength: Sequence[int], w: int,
              min_len: int) -> list[tuple[int, ...]]:
    """Every run of ≥ min_len w-tuples at consecutive strengths (one kind per strength)."""
    at: dict[int, list[int]] = {}
    for k in kinds:
        if hand[k] >= w:
            at.setdefault(strength[k], []).append(k)
    found: list[tuple[int, ...]] = []
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


class FillerFollows(Sequence[tuple[int, ...]]):
    """Follows when a seat holds fewer cards of the led suit than were led: all of those
    (``base``) plus any ``r`` of its other cards. Every such play is legal (semantics §4
    step 2), so they are enumerated lazily by unranking multiset combinations: exact,
    complete, and cheap however many there are."""

    __slots__ = ("base", "kinds", "caps", "r", "_ways")

    def __init__(self, base: tuple[int, ...], pool: list[int], r: int) -> None:
        self.base = base
        self.kinds = [k for k in range(NUM_KINDS) if pool[k]]
        self.caps = [pool[k] for k in self.kinds]
        self.r = r
        # ways[i][j]: multisets of size j from kinds[i:]
        n = len(self.kinds)
        ways = [[0] * (r + 1) for _ in range(n + 1)]
        ways[n][0] = 1
        for i in range(n - 1, -1, -1):
            nxt, cap = ways[i + 1], self.caps[i]
            # ways[i][j] = nxt[j] + nxt[j-1] + ... + nxt[j-cap]: a sliding sum
            row: list[int] = []
            acc = 0
            for j in range(r + 1):
                acc += nxt[j]
                if j > cap:
                    acc -= nxt[j - cap - 1]
                row.append(acc)
            ways[i] = row
        self._ways = ways

    @property
    def size(self) -> int:
        """How many follows there are (exact, however large)."""
        return self._ways[0][self.r]

    def __len__(self) -> int:
        return self._ways[0][self.r]  # OverflowError past sys.maxsize, as len() of any sequence

    def holds(self, cards: tuple[int, ...]) -> bool:
        """Is this play (card ids) one of the follows?"""
        rest = list(cards)
        for c in self.base:
            if c not in rest:
                return False
            rest.remove(c)
        if len(rest) != self.r:
            return False
        return all(rest.count(k) <= self.caps[self.kinds.index(k)] if k in self.kinds else False
                   for k in set(rest))

    @overload
    def __getitem__(self, idx: int) -> tuple[int, ...]: ...
    @overload
    def __getitem__(self, idx: slice) -> list[tuple[int, ...]]: ...

    def __getitem__(self, idx: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        size = self._ways[0][self.r]
        if isinstance(idx, slice):
            return [self[i] for i in range(*idx.indices(size))]
        if idx < 0:
            idx += size
        if not 0 <= idx < size:
            raise IndexError(idx)
        out = list(self.base)
        j = self.r
        ways, caps = self._ways, self.caps
        nxt = ways[0]
        i = 0
        for k in self.kinds:  # (locals only: bots read thousands of these per deal)
            row, nxt = nxt, ways[i + 1]
            # ways[i][j] - ways[i+1][j] plays hold at least one k; they come first
            with_k = row[j] - nxt[j]
            if idx >= with_k:  # none of k (the commonest case: one comparison)
                idx -= with_k
            else:
                for m in range(min(caps[i], j), 0, -1):  # more copies first
                    w = nxt[j - m]
                    if idx < w:
                        out += [k] * m
                        j -= m
                        break
                    idx -= w
                if j == 0:
                    break
            i += 1
        out.sort(reverse=True)
        return tuple(out)
