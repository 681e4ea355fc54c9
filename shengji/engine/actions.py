"""Actions a seat can take. Frozen and hashable; cards are kept as kind ids sorted by id
(descending), so two actions with the same cards in any order are equal.

``to_dict`` / ``action_from_dict`` give the JSON form used by replays and logs
(cards in the notation of docs/conformance.md, e.g. ``{"type": "Play", "seat": 2,
"cards": "HA HA"}``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..cards import CARD_TOKENS, NUM_KINDS, card_str, parse_cards
from ..errors import RecordError, ShengjiError
from ..friends import Call, calls_text, parse_calls


def norm_cards(cards: str | Iterable[str] | Iterable[int]) -> tuple[int, ...]:
    """Tokens, a card string or kind ids → kind ids sorted by id, descending."""
    if isinstance(cards, tuple) and set(map(type, cards)) <= _INT:
        ids = sorted(cards, reverse=True)
        if ids and (ids[-1] < 0 or ids[0] >= NUM_KINDS):
            for c in cards:
                card_str(c)  # raises CardError naming the (first) bad id
        return tuple(ids)
    ids = parse_cards(cards)
    ids.sort(reverse=True)
    return tuple(ids)


_INT = frozenset({int})


def cards_text(cards: Iterable[int]) -> str:
    try:  # ids in range: a table lookup each (every view a server sends lists many cards)
        if all(type(c) is int and 0 <= c < NUM_KINDS for c in cards):
            return " ".join([CARD_TOKENS[c] for c in cards])
    except TypeError:
        pass
    return " ".join(card_str(c) for c in cards)  # raises CardError naming a bad id


def _check_seat(action: Action, seat: object) -> None:
    if type(seat) is not int or seat < 0:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ShengjiError(f"{type(action).__name__}: seat must be a seat number 0, 1, ..., "
                               f"got {seat!r}")


@dataclass(frozen=True, slots=True)
class Action:
    seat: int

    def __post_init__(self) -> None:
        _check_seat(self, self.seat)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": type(self).__name__, "seat": self.seat}
        if hasattr(self, "cards"):
            d["cards"] = cards_text(self.cards)
        if hasattr(self, "option"):
            d["option"] = self.option
        if hasattr(self, "calls"):
            d["calls"] = calls_text(self.calls)
        return d

    def __str__(self) -> str:
        extra = f" {cards_text(self.cards)}" if hasattr(self, "cards") else ""
        if hasattr(self, "option"):
            extra = f" option {self.option}"
        if hasattr(self, "calls"):
            extra = " " + ", ".join(calls_text(self.calls))
        return f"{type(self).__name__}(seat {self.seat}{extra})"


@dataclass(frozen=True, slots=True)
class _CardAction(Action):
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        _check_seat(self, self.seat)
        object.__setattr__(self, "cards", norm_cards(self.cards))

    @classmethod
    def trusted(cls: type[CA], seat: int, cards: tuple[int, ...]) -> CA:
        """Build from card ids already checked and sorted by id, descending (the
        engine's own listings); skips re-parsing on the hot path."""
        self = _new(cls)
        _set_seat(self, seat)  # the slots' own setters: what object.__setattr__ reaches
        _set_cards(self, cards)
        return self


CA = TypeVar("CA", bound=_CardAction)
_new = object.__new__
_set_seat = Action.__dict__["seat"].__set__
_set_cards = _CardAction.__dict__["cards"].__set__


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
class RequestRedeal(Action):
    """A weak hand asks for the deal to be dealt again (declare.weak_hand_redeal; 80fen
    完全造反). Offered, with ``Pass``, to each of the dealer's opponents whose hand is weak,
    once the trump is known and before the dealer takes the kitty."""


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

    def __post_init__(self) -> None:
        _check_seat(self, self.seat)
        if type(self.option) is not int or self.option < 0:
            raise ShengjiError(f"ChooseForced: option must be an index 0, 1, ..., "
                               f"got {self.option!r}")


@dataclass(frozen=True, slots=True)
class CallFriends(Action):
    """Finding friends (找朋友): after burying, the dealer calls cards — ``calls`` are
    (ordinal, card) pairs, ``"1 HA"`` = the first ♥A played (shengji.friends)."""

    calls: tuple[Call, ...]

    def __post_init__(self) -> None:
        _check_seat(self, self.seat)
        object.__setattr__(self, "calls", parse_calls(self.calls))


ACTION_TYPES = {cls.__name__: cls for cls in (Declare, Pass, Bury, Play, ChooseForced, TakeBack,
                                              CallFriends, RequestRedeal)}
#: the actions that carry nothing but their seat
PLAIN_ACTIONS = (Pass, TakeBack, RequestRedeal)
#: the actions that carry cards, by type name
CARD_ACTION_TYPES: dict[str, type[_CardAction]] = {c.__name__: c for c in (Declare, Bury, Play)}


def action_from_dict(d: dict[str, Any], where: str = "action record") -> Action:
    """The inverse of ``Action.to_dict``; a malformed record raises RecordError naming
    the field (``where`` says which record: ``game record: actions[3]``)."""
    needs = f"needs type (one of {', '.join(ACTION_TYPES)}), seat and cards/option/calls"
    if not isinstance(d, dict):
        raise RecordError(f"{where}: malformed action record {_short(d)}: an object that {needs}")
    kind = d.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError(f"{where}.type: malformed action record {_short(d)}: {needs}")
    seat = d.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise RecordError(f"{where}.seat: {_short(seat)} is not a seat number")
    if cls in PLAIN_ACTIONS:
        return cls(seat)
    if cls is CallFriends:
        try:
            return CallFriends(seat, parse_calls(d.get("calls")))
        except ShengjiError as e:
            raise RecordError(f"{where}.calls: {e}") from None
    if cls is ChooseForced:
        option = d.get("option")
        if isinstance(option, bool) or not isinstance(option, int) or option < 0:
            raise RecordError(f"{where}.option: {_short(option)} is not an index 0, 1, ...")
        return ChooseForced(seat, option)
    cards = d.get("cards")
    if not isinstance(cards, (str, list)):
        raise RecordError(f"{where}.cards: {_short(cards)} is not a card string such as "
                          "'HA HA'")
    try:  # the card text parsed first: the field holds card ids
        return CARD_ACTION_TYPES[cls.__name__](seat, norm_cards(cards))
    except ShengjiError as e:
        raise RecordError(f"{where}.cards: {e}") from None


def _short(value: object) -> str:
    """A value as the JSON record spells it (null, "x"), cut to 60 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
