"""JSON text and files of game records (the record itself: engine.record).

Reading is strict: a record that is not JSON, not an object, or has a field missing or
of the wrong type raises ``RecordError`` naming the field (``game record: max_deals:
'x' is not a number of deals``); an action that does not replay names its index.
A record names its variant, and a variant file may name plugins: they load only as the
trust model allows (docs/variants.md "Trust").
"""

from __future__ import annotations

import json
import os

from ..errors import RecordError
from ..safeload import MAX_RECORD_BYTES, load_json, read_text
from .game import Game
from .record import FORMAT, check_record, game_to_dict, rebuild, snapshot

__all__ = ["FORMAT", "check_record", "dumps", "game_from_dict", "game_to_dict", "load",
           "loads", "snapshot"]


def game_from_dict(data: dict, variant=None, source: str = "game record") -> Game:
    """Rebuild a game from ``game_to_dict`` output. ``variant`` overrides the stored name
    (a loaded Variant, for variants that are not files or built-ins). A malformed record
    raises RecordError naming the field; ``source`` is how messages name the record."""
    return rebuild(Game, data, variant, source)


def dumps(game) -> str:
    return json.dumps(game_to_dict(game), ensure_ascii=False)


def loads(text: str | bytes, variant=None, source: str = "game record"):
    """A game from its JSON text (size and nesting bounded, see shengji.safeload)."""
    data = load_json(text, source, RecordError, limit=MAX_RECORD_BYTES)
    return game_from_dict(data, variant, source)


def load(path: str | os.PathLike, variant=None):
    """A game from a saved JSON file; errors name the file."""
    from ..variants.files import display_path

    if not isinstance(path, (str, os.PathLike)):
        raise RecordError(f"game record: expected a file path, got {type(path).__name__} "
                          f"{path!r:.40}")
    shown = display_path(path)
    text = read_text(path, shown, RecordError, limit=MAX_RECORD_BYTES, what="game record")
    return loads(text, variant, source=shown)
