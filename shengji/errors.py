"""Typed errors. Every error the library raises on bad input derives from ShengjiError.

Each carries a message that names the offending card, key or file and the rule broken,
so a CLI can print it as it is and a caller can catch one type.
"""

from __future__ import annotations


class ShengjiError(Exception):
    """Base class of every error shengji raises on purpose."""


class CardError(ShengjiError, ValueError):
    """A card token or card group could not be read (malformed token, unknown suit/rank)."""


class HandError(ShengjiError, ValueError):
    """A group of cards is impossible: more copies than the decks hold, a play not in the
    hand, an empty lead, cards of several suits where one suit is required, ..."""


class RulesError(ShengjiError, ValueError):
    """A rule setting is invalid (bad deck count, unknown policy, malformed ladder, ...)."""


class IllegalPlay(ShengjiError):
    """A play breaks a rule of the game. ``reason`` is a machine-readable code
    (see ``shengji.core.FollowReason``), ``rule`` a human sentence naming the rule."""

    def __init__(self, message: str, reason: str = "illegal", rule: str = ""):
        super().__init__(message)
        self.reason = reason
        self.rule = rule


class ArgumentError(ShengjiError, ValueError):
    """A public function or method was called with an argument of the wrong type or out
    of range (a seat that is not a seat, a mapping where a list is meant, ...). The
    message names the argument."""


def check_int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is an integer (a bool is not) within ``low..high`` (either bound may
    be None); otherwise an ArgumentError naming ``what``. For public entry points."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{what}: expected an integer, got {type(value).__name__} "
                            f"{value!r:.40}")
    if (low is not None and value < low) or (high is not None and value > high):
        allowed = (f"{low}..{high}" if low is not None and high is not None
                   else f"at least {low}" if low is not None else f"at most {high}")
        raise ArgumentError(f"{what}: {value} is out of range ({allowed})")
    return value


class RecordError(ShengjiError, ValueError):
    """A saved game (or an action record) is malformed: not JSON, not an object, a field
    missing or of the wrong type, an action that does not replay. The message names the
    field, e.g. ``game record: actions[3].option: 'abc' is not an integer``."""


class CheckpointError(ShengjiError, ValueError):
    """A trained network's file (``shengji.env.qnet``: the ``learned`` bot's model) is
    missing or malformed. The message names the file and what is wrong, e.g.
    ``model.npz: array Ws has shape (12, 8); a network of 128 units needs (1405, 128)``."""


class VariantError(ShengjiError):
    """A variant file or plugin is broken. The message names the file, line and key path."""

    #: one line per problem, when a file failed its schema check (set by ``validate``)
    problems: list[str]
