"""Whole-move actions (``actions="moves"``): the legal decisions listed, each with a
feature vector, for Q(s, a) learners (DMC / DouZero style).

At each decision the seat's legal moves are listed as engine actions — a declaration or
a pass, the burial, a lead, a follow, the choice of a forced play, keeping or taking
back a declaration, the dealer's friend calls — and action ``i`` takes the ``i``-th.
The action space is ``Discrete(max_moves)`` (default 256); the mask has ones for the
moves listed, and ``moves`` (``max_moves × MOVE_FEATURES`` float32) describes each:

==========  ====  ================================================================
piece       size  content
==========  ====  ================================================================
kind        7     one-hot: declare, bury, lead, follow, choose, takeback, call
cards       54    the move's cards (counts; friend calls: each card by its ordinal)
n_cards     1     how many cards
points      1     card points among them
is_pass     1     1 for a pass (or keeping a declaration)
n_kinds     1     how many distinct cards (kinds)
trumps      1     how many of them are trumps (0 before trump is settled)
top         1     the strength of the strongest, over the strongest there is (0..1)
wins        1     1 when this follow would be winning the trick so far
partner     1     1 when a seat of this seat's side is winning the trick now (fixed
                  teams; finding friends: a known member of the same side)
trick_pts   1     the card points in the trick so far
==========  ====  ================================================================

What is listed: declarations as the engine lists them; leads as the engine lists them
(every single structure, and each whole suit when throws exist: other throw attempts are
card-by-card mode's); follows as the core lists them; forced-play options; calls and
burials as every choice when they fit. When a decision has more legal moves than
``max_moves`` (a long follow with many ways to fill, a burial, calls), the list is a
sample of ``max_moves`` of them drawn from a generator seeded by the game's seed and
state (the same state lists the same moves). A burial's list and a call's always hold the
``heuristic`` bot's choice first: among thousands of burials or calls, a sample would
rarely hold a sensible one. ``info["moves"]`` / ``decision.moves`` give the engine
actions themselves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, islice
from math import comb

import numpy as np

from ..cards import NUM_KINDS, point_value
from ..core.positions import seed_key
from ..engine.actions import Bury, CallFriends, Pass, RequestRedeal, TakeBack
from .building import KINDS, SLOT, seen_call

try:
    from .._core import ffi, lib
except ImportError:  # pragma: no cover - no C core: the Python listing only
    ffi = lib = None

#: False: the features and burials come from the Python reference below, never from C
#: (core_c/moves.c; tests/test_env_moves_c.py compares the two)
C_LISTING = True

MAX_MOVES = 256


class MoveLayout:
    """The named columns of a move's feature row (the table above), as
    ``observation.Layout`` names the observation's pieces: ``split(features)`` gives
    each piece of one row (``MOVE_FEATURES``) or of many (``n × MOVE_FEATURES``, e.g.
    ``obs["moves"]``) as a view, a one-column piece as that column;
    ``slices[name]`` is its (start, stop) and ``index[name]`` a one-column piece's
    column, for code that would otherwise count offsets."""

    pieces = (("kind", len(KINDS)), ("cards", NUM_KINDS), ("n_cards", 1), ("points", 1),
              ("is_pass", 1), ("n_kinds", 1), ("trumps", 1), ("top", 1), ("wins", 1),
              ("partner", 1), ("trick_pts", 1))

    def __init__(self) -> None:
        self.slices: dict[str, tuple[int, int]] = {}
        at = 0
        for name, n in self.pieces:
            self.slices[name] = (at, at + n)
            at += n
        self.size = at
        self.index = {name: a for name, (a, b) in self.slices.items() if b - a == 1}

    def split(self, features) -> dict:
        """The named pieces of feature rows (views of ``features``, no copy)."""
        return {name: features[..., a:b] if b - a > 1 else features[..., a]
                for name, (a, b) in self.slices.items()}


MOVE_LAYOUT = MoveLayout()
MOVE_FEATURES = MOVE_LAYOUT.size
_KIND = {k: i for i, k in enumerate(KINDS)}
_POINTS = [point_value(k) for k in range(NUM_KINDS)]
_POINTS_V = np.array(_POINTS, dtype=np.float32)
_HEURISTIC: dict = {}


class _NoCalls:
    chosen = ()
    pending = None


class MoveDecision:
    """The listed moves of a seat to act (``moves``: engine actions), from what the
    seat sees — its ``SeatView`` and ``Legal`` actions — so a bot lists the same moves
    as the environments do. ``seed`` seeds the sample when there are too many."""

    __slots__ = ("kind", "seat", "moves", "cards", "counts", "_set", "_features")

    def __init__(self, view, legal, variant, seed, max_moves: int = MAX_MOVES):
        seat = view.seat
        self.seat = seat
        self.cards: list = []
        self.counts = [0] * NUM_KINDS
        self._set = _NoCalls
        self.kind = kind = legal.kind
        n = len(legal)
        f = None
        if kind == "bury":
            moves, f = _burials(view, legal, variant, max_moves, seed)
        elif kind == "call":
            moves = _calls(view, legal, variant, max_moves, _rng(seed))
        elif kind == "takeback":
            moves = [Pass(seat), TakeBack(seat)]
        elif kind == "redeal":  # a weak hand: keep the deal, or ask for a redeal
            moves = [Pass(seat), RequestRedeal(seat)]
        elif n <= max_moves:
            moves = list(legal)
        else:  # a sample, in the listing's order
            moves = [legal[i] for i in sorted(_rng(seed).sample(range(n), max_moves))]
        if not moves:
            raise ValueError(f"seat {seat} has no move to list ({kind})")
        self.moves = moves
        # made now: the view and the variant are not kept (states are cloned and pickled)
        if f is None:
            f = features(view, variant, moves, kind, max_moves)
        self._features = f

    @classmethod
    def of_game(cls, game, seat: int, max_moves: int = MAX_MOVES) -> MoveDecision:
        """The environments' listing: the sample seeded by the game's seed and state."""
        return cls(game.view(seat), game.legal_actions(seat), game.variant,
                   f"{game.seed}:{game._stamp}:{seat}", max_moves)

    def features(self, max_moves: int | None = None) -> np.ndarray:
        """``max_moves × MOVE_FEATURES``: each listed move's features, then zero rows."""
        return self._features

    def mask(self) -> list:
        return list(range(len(self.moves)))

    def allows(self, a: int) -> bool:
        return 0 <= a < len(self.moves)


