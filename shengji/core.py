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

from collections.abc import Iterable
from typing import NamedTuple

from .cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    MAX_DECKS,
    NUM_KINDS,
    SUITS,
    card_str,
    check_decks,
    format_counts,
    kind,
    parse_cards,
    parse_rank,
    parse_suit,
)
from .errors import CardError, HandError, RulesError, ShengjiError
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
    "FollowResult",
    "FollowReason",
    "LegalFollows",
    "ThrowResult",
]

_NULL = ffi.NULL
_c_check_follow = lib.sj_check_follow
_c_decompose = lib.sj_decompose
_new_lead = ffi.new_allocator(should_clear_after_alloc=False)
_COMPS_AT = ffi.offsetof("sj_lead", "comps")
_KINDS_AT = ffi.offsetof("sj_lead", "kinds")

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


class FollowResult(NamedTuple):
    ok: bool
    reason: str
    detail: str = ""


_FOLLOW_OK = FollowResult(True, FollowReason.OK, "")


class Component(NamedTuple):
    """One structure of a decomposition: ``width`` cards per tuple, ``length`` tuples."""

    width: int
    length: int
    cards: Hand

    @property
    def shape(self) -> tuple[int, int]:
        return (self.width, self.length)


def _tuple_components() -> tuple:
    """[w][kind] -> Component(w, 1, Hand of w copies): most components of a decomposition
    are singles and tuples, and sharing them (they are immutable) keeps decompose cheap."""
    table: list = [()]
    for w in range(1, MAX_DECKS + 1):
        row = []
        for k in range(NUM_KINDS):
            counts = [0] * NUM_KINDS
            counts[k] = w
            row.append(Component(w, 1, Hand._trusted(counts)))
        table.append(tuple(row))
    return tuple(table)


class LegalFollows(NamedTuple):
    plays: list  # list[Hand], at most ``limit``
    total: int  # the true number of legal follows (a lower bound when not ``exact``)
    #: False when counting every follow would pass the core's budget (semantics §5):
    #: the plays are legal, but fewer than ``limit`` may be listed and ``total`` is what
    #: the budget met
    exact: bool = True


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
    """An immutable multiset of cards, kept as 54 counts and a C ``uint8_t[54]`` buffer.

    ``Hand("HA HA HK")``, ``Hand(["HA", "HK"])``, ``Hand([38, 38])``; ``decks`` bounds the
    copies of each card (default: the most any game uses, 4).
    """

    __slots__ = ("_b", "_buf", "_lead", "_len")

    def __init__(self, cards: str | Iterable = (), decks: int | None = None):
        _check_decks(decks)
        if isinstance(cards, Hand):
            counts = cards.counts
            _check_counts(counts, decks, "cards")
        else:
            c = [0] * NUM_KINDS
            for k in parse_cards(cards):
                c[k] += 1
            counts = tuple(c)
            _check_counts(counts, decks, "cards")
        self._init(counts)

    def _init(self, counts) -> None:
        b = bytes(counts)
        self._b = b
        self._lead = None  # (Context, prepared sj_lead) when used as a lead
        self._len = sum(b)

    @classmethod
    def from_counts(cls, counts: Iterable[int], decks: int | None = None) -> Hand:
        _check_decks(decks)
        if isinstance(counts, (str, bytes, dict)) or not isinstance(counts, Iterable):
            raise HandError(
                f"counts: expected {NUM_KINDS} card counts, got {type(counts).__name__}"
            )
        counts = tuple(counts)
        if len(counts) != NUM_KINDS:
            raise HandError(
                f"counts: {len(counts)} values, expected {NUM_KINDS} (one per card kind)"
            )
        for k, n in enumerate(counts):
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise HandError(f"counts: {n!r} for {card_str(k)} is not a card count")
        _check_counts(counts, decks, "counts")
        h = cls.__new__(cls)
        h._init(counts)
        return h

    def __getattr__(self, name):
        # the C buffer is made on first use (then a plain slot read): the C functions
        # read the bytes in place (const uint8_t *), no copy per call
        if name == "_buf":
            buf = ffi.from_buffer("uint8_t[]", self._b)
            self._buf = buf
            return buf
        raise AttributeError(name)

    @classmethod
    def _trusted(cls, counts: tuple[int, ...]) -> Hand:
        """From counts the core produced (already valid)."""
        h = cls.__new__(cls)
        h._init(counts)
        return h

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(self._b)

    def cards(self) -> list[int]:
        """Kind ids, highest first (jokers, then ♠ ♥ ♣ ♦ from A down), with repeats."""
        c = self._b
        return [k for k in _DISPLAY_ORDER for _ in range(c[k])]

    def __len__(self) -> int:
        return self._len

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


