"""Python face of the C rules core (docs/semantics.md §10).

This is the only module that imports the compiled ``ffi, lib``. It turns cards into
54-count buffers (``Hand`` keeps one), builds the C rules struct once per
(PlayRules, level, trump) (``Context``), and turns the core's error codes into
``CardError`` / ``HandError`` / ``RulesError`` with messages that name the card and the
rule. Hot paths (``check_follow`` with prepared ``Hand``s) allocate nothing: the lead's
decomposition is cached on the lead ``Hand``, and error details are only fetched, with a
second call, when something is wrong.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from hashlib import sha512
from operator import itemgetter
from typing import NamedTuple

from .cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    MAX_DECKS,
    NO_TRUMP_LEVEL,
    NUM_KINDS,
    SUITS,
    card_str,
    check_decks,
    format_counts,
    kind,
    parse_cards,
    parse_level,
    parse_suit,
)
from .errors import CardError, HandError, RulesError, ShengjiError
from .memo import remember
from .rules import (
    BOMBS,
    FAILED_THROW,
    FOLLOW_PROTECTIONS,
    KITTY_POLICIES,
    RUFF_COMPARE,
    PlayRules,
    pattern_str,
    shape_str,
)

try:
    from shengji._core import ffi, lib
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "shengji's C core (shengji._core) is not built: run `pip install .` "
        "(or `pip install -e .`) in the shengji source tree to compile it"
    ) from exc

__all__ = [
    "Context",
    "Hand",
    "Component",
    "Decomposition",
    "FollowResult",
    "FollowReason",
    "LegalFollows",
    "HandList",
    "ThrowResult",
]

_NULL = ffi.NULL
# the hot calls take only the arguments that vary (core_c/batch.c): each argument
# crossing into C costs about 15 ns
_c_follow_code = lib.sj_follow_code
_c_decompose54 = lib.sj_decompose54
_c_winner_code = lib.sj_winner_code
_c_ncomp = lib.sj_ncomp
_new_lead = ffi.new_allocator(should_clear_after_alloc=False)
_COMPS_AT = ffi.offsetof("sj_lead", "comps")
_KINDS_AT = ffi.offsetof("sj_lead", "kinds")
_MAXCARDS = lib.SJ_MAXCARDS

#: highest first: jokers, then S H C D from A down (the order of ``format_counts``)
_DISPLAY_ORDER = (BIG_JOKER, LITTLE_JOKER) + tuple(
    kind(s, r) for s in range(4) for r in reversed(range(13))
)


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


class Decomposition(Sequence):
    """The components of a lead, best first (what ``Context.decompose`` returns): a
    read-only sequence of ``Component`` that equals the list of them. Its length (the
    number of components) is known at once; the components are made on first access
    (the engine and bots mostly ask only whether a lead is one structure)."""

    __slots__ = ("_ctx", "_hand", "_n", "_items")

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
    for i, c in enumerate(ids):
        if c != 255:
            result.append(_FLAT_COMPONENTS[c])
            continue
        w, ln, first = comps[4 * i], comps[4 * i + 1], comps[4 * i + 3]
        counts = bytearray(NUM_KINDS)
        for k in kinds[first : first + ln]:
            counts[k] = w
        result.append(Component(w, ln, _hand(bytes(counts))))
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


# ------------------------------------------------------------------------------- Hand


def _check_decks(decks) -> None:
    if decks is not None and (type(decks) is not int or not 1 <= decks <= MAX_DECKS):
        try:
            check_decks(decks)
        except CardError as exc:
            raise HandError(str(exc)) from None


def _check_counts(counts: tuple[int, ...], decks: int | None, what: str) -> None:
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

    def __init__(self, cards: str | Iterable = (), decks: int | None = None):
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
        if (t is tuple or t is list) and len(counts) == NUM_KINDS and _INTS == set(
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
    def _buf(self):
        """A C view of the counts, for callers of ``lib`` functions (the core's entry
        points take the bytes directly)."""
        return ffi.from_buffer("uint8_t[]", self._b)

    @classmethod
    def _trusted(cls, counts) -> Hand:
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

    def __iter__(self):
        return iter(self.cards())

    def __add__(self, other) -> Hand:
        other = as_hand(other)
        counts = tuple(a + b for a, b in zip(self._b, other._b, strict=True))
        _check_counts(counts, None, "cards")
        return Hand.from_counts(counts)

    def __sub__(self, other) -> Hand:
        other = as_hand(other)
        for k, (a, b) in enumerate(zip(self._b, other._b, strict=True)):
            if b > a:
                raise HandError(f"cards: {card_str(k)} is not in the hand ({a} held, {b} taken)")
        return Hand.from_counts(tuple(a - b for a, b in zip(self._b, other._b, strict=True)))

    def __le__(self, other) -> bool:
        other = as_hand(other)
        return all(a <= b for a, b in zip(self._b, other._b, strict=True))

    def __contains__(self, other) -> bool:
        if isinstance(other, (int, str)) and not isinstance(other, bool):
            other = Hand([other])
        return as_hand(other) <= self

    def __eq__(self, other) -> bool:
        if isinstance(other, Hand):
            return self._b == other._b
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._b)

    def __str__(self) -> str:
        return format_counts(self._b)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def __reduce__(self):
        return (Hand.from_counts, (self.counts,))


_new = object.__new__
_INTS = {int}
_DESC_IDS = range(NUM_KINDS - 1, -1, -1)
#: ``ids_desc`` of recent card groups, by counts. A deal lists a few hundred distinct
#: plays (two decks ~260, three ~430, heuristic bots); 65,536 entries used to hold
#: ~20 MB. Two generations of this size (``shengji.memo``): at most ~2 MB, and the
#: plays that recur across deals are still found (fewer rebuilt than with 2,048).
IDS_DESC_SIZE = 4096
_IDS_DESC: dict = {}
_IDS_OLD: dict = {}
_IDS_DISPLAY: dict = {}  # counts -> Hand.cards(), as a tuple; as bounded as _IDS_DESC
_IDS_DISPLAY_OLD: dict = {}


def _hand(b: bytes) -> Hand:
    """A Hand of 54 valid counts (bytes) the core or the engine produced: no checks."""
    h = _new(Hand)
    h._b = b
    h._lead = h._lctx = None
    h._len = -1
    return h


#: counts of parsed group texts (bounded: cleared when full)
_TEXT_COUNTS: dict = {}
_TEXT_CACHE = 4096


def _counts_bytes(ids) -> bytes:
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


def _checked_counts(counts, decks: int | None) -> bytes:
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


_TUPLE_COMPONENTS = _tuple_components()
#: the same, flat: [(w - 1) * 54 + kind] (sj_comp_ids names components by this index)
_FLAT_COMPONENTS = tuple(c for row in _TUPLE_COMPONENTS[1:] for c in row)


def as_hand(x, what: str = "cards") -> Hand:
    """A ``Hand`` as it is, anything ``Hand()`` accepts converted (errors name ``what``)."""
    return x if type(x) is Hand else _to_hand(x, what)


def _to_hand(x, what: str) -> Hand:
    try:
        return Hand(x)
    except (CardError, HandError) as exc:
        if what == "cards":
            raise
        msg = str(exc)
        msg = what + msg[5:] if msg.startswith("cards:") else f"{what}: {msg}"
        raise type(exc)(msg) from None


def _groups(groups, what: str) -> Iterable:
    """A list of card groups (``others``, ``plays``), checked to be one."""
    if isinstance(groups, (str, bytes, bytearray, dict)) or not isinstance(groups, Iterable):
        raise HandError(
            f"{what}: expected a list of card groups, got {type(groups).__name__} {groups!r:.40}"
        )
    return groups


def _join(hands) -> bytes:
    """The counts of ``hands`` (Hands) one after another, as one buffer."""
    return b"".join([h._b for h in hands])


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


_IS_ZERO = (0).__eq__


def _hand_list(groups, what: str) -> list:
    """A list of Hands from a list of card groups (errors name ``what[i]``)."""
    return [g if type(g) is Hand else _to_hand(g, f"{what}[{i}]")
            for i, g in enumerate(_groups(groups, what))]


# ---------------------------------------------------------------------------- Context

_SUIT_NAMES = tuple(SUITS) + ("trump", "rainbow")
#: prepared contexts kept (a match uses a few dozen; fuzzing makes thousands)
_CONTEXT_CACHE = 2048
_ARG_NAMES = {
    lib.SJ_ARG_LEAD: "lead",
    lib.SJ_ARG_HAND: "hand",
    lib.SJ_ARG_PLAY: "play",
    lib.SJ_ARG_OTHERS: "others",
    lib.SJ_ARG_PLAYS: "plays",
    lib.SJ_ARG_RULES: "rules",
}
_RULE_FIELDS = {
    1: "decks", 2: "level", 3: "trump", 4: "max_tuple", 5: "tractors",
    6: "tractor_min_width", 7: "tractor_min_length", 8: "tractor_bridges_level_gap",
    9: "follow_protection", 10: "constant_ranks", 11: "ruff_compare", 12: "failed_throw",
    13: "kitty", 14: "kitty_cap", 15: "kitty_table", 16: "following", 17: "following",
    18: "shorter_tractors", 19: "bombs", 20: "rainbow_min", 21: "copies",
}  # fmt: skip


def _hold_only(rules: PlayRules, k: int) -> str:
    """'2 deck(s) hold only 2', or what the packs hold of kind k when that differs."""
    c = rules.copies[k] if 0 <= k < NUM_KINDS else rules.decks
    if c == rules.decks:
        return f"{rules.decks} deck(s) hold only {rules.decks}"
    return f"the packs hold only {c} (the variant's deck composition)"


def _parse_level(level) -> int:
    """A rank index 0..12, or 13 / "NT": the no-trump level above A, which has no level
    cards (only the jokers and constant ranks are trumps besides a trump suit)."""
    if isinstance(level, bool):
        raise RulesError(f"level: {level!r} is not a rank")
    if isinstance(level, int):
        if not 0 <= level <= NO_TRUMP_LEVEL:
            raise RulesError(f"level: rank index {level} out of range 0..12 ('2'..'A'), "
                             f"or {NO_TRUMP_LEVEL} (NT)")
        return level
    return parse_level(level)


def _parse_trump(trump) -> int | None:
    if trump is None:
        return None
    if isinstance(trump, bool):
        raise RulesError(f"trump: {trump!r} is not a suit")
    if isinstance(trump, int):
        if not 0 <= trump <= 3:
            raise RulesError(f"trump: suit index {trump} out of range 0..3 (S H C D)")
        return trump
    if str(trump).strip().lower() in ("none", "nt", "no trump", "notrump", ""):
        return None
    return parse_suit(trump)


def _fill_shape(dst, shape) -> None:
    dst.w, dst.len = shape


def _build_rules(rules: PlayRules, level: int, trump: int | None):
    r = ffi.new("sj_rules *")
    r.decks = rules.decks
    r.level = level
    r.trump = -1 if trump is None else trump
    r.max_tuple = rules.max_tuple
    r.tractors = int(bool(rules.tractors))
    r.tractor_min_width = rules.tractor_min_width
    r.tractor_min_length = rules.tractor_min_length
    r.bridge = int(bool(rules.tractor_bridges_level_gap))
    r.protection = FOLLOW_PROTECTIONS.index(rules.follow_protection)
    r.shorter_tractors = int(rules.shorter_tractors)
    r.bombs = BOMBS.index(rules.bombs)
    r.rainbow_min = rules.rainbow_min
    r.copies = list(rules.copies)
    r.constant_mask = sum(1 << c for c in rules.constant_ranks)
    r.ruff_compare = RUFF_COMPARE.index(rules.ruff_compare)
    r.failed_throw = FAILED_THROW.index(rules.failed_throw)
    r.kitty = KITTY_POLICIES.index(rules.kitty)
    r.kitty_cap = min(rules.kitty_cap, 2**31 - 1)
    r.kitty_table = [min(int(v), 2**31 - 1) for v in rules.kitty_table]
    if len(rules.following) > lib.SJ_MAX_LADDERS:
        raise RulesError(
            f"following: {len(rules.following)} ladders, "
            f"the core takes at most {lib.SJ_MAX_LADDERS}"
        )
    r.n_ladders = len(rules.following)
    for i, (lead, ladder) in enumerate(rules.following):
        if len(ladder) > lib.SJ_LADDER_PATS:
            raise RulesError(
                f"following: ladder for {shape_str(lead)} has {len(ladder)} patterns, "
                f"the core takes at most {lib.SJ_LADDER_PATS}"
            )
        ld = r.ladders[i]
        _fill_shape(ld.lead, lead)
        ld.n_patterns = len(ladder)
        for p, pattern in enumerate(ladder):
            if len(pattern) > lib.SJ_PAT_SHAPES:
                raise RulesError(f"following: pattern {pattern_str(pattern)} is too long")
            ld.patterns[p].n_shapes = len(pattern)
            for j, shape in enumerate(pattern):
                _fill_shape(ld.patterns[p].shapes[j], shape)
    err = ffi.new("sj_err *")
    rc = lib.sj_prepare(r, err)
    if rc != lib.SJ_OK:
        field = _RULE_FIELDS.get(err.a, "rules")
        raise RulesError(f"{field}: value rejected by the rules core (out of range)")
    return r


class Context:
    """The rules of one deal: (PlayRules, level rank, trump suit or None). Prepared once
    (the C struct is built and cached per key); frozen and hashable."""

    __slots__ = ("rules", "level", "trump", "_key", "_hash", "_r", "_esuit", "_strength",
                 "_frozen")
    _cache: dict = {}

    def __new__(cls, rules: PlayRules, level: int | str, trump: int | str | None = None):
        if not isinstance(rules, PlayRules):
            raise RulesError(f"rules: expected a PlayRules, got {type(rules).__name__}")
        lv, tr = _parse_level(level), _parse_trump(trump)
        key = (rules, lv, tr)
        ctx = cls._cache.get(key)
        if ctx is not None:
            return ctx
        ctx = object.__new__(cls)
        r = _build_rules(rules, lv, tr)
        if len(cls._cache) >= _CONTEXT_CACHE:
            # each prepared struct is ~50 kB: forget the oldest rather than grow forever
            del cls._cache[next(iter(cls._cache))]
        for name, value in (
            ("rules", rules),
            ("level", lv),
            ("trump", tr),
            ("_key", key),
            ("_hash", hash(key)),  # PlayRules hash field by field: once, not per look-up
            ("_r", r),
            ("_esuit", tuple(r.esuit[0:NUM_KINDS])),
            ("_strength", tuple(r.strength[0:NUM_KINDS])),
            ("_frozen", True),
        ):
            object.__setattr__(ctx, name, value)
        cls._cache[key] = ctx
        return ctx

    def __init__(self, *args, **kwargs):  # everything happens in __new__ (cached)
        pass

    def __setattr__(self, name, value):
        raise AttributeError("Context is frozen")

    def __eq__(self, other) -> bool:
        return isinstance(other, Context) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        trump = "none" if self.trump is None else SUITS[self.trump]
        return f"Context(level={card_str(self.level)[1:]}, trump={trump}, rules={self.rules!r})"

    def __reduce__(self):
        return (Context, (self.rules, self.level, self.trump))

    # ---------------------------------------------------------------- errors

    def _raise(self, err, hands=None) -> None:
        """Turn a filled sj_err into the typed error (hands: the Python groups named)."""
        code = err.code
        what = _ARG_NAMES.get(err.which, "cards")
        if err.index >= 0 and err.which in (lib.SJ_ARG_OTHERS, lib.SJ_ARG_PLAYS):
            what = f"{what}[{err.index}]"
        card = card_str(err.card) if 0 <= err.card < NUM_KINDS else None
        if code == lib.SJ_ERR_COPIES:
            raise HandError(
                f"{what}: {err.count} copies of {card} but {_hold_only(self.rules, err.card)}"
            )
        if code == lib.SJ_ERR_EMPTY:
            raise HandError(f"{what}: empty lead (a lead needs at least one card)")
        if code == lib.SJ_ERR_MIXED:
            a, b = _SUIT_NAMES[err.a], _SUIT_NAMES[err.b]
            raise HandError(
                f"{what}: cards of two suits ({a} and {b}, e.g. {card}) cannot be led together: "
                "a lead is of one suit, all trumps counting as one suit"
            )
        if code == lib.SJ_ERR_SIZE:
            raise HandError(
                f"{what}: {err.count} cards but the lead has {err.a}: every play of a trick has "
                "as many cards as the lead"
            )
        if code == lib.SJ_ERR_NOT_IN_HAND:
            raise HandError(f"{what}: {card} is not in the hand")
        if code == lib.SJ_ERR_KIND:
            raise CardError(f"{what}: not a card id (expected 0..53)")
        if code == lib.SJ_ERR_LIMIT:
            raise ShengjiError(f"{what}: the rules core's search budget was exhausted")
        if code == lib.SJ_ERR_RULES:
            raise RulesError(f"{_RULE_FIELDS.get(err.a, 'rules')}: rejected by the rules core")
        raise ShengjiError(f"{what}: rules core error {code}")

    def _call_failed(self, fn, *args) -> None:
        """Re-run a failed call with an error struct to learn what was wrong."""
        err = ffi.new("sj_err *")
        fn(*args, err)
        self._raise(err)

    def _lead(self, lead: Hand):
        """The prepared decomposition of a lead, cached on the lead Hand."""
        if lead._lctx is self:
            return lead._lead
        pl = _new_lead("sj_lead *")  # sj_decompose clears it itself
        if _c_decompose54(self._r, lead._b, pl) < 0:
            self._call_failed(lib.sj_decompose, self._r, lead._b, NUM_KINDS, pl)
        lead._lead = pl
        lead._lctx = self
        return pl

    # ---------------------------------------------------------------- single cards

    def _card(self, card) -> int:
        if isinstance(card, int) and not isinstance(card, bool):
            if not 0 <= card < NUM_KINDS:
                raise CardError(f"not a card id: {card!r} (expected 0..53)")
            return card
        ids = parse_cards([card]) if isinstance(card, str) else parse_cards(card)
        if len(ids) != 1:
            raise CardError(f"expected one card, got {card!r}")
        return ids[0]

    def effective_suit(self, card) -> int:
        """0..3 for a plain suit, 4 for trumps."""
        return self._esuit[self._card(card)]

    def is_trump(self, card) -> bool:
        return self._esuit[self._card(card)] == 4

    def strength(self, card) -> int:
        """Comparable only within one effective suit (semantics §2)."""
        return self._strength[self._card(card)]

    def compare(self, a, b) -> str:
        """``a`` led first, then ``b``: "higher" (a stays ahead), "lower", "equal" (a,
        first played, stays ahead) or "unrelated" (two different plain suits)."""
        return _COMPARE[lib.sj_compare(self._r, self._card(a), self._card(b))]

    # ---------------------------------------------------------------- structures

    def decompose(self, cards) -> Decomposition:
        """Components of a lead, best first (semantics §3): a ``Decomposition``, the list
        of ``Component``s made when first read (its ``len`` needs none of them)."""
        lead = cards if type(cards) is Hand else _to_hand(cards, "lead")
        if lead._lctx is self:
            n = lead._lead.ncomp
        else:
            n = _c_ncomp(self._r, lead._b)
            if n < 0:
                pl = _new_lead("sj_lead *")
                self._call_failed(lib.sj_decompose, self._r, lead._b, NUM_KINDS, pl)
        d = _new(Decomposition)
        d._ctx = self
        d._hand = lead
        d._n = n
        d._items = None
        return d

    def is_rainbow(self, cards) -> bool:
        """Is this lead a rainbow (semantics §3: one rank from all four suits, when the
        rules have rainbows)?"""
        h = as_hand(cards)
        if not self.rules.rainbow_min or len(h) == 0:
            return False
        if len({self._esuit[k] for k in range(NUM_KINDS) if h._b[k]}) < 2:
            return False
        try:
            return self._lead(h).esuit == lib.SJ_RAINBOW
        except HandError:
            return False

    def is_tractor(self, cards) -> bool:
        h = as_hand(cards)
        rc = lib.sj_is_tractor(self._r, h._b, NUM_KINDS, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_is_tractor, self._r, h._b, NUM_KINDS)
        return rc == 1

    # ---------------------------------------------------------------- following

    def check_follow(self, lead, hand, play) -> FollowResult:
        """Is ``play`` (taken from ``hand``) a legal follow to ``lead``? (semantics §4)

        A play that is not in the hand is an input error (HandError), not a reason."""
        if type(lead) is not Hand:
            lead = _to_hand(lead, "lead")
        if type(hand) is not Hand:
            hand = _to_hand(hand, "hand")
        if type(play) is not Hand:
            play = _to_hand(play, "play")
        pl = lead._lead if lead._lctx is self else self._lead(lead)
        rc = _c_follow_code(self._r, pl, hand._b, play._b)
        if rc == 0:
            return _FOLLOW_OK
        if rc > _NOT_IN_HAND:  # a verdict; its sentence is made if asked for
            res = _new(FollowResult)
            res.ok = False
            res.reason = _REASONS[rc]
            res._detail = None
            res._why = (self, pl, hand, play)
            return res
        self._follow_detail(pl, hand, play)  # raises the input error
        raise AssertionError("unreachable")  # pragma: no cover

    def check_follows(self, lead, hand, plays) -> list[bool]:
        """``[check_follow(lead, hand, p).ok for p in plays]`` in one C call: is each of
        ``plays`` a legal follow? (Ask ``check_follow`` for the reason of one that is not.)
        A play that is not in the hand is an input error, as in ``check_follow``."""
        lead = lead if type(lead) is Hand else _to_hand(lead, "lead")
        hand = hand if type(hand) is Hand else _to_hand(hand, "hand")
        b = _joined(plays)
        if b is None:
            plays = _hand_list(plays, "plays")
            b = _join(plays)
        m = len(b) // NUM_KINDS
        pl = lead._lead if lead._lctx is self else self._lead(lead)
        out = ffi.new("uint8_t[]", m or 1)
        at = ffi.new("int32_t *")
        if lib.sj_check_follows(self._r, pl, hand._b, b, m, out, at) < 0:
            self._named(f"plays[{at[0]}]", self.check_follow, lead, hand, plays[at[0]])
        codes = ffi.buffer(out, m)[:]
        if _NOT_IN_HAND in codes:  # raises, naming the play
            i = codes.index(_NOT_IN_HAND)
            self._named(f"plays[{i}]", self.check_follow, lead, hand, plays[i])
        return list(map(_IS_ZERO, codes))

    def _named(self, what: str, fn, *args):
        """Call ``fn``; an error it raises is re-raised with ``what`` named first."""
        try:
            return fn(*args)
        except ShengjiError as exc:
            msg = str(exc)
            msg = what + msg[4:] if msg.startswith("play:") else f"{what}: {msg}"
            raise type(exc)(msg) from None

    def _follow_detail(self, pl, hand: Hand, play: Hand) -> str:
        """The sentence of a failed follow; raises the input error of an invalid one."""
        info = ffi.new("sj_follow_info *")
        err = ffi.new("sj_err *")
        rc = lib.sj_check_follow(self._r, pl, hand._b, NUM_KINDS, play._b, NUM_KINDS, info, err)
        if rc < 0:
            self._raise(err)
        suit = _SUIT_NAMES[pl.esuit]
        if rc == lib.SJ_NOT_IN_HAND:
            raise HandError(f"play: {card_str(info.card)} is not in the hand")
        if rc == lib.SJ_WRONG_COUNT:
            detail = f"the lead has {pl.n} card(s) but the play has {info.count}"
        elif rc == lib.SJ_MUST_FOLLOW_SUIT:
            if info.count >= pl.n:
                detail = (
                    f"must follow suit: the hand holds {info.count} {suit} card(s), so all "
                    f"{pl.n} cards played must be {suit}"
                )
            else:
                detail = (
                    f"must follow suit: the hand holds {info.count} {suit} card(s) and all of "
                    "them must be played"
                )
        elif pl.esuit == lib.SJ_RAINBOW:
            sizes = " + ".join(str(pl.comps[i].w) for i in range(pl.ncomp))
            detail = (f"must follow the rainbow: the hand holds cards of one rank for each "
                      f"part ({sizes} cards), so the play must have them too")
        else:
            detail = "must follow shape"
            if info.comp >= 0:  # the component and the pattern it requires
                cp = pl.comps[info.comp]
                pattern = tuple(
                    (info.pattern.shapes[j].w, info.pattern.shapes[j].len)
                    for j in range(info.pattern.n_shapes)
                )
                detail = (
                    f"must follow shape: component {info.comp + 1} of the lead "
                    f"({shape_str((cp.w, cp.len))}) requires {pattern_str(pattern)} "
                    "from the suit, which the hand holds"
                )
        return detail

    def legal_follows(self, lead, hand, limit: int = 10_000) -> LegalFollows:
        """Every legal follow (as distinct multisets), at most ``limit`` of them, and the
        true total (semantics §5). Within a budget of work (well under a second): past
        it, the follows met so far, never none, with ``exact`` False."""
        lead, hand = as_hand(lead, "lead"), as_hand(hand, "hand")
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise HandError(f"limit: {limit!r} is not a non-negative integer")
        pl = lead._lead if lead._lctx is self else self._lead(lead)
        limit = min(limit, 2**31 // NUM_KINDS - 1)
        # a small buffer first; a second call only when more follows are wanted
        cap = min(limit, 64)
        counts = ffi.new("uint64_t[2]")  # [written, total]
        n_out = ffi.cast("int32_t *", counts)
        total = counts + 1
        exact = ffi.new("int32_t *")
        while True:
            out = _new_lead("uint8_t[]", max(cap, 1) * NUM_KINDS)  # not cleared
            args = (self._r, pl, hand._b, NUM_KINDS, out, cap * NUM_KINDS, n_out, total,
                    exact)
            if lib.sj_legal_follows(*args, _NULL):
                self._call_failed(lib.sj_legal_follows, *args)
            got = n_out[0]
            if got == min(limit, total[0]) or (not exact[0] and got < cap):
                break  # all that was asked, or what the budget allowed
            cap = min(limit, max(total[0], 2 * cap))
        return LegalFollows(HandList(ffi.buffer(out, n_out[0] * NUM_KINDS)[:]), total[0],
                            bool(exact[0]))

    # ---------------------------------------------------------------- throws, tricks

    def check_throw(self, lead, others) -> ThrowResult:
        """Is a throw valid against the other players' holdings (semantics §6)?"""
        lead = as_hand(lead, "lead")
        others = _hand_list(others, "others")
        if len(others) > 64:
            raise HandError(f"others: {len(others)} holdings, at most 64")
        pl = self._lead(lead)
        res = ffi.new("sj_throw_result *")
        args = (self._r, pl, _join(others), len(others) * NUM_KINDS, len(others), res)
        if lib.sj_check_throw(*args, _NULL):
            self._call_failed(lib.sj_check_throw, *args)
        if res.valid:
            return ThrowResult(True, None, [], None)
        options = [_hand(ffi.buffer(res.options[o])[:]) for o in range(res.n_options)]
        blocker = res.blocker if res.blocker >= 0 else None
        return ThrowResult(False, options[0], options, blocker)

    def trick_winner(self, plays) -> int:
        """Index of the winning play; plays in play order, the lead first (semantics §7)."""
        t = type(plays)
        if t is list or t is tuple:  # _joined(plays), inlined: the hot path
            try:
                b = b"".join([p._b for p in plays])
            except (AttributeError, TypeError):
                b = None
            m = len(plays)
            # 54 counts per play: the C call reads exactly that many
            if b is not None and len(b) == NUM_KINDS * m:
                rc = _c_winner_code(self._r, b, m)
                if rc >= 0:
                    return rc
        plays = _hand_list(plays, "plays")
        if not 2 <= len(plays) <= 64:
            raise HandError(f"plays: a trick needs 2..64 plays, got {len(plays)}")
        args = (self._r, _join(plays), len(plays) * NUM_KINDS, len(plays))
        rc = lib.sj_trick_winner(*args, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_trick_winner, *args)
        return rc

    def _winner_of(self, plays: bytes, m: int) -> int:
        """``trick_winner`` of ``m`` plays given as their counts one after another (the
        engine keeps a trick's that way)."""
        if len(plays) == m * NUM_KINDS:
            rc = _c_winner_code(self._r, plays, m)
            if rc >= 0:
                return rc
        return self.trick_winner(HandList(plays))

    def trick_winners(self, tricks) -> list[int]:
        """``[trick_winner(t) for t in tricks]`` in one C call (every trick under these
        rules; a trick is a list of plays, the lead first)."""
        t = type(tricks)
        b = None
        if t is list or t is tuple:
            sizes = [len(x) for x in tricks]
            try:
                b = b"".join([_join(x) for x in tricks])
            except (AttributeError, TypeError):
                b = None
            if b is not None and len(b) != NUM_KINDS * sum(sizes):
                b = None
        if b is None:  # not all Hands: convert (and check) them
            tricks = [_hand_list(x, f"tricks[{i}]")
                      for i, x in enumerate(_groups(tricks, "tricks"))]
            sizes = [len(x) for x in tricks]
            b = b"".join([_join(x) for x in tricks])
        n = len(sizes)
        out = ffi.new("uint8_t[]", n or 1)
        at = ffi.new("int32_t *")
        if lib.sj_trick_winners(self._r, b, sizes, n, out, at) < 0:
            self._named(f"tricks[{at[0]}]", self.trick_winner, tricks[at[0]])
        return list(ffi.buffer(out, n)[:])

    def _listed_leads(self, counts: bytes, throws: bool) -> HandList:
        """The leads shengji.engine lists for a hand of 54 ``counts``, in its order (the
        reference: ``engine.legal.lead_structures``), from one C call (core_c/batch.c)."""
        if type(counts) is not bytes or len(counts) != NUM_KINDS:
            raise HandError(f"hand: expected {NUM_KINDS} counts as bytes")
        cap = 64
        while True:
            out = _new_lead("uint8_t[]", cap * NUM_KINDS)  # not cleared
            n = lib.sj_lead_list(self._r, counts, throws, out, cap)
            if n < 0:
                raise HandError(f"hand: rules core error {n} listing leads")
            if n <= cap:
                return HandList(ffi.buffer(out, n * NUM_KINDS)[:])
            cap = n

    def kitty_multiplier(self, play, lead=None) -> int:
        """Kitty multiplier of the last trick's winning play (semantics §8)."""
        play = as_hand(play, "play")
        pl = _NULL if lead is None else self._lead(as_hand(lead, "lead"))
        args = (self._r, play._b, NUM_KINDS, pl)
        rc = lib.sj_kitty_multiplier(*args, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_kitty_multiplier, *args)
        return rc


