"""Rules kept with a room: the resolved rules text and its fingerprint (so a restart, or
an edit of a served variant's file, never changes a table in progress), what differs
from the base, and the fields a room's state and replay carry. The checks themselves are
``shengji.variants.house`` (the same loader as the command line)."""

from __future__ import annotations

import weakref

from ...errors import ShengjiError
from ...variants.house import canonical_text, fingerprint, rules_variant


def room_rules(variant, house=None) -> dict:
    """What a room stores of its rules. ``house``: checked HouseRules, else the served
    variant as it is now."""
    if house is not None:
        return {"text": house.text, "fingerprint": house.fingerprint, "base": house.base,
                "house": house.house, "changes": house.changes}
    # a served variant's text is the same for each of its rooms: written once (the YAML
    # dump costs ~15 ms, which a flood of room creations would otherwise pay each time)
    cached = _SERVED_TEXT.get(variant)
    if cached is None or cached[0] is not variant.settings:
        text = canonical_text(variant.settings)
        cached = _SERVED_TEXT[variant] = (variant.settings, text, fingerprint(text))
    return {"text": cached[1], "fingerprint": cached[2], "base": variant.name,
            "house": None, "changes": []}


#: Variant -> (its settings object, canonical text, fingerprint); a reloaded variant is a
#: new object (and a replaced settings object is noticed), so nothing stale is served
_SERVED_TEXT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def stored_rules(settings: dict) -> dict | None:
    rules = settings.get("rules")
    return rules if isinstance(rules, dict) and isinstance(rules.get("text"), str) else None


def stored_variant(settings: dict):
    """The Variant of a stored room's rules (None for a room stored before rules were):
    the fingerprint must match, or the room is not restored."""
    rules = stored_rules(settings)
    if rules is None:
        return None
    if fingerprint(rules["text"]) != rules.get("fingerprint"):
        raise ShengjiError("stored rules do not match their fingerprint")
    variant = rules_variant(rules["text"], trusted=True)
    if fingerprint(canonical_text(variant.settings)) != rules["fingerprint"]:
        raise ShengjiError("stored rules load as different rules (a changed loader?)")
    return variant


def rules_fields(rules: dict) -> dict:
    """The rules in a room's state, its lookup and its replay."""
    return {"rules": rules["text"], "rules_fingerprint": rules["fingerprint"],
            "rules_base": rules.get("base"), "rules_house": rules.get("house"),
            "rules_changes": rules.get("changes") or []}


