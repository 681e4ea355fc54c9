"""Refusals in words for players: one plain sentence per reason code of an illegal action
(``IllegalAction.reason``, the ``reason`` of a protocol ``error``). The terminal fills them
in here (:func:`refusal_text`); the page gets the same templates through its generated
module ``web/static/known.js`` (shengji.frontends.web.known), so both say the same thing.

A template may name these fields, filled by whoever shows it:

- ``{lead}``: the cards led to the trick; ``{suit}``: the suit they count in ("trumps",
  "♠ spades"); ``{count}``: how many cards the decision takes.

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
    "several_suits": "A lead is all one suit (all trumps count as one suit).",
    "cannot_declare": "Those cards cannot declare trump at this level.",
    "cannot_overturn": "That does not beat the declaration standing.",
    "mixed": "A declaration shows cards of one suit, or jokers only.",
    "bad_call": "This variant does not allow those friend calls.",
    "no_such_option": "That choice is not one of those offered.",
}

FIELD = re.compile(r"\{(\w+)\}")


def refusal_text(reason: str, *, tried: str = "", lead: str = "", suit: str = "",
                 count: int | None = None, message: str = "") -> str:
    """The refusal of ``reason`` in words; ``message`` (the engine's sentence) when the
    reason has no template or a field it needs is unknown."""
    template = REFUSALS.get(reason)
    fields = {"lead": lead, "suit": suit, "count": "" if count is None else str(count)}
    if template is None or any(not fields.get(f) for f in FIELD.findall(template)):
        text = message or reason
    else:
        text = FIELD.sub(lambda m: fields[m.group(1)], template)
    return f"You tried {tried}. {text}" if tried and reason != "not_your_turn" else text