def _rng(seed) -> random.Random:
    """The sampling generator of a decision (made only when a list is sampled)."""
    return random.Random(f"moves:{seed}")


def _in_c() -> bool:
    return C_LISTING and lib is not None


def features(view, variant, moves, kind: str, max_moves: int) -> np.ndarray:
    """``max_moves × MOVE_FEATURES``: each move's features (see the module doc), then
    zero rows; in C when built (``sj_move_features``), else by the Python reference
    (``move_features`` and ``_trick_features``)."""
    if not _in_c():
        f = move_features(moves, kind, max_moves)
        _trick_features(view, variant, moves, kind, f)
        return f
    out = np.zeros((max_moves, MOVE_FEATURES), dtype=np.float32)
    n = len(moves)
    rows = bytearray(n * NUM_KINDS)
    passes = bytearray(n)
    for i, m in enumerate(moves):
        at = i * NUM_KINDS
        for c in _cards_of(m):
            rows[at + c] += 1
        if type(m) is Pass:
            passes[i] = 1
    r: object = ffi.NULL
    trick = b""
    partner = trick_pts = 0
    if view.trump_set:
        ctx = variant.context(view.level, view.trump)
        r = ctx._r
        if view.trick:
            trick, partner, trick_pts = _trick_now(view, ctx)
    rc = lib.sj_move_features(r, _KIND[SLOT.get(kind, kind)], bytes(rows), n,
                              bytes(passes), trick, len(view.trick) if trick else 0, partner,
                              trick_pts, ffi.from_buffer("float[]", out))
    if rc:
        raise ValueError(f"move features: rules core error {rc}")
    return out


