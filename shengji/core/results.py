"""What the core's judgements return: follow verdicts (``FollowResult`` and its reasons),
decompositions of a lead (``Decomposition`` of ``Component``), lists of hands as the core
wrote them (``HandList``), legal follows and throw results. Their items are made when
first read.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, NamedTuple, Protocol

from ..cards import (
    MAX_DECKS,
    NUM_KINDS,
)
from .clib import ffi, lib
from .hands import _IDS_DESC, Hand, _hand

_COMPS_AT = ffi.offsetof("sj_lead", "comps")
_KINDS_AT = ffi.offsetof("sj_lead", "kinds")
_MAXCARDS = lib.SJ_MAXCARDS


class FollowReason:
    """Machine-readable reasons of ``check_follow`` (semantics §4)."""

    OK = "ok"
    NOT_IN_HAND = "not_in_hand"
    WRONG_COUNT = "wrong_count"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    MUST_FOLLOW_SHAPE = "must_follow_shape"


_REASONS = {
    lib.SJ_FOLLOW_OK: FollowReason.OK,
    lib.SJ_NOT_IN_HAND: FollowReason.NOT_IN_HAND,
    lib.SJ_WRONG_COUNT: FollowReason.WRONG_COUNT,
    lib.SJ_MUST_FOLLOW_SUIT: FollowReason.MUST_FOLLOW_SUIT,
    lib.SJ_MUST_FOLLOW_SHAPE: FollowReason.MUST_FOLLOW_SHAPE,
}


class FollowResult:
    """The verdict of ``Context.check_follow``: ``ok``, ``reason`` (a ``FollowReason``)
    and ``detail`` (a sentence naming the rule broken, "" when ok). It behaves as the
    named 3-tuple ``(ok, reason, detail)`` (unpacking, indexing, equality); a failure's
    ``detail`` is worked out when first read, so a caller that only wants the verdict
    never pays for the sentence."""

    __slots__ = ("ok", "reason", "_detail", "_why")
    _fields = ("ok", "reason", "detail")
    ok: bool
    reason: str
    _detail: str | None  # None until a failure's sentence is asked for
    _why: Any  # (context, prepared lead, hand, play) until that sentence is made

    def __init__(self, ok: bool, reason: str, detail: str = ""):
        self.ok = ok
        self.reason = reason
        self._detail = detail
        self._why = None

    @property
    def detail(self) -> str:
        d = self._detail
        if d is None:
            ctx, pl, hand, play = self._why
            d = self._detail = ctx._follow_detail(pl, hand, play)
            self._why = None
        return d

    def __iter__(self):
        return iter((self.ok, self.reason, self.detail))

    def __len__(self) -> int:
        return 3

    def __getitem__(self, i):
        return (self.ok, self.reason, self.detail)[i]

    def __eq__(self, other) -> bool:
        if isinstance(other, (FollowResult, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"FollowResult(ok={self.ok!r}, reason={self.reason!r}, detail={self.detail!r})"

    def _asdict(self) -> dict:
        return dict(zip(self._fields, self, strict=True))


_FOLLOW_OK = FollowResult(True, FollowReason.OK, "")
_NOT_IN_HAND = lib.SJ_NOT_IN_HAND
_COMPARE = {lib.SJ_HIGHER: "higher", lib.SJ_LOWER: "lower", lib.SJ_EQUAL: "equal",
            lib.SJ_UNRELATED: "unrelated"}


class Component(NamedTuple):
    """One structure of a decomposition: ``width`` cards per tuple, ``length`` tuples."""

    width: int
    length: int
    cards: Hand

    @property
    def shape(self) -> tuple[int, int]:
        return (self.width, self.length)


class _Judge(Protocol):
    """What a Decomposition asks of the Context that made it: its prepared rules and
    prepared leads (named by shape here, since context.py imports this module)."""

    _r: Any

    def _lead(self, lead: Hand) -> Any: ...


class Decomposition(Sequence):
    """The components of a lead, best first (what ``Context.decompose`` returns): a
    read-only sequence of ``Component`` that equals the list of them. Its length (the
    number of components) is known at once; the components are made on first access
    (the engine and bots mostly ask only whether a lead is one structure)."""

    __slots__ = ("_ctx", "_hand", "_n", "_items")
    _ctx: _Judge
    _hand: Hand
    _n: int
    _items: list[Any] | None

    def _list(self) -> list:
        items = self._items
        if items is None:
            ctx, hand, n = self._ctx, self._hand, self._n
            out = ffi.new("uint8_t[]", n)
            if hand._lctx is ctx:
                lib.sj_comp_ids(hand._lead, out, n)
            else:
                lib.sj_decompose_ids(ctx._r, hand._b, out, n)
            ids = ffi.buffer(out, n)[:]
            if 255 in ids:  # a tractor: built from the prepared lead
                items = _components(ctx._lead(hand), ids)
            elif n == 1:
                items = [_FLAT_COMPONENTS[ids[0]]]
            else:  # singles and tuples: look-ups in a shared table at C speed
                items = list(itemgetter(*ids)(_FLAT_COMPONENTS))
            self._items = items
        return items

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        return self._list()[i]

    def __iter__(self):
        return iter(self._list())

    def __eq__(self, other) -> bool:
        if isinstance(other, Decomposition):
            other = other._list()
        return self._list() == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return repr(self._list())

    def __reduce__(self):
        return (list, (self._list(),))


def _components(pl, ids: bytes) -> list:
    """The Components of a prepared lead whose components ``sj_comp_ids`` named ``ids``:
    singles and tuples from the shared table, tractors and rainbow rank groups built."""
    raw = ffi.buffer(pl)  # one view of the struct, sliced (cheaper than field access)
    comps = raw[_COMPS_AT : _COMPS_AT + 4 * len(ids)]  # (w, len, top, first) each
    kinds = raw[_KINDS_AT : _KINDS_AT + _MAXCARDS]
    if pl.esuit == lib.SJ_RAINBOW:
        # rank groups (semantics §3): width = that rank's cards, length 1, top = the rank
        counts = bytes(ffi.buffer(pl.counts))
        result = []
        for i in range(len(ids)):
            rank, c = comps[4 * i + 2], bytearray(NUM_KINDS)
            for s in range(4):
                c[s * 13 + rank] = counts[s * 13 + rank]
            result.append(Component(comps[4 * i], 1, _hand(bytes(c))))
        return result
    result = []
    for i, cid in enumerate(ids):
        if cid != 255:
            result.append(_FLAT_COMPONENTS[cid])
            continue
        w, ln, first = comps[4 * i], comps[4 * i + 1], comps[4 * i + 3]
        tractor = bytearray(NUM_KINDS)
        for k in kinds[first : first + ln]:
            tractor[k] = w
        result.append(Component(w, ln, _hand(bytes(tractor))))
    return result


def _tuple_components() -> tuple:
    """[w][kind] -> Component(w, 1, Hand of w copies): most components of a decomposition
    are singles and tuples, and sharing them (they are immutable) keeps decompose cheap."""
    table: list = [()]
    for w in range(1, MAX_DECKS + 1):
        row = []
        for k in range(NUM_KINDS):
            counts = [0] * NUM_KINDS
            counts[k] = w
            row.append(Component(w, 1, _hand(bytes(counts))))
        table.append(tuple(row))
    return tuple(table)


class LegalFollows(NamedTuple):
    plays: Sequence  # the follows as Hands (a HandList), at most ``limit``
    total: int  # the true number of legal follows (a lower bound when not ``exact``)
    #: False when counting every follow would pass the core's budget (semantics §5):
    #: the plays are legal, but fewer than ``limit`` may be listed and ``total`` is what
    #: the budget met
    exact: bool = True


class HandList(Sequence):
    """A read-only sequence of Hands kept as the core wrote them (54 counts each, one
    buffer); a Hand is made when an item is read, so a caller that picks one of many
    follows pays for one. Equal to the list of its Hands."""

    __slots__ = ("_raw", "_n")

    def __init__(self, raw: bytes):
        self._raw = raw
        self._n = len(raw) // NUM_KINDS

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if type(i) is not int:
            if isinstance(i, slice):
                return [self[j] for j in range(*i.indices(self._n))]
            i = operator.index(i)
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("HandList index out of range")
        return _hand(self._raw[i * NUM_KINDS : (i + 1) * NUM_KINDS])

    def __iter__(self):
        raw = self._raw
        return (_hand(raw[i : i + NUM_KINDS]) for i in range(0, len(raw), NUM_KINDS))

    def ids_at(self, i: int) -> tuple[int, ...]:
        """``self[i].ids_desc()`` without making the Hand (the engine's listings)."""
        if not 0 <= i < self._n:
            return self[i].ids_desc()  # negative indices, and the IndexError
        c = self._raw[i * NUM_KINDS : (i + 1) * NUM_KINDS]
        ids = _IDS_DESC.get(c)
        if ids is None:
            ids = _hand(c).ids_desc()
        return ids

    def __contains__(self, hand) -> bool:
        if type(hand) is not Hand:
            return False
        raw, b = self._raw, hand._b
        return any(raw[i : i + NUM_KINDS] == b for i in range(0, len(raw), NUM_KINDS))

    def __eq__(self, other) -> bool:
        if isinstance(other, HandList):
            return self._raw == other._raw
        return list(self) == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return f"HandList({list(self)!r})"

    def __reduce__(self):
        return (list, (list(self),))


class ThrowResult(NamedTuple):
    valid: bool
    forced: Hand | None
    forced_options: list  # list[Hand], smallest first; forced is the first
    blocker: int | None  # index into ``others`` of the first holding that beats it


_TUPLE_COMPONENTS = _tuple_components()
#: the same, flat: [(w - 1) * 54 + kind] (sj_comp_ids names components by this index)
_FLAT_COMPONENTS = tuple(c for row in _TUPLE_COMPONENTS[1:] for c in row)


def _joined(hands) -> bytes | None:
    """``_join(hands)`` when ``hands`` is a list or tuple of Hands, else None."""
    t = type(hands)
    if t is HandList:
        return hands._raw
    if t is list or t is tuple:
        try:
            b = b"".join([h._b for h in hands])
        except (AttributeError, TypeError):
            return None
        # 54 bytes per group: the C call reads exactly that many
        if len(b) == NUM_KINDS * len(hands):
            return b
    return None
