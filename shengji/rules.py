"""Play rules as plain data: the settings the C core needs to judge plays.

``PlayRules`` holds every play-phase knob of docs/rules.md (tuple sizes, tractors, throws,
following priorities, ruff comparison, failed-throw policy, kitty multiplier). It is
frozen and hashable, so the core can cache the prepared C struct per (rules, level, trump).
Variants (YAML + plugins) produce a PlayRules; the core never sees a variant's name.

Shapes and patterns
-------------------
A *shape* is ``(width, length)``: ``(1, 1)`` single, ``(2, 1)`` pair, ``(3, 1)`` triple,
``(4, 1)`` quad, ``(2, 2)`` a tractor of two pairs, ``(3, 2)`` a Titanic (two triples).
A *pattern* is a tuple of shapes a follower must supply together (singles are implied
filler and never listed): ``((3, 1), (2, 1))`` is "triple + pair + single" when following
a 6-card Titanic. A *ladder* is the ordered list of patterns for one led shape, best first;
the empty pattern ``()`` means "any cards of the suit".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .cards import MAX_DECKS, NUM_KINDS
from .errors import RulesError, ShengjiError

Shape = tuple[int, int]
Pattern = tuple[Shape, ...]
Ladder = tuple[Pattern, ...]

RUFF_COMPARE = ("strongest", "all_components", "highest_card", "unit_length", "all",
                "cover_winner")
FAILED_THROW = ("smallest", "next_player_chooses", "first_blocker", "fewest_cards")
#: what a throw's components ask of a follower (docs/semantics.md §4): each as if it were
#: led alone, or tuples only (no component of a throw asks for a tractor)
THROW_FOLLOWING = ("as_led", "tuples")
#: what a throw is judged against (§6): the other seats' holdings (a throw one of them
#: can beat fails and plays a forced part), or the cards the thrower cannot see (a throw
#: they could beat is refused: ejfn/Tractor)
THROW_CHECKS = ("holdings", "unseen")
#: which components of the last trick's lead the kitty multiplier reads (§8): the largest
#: value of one, or the policy's formula over the whole lead
KITTY_THROW = ("largest", "whole")
#: following protections (shengji.io TrickDrawPolicy, in its order): none, longer tuples
#: need not be broken, only a led tractor asks for tractors, both, only the suit is followed
FOLLOW_PROTECTIONS = ("none", "longer_tuples", "tractor_on_tractor", "both", "suit_only")
#: bombs (shengji.io BombPolicy): none; a bomb (four or more identical cards) may follow
#: whatever was led; a bomb of the led suit is exempt from the shape rules only (a bomb of
#: another suit only when void); as follow_suit, and a trump bomb even while holding the led
#: suit (shengji.io's code and unit test; its doc comment reads as follow_suit)
BOMBS = ("none", "any_suit", "follow_suit", "follow_suit_or_trump")
KITTY_POLICIES = ("exponential", "power", "table", "twice_size")
#: which split of a lead into components (docs/semantics.md §3): the seeds' (more cards,
#: then wider, taken greedily) or shengji.io's (TrickFormat::from_cards over find_plays)
DECOMPOSITIONS = ("seeds", "shengji_io")
#: which requirements a follow must meet (docs/semantics.md §4): the seeds' ladders, or
#: shengji.io's (TrickFormat::is_legal_play over subsequent_decomposition_ordering)
FOLLOW_REQUIREMENTS = ("seeds", "shengji_io")
#: keys of the ``table`` kitty policy, and the shape each names
KITTY_TABLE_KEYS = ("single", "pair", "triple", "quad", "tractor", "titanic")

SHAPE_NAMES = {
    "single": (1, 1),
    "pair": (2, 1),
    "triple": (3, 1),
    "quad": (4, 1),
    "tractor": (2, 2),
    "titanic": (3, 2),
}
_NAME_OF_SHAPE = {v: k for k, v in SHAPE_NAMES.items()}


def parse_shape(text: str | Shape) -> Shape:
    """``"pair"``, ``"titanic"``, ``"2x3"`` (width x length) or a (w, l) pair → Shape."""
    if isinstance(text, (tuple, list)) and len(text) == 2:
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in text):
            raise RulesError(f"shape {text!r}: width and length must be integers")
        w, ln = text
    else:
        t = str(text).strip().lower()
        if t in SHAPE_NAMES:
            return SHAPE_NAMES[t]
        try:
            w_text, l_text = t.split("x")
            w, ln = int(w_text), int(l_text)
        except ValueError:
            raise RulesError(
                f"unknown shape {text!r}: expected one of {', '.join(SHAPE_NAMES)} "
                "or WIDTHxLENGTH such as 2x3 (three consecutive pairs)"
            ) from None
    if not (1 <= w <= MAX_DECKS and 1 <= ln <= 24):
        raise RulesError(f"shape {text!r} out of range: width 1..{MAX_DECKS}, length 1..24")
    if w == 1 and ln != 1:
        raise RulesError(f"shape {text!r}: runs of singles are not a structure")
    return (w, ln)


def _shape_arg(shape: Any) -> Shape:
    """A (width, length) argument as a Shape: the common case is one type test; anything
    else goes through parse_shape (names, lists, and RulesError for the rest)."""
    if type(shape) is tuple and len(shape) == 2 and type(shape[0]) is int \
            and type(shape[1]) is int and 2 <= shape[0] <= 4 and 1 <= shape[1] <= 24:
        return shape
    return parse_shape(shape)  # also singles, and RulesError for the rest


def _pattern_arg(pattern: Any) -> Pattern:
    if isinstance(pattern, (str, bytes, Mapping)) or not isinstance(pattern, Iterable):
        raise RulesError(f"pattern {pattern!r}: expected a tuple of (width, length) shapes")
    return tuple(_shape_arg(s) for s in pattern)


def shape_str(shape: Shape) -> str:
    """(2, 1) → 'pair', (2, 3) → '2x3'."""
    shape = _shape_arg(shape)
    return _NAME_OF_SHAPE.get(shape, f"{shape[0]}x{shape[1]}")


def parse_pattern(text: str | Iterable[Any]) -> Pattern:
    """``"triple + pair + single"`` or a list of shape names → Pattern (singles dropped,
    largest structure first). ``"singles"``, ``"any"`` or ``""`` is the empty pattern."""
    if isinstance(text, str):
        parts = [p.strip() for p in text.replace(",", "+").split("+")]
    elif isinstance(text, Iterable) and not isinstance(text, bytes):
        parts = list(text)
    else:
        raise RulesError(f"pattern {text!r}: expected shape names joined by '+' or a list")
    shapes = []
    for p in parts:
        if isinstance(p, str) and p.strip().lower() in ("", "single", "singles", "any"):
            continue
        s = parse_shape(p)
        if s != (1, 1):
            shapes.append(s)
    return tuple(sorted(shapes, key=lambda s: (s[0] * s[1], s[0]), reverse=True))


def pattern_str(pattern: Pattern) -> str:
    pattern = _pattern_arg(pattern)
    return " + ".join(shape_str(s) for s in pattern) if pattern else "singles"


def pattern_cards(pattern: Pattern) -> int:
    pattern = _pattern_arg(pattern)
    return sum(w * ln for w, ln in pattern)


def _sorted_pattern(shapes: Iterable[Shape]) -> Pattern:
    return tuple(sorted(shapes, key=lambda s: (s[0] * s[1], s[0]), reverse=True))


def _tractor_lists(widths: tuple[int, ...], tractors: tuple[int, int]) -> list[Pattern]:
    """Every non-empty list of tractors the tuples ``widths`` can be grouped into
    (tractors of width >= tractors[0], length >= tractors[1]), each as its shapes."""
    min_w, min_len = tractors

    def lengths(left: int, most: int) -> list[tuple[int, ...]]:
        """Every non-increasing list of tractor lengths (>= min_len) summing <= left."""
        out: list[tuple[int, ...]] = [()]
        for k in range(min(left, most), min_len - 1, -1):
            out += [(k,) + rest for rest in lengths(left - k, k)]
        return out

    per_width = []
    for v in sorted(set(widths), reverse=True):
        c = widths.count(v)
        if v >= min_w and c >= min_len:
            per_width.append([tuple((v, k) for k in ks) for ks in lengths(c, c)])
        else:
            per_width.append([()])
    lists: list[tuple[Shape, ...]] = [()]
    for options in per_width:
        lists = [a + b for a in lists for b in options]
    return [tl for tl in lists if tl]


def default_ladder(lead: Shape, max_tuple: int,
                   tractors: tuple[int, int] | None = None) -> Ladder:
    """The generated ladder (see ``_default_ladder``), arguments checked first."""
    if type(lead) is not tuple or type(max_tuple) is not int or not 1 <= max_tuple <= MAX_DECKS:
        lead = _shape_arg(lead)
        if not _is_int(max_tuple) or not 1 <= max_tuple <= MAX_DECKS:
            raise RulesError(f"max_tuple: {max_tuple!r} is not an integer 1..{MAX_DECKS}")
    if tractors is not None and not (type(tractors) is tuple and len(tractors) == 2
                                     and all(_is_int(t) and t >= 1 for t in tractors)):
        raise RulesError(f"tractors: {tractors!r} is not (narrowest width, shortest length)")
    return _default_ladder(_shape_arg(lead), max_tuple, tractors)


@lru_cache(maxsize=1024)
def _default_ladder(lead: Shape, max_tuple: int,
                    tractors: tuple[int, int] | None = None) -> Ladder:
    """The generated following ladder for a led shape with no explicit list.

    First the led structure itself; then every multiset of plain tuples (widths 2..width
    of the lead, at most ``max_tuple``) that fits in the led card count, ordered by the
    widths sorted high to low, compared lexicographically, largest first (more wide
    tuples first, then more of the next width, ...); the empty pattern last.
    For a tractor of pairs this is "tractor > L pairs > ... > one pair > singles" (seed 002);
    for a Titanic "Titanic > two triples > triple + pair > triple > three pairs > ...".

    With ``tractors`` = (narrowest width, shortest length) of a tractor, each multiset of
    tuples is first offered grouped into tractors: every grouping, ordered by its list of
    tractors, largest (cards, width) first, compared lexicographically (a longer list
    first), before the plain tuples. A three-pair tractor led then asks for
    "3-tractor > 2-tractor + pair > three pairs > 2-tractor > two pairs > pair > singles"
    (有拖拉機必須出拖拉機, seeds 000/001/004; shengji.io), a quad "quad > triple > tractor >
    two pairs > pair > singles" (shengji.io NoProtections).
    """
    w, ln = lead
    n = w * ln
    top = min(w, max_tuple)
    found: list[tuple[int, ...]] = []

    def rec(widths: tuple[int, ...], max_w: int, budget: int) -> None:
        found.append(widths)
        for v in range(min(max_w, budget), 1, -1):
            rec(widths + (v,), v, budget - v)

    rec((), top, n)
    found.sort(reverse=True)
    ladder: list[Pattern] = []
    if lead != (1, 1) and w <= max_tuple:
        ladder.append((lead,))
    for widths in found:
        if tractors is not None:
            groupings = []
            for tl in _tractor_lists(widths, tractors):
                rest = list(widths)
                for v, k in tl:
                    for _ in range(k):
                        rest.remove(v)
                key = sorted(((v * k, v) for v, k in tl), reverse=True)
                groupings.append((key, _sorted_pattern(list(tl) + [(v, 1) for v in rest])))
            groupings.sort(key=lambda g: g[0], reverse=True)
            for _, pat in groupings:
                if pat not in ladder:
                    ladder.append(pat)
        pat = tuple((v, 1) for v in widths)
        if pat not in ladder:
            ladder.append(pat)
    return tuple(ladder)


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise RulesError(f"{name}: {value!r} is not one of {', '.join(allowed)}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(name: str, value: Any, lo: int, hi: int | None = None) -> None:
    if not _is_int(value):
        raise RulesError(f"{name}: {value!r} is not an integer")
    if value < lo or (hi is not None and value > hi):
        allowed = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise RulesError(f"{name}: {value} is out of range ({allowed})")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise RulesError(f"{name}: {value!r} is not true or false")


#: what the C core's rules struct holds (shengji_core.h; tests/test_core_errors.py checks
#: these against the compiled core)
MAX_LADDERS = 16
MAX_LADDER_PATTERNS = 24
MAX_PATTERN_SHAPES = 90  # the core's SJ_PAT_SHAPES (90 pairs: one ten-pack suit)


@dataclass(frozen=True)
class PlayRules:
    """Every play-phase rule setting, as data. Defaults follow the two-deck seeds (000).

    Every field is type- and range-checked here (``RulesError`` naming the field), so a
    PlayRules that exists can always be handed to the C core."""

    decks: int = 2
    #: widest tuple that exists; None → one deck 1 (singles only), else decks
    max_tuple: int | None = None
    tractors: bool = True
    throws: bool = True
    tractor_min_width: int = 2
    tractor_min_length: int = 2
    #: with level 10, is JJ99 a tractor (the 10s are gone from the suit)?
    tractor_bridges_level_gap: bool = True
    #: permanent trump ranks below the level cards (constant 2: (0,)); rank indices 0..12
    constant_ranks: tuple[int, ...] = ()
    #: must a held longer tuple be broken to supply a shorter one (seed 003: no)? An alias
    #: of follow_protection (true: none, false: longer_tuples); always set from it
    must_break_tuples: bool | None = None
    #: explicit ladders: ((led shape, (pattern, ...)), ...); other shapes use default_ladder
    following: tuple[tuple[Shape, Ladder], ...] = ()
    ruff_compare: str = "strongest"
    failed_throw: str = "smallest"
    kitty: str = "exponential"
    kitty_cap: int = 64
    #: for kitty == "table": (single, pair, triple, quad, tractor, titanic) multipliers
    kitty_table: tuple[int, ...] = (2, 4, 6, 8, 8, 16)
    #: following protections, one of FOLLOW_PROTECTIONS (None: from must_break_tuples)
    follow_protection: str | None = None
    #: a led tractor the follower cannot match asks for shorter tractors before plain
    #: tuples (有拖拉機必須出拖拉機, seeds 000/001/004, shengji.io); false: seed 002's list
    shorter_tractors: bool = True
    #: bombs (n >= 4 identical cards beat every other play): one of BOMBS
    bombs: str = "none"
    #: rainbows (shengji.io CompoundFormats.rainbows): 0 = none, else the fewest cards of
    #: one rank, from all four suits, that make a rainbow lead (4..16)
    rainbow_min: int = 0
    #: copies of each of the 54 kinds in the deck (shengji.deck.Composition.counts: short
    #: packs, jokers per pack); None → ``decks`` of every kind. ``decks`` is the most of any kind.
    copies: tuple[int, ...] | None = None
    extra: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    #: with follow_protection longer_tuples/both: a tuple the play cuts from a longer one
    #: does not count while the hand keeps a genuine one back (shengji.io PR #512)
    genuine_tuples: bool = False
    #: decomposition: of components of as many cards, a tractor before a wider tuple
    #: (shengji.io TrickFormat::from_cards: a quad and a two-pair tractor)
    tractors_first: bool = False
    #: the split of a lead into components, one of DECOMPOSITIONS: "seeds" (§3), or
    #: "shengji_io" (its from_cards: the largest unit by size and tractor, ties by the
    #: order find_plays lists splits in)
    decomposition: str = "seeds"
    #: the requirements a follow of a non-rainbow lead must meet, one of
    #: FOLLOW_REQUIREMENTS: "seeds" (§4 ladders) or "shengji_io" (its is_legal_play: the
    #: lead's units, then subsequent_decomposition_ordering, the first deciding)
    follow_requirements: str = "seeds"
    #: what a throw's components ask of a follower, one of THROW_FOLLOWING: "as_led"
    #: (each component's ladder, as if led alone) or "tuples" (their ladders without the
    #: patterns that hold a tractor: 上海 80分 rules, a throw asks only for pairs)
    throw_following: str = "as_led"
    #: the kitty multiplier of a throw, one of KITTY_THROW: "largest" (its largest
    #: component's value, seeds 000/001) or "whole" (the formula over the whole lead)
    kitty_throw: str = "largest"
    #: may a throw be led in trumps (ejfn/Tractor: no)
    trump_throws: bool = True
    #: what a throw is judged against, one of THROW_CHECKS (the engine's: the core's
    #: check_throw is asked with the holdings, or with the cards the thrower cannot see)
    throw_check: str = "holdings"

    def __post_init__(self) -> None:
        _check_int("decks", self.decks, 1, MAX_DECKS)
        if self.max_tuple is None:
            object.__setattr__(self, "max_tuple", self.decks)
        _check_int("max_tuple", self.max_tuple, 1)
        if self._max_tuple > self.decks:
            raise RulesError(
                f"max_tuple: {self.max_tuple} is impossible with {self.decks} deck(s) "
                f"(allowed 1..{self.decks})"
            )
        for name in ("tractors", "throws", "tractor_bridges_level_gap", "shorter_tractors",
                     "genuine_tuples", "tractors_first", "trump_throws"):
            _check_bool(name, getattr(self, name))
        self._normalise_protection()
        self._normalise_copies()
        _check_int("tractor_min_width", self.tractor_min_width, 2, MAX_DECKS)
        _check_int("tractor_min_length", self.tractor_min_length, 2, 24)
        ranks = self.constant_ranks
        if isinstance(ranks, (str, bytes)) or not isinstance(ranks, Iterable):
            raise RulesError(f"constant_ranks: {ranks!r} is not a list of rank indices")
        ranks = tuple(ranks)
        for r in ranks:
            if not _is_int(r) or not 0 <= r <= 12:
                raise RulesError(f"constant_ranks: {r!r} is not a rank index 0..12")
        object.__setattr__(self, "constant_ranks", tuple(sorted(set(ranks))))
        _check_choice("ruff_compare", self.ruff_compare, RUFF_COMPARE)
        _check_choice("failed_throw", self.failed_throw, FAILED_THROW)
        _check_choice("kitty", self.kitty, KITTY_POLICIES)
        _check_choice("bombs", self.bombs, BOMBS)
        _check_choice("decomposition", self.decomposition, DECOMPOSITIONS)
        _check_choice("follow_requirements", self.follow_requirements, FOLLOW_REQUIREMENTS)
        _check_choice("throw_following", self.throw_following, THROW_FOLLOWING)
        _check_choice("kitty_throw", self.kitty_throw, KITTY_THROW)
        _check_choice("throw_check", self.throw_check, THROW_CHECKS)
        if self.kitty_throw == "whole" and self.kitty == "table":
            raise RulesError(
                "kitty_throw: whole reads the policy's formula over the whole lead, and the "
                "table kitty has none (its values name one structure each): use exponential, "
                "power or twice_size"
            )
        if self.decomposition == "shengji_io" and self._max_tuple != self.decks:
            raise RulesError(
                f"decomposition: shengji_io takes every copy of a card as one tuple, so "
                f"max_tuple must be {self.decks} (the deck count), not {self.max_tuple}"
            )
        _check_int("rainbow_min", self.rainbow_min, 0, 16)
        if 0 < self.rainbow_min < 4:
            raise RulesError(
                f"rainbow_min: {self.rainbow_min}: a rainbow holds all four suits, so at least "
                "4 (or 0: no rainbows)"
            )
        _check_int("kitty_cap", self.kitty_cap, 1)
        table = self.kitty_table
        if isinstance(table, (str, bytes)) or not isinstance(table, Iterable):
            raise RulesError(f"kitty_table: {table!r} is not a list of multipliers")
        table = tuple(table)
        if len(table) != len(KITTY_TABLE_KEYS):
            raise RulesError(
                f"kitty_table: needs {len(KITTY_TABLE_KEYS)} values {KITTY_TABLE_KEYS}"
            )
        for key, v in zip(KITTY_TABLE_KEYS, table, strict=True):
            _check_int(f"kitty_table.{key}", v, 1)
        object.__setattr__(self, "kitty_table", table)
        object.__setattr__(self, "following", self._normalise_following(self.following))

    def _normalise_protection(self) -> None:
        old, new = self.must_break_tuples, self.follow_protection
        if old is not None:
            _check_bool("must_break_tuples", old)
        if new is None:
            new = "longer_tuples" if old is False else "none"
        _check_choice("follow_protection", new, FOLLOW_PROTECTIONS)
        must_break = new not in ("longer_tuples", "both")
        if old is not None and old != must_break:
            raise RulesError(
                f"must_break_tuples: {str(old).lower()} contradicts follow_protection: {new} "
                "(must_break_tuples is its older alias: set only follow_protection)"
            )
        object.__setattr__(self, "follow_protection", new)
        object.__setattr__(self, "must_break_tuples", must_break)

    def _normalise_copies(self) -> None:
        copies = self.copies
        if copies is None:
            copies = (self.decks,) * NUM_KINDS
        elif isinstance(copies, (str, bytes)) or not isinstance(copies, Iterable):
            raise RulesError(f"copies: {copies!r} is not a list of {NUM_KINDS} card counts")
        copies = tuple(copies)
        if len(copies) != NUM_KINDS:
            raise RulesError(f"copies: {len(copies)} values, expected {NUM_KINDS} (one per kind)")
        for k, c in enumerate(copies):
            if not _is_int(c) or not 0 <= c <= self.decks:
                raise RulesError(
                    f"copies: {c!r} copies of kind {k} is not a count 0..decks ({self.decks})"
                )
        object.__setattr__(self, "copies", copies)

    def _normalise_following(self, following: Any) -> tuple[tuple[Shape, Ladder], ...]:
        """Ladders as ((shape, (pattern, ...)), ...), every shape validated, and held to
        what the C struct can store and to what a follower can ever supply."""
        if isinstance(following, Mapping):  # {led shape: ladder}, as in a variant file
            following = following.items()
        elif isinstance(following, (str, bytes)) or not isinstance(following, Iterable):
            raise RulesError(f"following: {following!r} is not a list of (led shape, ladder)")
        seen = set()
        norm = []
        for entry in following:
            if not (isinstance(entry, (tuple, list)) and len(entry) == 2):
                raise RulesError(f"following: {entry!r} is not a (led shape, ladder) pair")
            lead, ladder = entry
            if isinstance(ladder, (str, bytes)) or not isinstance(ladder, Iterable):
                raise RulesError(
                    f"following: the ladder for {lead!r} must be a list of patterns, "
                    f"not {ladder!r}"
                )
            lead = parse_shape(lead)
            name = shape_str(lead)
            if lead in seen:
                raise RulesError(f"following: two ladders for led shape {name}")
            seen.add(lead)
            pats = tuple(parse_pattern(p) for p in ladder)
            if not pats:
                raise RulesError(f"following: empty ladder for led shape {name}")
            if len(pats) > MAX_LADDER_PATTERNS:
                raise RulesError(
                    f"following.{name}: {len(pats)} patterns, the core holds at most "
                    f"{MAX_LADDER_PATTERNS} per ladder"
                )
            for pat in pats:
                self._check_pattern(lead, pat)
            norm.append((lead, pats))
        if len(norm) > MAX_LADDERS:
            raise RulesError(
                f"following: {len(norm)} ladders, the core holds at most {MAX_LADDERS}"
            )
        return tuple(norm)

    def _check_pattern(self, lead: Shape, pat: Pattern) -> None:
        where = f"following.{shape_str(lead)}: pattern {pattern_str(pat)}"
        if len(pat) > MAX_PATTERN_SHAPES:
            raise RulesError(
                f"{where}: {len(pat)} structures, the core holds at most {MAX_PATTERN_SHAPES}"
            )
        if pattern_cards(pat) > lead[0] * lead[1]:
            # a hand holding it would have no legal follow: the play has only w*L cards
            raise RulesError(
                f"{where}: asks {pattern_cards(pat)} cards but the led {shape_str(lead)} "
                f"has {lead[0] * lead[1]}; no follow could ever supply it"
            )
        if not self.shape_exists(lead):
            return  # a ladder for a shape that never occurs under these rules: unused
        for s in pat:
            if not self.shape_exists(s):
                raise RulesError(
                    f"{where}: no hand can supply it, a {shape_str(s)} does not exist under "
                    f"these rules ({self._why_not(s)})"
                )

    @property
    def _max_tuple(self) -> int:
        """``max_tuple`` once ``__post_init__`` has filled it in (never None)."""
        return self.max_tuple if self.max_tuple is not None else 1

    def shape_exists(self, shape: Shape) -> bool:
        """Can a structure of this shape exist under these rules (semantics §3)?"""
        w, ln = _shape_arg(shape)
        if w > self._max_tuple:
            return False
        if ln == 1:
            return True
        return (self.tractors and w >= 2 and w >= self.tractor_min_width
                and ln >= self.tractor_min_length)

    def _why_not(self, shape: Shape) -> str:
        w, ln = shape
        if w > self._max_tuple:
            return f"max_tuple is {self.max_tuple}"
        if not self.tractors:
            return "tractors: false"
        if w < self.tractor_min_width:
            return f"tractor_min_width is {self.tractor_min_width}"
        return f"tractor_min_length is {self.tractor_min_length}"

    def ladder_for(self, lead: Shape, in_throw: bool = False) -> Ladder:
        """The following ladder for a led shape: the explicit one, else the default
        (``suit_only``: nothing but the suit, ``((),)``). ``in_throw``: the shape is one
        component of a throw; with ``throw_following: tuples`` its patterns that hold a
        tractor are left out (the led tractor itself, and every grouping)."""
        ladder = self._ladder_for(lead)
        if in_throw and self.throw_following == "tuples":
            return tuple(p for p in ladder if all(ln == 1 for _, ln in p))
        return ladder

    def _ladder_for(self, lead: Shape) -> Ladder:
        lead = _shape_arg(lead)
        if self.follow_protection == "suit_only":
            return ((),)
        for shape, ladder in self.following:
            if shape == lead:
                return ladder
        if lead[1] >= 2:
            grouped = self.shorter_tractors
        else:
            grouped = self.follow_protection in ("none", "longer_tuples")
        tractors = (self.tractor_min_width, self.tractor_min_length)
        return default_ladder(lead, self._max_tuple,
                              tractors if grouped and self.tractors else None)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PlayRules:
        """Build from plain data (as in a variant file's ``play:`` section): shapes and
        patterns may be written as names (``following: {titanic: ["titanic", ...]}``)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"play rules: {data!r} is not a mapping of settings")
        data = dict(data)
        following = data.pop("following", {}) or {}
        if isinstance(following, Mapping):
            following = list(following.items())
        data["following"] = following
        if "constant_ranks" in data:
            from .cards import parse_rank

            ranks = data["constant_ranks"]
            if isinstance(ranks, (str, bytes)) or not isinstance(ranks, Iterable):
                raise RulesError(f"constant_ranks: {ranks!r} is not a list of ranks")
            try:
                parsed = tuple(parse_rank(r) for r in ranks)
            except ShengjiError as e:
                raise RulesError(f"constant_ranks: {e}") from None
            # ("2" and 2 are one rank: a list naming one twice is a mistake, not a rule)
            twice = next((r for i, r in enumerate(ranks) if parsed[i] in parsed[:i]), None)
            if twice is not None:
                raise RulesError(f"constant_ranks: {twice!r} names a rank listed already")
            data["constant_ranks"] = parsed
        if isinstance(data.get("kitty_table"), Mapping):
            table = data["kitty_table"]
            defaults = dict(zip(KITTY_TABLE_KEYS, cls.kitty_table, strict=True))
            unknown = set(table) - set(KITTY_TABLE_KEYS)
            if unknown:
                raise RulesError(
                    f"kitty_table: unknown keys {sorted(unknown, key=str)}; "
                    f"allowed {KITTY_TABLE_KEYS}"
                )
            data["kitty_table"] = tuple(table.get(k, defaults[k]) for k in KITTY_TABLE_KEYS)
        try:
            return cls(**data)
        except TypeError as e:
            raise RulesError(f"play rules: {e}") from None
