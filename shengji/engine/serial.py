"""JSON form of a game: the variant, the seed and the actions (which rebuild the state
exactly, as OpenSpiel serialises a state by its history) plus a snapshot of the state,
checked against the rebuilt one when reading.
"""

from __future__ import annotations

import json

from ..cards import format_counts
from ..errors import ShengjiError
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
    return {
        "format": FORMAT,
        "variant": game.variant_ref,
        "players": game.players,
        "seed": game.seed,
        "max_deals": game.max_deals,
        "actions": [a.to_dict() for a in game.actions],
        "state": snapshot(game),
    }


def game_from_dict(data: dict, variant=None):
    """Rebuild a game from ``game_to_dict`` output. ``variant`` overrides the stored name
    (a loaded Variant, for variants that are not files or built-ins)."""
    from .game import Game

    try:
        if data.get("format") != FORMAT:
            raise ShengjiError(f"game record: format {data.get('format')!r}, expected {FORMAT}")
        actions = [action_from_dict(a) for a in data["actions"]]
        if variant is None:
            from ..variants import load_variant

            # the table size is part of the record: a variant played with --seats
            variant = load_variant(data["variant"], players=data.get("players"))
        game = Game.replay(variant, data["seed"], actions, max_deals=data.get("max_deals"))
    except KeyError as e:
        raise ShengjiError(f"game record: missing key {e}") from None
    if "state" in data and data["state"] != snapshot(game):
        diff = sorted(k for k, v in snapshot(game).items() if data["state"].get(k) != v)
        raise ShengjiError(f"game record: the stored state differs from the replayed one in "
                           f"{', '.join(diff)} (edited record, or a changed variant?)")
    return game


def dumps(game) -> str:
    return json.dumps(game_to_dict(game), ensure_ascii=False)


def loads(text: str, variant=None):
    return game_from_dict(json.loads(text), variant)
