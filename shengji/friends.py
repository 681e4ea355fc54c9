"""Finding friends (找朋友): the dealer's calls, which calls a variant allows, and who
joins the dealer's side as the called cards are played.

After burying, the dealer calls cards: ``"1 HA"`` is the first ♥A played in the deal,
``"2 SK"`` the second ♠K (docs/conformance.md notation). Whoever plays a called copy
joins the dealer's side; until then nobody's side is public. Sources: pagat "Zhao
Pengyou"; shengji.io ``core/src/settings.rs`` (``GameMode::FindingFriends``,
``FriendSelectionPolicy``, ``MultipleJoinPolicy``), ``game_state/exchange_phase.rs`` (which
calls are valid) and ``play_phase.rs`` (joining; the bonus level of a smaller side).

The knobs (variant key ``friends:``, docs/variants.md):

- ``calls``: how many calls; ``auto`` = players // 2 - 1 (shengji.io's default);
- ``may_call``: ``unrestricted`` (any card that is not a trump), ``trumps_included``,
  ``highest_not_allowed`` (nor the highest card of its suit), ``point_cards_not_allowed``
  (nor a 5, 10 or K — a K is allowed at level A);
- ``join_twice``: a seat already on the side that plays the called copy uses the call up
  (true, shengji.io ``Unrestricted``: the dealer goes short-handed) or the call passes to
  the next copy (false, ``NoDoubleJoin``);
- ``dealer_copies_count``: do copies the dealer plays count toward an ordinal (shengji.io:
  yes, every copy played counts);
- ``bonus_level``: ``smaller_side`` (a side short of friends that holds the deal rises one
  more level, shengji.io ``BonusLevelForSmallerLandlordTeam``) or ``none``;
- ``other_copy``: a call may name the *other* copy, ordinal 0 (``"0 HA"``, also
  ``"other HA"``): the copy of a card the dealer does not hold, fulfilled by the first copy
  another seat plays (StarsThu2016/tractor_private, "OTHER" with two decks: the dealer
  holds exactly one); the dealer must hold every copy but one;
- ``calls_before_theft``: with kitty theft the dealer calls right after its first burial,
  before the theft rounds (the same table).

A call never fulfilled leaves the dealer short-handed: the side is whoever joined.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .cards import card_str, parse_card, point_value, rank_of
from .errors import CardError, VariantError

MAY_CALL = ("unrestricted", "trumps_included", "highest_not_allowed", "point_cards_not_allowed")
BONUS_LEVEL = ("smaller_side", "none")
#: the ``friends:`` defaults (shengji.io's)
DEFAULTS = {"calls": "auto", "may_call": "unrestricted", "join_twice": True,
            "dealer_copies_count": True, "bonus_level": "smaller_side",
            "other_copy": False, "calls_before_theft": False}
ACE, KING = 12, 11

Call = tuple[int, int]  # (ordinal from 1, or 0 for the other copy; card kind id)
#: the ordinal of a call of the other copy (friends.other_copy)
OTHER = 0


# ------------------------------------------------------------------ notation

def parse_call(text) -> Call:
    """``"1 HA"`` (also ``"1HA"``, ``"1 ♥A"``) → (1, kind of HA); ``"0 HA"`` or
    ``"other HA"`` → (0, kind of HA), the other copy (friends.other_copy). A malformed
    call is a CardError naming it."""
    if isinstance(text, (tuple, list)) and len(text) == 2:
        ordinal, card = text
        card = parse_card(card) if isinstance(card, str) else card
    elif isinstance(text, str):
        t = text.strip()
        if t[:5].lower() == "other":
            t = "0 " + t[5:]
        digits = len(t) - len(t.lstrip("0123456789"))
        if not digits or not t[digits:].strip():
            raise CardError(f"call {text!r}: expected an ordinal and a card, e.g. \"1 HA\" "
                            "(the first ♥A played)")
        ordinal, card = int(t[:digits]), parse_card(t[digits:].strip())
    else:
        raise CardError(f"call {text!r}: expected a string such as \"1 HA\"")
    if isinstance(ordinal, bool) or not isinstance(ordinal, int) or ordinal < 0:
        raise CardError(f"call {text!r}: the ordinal counts from 1 (the first copy played), "
                        "or is 0 for the other copy")
    card_str(card)  # validates a kind id
    return (ordinal, card)


def parse_calls(calls) -> tuple[Call, ...]:
    """A list of calls, or one string of calls separated by commas: ``"1 HA, 2 SK"``."""
    if isinstance(calls, str):
        calls = [c for c in calls.split(",") if c.strip()]
    if not isinstance(calls, Iterable):
        raise CardError(f"calls {calls!r}: expected a list such as [\"1 HA\", \"2 SK\"]")
    return tuple(parse_call(c) for c in calls)


def call_text(call: Call) -> str:
    return f"{call[0]} {card_str(call[1])}"


def calls_text(calls: Sequence[Call]) -> list[str]:
    return [call_text(c) for c in calls]


# ------------------------------------------------------------------ the knobs

@dataclass(frozen=True)
class FriendRules:
    """The finding-friends settings of a variant at its table size."""

    calls: int
    may_call: str = "unrestricted"
    join_twice: bool = True
    dealer_copies_count: bool = True
    bonus_level: str = "smaller_side"
    other_copy: bool = False
    calls_before_theft: bool = False

    @classmethod
    def from_settings(cls, settings: Mapping, players: int) -> FriendRules:
        f = {**DEFAULTS, **(settings.get("friends") or {})}
        calls = f["calls"]
        if calls == "auto":
            calls = max(players // 2 - 1, 0)
        if isinstance(calls, bool) or not isinstance(calls, int) or not 0 <= calls <= players - 2:
            raise VariantError(f"friends.calls: {calls!r} with {players} players (allowed "
                               f"0..{players - 2}: the dealer's side must leave attackers, "
                               "or auto = players // 2 - 1)")
        if f["may_call"] not in MAY_CALL:
            raise VariantError(f"friends.may_call: {f['may_call']!r} is not one of "
                               f"{', '.join(MAY_CALL)}")
        if f["bonus_level"] not in BONUS_LEVEL:
            raise VariantError(f"friends.bonus_level: {f['bonus_level']!r} is not one of "
                               f"{', '.join(BONUS_LEVEL)}")
        return cls(calls, f["may_call"], bool(f["join_twice"]), bool(f["dealer_copies_count"]),
                   f["bonus_level"], bool(f["other_copy"]), bool(f["calls_before_theft"]))

    def short_handed(self, side: Sequence[int]) -> bool:
        """Is a side of this size smaller than the dealer and every friend called?"""
        return len(side) < self.calls + 1


def call_problem(call: Call, rules: FriendRules, ctx, copies: Sequence[int],
                 level: int, hand: Sequence[int] | None = None) -> str | None:
    """Why the variant forbids ``call`` in a deal (``ctx``: its core Context, ``copies``:
    the composition's copies per kind, ``level``: the deal's level rank, ``hand``: the
    dealer's card counts when known), else None."""
    ordinal, card = call
    text = call_text(call)
    if ordinal == OTHER:
        if not rules.other_copy:
            return f"call {text}: this table does not call the other copy (friends.other_copy)"
        if copies[card] < 2:
            return f"call {text}: the deck holds {copies[card]} of {card_str(card)}, no other copy"
        if hand is not None and hand[card] != copies[card] - 1:
            return (f"call {text}: the dealer calls the other copy holding every copy but one "
                    f"({copies[card] - 1} of {copies[card]}), not {hand[card]}")
    elif ordinal > copies[card]:
        held = copies[card]
        return (f"call {text}: the deck holds {held} cop{'y' if held == 1 else 'ies'} of "
                f"{card_str(card)}" + ("" if held else " (it is not in this deck)"))
    policy = rules.may_call
    if policy == "trumps_included":
        return None
    if ctx.effective_suit(card) == 4:
        return f"call {text}: {card_str(card)} is a trump (friends.may_call: {policy})"
    if policy == "highest_not_allowed":
        suit = ctx.effective_suit(card)
        top = max(ctx.strength(k) for k in range(52)
                  if ctx.effective_suit(k) == suit and copies[k])
        if ctx.strength(card) >= top:
            return f"call {text}: {card_str(card)} is the highest card of its suit " \
                   f"(friends.may_call: {policy})"
    if policy == "point_cards_not_allowed" and point_value(card):
        # shengji.io: at level A a K may be called (the highest card left in a suit)
        if not (level == ACE and rank_of(card) == KING):
            return f"call {text}: {card_str(card)} is a point card (friends.may_call: {policy})"
    return None


def calls_problem(calls: Sequence[Call], rules: FriendRules, ctx, copies: Sequence[int],
                  level: int, hand: Sequence[int] | None = None) -> str | None:
    """Why the dealer may not make these calls together, else None."""
    if len(calls) != rules.calls:
        return f"{len(calls)} call(s) given; this table calls {rules.calls} (friends.calls)"
    if len(set(calls)) != len(calls):
        return "the same call twice"
    for call in calls:
        problem = call_problem(call, rules, ctx, copies, level, hand)
        if problem:
            return problem
    return None


def allowed_calls(rules: FriendRules, ctx, copies: Sequence[int], level: int,
                  hand: Sequence[int] | None = None) -> list[Call]:
    """Every single call the variant allows in this deal (ordinal first, then card; the
    other copy, ordinal 0, after a card's ordinals)."""
    out = []
    first = OTHER if rules.other_copy else 1
    for card in range(54):
        for ordinal in [*range(1, copies[card] + 1), *([OTHER] if first == OTHER else [])]:
            if call_problem((ordinal, card), rules, ctx, copies, level, hand) is None:
                out.append((ordinal, card))
    return out


def fewest_calls(rules: FriendRules, copies: Sequence[int],
                 constant_ranks: Iterable[int]) -> tuple[int, int, int | None]:
    """(n, level, trump): the fewest single calls ``allowed_calls`` lists in any deal of a
    variant, over every level (13: NT) and trump (None: no trump), and such a deal.
    Worked out from the cards alone — a trump is a joker, a constant rank, the level's
    rank or the trump suit; a plain suit's highest card is its highest rank left
    (tests/test_friends.py holds it equal to ``allowed_calls`` over the core's
    contexts). A variant whose calls outnumber this leaves a dealer nothing to call."""
    if rules.may_call == "trumps_included":
        return sum(copies), 0, None
    constant = set(constant_ranks)
    worst: tuple[int, int, int | None] | None = None
    for level in range(14):
        for trump in (0, 1, 2, 3, None):
            n = 0
            for suit in range(4):
                if suit == trump:
                    continue
                ranks = [r for r in range(13) if r != level and r not in constant
                         and copies[suit * 13 + r]]
                if rules.may_call == "highest_not_allowed":
                    ranks = ranks[:-1]
                elif rules.may_call == "point_cards_not_allowed":
                    ranks = [r for r in ranks if not point_value(suit * 13 + r)
                             or (level == ACE and r == KING)]
                n += sum(copies[suit * 13 + r] for r in ranks)
            if worst is None or n < worst[0]:
                worst = (n, level, trump)
    assert worst is not None
    return worst


# ------------------------------------------------------------------ joining

class FriendTracker:
    """Counts the called cards as they are played and says who joins.

    ``side`` is the dealer's side, dealer first then in joining order; ``joined`` lists
    each fulfilled call as (seat, call index) — also a call fulfilled by a seat already on
    the side (``join_twice``), which uses it up without enlarging the side.
    """

    __slots__ = ("calls", "rules", "dealer", "seen", "done", "side", "joined")

    def __init__(self, calls: Sequence[Call], dealer: int, rules: FriendRules):
        self.calls = tuple(calls)
        self.rules = rules
        self.dealer = dealer
        self.seen = [0] * len(self.calls)
        self.done = [False] * len(self.calls)
        self.side = [dealer]
        self.joined: list[tuple[int, int]] = []

    def copy(self) -> FriendTracker:
        new = FriendTracker(self.calls, self.dealer, self.rules)
        new.seen, new.done = self.seen[:], self.done[:]
        new.side, new.joined = self.side[:], self.joined[:]
        return new

    @property
    def resolved(self) -> bool:
        """Every call fulfilled: every seat's side is public."""
        return all(self.done)

    def play(self, seat: int, cards: Iterable[int]) -> list[tuple[int, int, int, bool]]:
        """Count the cards ``seat`` plays; returns the calls fulfilled, as
        (seat, call index, card, already on the side)."""
        out: list[tuple[int, int, int, bool]] = []
        if self.resolved:
            return out
        counts = self.rules.dealer_copies_count or seat != self.dealer
        others = seat != self.dealer  # the other copy: only another seat's copies count
        for card in cards:
            for i, (ordinal, kind) in enumerate(self.calls):
                if self.done[i] or kind != card or not (others if ordinal == OTHER else counts):
                    continue
                self.seen[i] += 1
                if self.seen[i] < ordinal:
                    continue
                already = seat in self.side
                if already and not self.rules.join_twice:
                    self.seen[i] -= 1  # the call passes to the next copy played
                    continue
                self.done[i] = True
                self.joined.append((seat, i))
                if not already:
                    self.side.append(seat)
                out.append((seat, i, card, already))
        return out
