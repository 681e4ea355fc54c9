"""Bots: one interface (``Bot.act(view, legal) -> action``), made by name.

    from shengji.bots import make_bot
    bot = make_bot("heuristic", variant, seed=1)

Built in: ``random`` (uniform over the listed legal actions, declares sometimes),
``heuristic`` (rule-based), ``mc`` (information-set Monte Carlo over the C playouts),
``learned`` (a trained checkpoint, docs/rl.md) and ``policy:fn=MODULE.NAME`` (any policy).
Bots see exactly what a frontend sees: a ``SeatView`` and the ``Legal`` actions of
``shengji.engine``. A bot is named with its options: ``"mc:budget=500"``
(``shengji.bots.base``); ``advise(view, legal)`` gives its action with a reason.
"""

# the built-in bots register on import, in this order (the order messages list them in)
from . import random_bot  # noqa: F401, I001
from . import heuristic  # noqa: F401
from . import mc  # noqa: F401
from . import learned  # noqa: F401  (learned, policy: shengji.env, the rl extra)
from .base import BOTS, Bot, Option, describe, make_bot, parse_spec, parse_specs, register

__all__ = ["BOTS", "Bot", "Option", "describe", "make_bot", "parse_spec", "parse_specs",
           "register"]
