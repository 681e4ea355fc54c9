"""Actions a seat can take. Frozen and hashable; cards are kept as kind ids sorted by id
(descending), so two actions with the same cards in any order are equal.

``to_dict`` / ``action_from_dict`` give the JSON form used by replays and logs
(cards in the notation of CONFORMANCE.md, e.g. ``{"type": "Play", "seat": 2,
"cards": "HA HA"}``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import card_str, parse_cards
from ..errors import ShengjiError


def norm_cards(cards) -> tuple[int, ...]:
    """Tokens, a card string or kind ids → kind ids sorted by id, descending."""
    if isinstance(cards, tuple) and all(type(c) is int for c in cards):
        ids = list(cards)
        for c in ids:
            card_str(c)  # validates the id
    else:
        ids = parse_cards(cards)
    ids.sort(reverse=True)
    return tuple(ids)


def cards_text(cards) -> str:
    return " ".join(card_str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Action:
    seat: int

    def to_dict(self) -> dict:
        d = {"type": type(self).__name__, "seat": self.seat}
        if hasattr(self, "cards"):
            d["cards"] = cards_text(self.cards)
        if hasattr(self, "option"):
            d["option"] = self.option
        return d

    def __str__(self) -> str:
        extra = f" {cards_text(self.cards)}" if hasattr(self, "cards") else ""
        if hasattr(self, "option"):
            extra = f" option {self.option}"
        return f"{type(self).__name__}(seat {self.seat}{extra})"


@dataclass(frozen=True, slots=True)
class _CardAction(Action):
    cards: tuple[int, ...]

    def __post_init__(self):
        if not isinstance(self.seat, int):
            raise ShengjiError(f"{type(self).__name__}: seat must be an int, got {self.seat!r}")
        object.__setattr__(self, "cards", norm_cards(self.cards))

    @classmethod
    def trusted(cls, seat: int, cards: tuple[int, ...]):
        """Build from card ids already checked and sorted by id, descending (the
        engine's own listings); skips re-parsing on the hot path."""
        self = object.__new__(cls)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)
        return self


@dataclass(frozen=True, slots=True)
class Declare(_CardAction):
    """Show level cards or jokers while the cards are dealt (亮主 / 反主 / 加固).
    ``cards`` are all the cards of the declaration, including any the seat showed before."""


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline to declare at this moment of the deal."""


@dataclass(frozen=True, slots=True)
class TakeBack(Action):
    """Withdraw the declaration just made (``declare.takeback``; shengji.io bid takeback).
    Offered only to the seat that declared, at once, and once per deal."""


@dataclass(frozen=True, slots=True)
class Bury(_CardAction):
    """The dealer buries as many cards as the kitty held (扣底)."""


@dataclass(frozen=True, slots=True)
class Play(_CardAction):
    """Lead or follow with these cards. A lead of several structures is a throw (甩牌)."""


@dataclass(frozen=True, slots=True)
class ChooseForced(Action):
    """After a failed throw with several possible forced plays (seed 002), the chooser
    picks one by its index in the ``ThrowFailed`` event's ``options``."""

    option: int


ACTION_TYPES = {cls.__name__: cls for cls in (Declare, Pass, Bury, Play, ChooseForced, TakeBack)}


def action_from_dict(d: dict) -> Action:
    """The inverse of ``Action.to_dict``; a malformed record raises ShengjiError."""
    try:
        cls = ACTION_TYPES[d["type"]]
        seat = d["seat"]
        if cls is Pass or cls is TakeBack:
            return cls(seat)
        if cls is ChooseForced:
            return ChooseForced(seat, int(d["option"]))
        return cls(seat, d["cards"])
    except (KeyError, TypeError) as e:
        raise ShengjiError(
            f"malformed action record {d!r}: needs type (one of {', '.join(ACTION_TYPES)}), "
            f"seat and cards/option ({e})"
        ) from None
