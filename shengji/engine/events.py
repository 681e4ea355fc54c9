"""Events: frozen records of what happened. The list of events is the history of a game.

Some events are private to one seat (the cards it was dealt, the kitty it took, the
cards it buried): ``private_to`` names that seat, and ``redacted()`` gives the copy every
other seat sees (cards hidden). ``to_dict`` gives the JSON form (cards in docs/conformance.md
notation); ``event_from_dict`` reads it back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields, replace
from typing import Any, ClassVar, TypeVar

from ..cards import parse_cards
from ..errors import RecordError, ShengjiError
from ..friends import Call, calls_text, parse_calls
from .actions import cards_text

#: fields that hold a group of cards (tuple of kind ids) / several groups
_CARD_FIELDS = {"cards", "attempted", "kitty"}
_CARD_LIST_FIELDS = {"options"}


@dataclass(frozen=True, slots=True)
class Event:
    #: seat that alone may see this event's cards; None = public (``_private``: a
    #: property giving the event's seat)
    private_to: ClassVar[int | None] = None

    def redacted(self) -> Event:
        """The event as seen by a seat other than ``private_to``."""
        return self

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in _CARD_FIELDS and v is not None:
                v = cards_text(v)
            elif f.name in _CARD_LIST_FIELDS:
                v = [cards_text(o) for o in v]
            elif f.name == "card" and v is not None:
                v = cards_text((v,))
            elif f.name == "calls":
                v = calls_text(v)
            elif isinstance(v, tuple):
                v = list(v)
            d[f.name] = v
        return d


E = TypeVar("E", bound=Event)


def _private(cls: type[E]) -> type[E]:
    """Mark an event class whose ``seat`` alone sees its cards."""
    setattr(cls, "private_to", property(lambda self: self.seat))  # noqa: B010 - a class var becomes a property
    return cls


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    deal: int
    attempt: int          # 0, or the number of redeals before this shuffle
    dealer: int | None    # None in a first deal: the declarations decide
    level: int            # level rank of the deal (0..12): the dealer's
    levels: tuple[int, ...]  # level of each seat (may exceed 12: passed A)
    first_seat: int       # seat that receives the first card


@_private
@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    seat: int
    card: int | None      # None when redacted

    def redacted(self) -> CardDealt:
        return replace(self, card=None)


@dataclass(frozen=True, slots=True)
class Declared(Event):
    seat: int
    cards: tuple[int, ...]
    trump: int | None
    strength: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class BidTakenBack(Event):
    seat: int
    cards: tuple[int, ...]  # the declaration withdrawn (declare.takeback)


@dataclass(frozen=True, slots=True)
class Redealt(Event):
    deal: int
    attempt: int
    kitty: tuple[int, ...]  # the kitty that was turned (public when redealing)


@dataclass(frozen=True, slots=True)
class RedealAsked(Event):
    seat: int             # the weak hand that asked (declare.weak_hand_redeal)
    deal: int
    attempt: int          # the shuffle dealt again


@dataclass(frozen=True, slots=True)
class TrumpSet(Event):
    trump: int | None
    declarer: int | None
    dealer: int
    level: int
    turned_card: int | None


@_private
@dataclass(frozen=True, slots=True)
class KittyTaken(Event):
    seat: int
    cards: tuple[int, ...] | None

    def redacted(self) -> KittyTaken:
        return replace(self, cards=None)


@_private
@dataclass(frozen=True, slots=True)
class Buried(Event):
    seat: int
    cards: tuple[int, ...] | None

    def redacted(self) -> Buried:
        return replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class ThrowFailed(Event):
    seat: int
    attempted: tuple[int, ...]
    options: tuple[tuple[int, ...], ...]  # forced plays the leader may have to make
    chooser: int | None   # seat that picks among several options, else None
    penalty: int


@dataclass(frozen=True, slots=True)
class ForcedChosen(Event):
    seat: int
    option: int
    penalty: int = 0  # the failed-throw penalty per card taken back, charged with the choice


@dataclass(frozen=True, slots=True)
class Played(Event):
    seat: int
    cards: tuple[int, ...] | None  # None where a table hides played cards (engine.view)
    trick: int
    lead: bool


@dataclass(frozen=True, slots=True)
class PlayTakenBack(Event):
    seat: int
    cards: tuple[int, ...]  # the play withdrawn, back in its seat's hand (table.play_takeback)
    trick: int


@dataclass(frozen=True, slots=True)
class TrickWon(Event):
    trick: int
    seat: int
    points: int | None    # None where a table hides the dealers' points (engine.view)
    attacker_points: int  # attackers' trick points so far this deal


@dataclass(frozen=True, slots=True)
class FriendsCalled(Event):
    """Finding friends: the dealer's calls, public (``"1 HA"``: the first ♥A played)."""

    seat: int
    calls: tuple[Call, ...]


