"""Rules kept with a room: the resolved rules text and its fingerprint (so a restart, or
an edit of a served variant's file, never changes a table in progress), what differs
from the base, and the fields a room's state and replay carry. The checks themselves are
``shengji.variants.house`` (the same loader as the command line)."""

from __future__ import annotations

from ...errors import ShengjiError
from ...variants.house import canonical_text, fingerprint, rules_variant


def room_rules(variant, house=None) -> dict:
    """What a room stores of its rules. ``house``: checked HouseRules, else the served
    variant as it is now."""
    if house is not None:
        return {"text": house.text, "fingerprint": house.fingerprint, "base": house.base,
                "house": house.house, "changes": house.changes}
    text = canonical_text(variant.settings)
    return {"text": text, "fingerprint": fingerprint(text), "base": variant.name,
            "house": None, "changes": []}


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


