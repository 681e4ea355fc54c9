"""Refusals in words for players: one plain sentence per reason code of an illegal action
(``IllegalAction.reason``, the ``reason`` of a protocol ``error``). The terminal fills them
in here (:func:`refusal_text`); the page gets the same templates through its generated
module ``web/static/known.js`` (shengji.frontends.web.known), so both say the same thing.

A template may name these fields, filled by whoever shows it:

- ``{lead}``: the cards led to the trick; ``{suit}``: the suit they count in ("trumps",
  "♠ spades"); ``{count}``: how many cards the decision takes; ``{detail}``: what the
  engine's sentence says after its first colon (which call, and why not).

The cards a player tried are said before the sentence ("You tried ♥A ♥A."), and the rule
behind a refusal (IllegalAction.rule) is not part of it: :data:`RULES` says each rule in
plain words, which the page's "why?" links to (static/rules.html) and the terminal
prints with ``--explain``. The page's own rules core (static/rulescore.js) refuses an
illegal follow with these same sentences before anything is sent.
"""

from __future__ import annotations

import re

from ..engine.phase import (
    RULE_BURY,
    RULE_BURY_LIMIT,
    RULE_CALL,
    RULE_CHOOSE,
    RULE_DECLARE,
    RULE_FOLLOW,
    RULE_LEAD,
    RULE_PLAY_TAKEBACK,
    RULE_TAKEBACK,
    RULE_TURN,
)

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
    "restricted_burial": "This table limits what the kitty may hold: {detail}.",
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
    # the web server's own refusal (rooms.py): a bot stands in for a player who was away
    "standin": "A stand-in bot is playing your seat until you join the room again.",
}

#: refusals that break no rule of play (a player holds the cards it plays or it does not):
#: the rule the engine names with them is the phase's, so it is not shown behind "why?"
RULELESS = frozenset({"not_in_hand", "not_an_action", "no_such_seat", "wrong_phase"})

#: the rule behind a refusal (IllegalAction.rule, the engine's citation of docs/rules.md
#: or docs/variants.md) → its anchor on the page's rules page, a title and what it says,
#: in words for players: no section numbers, no sources. A refusal whose rule is not
#: here (a plugin's) shows no "why?".
RULES: dict[str, dict[str, str]] = {
    RULE_FOLLOW: {
        "id": "following", "title": "Following suit and shape",
        "text": "Play as many cards as were led. While you hold cards of the led suit you "
                "must play them (all trumps count as one suit), and as far as your cards "
                "of that suit allow you must match the lead's pairs and tractors: a pair "
                "for a pair, a tractor for a tractor, else as many pairs as you can. Only "
                "when you run out of the suit may you play other cards."},
    RULE_LEAD: {
        "id": "leading", "title": "Leading and throws",
        "text": "The winner of the last trick leads: a single card, a pair, or a tractor "
                "(pairs of consecutive ranks), all of one suit, with all trumps counting "
                "as one suit. Where throws are allowed you may lead several of these at "
                "once, if nobody else can beat any of them; a throw that can be beaten "
                "fails, and only a beaten part is played. Some tables allow no throws in "
                "trumps, and some refuse a throw that any card you cannot see could "
                "beat."},
    RULE_TURN: {
        "id": "turns", "title": "Whose turn it is",
        "text": "The trick's leader plays first, then each next player in turn; nobody "
                "plays twice to a trick."},
    RULE_CHOOSE: {
        "id": "failed-throw", "title": "A failed throw",
        "text": "When a throw can be beaten, the thrower plays only a beaten part of it "
                "(at some tables the beaten part with the fewest cards). At some tables "
                "the next player chooses which part; the table's rules say who chooses, "
                "and what the failed throw costs."},
    RULE_DECLARE: {
        "id": "declaring", "title": "Declaring trump",
        "text": "While the cards are dealt, a player may show cards of the level being "
                "played to make their suit trumps. A later declaration must show more "
                "of them to overturn one that stands; the table's rules say which cards "
                "declare, whether jokers may, and how overturning works."},
    RULE_BURY: {
        "id": "burying", "title": "Burying the kitty",
        "text": "The dealer picks up the kitty and puts back as many cards as it held, "
                "face down. Its points may go to the attackers at the end of the deal."},
    RULE_BURY_LIMIT: {
        "id": "what-the-kitty-may-hold", "title": "What the kitty may hold",
        "text": "At some tables the kitty may not hold point cards, or trumps, or a card "
                "the dealer called; the table's rules say which. A hand with too few other "
                "cards buries as few of them as it can."},
    RULE_CALL: {
        "id": "calling", "title": "Calling friends",
        "text": "In finding friends, after burying, the dealer calls cards such as "
                "'the first ♥A played'; whoever plays that copy joins the dealer's side. "
                "The table's rules say how many calls there are and which cards may be "
                "called."},
    RULE_PLAY_TAKEBACK: {
        "id": "taking-back-a-play", "title": "Taking back a play",
        "text": "At a table that allows it you may take back your play until the next "
                "player acts, and play again; not a play that completes the trick, nor a "
                "failed throw."},
    RULE_TAKEBACK: {
        "id": "taking-back-a-declaration", "title": "Taking back a declaration",
        "text": "At a table that allows it, right after your declaration is accepted "
                "you are asked to keep it or take it back, once a deal."},
}

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


def rule_words(rule: str) -> str:
    """The rule behind a refusal in plain words ("Following suit and shape: Play as many
    cards as ..."); "" for a rule not in :data:`RULES`."""
    said = RULES.get(rule)
    return f"{said['title']}: {said['text']}" if said else ""