@dataclass(frozen=True, slots=True)
class FriendJoined(Event):
    """A called copy was played: ``seat`` fulfils call ``call`` (its index). ``already``:
    the seat was on the dealer's side before (the call is used up, the side does not
    grow); else the seat joins it, public from now on."""

    seat: int
    call: int
    card: int
    already: bool


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    deal: int
    dealer: int
    trick_points: int
    kitty: tuple[int, ...]  # the buried kitty, turned face up after the deal
    kitty_points: int
    multiplier: int       # 0 when the dealers won the last trick
    kitty_bonus: int
    penalty: int          # net points the attackers gained from failed throws
    attacker_points: int  # what the scoring table saw
    next_side: str        # "dealers" or "attackers"
    rise: int
    rising: tuple[int, ...]  # the seats that rose (``rise`` levels each)
    # (a short-handed finding-friends side that holds: ``rise`` includes the bonus level)
    levels: tuple[int, ...]  # level of each seat after the rise
    next_dealer: int
    side: tuple[int, ...]  # the dealer's side at the end of the deal (dealer first)


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    winner: int           # the winning team (a seat's team id)
    levels: tuple[int, ...]  # level of each seat
    deals: int


def maker(cls: type[E]) -> Callable[..., E]:
    """A constructor of ``cls`` (a frozen, slotted event) that sets its slots directly:
    the same record as ``cls(*fields)``, for the engine's hot path (a dataclass
    ``__init__`` costs about twice as much). Fields are given by position."""
    setters = tuple(getattr(cls, f.name).__set__ for f in fields(cls))
    new = object.__new__
    if len(setters) != 4:
        def make_any(*values: object) -> E:
            e = new(cls)
            for set_, value in zip(setters, values, strict=True):
                set_(e, value)
            return e

        return make_any
    s0, s1, s2, s3 = setters  # four fields (Played, TrickWon: every play): unrolled

    def make(a: object, b: object, c: object, d: object) -> E:
        e = new(cls)
        s0(e, a)
        s1(e, b)
        s2(e, c)
        s3(e, d)
        return e

    return make


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (DealStarted, CardDealt, Declared, Passed, BidTakenBack, Redealt, TrumpSet,
                KittyTaken, Buried, ThrowFailed, ForcedChosen, Played, TrickWon, FriendsCalled,
                FriendJoined, DealScored, MatchOver, PlayTakenBack, RedealAsked)
}


def event_from_dict(d: dict[str, Any], where: str = "event record") -> Event:
    """The inverse of ``Event.to_dict``; a malformed record raises RecordError naming
    the field (``where`` says which record)."""
    if not isinstance(d, dict):
        raise RecordError(f"{where}: expected an object with a type, got {d!r:.60}")
    kind = d.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordError(f"{where}.type: {kind!r:.40} is not an event type (one of "
                          f"{', '.join(EVENT_TYPES)})")
    kw: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in d and f.default is not MISSING:
            continue  # a field added later, with its default (older records lack it)
        if f.name not in d:
            raise RecordError(f"{where}: missing key {f.name!r} (a {kind} has "
                              f"{', '.join(x.name for x in fields(cls))})")
        v = d[f.name]
        try:
            if f.name in _CARD_FIELDS and v is not None:
                v = tuple(parse_cards(v))
            elif f.name in _CARD_LIST_FIELDS:
                if not isinstance(v, list):
                    raise RecordError(f"a list of card groups, not {v!r:.40}")
                v = tuple(tuple(parse_cards(o)) for o in v)
            elif f.name == "card" and v is not None:
                ids = parse_cards(v)
                if len(ids) != 1:
                    raise RecordError(f"one card, not {v!r:.40}")
                v = ids[0]
            elif f.name == "calls":
                v = parse_calls(v)
            elif isinstance(v, list):
                v = tuple(v)
        except ShengjiError as e:
            raise RecordError(f"{where}.{f.name}: {e}") from None
        kw[f.name] = v
    return cls(**kw)
