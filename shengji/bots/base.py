"""The bot interface: a bot sees what a frontend sees — one seat's ``SeatView`` and the
``Legal`` actions — and returns one action. Bots are made by name from the registry."""

from __future__ import annotations

import random

from ..errors import ShengjiError


class Bot:
    """Base class. ``variant`` is the loaded Variant (public rules), ``seed`` makes the
    bot's own random choices reproducible."""

    name = "bot"

    def __init__(self, variant, seed: int | str = 0):
        self.variant = variant
        self.rng = random.Random(f"bot:{seed}")

    def act(self, view, legal):
        raise NotImplementedError


BOTS: dict[str, type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    BOTS[cls.name] = cls
    return cls


def make_bot(name: str, variant, seed: int | str = 0) -> Bot:
    try:
        cls = BOTS[name]
    except KeyError:
        choices = ", ".join(sorted(BOTS))
        raise ShengjiError(f"unknown bot {name!r}: choose one of {choices}") from None
    return cls(variant, seed)
