"""Small frozen records that pass between the engine, the variant hooks and frontends.

Seats are integers 0..players-1 in play order; a seat's team is ``teams[seat]`` (with four
players, seats 0 and 2 against 1 and 3). Levels are rank indices 0..12 ('2'..'A'); a side
whose level would rise past A (12) has *passed A*: ``level > 12``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Side = Literal["dealers", "attackers"]


@dataclass(frozen=True)
class Bid:
    """A trump declaration shown while dealing (亮主).

    ``cards`` are all the cards of this declaration, including cards the same seat showed
    before (reinforcing H10 to a pair is the bid ``H10 H10``). ``trump`` is the suit it
    names (0..3) or None for no trump (jokers). ``strength`` is the comparable value the
    ``shengji_declaration_strength`` hook gave it.
    """

    seat: int
    cards: tuple[int, ...]
    trump: int | None
    strength: tuple[int, ...]


@dataclass(frozen=True)
class NoBidOutcome:
    """What happens when the cards are dealt and nobody declared."""

    #: trump suit to play (0..3) or None for no trump
    trump: int | None
    #: deal the cards again instead of playing (seed 002, first deal)
    redeal: bool = False
    #: kitty card turned to choose the suit, if any (kind id)
    turned_card: int | None = None


@dataclass(frozen=True)
class ScoreOutcome:
    """Result of the scoring table for one deal: which side deals next and how many
    levels that side rises (0 when the attackers merely take over)."""

    next: Side
    rise: int


@dataclass(frozen=True)
class FailedThrow:
    """How a failed throw is resolved: the plays the leader may be forced to make
    (one option: forced; several: ``chooser`` picks one) and the penalty points the
    other side gains: ``penalty`` for the attempt, plus ``penalty_per_card`` for each
    card of the attempt that the forced play takes back (counted once it is known)."""

    options: tuple[tuple[int, ...], ...]
    chooser: int | None
    penalty: int = 0
    penalty_per_card: int = 0
