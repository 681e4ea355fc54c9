"""Hands and card parsing: ``Hand`` (an immutable multiset of cards kept as 54 counts in
a ``bytes``, which the C functions read in place), the conversions of what callers pass
(card text, ids, counts) with errors naming the argument, and bounded caches of the
cards of recent hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Union

from ..cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    MAX_DECKS,
    NUM_KINDS,
    card_str,
    check_decks,
    format_counts,
    kind,
    parse_cards,
)
from ..errors import CardError, HandError
from ..memo import remember
from .clib import ffi

#: what every card argument of the core accepts: a Hand, card text ("HA HA HK"), or an
#: iterable of card tokens or of kind ids
Cards = Union["Hand", str, Iterable[str], Iterable[int]]

#: highest first: jokers, then S H C D from A down (the order of ``format_counts``)
_DISPLAY_ORDER = (BIG_JOKER, LITTLE_JOKER) + tuple(
    kind(s, r) for s in range(4) for r in reversed(range(13))
)




def _check_decks(decks: object) -> None:
    if decks is not None and (type(decks) is not int or not 1 <= decks <= MAX_DECKS):
        try:
            check_decks(decks)
        except CardError as exc:
            raise HandError(str(exc)) from None


def _check_counts(counts: Sequence[int], decks: int | None, what: str) -> None:
    limit = MAX_DECKS if decks is None else decks
    for k, n in enumerate(counts):
        if n > limit:
            if decks is None:
                raise HandError(
                    f"{what}: {n} copies of {card_str(k)} but at most {MAX_DECKS} decks are played"
                )
            raise HandError(
                f"{what}: {n} copies of {card_str(k)} but {decks} deck(s) hold only {decks}"
            )


class Hand:
    """An immutable multiset of cards, kept as 54 counts in a ``bytes`` (which the C
    functions read in place as their ``const uint8_t *``: no copy, no buffer per call).

    ``Hand("HA HA HK")``, ``Hand(["HA", "HK"])``, ``Hand([38, 38])``; ``decks`` bounds the
    copies of each card (default: the most any game uses, 4).
    """

    # _lead/_lctx: the prepared sj_lead of this hand as a lead, and the Context it was
    # made under; _len: the card count, -1 until asked
    __slots__ = ("_b", "_lead", "_lctx", "_len")
    _b: bytes
    _lead: Any
    _lctx: Any
    _len: int

    def __init__(self, cards: str | Iterable[str] | Iterable[int] = (),
                 decks: int | None = None) -> None:
        if decks is not None:
            _check_decks(decks)
        if type(cards) is str:
            b = _TEXT_COUNTS.get(cards)
            if b is None:
                b = _text_counts(cards)
        elif isinstance(cards, Hand):
            b = cards._b
        else:
            b = _counts_bytes(parse_cards(cards))
        if decks is not None and max(b) > decks:
            _check_counts(b, decks, "cards")
        self._b = b
        self._lead = self._lctx = None
        self._len = -1

    @classmethod
    def from_counts(cls, counts: Iterable[int], decks: int | None = None) -> Hand:
        if decks is not None:
            _check_decks(decks)
        t = type(counts)
        if (t is tuple or t is list) and len(counts) == NUM_KINDS and _INTS == set(  # type: ignore[arg-type]  # noqa: E501
            map(type, counts)
        ) and min(counts) >= 0 and max(counts) <= (MAX_DECKS if decks is None else decks):
            b = bytes(counts)  # the common case: 54 ints in range, checked at C speed
        else:
            b = _checked_counts(counts, decks)
        h = _new(cls)
        h._b = b
        h._lead = h._lctx = None
        h._len = -1
        return h

    # no __getattr__ here: a class with one loses CPython's fast attribute reads, and
    # every hot path reads a Hand's slots

    @property
    def _buf(self) -> Any:
        """A C view of the counts, for callers of ``lib`` functions (the core's entry
        points take the bytes directly)."""
        return ffi.from_buffer("uint8_t[]", self._b)

    @classmethod
    def _trusted(cls, counts: Iterable[int]) -> Hand:
        """From counts the core produced (already valid)."""
        return _hand(bytes(counts))

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(self._b)

    def cards(self) -> list[int]:
        """Kind ids, highest first (jokers, then ♠ ♥ ♣ ♦ from A down), with repeats."""
        c = self._b
        ids = _IDS_DISPLAY.get(c)
        if ids is None:  # plays recur (a failed throw's forced play): remembered (bounded)
            ids = _IDS_DISPLAY_OLD.get(c)
            if ids is None:
                ids = tuple([k for k in _DISPLAY_ORDER if c[k] for _ in range(c[k])])
            remember(_IDS_DISPLAY, _IDS_DISPLAY_OLD, IDS_DESC_SIZE, c, ids)
        return list(ids)

    def ids_desc(self) -> tuple[int, ...]:
        """Kind ids, highest id first, with repeats (the order of an action's cards)."""
        c = self._b
        ids = _IDS_DESC.get(c)
        if ids is None:  # plays recur: remembered (bounded, see IDS_DESC_SIZE)
            ids = _IDS_OLD.get(c)
            if ids is None:
                ids = tuple([k for k in _DESC_IDS if c[k] for _ in range(c[k])])
            remember(_IDS_DESC, _IDS_OLD, IDS_DESC_SIZE, c, ids)
        return ids

    def __len__(self) -> int:
        n = self._len
        if n < 0:
            n = self._len = sum(self._b)
        return n

    def __iter__(self) -> Iterator[int]:
        return iter(self.cards())

    def __add__(self, other: Hand | str | Iterable[str] | Iterable[int]) -> Hand:
        other = as_hand(other)
        counts = tuple(a + b for a, b in zip(self._b, other._b, strict=True))
        _check_counts(counts, None, "cards")
        return Hand.from_counts(counts)

    def __sub__(self, other: Hand | str | Iterable[str] | Iterable[int]) -> Hand:
        other = as_hand(other)
        for k, (a, b) in enumerate(zip(self._b, other._b, strict=True)):
            if b > a:
                raise HandError(f"cards: {card_str(k)} is not in the hand ({a} held, {b} taken)")
        return Hand.from_counts(tuple(a - b for a, b in zip(self._b, other._b, strict=True)))

    def __le__(self, other: Hand | str | Iterable[str] | Iterable[int]) -> bool:
        other = as_hand(other)
        return all(a <= b for a, b in zip(self._b, other._b, strict=True))

    def __contains__(self, other: object) -> bool:
        if isinstance(other, (int, str)) and not isinstance(other, bool):
            other = Hand([other] if isinstance(other, int) else [other])
        return as_hand(other) <= self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hand):
            return self._b == other._b
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._b)

    def __str__(self) -> str:
        return format_counts(self._b)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def __reduce__(self) -> tuple[Any, tuple[tuple[int, ...]]]:
        return (Hand.from_counts, (self.counts,))