def _trick_now(view, ctx) -> tuple[bytes, int, int]:
    """The trick so far as its plays' counts one after another, whether this seat's side
    is winning it (known: ``SeatView.same_side``), and its points."""
    trick = view.trick
    joined = b"".join(_counts(cards) for _, cards in trick)
    m = len(trick)
    w = trick[ctx._winner_of(joined, m) if m > 1 else 0][0]
    partner = int(view.same_side(w, view.seat) is True)
    return joined, partner, sum(_POINTS[c] for _, cards in trick for c in cards)


def move_features(moves, kind: str, max_moves: int) -> np.ndarray:
    """The rules-free features of ``moves`` (kind, cards, n_cards, points, is_pass,
    n_kinds), one row each, as array operations over the moves' card counts."""
    out = np.zeros((max_moves, MOVE_FEATURES), dtype=np.float32)
    n = len(moves)
    col = MOVE_LAYOUT.split(out[:n])
    col["kind"][:, _KIND[SLOT.get(kind, kind)]] = 1
    counts = col["cards"]
    rows: list[int] = []
    cols: list[int] = []
    for i, m in enumerate(moves):
        cards = _cards_of(m)
        rows.extend([i] * len(cards))
        cols.extend(cards)
        if type(m) is Pass:
            col["is_pass"][i] = 1
    if cols:
        np.add.at(counts, (np.array(rows), np.array(cols)), 1)
    col["n_cards"][:] = counts.sum(1)
    col["points"][:] = counts @ _POINTS_V
    col["n_kinds"][:] = (counts > 0).sum(1)
    return out


def _cards_of(m) -> tuple:
    cards = getattr(m, "cards", None)
    if cards is None:
        calls = getattr(m, "calls", None)
        cards = tuple(c for n, c in map(seen_call, calls) for _ in range(n)) if calls else ()
    return cards


_TABLES: dict = {}


def _tables(ctx) -> tuple:
    t = _TABLES.get(id(ctx))
    if t is None or t[0] is not ctx:
        strength = np.array([ctx.strength(k) for k in range(NUM_KINDS)], np.float32)
        trumps = np.array([ctx.effective_suit(k) == 4 for k in range(NUM_KINDS)], np.float32)
        t = _TABLES[id(ctx)] = (ctx, trumps, strength / max(float(strength.max()), 1.0))
    return t


def _trick_features(view, variant, moves, kind, out) -> None:
    """The rules-aware features (trumps, top, wins, partner, trick_pts) of the moves
    with cards."""
    if not view.trump_set:
        return
    ctx, trumps, strength = _tables(variant.context(view.level, view.trump))
    n = len(moves)
    col = MOVE_LAYOUT.split(out[:n])
    counts = col["cards"]
    has = col["n_cards"] > 0
    if kind == "call":
        has[:] = False  # a call's "cards" are ordinals of cards not played now
    if not has.any():
        return
    trick = view.trick
    partner = trick_pts = 0
    joined = b""
    if trick:
        joined, partner, trick_pts = _trick_now(view, ctx)
    col["trumps"][:] = np.where(has, counts @ trumps, 0)
    col["top"][:] = np.where(has, ((counts > 0) * strength).max(1), 0)
    col["partner"][:] = np.where(has, partner, 0)
    col["trick_pts"][:] = np.where(has, trick_pts, 0)
    if kind == "follow" and trick:
        m = len(trick)
        wins = col["wins"]
        for i, mv in enumerate(moves):
            wins[i] = ctx._winner_of(joined + _counts(mv.cards), m + 1) == m


def _counts(cards) -> bytes:
    c = bytearray(NUM_KINDS)
    for k in cards:
        c[k] += 1
    return bytes(c)


