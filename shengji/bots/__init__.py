"""Bots: one interface (``Bot.act(view, legal) -> action``), made by name.

    from shengji.bots import make_bot
    bot = make_bot("heuristic", variant, seed=1)

Built in: ``random`` (uniform over the listed legal actions, declares sometimes) and
``heuristic`` (rule-based). Bots see exactly what a frontend sees: a ``SeatView`` and the
``Legal`` actions of ``shengji.engine``.
"""

from . import heuristic, mc, random_bot  # noqa: F401  (register the built-in bots)
from .base import BOTS, Bot, Option, describe, make_bot, parse_spec, register

__all__ = ["BOTS", "Bot", "Option", "describe", "make_bot", "parse_spec", "register"]
