"""What a bot knows of the friend calls (finding friends) from its view alone: which of
its cards would make it join the dealer's side now, which would use up the dealer's own
call, and how to speak of a seat whose side is not public yet.

Every answer replays the public plays of this deal through a ``FriendTracker``, as the
engine counts them (``friends.py``): the view never says who holds a called card.
"""

from __future__ import annotations

from ..cards import card_str
from ..friends import FriendTracker


def _tracker(view, rules) -> FriendTracker:
    t = FriendTracker(view.calls, view.dealer, rules)
    for trick in view.tricks + ((view.trick,) if view.trick else ()):
        for seat, cards in trick:
            t.play(seat, cards)
    return t


def joining_cards(view, rules) -> tuple:
    """The cards whose play now would make this seat (not the dealer) join the dealer's
    side: the called copy that comes next, by the variant's counting."""
    if view.seat == view.dealer or view.sides_known or not view.calls:
        return ()
    t = _tracker(view, rules)
    if view.seat in t.side:
        return ()
    hand = view.hand
    return tuple(card for i, (ordinal, card) in enumerate(t.calls)
                 if not t.done[i] and hand[card] and t.seen[i] + 1 >= ordinal)


def spending_cards(view, rules) -> dict:
    """For the dealer: its cards whose play now would fulfil one of its own open calls
    (its copies count, and a side member's play uses a call up: ``dealer_copies_count``
    and ``join_twice``), so that call finds no friend. Card → the call's text ("1st ♠A")."""
    if (view.seat != view.dealer or view.sides_known or not view.calls
            or not (rules.dealer_copies_count and rules.join_twice)):
        return {}
    t = _tracker(view, rules)
    hand = view.hand
    return {card: call_words(ordinal, card) for i, (ordinal, card) in enumerate(t.calls)
            if not t.done[i] and hand[card] and t.seen[i] + 1 >= ordinal}


def call_words(ordinal: int, card: int) -> str:
    """(1, ♠A) → "1st ♠A"; (0, ♠A) → "other ♠A" (friends.other_copy)."""
    suffix = ("th" if 10 <= ordinal % 100 <= 20
              else {1: "st", 2: "nd", 3: "rd"}.get(ordinal % 10, "th"))
    text = card_str(card)
    symbol = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}.get(text[0])
    which = "other" if ordinal == 0 else f"{ordinal}{suffix}"
    return f"{which} {symbol + text[1:] if symbol else text}"


def ally(view, seat: int) -> str:
    """How advice names ``seat``, winning for this seat's side: "partner" only when the
    view says they share a side; a seat about to join names the dealer it will join."""
    if view.same_side(seat, view.seat):
        return "partner"
    return "the dealer" if seat == view.dealer else "the dealer's side"
