"""What the heuristic bot reads of cards, kept apart from its decisions: core Hands and
suit decompositions of card groups (bounded caches: a deal makes a few hundred), the
winner and the follows of single cards, and the structures the unseen cards could
hold. Shared with the Monte-Carlo bot through the heuristic.
"""

from __future__ import annotations

from ..cards import NUM_KINDS
from ..core import Context
from ..core import _hand as _trusted_hand
from ..memo import remember

TRUMP = 4
#: suit decompositions kept (per context, by cards): a suit changes only when played.
#: A deal has one context and decomposes a few dozen suit holdings (at most ~50 seen),
#: so a few recent contexts and DECOMPOSED_SIZE entries each (cleared when full) keep
#: every hit; unbounded per context (20,000 × 64 contexts) it reached ~15 MB.
DECOMPOSED_CONTEXTS = 4
DECOMPOSED_SIZE = 1024
#: id(context) → (the context, {card tuple: its components})
_DECOMPOSED: dict[int, tuple[Context, dict[tuple[int, ...], list]]] = {}
#: core Hands of plays, by card tuple (immutable; most plays recur). A deal makes at
#: most a few hundred (two decks ~200, three ~300): two generations of HANDS_SIZE
#: (``shengji.memo``), at most ~2 MB; common plays recur across deals and stay found.
#: 50,000 entries used to hold ~60 MB.
HANDS_SIZE = 4096
_HANDS: dict = {}
_HANDS_OLD: dict = {}


def _hand(cards: tuple):
    h = _HANDS.get(cards)
    if h is None:
        h = _HANDS_OLD.get(cards)
        if h is None:
            # card ids from the engine's listings and views (valid): counts straight to
            # the core's bytes, no parsing
            counts = [0] * NUM_KINDS
            for c in cards:
                counts[c] += 1
            h = _trusted_hand(bytes(counts))
        remember(_HANDS, _HANDS_OLD, HANDS_SIZE, cards, h)
    return h


def _components(ctx, cards: tuple) -> list:
    """(cards, width, length) of each component of a one-suit card group."""
    entry = _DECOMPOSED.get(id(ctx))  # by identity: hashing a Context hashes its rules
    if entry is None or entry[0] is not ctx:
        if len(_DECOMPOSED) >= DECOMPOSED_CONTEXTS:
            _DECOMPOSED.clear()
        entry = _DECOMPOSED[id(ctx)] = (ctx, {})
    known = entry[1]
    got = known.get(cards)
    if got is None:
        if len(known) >= DECOMPOSED_SIZE:
            known.clear()
        got = known[cards] = [(_cards_of(c.cards), c.width, c.length)
                              for c in ctx.decompose(_hand(cards))]
    return got


#: card lists of core Hands (components of singles and tuples are shared Hands); as
#: bounded as ``_HANDS``
_CARDS: dict = {}
_CARDS_OLD: dict = {}


def _cards_of(hand) -> list:
    got = _CARDS.get(hand)
    if got is None:
        got = _CARDS_OLD.get(hand)
        if got is None:
            got = hand.cards()
        remember(_CARDS, _CARDS_OLD, HANDS_SIZE, hand, got)
    return got


def single_winner(plays, eff, st) -> int:
    """Index of the winning play when every play is one card: the highest of the led
    suit, unless trumped (a side suit led), then the highest trump; the first of equals
    wins (semantics §7, one card each)."""
    lead = plays[0][0]
    suit = eff[lead]
    win, best, ruff = 0, st[lead], False
    for j in range(1, len(plays)):
        k = plays[j][0]
        ks, s = eff[k], st[k]
        if ks == suit and not ruff and s > best:
            win, best = j, s
        elif suit != TRUMP and ks == TRUMP and (not ruff or s > best):
            win, best, ruff = j, s, True
    return win


def single_follows(hand, suit: int, eff) -> list[int]:
    """The kinds a seat may follow a single card of effective suit ``suit`` with: its
    cards of that suit, else any card (semantics §4, one card led)."""
    # in the engine's listing order (its judgement keeps the first of equals)
    kinds = [k for k in _suit_desc(eff)[suit] if hand[k]]
    return kinds or [k for k in range(NUM_KINDS) if hand[k]]


#: per effective-suit table (by identity, with the table kept): each suit's kinds, ids
#: descending
_SUIT_DESC: dict = {}


def _suit_desc(eff) -> list:
    entry = _SUIT_DESC.get(id(eff))
    if entry is None or entry[0] is not eff:
        if len(_SUIT_DESC) > 64:
            _SUIT_DESC.clear()
        by_suit: list = [[], [], [], [], []]
        for k in range(NUM_KINDS - 1, -1, -1):
            by_suit[eff[k]].append(k)
        entry = _SUIT_DESC[id(eff)] = (eff, by_suit)
    return entry[1]


class _Unseen:
    """The cards this seat has not seen, and which structures they could hold."""

    __slots__ = ("counts", "eff", "st", "_levels")

    def __init__(self, counts, eff, st):
        self.counts, self.eff, self.st = counts, eff, st
        self._levels: dict = {}  # width -> [sorted strengths] per effective suit

    def levels(self, suit: int, w: int) -> list[int]:
        """Sorted distinct strengths of suit ``suit`` held ≥ ``w`` times among the unseen
        (one pass over the cards per width, for every suit at once)."""
        by_suit = self._levels.get(w)
        if by_suit is None:
            eff, st = self.eff, self.st
            sets: list = [set(), set(), set(), set(), set()]
            for k, n in enumerate(self.counts):
                if n >= w:
                    sets[eff[k]].add(st[k])
            by_suit = self._levels[w] = [sorted(x) for x in sets]
        return by_suit[suit]

    def beatable(self, cards, w: int, length: int) -> bool:
        """Could the unseen cards hold a structure of this shape above ``cards``?"""
        st = self.st
        top = max([st[c] for c in cards]) if len(cards) > 1 else st[cards[0]]
        have = self.levels(self.eff[cards[0]], w)
        if length == 1:
            return bool(have) and have[-1] > top
        run = 0
        prev = None
        for s in have:
            run = run + 1 if prev is not None and s == prev + 1 else 1
            prev = s
            if run >= length and s > top:
                return True
        return False


def _one_suit(cards, eff) -> bool:
    s = eff[cards[0]]
    for c in cards:
        if eff[c] != s:
            return False
    return True


def _shape(cards) -> tuple[int, int]:
    kinds: dict = {}
    for c in cards:
        kinds[c] = kinds.get(c, 0) + 1
    return min(kinds.values()), len(kinds)