def _burials(view, legal, variant, max_moves, seed) -> tuple:
    """The heuristic bot's burial, then random burials (distinct), up to max_moves, with
    their features when C made them (else None)."""
    from ..bots.heuristic import HeuristicBot

    seat = view.seat
    bot = _HEURISTIC.get(id(variant))
    if bot is None or bot.variant is not variant:
        bot = _HEURISTIC[id(variant)] = HeuristicBot(variant, "moves")
    first = bot.act(view, legal)
    hand = [k for k in range(NUM_KINDS) for _ in range(view.hand[k])]
    count = legal.count
    total = comb(len(hand), count)
    # (C draws any burial: one that keeps to the variant's bury settings is Python's)
    if (_in_c() and view.trump_set and max_moves <= lib.SJ_MOVES_ROWS
            and legal.limit is None):
        from .cmoves import samples_in_c

        if samples_in_c():
            return _burials_c(view, variant, first, count, min(max_moves, total), seed,
                              max_moves)
    rng = _rng(seed)
    seen = {tuple(sorted(first.cards, reverse=True))}
    moves = [first]
    tries = 0
    while len(moves) < min(max_moves, total) and tries < 20 * max_moves:
        tries += 1
        pick = tuple(sorted(rng.sample(hand, count), reverse=True))
        if pick not in seen and legal.fits(pick):  # (the variant's bury settings)
            seen.add(pick)
            moves.append(Bury(seat, pick))
    return moves, None


def _burials_c(view, variant, first, count, limit, seed, max_moves) -> tuple:
    """``_burials`` in C (``sj_moves_burials``: CPython's draws, the same burials)."""
    ctx = variant.context(view.level, view.trump)
    m = ffi.new("sj_moves *")
    m.max_moves = max_moves
    key = seed_key(f"moves:{seed}")
    n = lib.sj_moves_burials(ctx._r, bytes(view.hand), count, _counts(first.cards), key,
                             len(key), limit, m)
    if n < 1:
        raise ValueError(f"burials: rules core error {n}")
    out = np.zeros((max_moves, MOVE_FEATURES), dtype=np.float32)
    out[:n] = np.frombuffer(ffi.buffer(m.features, n * MOVE_FEATURES * 4),
                            dtype=np.float32).reshape(n, MOVE_FEATURES)
    return Burials(first, bytes(ffi.buffer(m.rows, n * NUM_KINDS))), out


class Burials(Sequence):
    """Burials listed in C: the first as given, the others kept as rows of card counts
    and made ``Bury`` actions only when read (most are never chosen)."""

    __slots__ = ("first", "rows")

    def __init__(self, first, rows: bytes):
        self.first = first
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows) // NUM_KINDS

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if i == 0:
            return self.first
        row = self.rows[i * NUM_KINDS:(i + 1) * NUM_KINDS]
        return Bury(self.first.seat, tuple(k for k in range(NUM_KINDS - 1, -1, -1)
                                           for _ in range(row[k])))


def _by_card(call) -> tuple:
    """A call (ordinal, card) ordered by its card, then its ordinal."""
    return call[1], call[0]


def _calls(view, legal, variant, max_moves, rng) -> list:
    """The heuristic bot's call, then the other calls (all of them when they fit, else a
    sample), up to max_moves. The heuristic's comes first as a burial's does: the
    sensible calls (top cards of plain suits) are a few among thousands, and a random
    sample of them would hold none. The bot is a fresh one, so the call is a function of
    the view alone (a heuristic that remembered a burial listed earlier in this process
    would list otherwise)."""
    from ..bots.heuristic import HeuristicBot

    seat = view.seat
    first = HeuristicBot(variant, "moves").act(view, legal)
    singles = sorted({c for a in legal for c in a.calls}, key=_by_card)
    count = legal.count
    taken = tuple(sorted(first.calls, key=_by_card))
    if comb(len(singles), count) <= max_moves:
        picks = [p for p in combinations(singles, count) if p != taken]
    else:
        seen: set = {taken}
        while len(seen) < max_moves:
            seen.add(tuple(sorted(rng.sample(singles, count), key=_by_card)))
        picks = sorted(seen - {taken}, key=lambda p: [_by_card(c) for c in p])
    return [first] + [CallFriends(seat, p) for p in islice(picks, max_moves - 1)]
