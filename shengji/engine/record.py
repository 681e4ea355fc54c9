"""The record of a game, as JSON data: the variant, the seed and the actions (which
rebuild the state exactly, as OpenSpiel serialises a state by its history) plus a
snapshot of the state, checked against the rebuilt one when reading.

This module reads the game's state but imports no game: ``Game`` uses it for
``to_dict``/``from_dict``, and engine.serial (text and files) builds on both.

Reading is strict: a record that is not JSON, not an object, or has a field missing or
of the wrong type raises ``RecordError`` naming the field (``game record: max_deals:
'x' is not a number of deals``); an action that does not replay names its index.
A record names its variant, and a variant file may name plugins: they load only as the
trust model allows (docs/variants.md "Trust").
"""

from __future__ import annotations

import json
import os

from ..cards import format_counts
from ..errors import RecordError, ShengjiError
from .actions import action_from_dict, cards_text

FORMAT = 1


def snapshot(game) -> dict:
    """Every field of the state, as plain JSON data (hands, kitty, trick, levels, ...)."""
    return {
        "phase": game.phase,
        "to_act": game.to_act,
        "deal": game.deal_number,
        "attempt": game._attempt,
        "deals_played": game.deals_played,
        "dealer": game.dealer,
        "level": game.level,
        "levels": list(game.levels),
        "trump": game.trump,
        "winner": game.winner,
        "dealt": game._dealt,
        "bids": [{"seat": b.seat, "cards": cards_text(b.cards), "trump": b.trump,
                  "strength": list(b.strength)} for b in game._bids],
        "hands": [format_counts(h) for h in game.hands],
        "kitty": cards_text(sorted(game.kitty, reverse=True)),
        "buried": format_counts(game.buried),
        "played": format_counts(game.played),
        "leader": game.leader,
        "trick_number": game.trick_number,
        "trick": [[s, cards_text(c)] for s, c in game._trick],
        "trick_points": game.trick_points,
        "penalty": game.penalty,
        "forced_options": [cards_text(o) for o in game._choice[1]] if game._choice else [],
        "events": len(game.events),
    }


def game_to_dict(game) -> dict:
    out = {
        "format": FORMAT,
        "variant": game.variant_ref,
        "players": game.players,
        "seed": game.seed,
        "max_deals": game.max_deals,
        "actions": [a.to_dict() for a in game.actions],
        "state": snapshot(game),
    }
    if game.start_levels is not None:  # a host's room controls
        out["start_levels"] = list(game.start_levels)
    if game.first_dealer is not None:
        out["first_dealer"] = game.first_dealer
    if not isinstance(game.variant.source, (str, os.PathLike)):
        # rules that are no file (a table's house rules): the record carries them
        from ..variants.house import canonical_text
        out["rules"] = canonical_text(game.variant.settings)
    return out


def _short(value) -> str:
    """A value as the JSON record spells it (null, "x"), cut to 60 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_record(data, source: str = "game record", variant=None) -> None:
    """The fields of a record, checked before anything is replayed (RecordError)."""
    if not isinstance(data, dict):
        raise RecordError(f"{source}: expected a JSON object with format, variant, seed and "
                          f"actions, got {'null' if data is None else type(data).__name__}")
    for key in ("format", "seed", "actions") + (() if variant is not None else ("variant",)):
        if key not in data:
            raise RecordError(f"{source}: missing key '{key}'")
    if data["format"] != FORMAT or isinstance(data["format"], bool):
        raise RecordError(f"{source}: format: {_short(data['format'])}, expected {FORMAT}")
    if variant is None and (not isinstance(data["variant"], str) or not data["variant"]):
        raise RecordError(f"{source}: variant: {_short(data['variant'])} is not a variant name "
                          "or path")
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise RecordError(f"{source}: seed: {_short(seed)} is not an integer or a string")
    max_deals = data.get("max_deals")
    if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int)
                                  or max_deals < 1):
        raise RecordError(f"{source}: max_deals: {_short(max_deals)} is not a number of deals "
                          "(1 or more, or null)")
    if not isinstance(data["actions"], list):
        raise RecordError(f"{source}: actions: {_short(data['actions'])} is not a list of "
                          "actions")
    if "state" in data and not isinstance(data["state"], dict):
        raise RecordError(f"{source}: state: {_short(data['state'])} is not an object")


def rebuild(game_class, data: dict, variant=None, source: str = "game record"):
    """Rebuild a ``game_class`` game (``Game``) from ``game_to_dict`` output. ``variant``
    overrides the stored name (a loaded Variant, for variants that are not files or
    built-ins). A malformed record raises RecordError naming the field; ``source`` is
    how messages name the record."""
    check_record(data, source, variant)
    actions = [action_from_dict(a, f"{source}: actions[{i}]")
               for i, a in enumerate(data["actions"])]
    if variant is None:
        from ..variants import load_variant

        players = data.get("players")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise RecordError(f"{source}: players: {_short(players)} is not a number of seats")
        rules = data.get("rules")
        if rules is not None:
            from ..variants.house import rules_variant
            if not isinstance(rules, str):
                raise RecordError(f"{source}: rules: {_short(rules)} is not YAML text")
            try:  # data only: plugins load as the trust model allows
                variant = rules_variant(rules)
            except ShengjiError as e:
                raise RecordError(f"{source}: rules: {e}") from None
        else:
            # the table size is part of the record: a variant played with --seats
            variant = load_variant(data["variant"], players=players)
    try:
        game = game_class(variant, data["seed"], max_deals=data.get("max_deals"),
                          start_levels=data.get("start_levels"),
                          first_dealer=data.get("first_dealer"))
    except ShengjiError as e:
        raise RecordError(f"{source}: {e}") from None
    for i, action in enumerate(actions):
        try:
            game.apply(action)
        except ShengjiError as e:
            raise RecordError(f"{source}: actions[{i}] ({action}) does not replay: {e}") from e
    if "state" in data and data["state"] != snapshot(game):
        diff = sorted(k for k, v in snapshot(game).items() if data["state"].get(k) != v)
        raise RecordError(f"{source}: the stored state differs from the replayed one in "
                          f"{', '.join(diff)} (edited record, or a changed variant?)")
    return game
