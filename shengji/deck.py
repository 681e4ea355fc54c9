"""Deck composition as data: which cards a variant shuffles, and how many of each.

A *composition* is a count per card kind (54 kinds, ``shengji.cards``). It is built from a
number of packs (standard 52-card packs shuffled together), the jokers added to them and
the lowest rank each pack keeps (short packs, as shengji.io's special decks allow: a pack
from 5 up has 42 cards). pagat's finding-friends table mixes these: 8 players play three
packs with two big (red) jokers and no little (black) ones.

In a variant file (docs/variants.md)::

    deck:
      packs: 3
      big_jokers: 2        # in total, not per pack (default: one per pack)
      little_jokers: 0     # (default: one per pack)
      lowest_rank: "2"     # short packs: the ranks below are left out (default 2)

``decks: N`` alone still means N full packs of 54. The rules core bounds every card by
``max_copies``; the per-kind limits are ``counts`` (``PlayRules.copies``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from .cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    MAX_DECKS,
    NUM_KINDS,
    RANKS,
    card_str,
    parse_rank,
    point_value,
)
from .errors import CardError, VariantError

#: the keys of a variant's ``deck:`` mapping
DECK_KEYS = ("packs", "big_jokers", "little_jokers", "lowest_rank")


@dataclass(frozen=True)
class Composition:
    """The cards of one shuffle: ``packs`` packs, jokers in total, the lowest rank kept."""

    packs: int
    big_jokers: int
    little_jokers: int
    lowest_rank: int = 0  # rank index: 0 = '2' (full packs)

    def __post_init__(self) -> None:
        for name in ("packs", "big_jokers", "little_jokers", "lowest_rank"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise VariantError(f"deck: {name}: {v!r} is not an integer")
        if not 1 <= self.packs <= MAX_DECKS:
            raise VariantError(f"deck: packs: {self.packs} (the rules core plays 1..{MAX_DECKS} "
                               "packs)")
        for name in ("big_jokers", "little_jokers"):
            n = getattr(self, name)
            if not 0 <= n <= self.packs:
                raise VariantError(f"deck: {name}: {n} with {self.packs} pack(s) (allowed "
                                   f"0..{self.packs}: at most one of each joker per pack)")
        if not 0 <= self.lowest_rank <= 12:
            raise VariantError(f"deck: lowest_rank: {self.lowest_rank} is not a rank")

    @classmethod
    def full(cls, packs: int) -> Composition:
        """``packs`` full packs of 54 cards (what ``decks: N`` means)."""
        return cls(packs, packs, packs, 0)

    @classmethod
    def from_settings(cls, settings: Mapping) -> Composition:
        """From a variant's resolved settings: its ``deck`` mapping, else ``decks``."""
        deck = settings.get("deck")
        decks = settings.get("decks")
        if not deck:
            if decks is None:
                raise VariantError("no deck: set `decks: N` (N full packs) or a `deck:` mapping")
            return cls.full(decks)
        unknown = set(deck) - set(DECK_KEYS)
        if unknown:
            raise VariantError(f"deck: unknown key(s) {', '.join(sorted(unknown))} "
                               f"(allowed: {', '.join(DECK_KEYS)})")
        packs = deck.get("packs", decks)
        if packs is None:
            raise VariantError("deck: packs: missing (how many 52-card packs are shuffled)")
        if decks is not None and decks != packs:
            raise VariantError(f"decks: {decks} but deck: packs: {packs}; give one of them")
        low = deck.get("lowest_rank", "2")
        try:
            low = parse_rank(low)
        except CardError as e:
            raise VariantError(f"deck: lowest_rank: {e}") from None
        return cls(packs, deck.get("big_jokers", packs), deck.get("little_jokers", packs), low)

    # ------------------------------------------------------------------ derived data

    @cached_property  # a frozen value; the engine reads it at every deal and declaration
    def counts(self) -> tuple[int, ...]:
        """Copies of each of the 54 kinds."""
        c = [0] * NUM_KINDS
        for k in range(LITTLE_JOKER):
            if k % 13 >= self.lowest_rank:   # k is suited: its rank is k % 13
                c[k] = self.packs
        c[LITTLE_JOKER] = self.little_jokers
        c[BIG_JOKER] = self.big_jokers
        return tuple(c)

    @cached_property
    def total(self) -> int:
        """Number of cards shuffled."""
        return sum(self.counts)

    @property
    def points(self) -> int:
        """Points in the whole composition (100 per full pack)."""
        return sum(point_value(k) * n for k, n in enumerate(self.counts))

    @property
    def max_copies(self) -> int:
        """The most copies of any one kind (what the rules core calls ``decks``)."""
        return max(self.counts)

    @property
    def is_full(self) -> bool:
        return self == Composition.full(self.packs)

    def cards(self) -> list[int]:
        """Every card once per copy, by kind id (the unshuffled deck)."""
        return [k for k, n in enumerate(self.counts) for _ in range(n)]

    def describe(self) -> str:
        """'3 packs + 2 big jokers' — for messages."""
        if self.is_full:
            return f"{self.packs} full pack{'s' if self.packs > 1 else ''}"
        parts = [f"{self.packs} pack{'s' if self.packs > 1 else ''}"]
        if self.lowest_rank:
            parts[0] += f" from {RANKS[self.lowest_rank]} up"
        jokers = [f"{n} {what} joker{'s' if n > 1 else ''}"
                  for n, what in ((self.big_jokers, "big"), (self.little_jokers, "little")) if n]
        return " + ".join(parts + jokers) if jokers else parts[0] + ", no jokers"

    def check(self, cards: Iterable[int], what: str = "cards") -> tuple[int, ...]:
        """Kind ids → 54 counts; more copies of a kind than the composition holds (a
        joker it leaves out, a short pack's low card) is a CardError naming the card."""
        counts = [0] * NUM_KINDS
        for c in cards:
            counts[c] += 1
        limits = self.counts
        for k, n in enumerate(counts):
            if n > limits[k]:
                raise CardError(f"{what}: {n} cop{'y' if n == 1 else 'ies'} of {card_str(k)} but "
                                f"the deck ({self.describe()}) holds {limits[k]}")
        return tuple(counts)

    def to_dict(self) -> dict:
        return {"packs": self.packs, "big_jokers": self.big_jokers,
                "little_jokers": self.little_jokers, "lowest_rank": RANKS[self.lowest_rank]}


def deal_error(players: int, hand_size: int, kitty_size: int, comp: Composition) -> str | None:
    """None if ``players`` hands of ``hand_size`` plus the kitty are exactly the
    composition's cards, else the one-line reason naming the numbers."""
    dealt = players * hand_size + kitty_size
    if dealt == comp.total:
        return None
    return (f"{players} players × {hand_size} cards + {kitty_size} kitty = {dealt} cards, but "
            f"the deck ({comp.describe()}) has {comp.total}")