_TUPLE_COMPONENTS = _tuple_components()


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
    if isinstance(level, bool):
        raise RulesError(f"level: {level!r} is not a rank")
    if isinstance(level, int):
        if not 0 <= level <= 12:
            raise RulesError(f"level: rank index {level} out of range 0..12 ('2'..'A')")
        return level
    return parse_rank(level)


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

    __slots__ = ("rules", "level", "trump", "_key", "_r", "_esuit", "_strength", "_frozen")
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
        return hash(self._key)

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
        c = lead._lead
        if c is not None and c[0] is self:
            return c[1]
        pl = _new_lead("sj_lead *")  # sj_decompose clears it itself
        if _c_decompose(self._r, lead._buf, NUM_KINDS, pl, _NULL):
            self._call_failed(lib.sj_decompose, self._r, lead._buf, NUM_KINDS, pl)
        lead._lead = (self, pl)
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
        rc = lib.sj_compare(self._r, self._card(a), self._card(b))
        return {1: "higher", 2: "lower", 3: "equal", 4: "unrelated"}[rc]

    # ---------------------------------------------------------------- structures

    def decompose(self, cards) -> list[Component]:
        """Components of a lead, best first (semantics §3)."""
        pl = self._lead(cards if type(cards) is Hand else _to_hand(cards, "lead"))
        raw = ffi.buffer(pl)  # one view of the struct, sliced (cheaper than field access)
        ncomp = pl.ncomp
        comps = raw[_COMPS_AT : _COMPS_AT + 4 * ncomp]  # (w, len, top, first) each
        kinds = raw[_KINDS_AT : _KINDS_AT + lib.SJ_MAXCARDS]
        tuples = _TUPLE_COMPONENTS
        widths, lengths, firsts = comps[0::4], comps[1::4], comps[3::4]
        if pl.esuit == lib.SJ_RAINBOW:
            return self._rainbow_components(pl, widths, comps[2::4])
        result = []
        if lengths.count(1) == ncomp:  # singles and tuples only: shared Components
            for w, f in zip(widths, firsts, strict=False):
                result.append(tuples[w][kinds[f]])
            return result
        for w, ln, first in zip(widths, lengths, firsts, strict=False):
            if ln == 1:
                result.append(tuples[w][kinds[first]])
                continue
            counts = bytearray(NUM_KINDS)
            for k in kinds[first : first + ln]:
                counts[k] = w
            result.append(Component(w, ln, Hand._trusted(counts)))
        return result

    @staticmethod
    def _rainbow_components(pl, widths, ranks) -> list[Component]:
        """A rainbow's components: each rank's cards, ``width`` = how many, ``length`` 1."""
        counts = bytes(ffi.buffer(pl.counts))
        result = []
        for w, rank in zip(widths, ranks, strict=True):
            c = bytearray(NUM_KINDS)
            for s in range(4):
                c[s * 13 + rank] = counts[s * 13 + rank]
            result.append(Component(w, 1, Hand._trusted(c)))
        return result

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
        rc = lib.sj_is_tractor(self._r, h._buf, NUM_KINDS, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_is_tractor, self._r, h._buf, NUM_KINDS)
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
        c = lead._lead
        pl = c[1] if c is not None and c[0] is self else self._lead(lead)
        rc = _c_check_follow(self._r, pl, hand._buf, NUM_KINDS, play._buf, NUM_KINDS, _NULL, _NULL)
        if rc == 0:
            return _FOLLOW_OK
        return self._follow_failure(pl, lead, hand, play)

    def _follow_failure(self, pl, lead: Hand, hand: Hand, play: Hand) -> FollowResult:
        info = ffi.new("sj_follow_info *")
        err = ffi.new("sj_err *")
        rc = lib.sj_check_follow(self._r, pl, hand._buf, NUM_KINDS, play._buf, NUM_KINDS, info, err)
        if rc < 0:
            self._raise(err)
        reason = _REASONS[rc]
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
            if info.comp >= 0:
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
        return FollowResult(False, reason, detail)

    def legal_follows(self, lead, hand, limit: int = 10_000) -> LegalFollows:
        """Every legal follow (as distinct multisets), at most ``limit`` of them, and the
        true total (semantics §5). Within a budget of work (well under a second): past
        it, the follows met so far, never none, with ``exact`` False."""
        lead, hand = as_hand(lead, "lead"), as_hand(hand, "hand")
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise HandError(f"limit: {limit!r} is not a non-negative integer")
        pl = self._lead(lead)
        limit = min(limit, 2**31 // NUM_KINDS - 1)
        # a small buffer first; a second call only when more follows are wanted
        cap = min(limit, 256)
        n_out = ffi.new("int32_t *")
        total = ffi.new("uint64_t *")
        exact = ffi.new("int32_t *")
        while True:
            out = ffi.new("uint8_t[]", max(cap, 1) * NUM_KINDS)
            args = (self._r, pl, hand._buf, NUM_KINDS, out, cap * NUM_KINDS, n_out, total,
                    exact)
            if lib.sj_legal_follows(*args, _NULL):
                self._call_failed(lib.sj_legal_follows, *args)
            got = n_out[0]
            if got == min(limit, total[0]) or (not exact[0] and got < cap):
                break  # all that was asked, or what the budget allowed
            cap = min(limit, max(total[0], 2 * cap))
        raw = ffi.buffer(out, n_out[0] * NUM_KINDS)[:]
        plays = [Hand._trusted(raw[i : i + NUM_KINDS]) for i in range(0, len(raw), NUM_KINDS)]
        return LegalFollows(plays, int(total[0]), bool(exact[0]))

    # ---------------------------------------------------------------- throws, tricks

    @staticmethod
    def _pack(hands: list[Hand]):
        buf = ffi.new("uint8_t[]", max(len(hands), 1) * NUM_KINDS)
        for j, h in enumerate(hands):
            ffi.memmove(buf + j * NUM_KINDS, h._buf, NUM_KINDS)
        return buf

    def check_throw(self, lead, others) -> ThrowResult:
        """Is a throw valid against the other players' holdings (semantics §6)?"""
        lead = as_hand(lead, "lead")
        others = [as_hand(h, f"others[{i}]") for i, h in enumerate(_groups(others, "others"))]
        if len(others) > 64:
            raise HandError(f"others: {len(others)} holdings, at most 64")
        pl = self._lead(lead)
        res = ffi.new("sj_throw_result *")
        args = (self._r, pl, self._pack(others), len(others) * NUM_KINDS, len(others), res)
        if lib.sj_check_throw(*args, _NULL):
            self._call_failed(lib.sj_check_throw, *args)
        if res.valid:
            return ThrowResult(True, None, [], None)
        options = [Hand._trusted(ffi.buffer(res.options[o])[:]) for o in range(res.n_options)]
        blocker = res.blocker if res.blocker >= 0 else None
        return ThrowResult(False, options[0], options, blocker)

    def trick_winner(self, plays) -> int:
        """Index of the winning play; plays in play order, the lead first (semantics §7)."""
        plays = [as_hand(p, f"plays[{i}]") for i, p in enumerate(_groups(plays, "plays"))]
        if not 2 <= len(plays) <= 64:
            raise HandError(f"plays: a trick needs 2..64 plays, got {len(plays)}")
        args = (self._r, self._pack(plays), len(plays) * NUM_KINDS, len(plays))
        rc = lib.sj_trick_winner(*args, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_trick_winner, *args)
        return rc

    def kitty_multiplier(self, play, lead=None) -> int:
        """Kitty multiplier of the last trick's winning play (semantics §8)."""
        play = as_hand(play, "play")
        pl = _NULL if lead is None else self._lead(as_hand(lead, "lead"))
        args = (self._r, play._buf, NUM_KINDS, pl)
        rc = lib.sj_kitty_multiplier(*args, _NULL)
        if rc < 0:
            self._call_failed(lib.sj_kitty_multiplier, *args)
        return rc


# ---------------------------------------------------------------------------- playouts
# (shengji/playout.py is the public face; these fill the C position struct)


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
    return (res.trick_points, res.multiplier, res.kitty_bonus, res.penalty, res.total,
            res.last_winner, tuple(res.winners[0:n]), res.failed_throws)


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
                   policy: str) -> tuple:
    """``worlds``: (hands as one bytes of players*54 counts, kitty points) each; ``plays``:
    54-count bytes each. Returns the totals, world-major then play then playout."""
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
    err = ffi.new("sj_err *")
    if lib.sj_playout_eval(ctx._r, arr, d_n, buf, k_n, n, seed, _POLICIES[policy], out, err):
        if err.which == lib.SJ_ARG_PLAY:
            card = card_str(err.card) if 0 <= err.card < NUM_KINDS else "?"
            raise HandError(f"play {err.index} is not a legal first play of the seat to act "
                            f"(core error {err.code}, card {card})")
        _playout_error(ctx, err)
    return array("i", ffi.buffer(out, 4 * count)[:])