# ---------------------------------------------------------------------------- playouts
# (shengji/playout.py is the public face; these fill the C position struct)


def shuffled(seed: str, cards: bytes) -> bytearray:
    """``cards`` (kind ids) in the order ``shengji.engine.game.shuffle`` puts them with
    ``random.Random(seed)``, ``seed`` a str: the same permutation, computed in C
    (core_c/shuffle.c)."""
    if not isinstance(seed, str) or not isinstance(cards, (bytes, bytearray)):
        from .errors import ArgumentError
        raise ArgumentError(f"shuffled(seed, cards): a str and bytes, not "
                            f"{type(seed).__name__} and {type(cards).__name__}")
    raw = seed.encode()
    # what random.Random(str) seeds MT19937 with: the integer of the bytes and their
    # SHA-512 (big-endian), as 32-bit words least significant first (at least one)
    n = int.from_bytes(raw + sha512(raw).digest(), "big")
    key = n.to_bytes(max(4, (n.bit_length() + 31) // 32 * 4), "little")
    out = bytearray(cards)
    if lib.sj_shuffle(key, len(key), ffi.from_buffer(out), len(out)) != lib.SJ_OK:
        raise ShengjiError("sj_shuffle: bad arguments")  # not reached: the sizes are ours
    return out


def _position(ctx: Context, f: dict):
    pos = ffi.new("sj_position *")
    pos.players = f["players"]
    for i, t in enumerate(f["teams"]):
        pos.teams[i] = t
    pos.dealer_team = f["dealer_team"]
    pos.leader = f["leader"]
    pos.n_trick = f["n_trick"]
    for i, h in enumerate(f["hands"]):
        pos.hands[i] = list(h)
    for i, p in enumerate(f["trick"]):
        pos.trick[i] = list(p)
    for name in ("trick_points", "penalty", "kitty_points", "throws", "throw_penalty"):
        setattr(pos, name, f[name])
    for i, (c, p) in enumerate(zip(f["captured"], f["penalties"], strict=True)):
        pos.captured[i], pos.penalties[i] = c, p
    fr = f["friends"]
    if fr is not None:  # finding friends: the calls as they stand
        pos.friends = 1
        pos.dealer = fr["dealer"]
        for s in fr["side"]:
            pos.on_side[s] = 1
        pos.n_calls = len(fr["calls"])
        for i, ((ordinal, card), seen, done) in enumerate(
                zip(fr["calls"], fr["seen"], fr["done"], strict=True)):
            pos.call_ordinal[i], pos.call_card[i] = ordinal, card
            pos.call_seen[i], pos.call_done[i] = seen, int(done)
        pos.join_twice = int(fr["join_twice"])
        pos.dealer_copies_count = int(fr["dealer_copies_count"])
    return pos


def _playout_error(ctx: Context, err) -> None:
    code = err.code
    if err.which != lib.SJ_ARG_POSITION:
        ctx._raise(err)
    card = card_str(err.card) if 0 <= err.card < NUM_KINDS else None
    if code == lib.SJ_ERR_COPIES:
        raise HandError(f"position: {err.count} copies of {card} in the hands and the trick, "
                        f"but {_hold_only(ctx.rules, err.card)}")
    if code == lib.SJ_ERR_SIZE:
        raise HandError(f"position: seat/play {err.index} holds {err.count} cards, which does "
                        "not fit the others (every seat plays the same number of cards per trick)")
    if code == lib.SJ_ERR_EMPTY:
        raise HandError("position: nothing left to play (empty hands or an empty play)")
    if code == lib.SJ_ERR_ARG:
        raise HandError(f"position: a field is out of range ({err.count})")
    if code == lib.SJ_ERR_LIMIT:
        raise ShengjiError("position: the rules core's search budget was exhausted")
    if code in (lib.SJ_ERR_MIXED, lib.SJ_ERR_KIND):
        raise HandError("position: the trick's lead is not of one suit")
    raise ShengjiError(f"position: rules core error {code}")


def _position_playout(ctx: Context, f: dict, seed: int) -> tuple:
    pos = _position(ctx, f)
    res = ffi.new("sj_playout_result *")
    err = ffi.new("sj_err *")
    if lib.sj_playout(ctx._r, pos, seed, res, err):
        _playout_error(ctx, err)
    n = min(res.tricks, lib.SJ_MAXCARDS)
    side = tuple(s for s in range(f["players"]) if res.side >> s & 1)
    return (res.trick_points, res.multiplier, res.kitty_bonus, res.penalty, res.total,
            res.last_winner, tuple(res.winners[0:n]), res.failed_throws, side)


def _position_playouts(ctx: Context, f: dict, n: int, seed: int) -> tuple:
    from array import array

    pos = _position(ctx, f)
    bufs = [ffi.new("int32_t[]", max(n, 1)) for _ in range(3)]
    err = ffi.new("sj_err *")
    if lib.sj_playout_batch(ctx._r, pos, seed, n, *bufs, err):
        _playout_error(ctx, err)
    return tuple(array("i", ffi.buffer(b, 4 * n)[:]) for b in bufs)


_POLICIES = {"random": 0, "greedy": 1}


def _position_eval(ctx: Context, f: dict, worlds: list, plays: list, n: int, seed: int,
                   policy: str, sides: bool = False):
    """``worlds``: (hands as one bytes of players*54 counts, kitty points) each; ``plays``:
    54-count bytes each. Returns the totals, world-major then play then playout (with
    ``sides``: and each playout's final dealer side as a seat bit mask)."""
    from array import array

    base = _position(ctx, f)
    d_n, k_n = len(worlds), len(plays)
    arr = ffi.new("sj_position[]", d_n)
    size = ffi.sizeof("sj_position")
    hands_len = f["players"] * NUM_KINDS
    for d, (hands, kitty_points) in enumerate(worlds):
        p = arr + d
        ffi.memmove(p, base, size)
        if len(hands) != hands_len:
            raise HandError(f"world {d}: {len(hands)} counts, expected {hands_len}")
        ffi.memmove(p.hands, hands, hands_len)
        p.kitty_points = kitty_points
    buf = ffi.new("uint8_t[]", max(k_n, 1) * NUM_KINDS)
    for k, play in enumerate(plays):
        if len(play) != NUM_KINDS:
            raise HandError(f"play {k}: {len(play)} counts, expected {NUM_KINDS}")
        ffi.memmove(buf + k * NUM_KINDS, play, NUM_KINDS)
    count = d_n * max(k_n, 1) * n
    out = ffi.new("int32_t[]", max(count, 1))
    side_out = ffi.new("uint32_t[]", max(count, 1)) if sides else ffi.NULL
    err = ffi.new("sj_err *")
    if lib.sj_playout_eval(ctx._r, arr, d_n, buf, k_n, n, seed, _POLICIES[policy], out,
                           side_out, err):
        if err.which == lib.SJ_ARG_PLAY:
            card = card_str(err.card) if 0 <= err.card < NUM_KINDS else "?"
            raise HandError(f"play {err.index} is not a legal first play of the seat to act "
                            f"(core error {err.code}, card {card})")
        _playout_error(ctx, err)
    totals = array("i", ffi.buffer(out, 4 * count)[:])
    if sides:
        return totals, array("I", ffi.buffer(side_out, 4 * count)[:])
    return totals
