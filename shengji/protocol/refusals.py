"""Refusals in words for players: one plain sentence per reason code of an illegal action
(``IllegalAction.reason``, the ``reason`` of a protocol ``error``). The terminal fills them
in here (:func:`refusal_text`); the page gets the same templates through its generated
module ``web/static/known.js`` (shengji.frontends.web.known), so both say the same thing.

A template may name these fields, filled by whoever shows it:

- ``{lead}``: the cards led to the trick; ``{suit}``: the suit they count in ("trumps",
  "♠ spades"); ``{count}``: how many cards the decision takes; ``{detail}``: what the
  engine's sentence says after its first colon (which call, and why not).

The cards a player tried are said before the sentence ("You tried ♥A ♥A."), and the rule
behind a refusal (IllegalAction.rule) is not part of it: the page puts it behind a "why?"
link and the terminal prints it with ``--explain``.
"""

from __future__ import annotations

import re

#: reason code → a plain sentence (the engine's codes and the core's follow reasons)
REFUSALS: dict[str, str] = {
    "not_your_turn": "It is not your turn.",
    "wrong_phase": "That is not possible at this point of the deal.",
    "match_over": "The match is over.",
    "no_such_seat": "There is no such seat at this table.",
    "not_an_action": "That is not something a player can do.",
    "empty": "Choose the cards first.",
    "not_in_hand": "You do not hold those cards.",
    "wrong_count": "Choose exactly {count} cards.",
    "must_follow_suit": "You must follow {suit} while you hold any: the lead was {lead}.",
    "must_follow_shape": "You must match the lead's pairs and tractors as far as your {suit} "
                         "allow: the lead was {lead}.",
    "no_throws": "This variant has no throws: lead one single, pair or tractor.",
    "no_trump_throws": "This variant has no throws in trumps: lead one trump single, pair "
                       "or tractor.",
    "beatable_throw": "Cards you cannot see could beat part of that throw, and this variant "
                      "allows only throws nothing unseen can beat.",
    "several_suits": "A lead is all one suit (all trumps count as one suit).",
    "cannot_declare": "Those cards cannot declare trump at this level.",
    "cannot_overturn": "That does not beat the declaration standing.",
    "mixed": "A declaration shows cards of one suit, or jokers only.",
    "bad_call": "You cannot call those: {detail}.",
    "no_such_option": "That choice is not one of those offered.",
    "no_takeback": "This table does not allow taking back a play.",
    "nothing_to_take_back": "There is no play of yours to take back now: only your last "
                            "play, before the next player acts.",
}

#: refusals that break no rule of play (a player holds the cards it plays or it does not):
#: the rule the engine names with them is the phase's, so it is not shown behind "why?"
RULELESS = frozenset({"not_in_hand", "not_an_action", "no_such_seat"})

FIELD = re.compile(r"\{(\w+)\}")


def yours(message: str, seat: int | None) -> str:
    """The engine's sentence for ``seat``'s own player: "seat 0's" → "your", "seat 0" →
    "you"."""
    if seat is None:
        return message
    message = re.sub(rf"\bseat {seat}'s\b", "your", message)
    return re.sub(rf"\bseat {seat}\b", "you", message)


def detail_of(message: str) -> str:
    """The engine's sentence after its first colon ("seat 4 cannot call 1 BJ: call 1 BJ:
    BJ is a trump" → "call 1 BJ: BJ is a trump")."""
    return message.split(": ", 1)[1].rstrip(".") if ": " in message else ""


def refusal_text(reason: str, *, tried: str = "", lead: str = "", suit: str = "",
                 count: int | None = None, message: str = "") -> str:
    """The refusal of ``reason`` in words; ``message`` (the engine's sentence) when the
    reason has no template or a field it needs is unknown."""
    template = REFUSALS.get(reason)
    fields = {"lead": lead, "suit": suit, "count": "" if count is None else str(count),
              "detail": detail_of(message)}
    if template is None or any(not fields.get(f) for f in FIELD.findall(template)):
        return message or reason  # (it names what was tried itself)
    text = FIELD.sub(lambda m: fields[m.group(1)], template)
    return f"You tried {tried}. {text}" if tried and reason != "not_your_turn" else text