_new = object.__new__
_INTS = {int}
_DESC_IDS = range(NUM_KINDS - 1, -1, -1)
#: ``ids_desc`` of recent card groups, by counts. A deal lists a few hundred distinct
#: plays (two decks ~260, three ~430, heuristic bots); 65,536 entries used to hold
#: ~20 MB. Two generations of this size (``shengji.memo``): at most ~2 MB, and the
#: plays that recur across deals are still found (fewer rebuilt than with 2,048).
IDS_DESC_SIZE = 4096
_IDS_DESC: dict[bytes, tuple[int, ...]] = {}
_IDS_OLD: dict[bytes, tuple[int, ...]] = {}
#: counts -> Hand.cards(), as a tuple; as bounded as _IDS_DESC
_IDS_DISPLAY: dict[bytes, tuple[int, ...]] = {}
_IDS_DISPLAY_OLD: dict[bytes, tuple[int, ...]] = {}


def _hand(b: bytes) -> Hand:
    """A Hand of 54 valid counts (bytes) the core or the engine produced: no checks."""
    h = _new(Hand)
    h._b = b
    h._lead = h._lctx = None
    h._len = -1
    return h


#: counts of parsed group texts (bounded: cleared when full)
_TEXT_COUNTS: dict[str, bytes] = {}
_TEXT_CACHE = 4096


def _counts_bytes(ids: Sequence[int]) -> bytes:
    c = [0] * NUM_KINDS
    for k in ids:
        c[k] += 1
    if ids and max(c) > MAX_DECKS:
        _check_counts(c, None, "cards")
    return bytes(c)


def _text_counts(text: str) -> bytes:
    b = _counts_bytes(parse_cards(text))
    if len(_TEXT_COUNTS) >= _TEXT_CACHE:
        _TEXT_COUNTS.clear()
    _TEXT_COUNTS[text] = b
    return b


def _checked_counts(counts: Any, decks: int | None) -> bytes:
    """The slow path of ``Hand.from_counts``: every check, with the message naming what
    is wrong."""
    if isinstance(counts, (str, bytes, dict)) or not isinstance(counts, Iterable):
        raise HandError(f"counts: expected {NUM_KINDS} card counts, got {type(counts).__name__}")
    counts = tuple(counts)
    if len(counts) != NUM_KINDS:
        raise HandError(f"counts: {len(counts)} values, expected {NUM_KINDS} (one per card kind)")
    for k, n in enumerate(counts):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise HandError(f"counts: {n!r} for {card_str(k)} is not a card count")
    _check_counts(counts, decks, "counts")
    return bytes(int(n) for n in counts)




def as_hand(x: Any, what: str = "cards") -> Hand:
    """A ``Hand`` as it is, anything ``Hand()`` accepts converted (errors name ``what``)."""
    return x if type(x) is Hand else _to_hand(x, what)


def _to_hand(x: Any, what: str) -> Hand:
    try:
        return Hand(x)
    except (CardError, HandError) as exc:
        if what == "cards":
            raise
        msg = str(exc)
        msg = what + msg[5:] if msg.startswith("cards:") else f"{what}: {msg}"
        raise type(exc)(msg) from None


def _groups(groups: Any, what: str) -> Iterable[Any]:
    """A list of card groups (``others``, ``plays``), checked to be one."""
    if isinstance(groups, (str, bytes, bytearray, dict)) or not isinstance(groups, Iterable):
        raise HandError(
            f"{what}: expected a list of card groups, got {type(groups).__name__} {groups!r:.40}"
        )
    return groups


def _join(hands: Iterable[Hand]) -> bytes:
    """The counts of ``hands`` (Hands) one after another, as one buffer."""
    return b"".join([h._b for h in hands])


_IS_ZERO = (0).__eq__


def _hand_list(groups: Any, what: str) -> list[Hand]:
    """A list of Hands from a list of card groups (errors name ``what[i]``)."""
    return [g if type(g) is Hand else _to_hand(g, f"{what}[{i}]")
            for i, g in enumerate(_groups(groups, what))]
