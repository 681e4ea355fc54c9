"""The bot interface: a bot sees what a frontend sees — one seat's ``SeatView`` and the
``Legal`` actions — and returns one action. Bots are made by name from the registry.

A bot is named by a *spec*: its name, then options as ``:key=value``
(``mc:budget=200ms:policy=greedy``). Each bot class declares its options in
``options``; an unknown name, option or value is a one-line ``ShengjiError`` that names
it and lists the choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ArgumentError, ShengjiError

if TYPE_CHECKING:
    from ..engine import Action, Legal, SeatView
    from ..variants import Variant


@dataclass(frozen=True)
class Option:
    """One bot option: ``parse(text) -> value`` (raises ValueError with a message),
    its default (already parsed) and a line of help."""

    parse: Callable[[str], Any]
    default: object
    help: str = ""


def int_range(lo: int, hi: int, what: str = "") -> Callable[[str], int]:
    """An Option's parser of an integer in lo..hi; ``what`` starts its message (the
    bot's name and the key are added by the spec parser)."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = lo - 1
        if not lo <= n <= hi:
            raise ValueError(f"{what + ': ' if what else ''}an integer {lo}..{hi}")
        return n
    return parse


class Bot:
    """Base class. ``variant`` is the loaded Variant (public rules), ``seed`` makes the
    bot's own random choices reproducible, ``options`` are this class's ``options``
    (parsed values)."""

    name = "bot"
    #: option name -> Option
    options: dict[str, Option] = {}
    #: True for a bot that reads the view at every decision: ``engine.runner.play`` then
    #: hands it the built ``SeatView`` instead of a lazy proxy (same fields, less cost)
    reads_view = False

    def __init__(self, variant: Variant, seed: int | str = 0, **options: Any) -> None:
        self.variant = variant
        self.seed = seed
        self.rng = random.Random(f"bot:{seed}")
        unknown = set(options) - set(self.options)
        if unknown:
            raise ShengjiError(_unknown_option(self.name, sorted(unknown)[0], self.options))
        self.config = {k: options.get(k, o.default) for k, o in self.options.items()}

    #: ``play_index(n) -> i`` (a method), for a bot whose every lead and follow is the
    #: i-th of the n plays listed, chosen from n alone (seeing neither the view nor the
    #: plays): ``act`` returns ``legal[self.play_index(len(legal))]`` for them. The
    #: runner then asks it directly and skips building the listing's actions and the
    #: view. Honoured only when the class that defines ``act`` defines it too (a
    #: subclass that overrides ``act`` alone is asked through ``act``).
    play_index: Callable[[int], int] | None = None
    #: ``declare_index(to_deal, n) -> i`` (a method), likewise for a bot whose every
    #: answer to a declaration listing (kind ``declare``: ``Pass``, then the n - 1
    #: declarations offered) is its i-th action, chosen from ``view.to_deal`` and n alone.
    declare_index: Callable[[int, int], int] | None = None

    def act(self, view: SeatView, legal: Legal) -> Action:
        raise NotImplementedError

    def advise(self, view: SeatView, legal: Legal) -> tuple[Action, str]:
        """``(action, reason)``: the action this bot would take and a short reason in
        words ("" when it has none). Used for hints; never changes what ``act`` does
        later (a bot that remembers its own decisions, e.g. its burial, remembers
        only what ``act`` did)."""
        return self.act(view, legal), ""


BOTS: dict[str, type[Bot]] = {}


def register(cls: type[Bot]) -> type[Bot]:
    BOTS[cls.name] = cls
    return cls


def _bot_list() -> str:
    return ", ".join(BOTS)


def _unknown_option(name: str, key: str, options: dict[str, Option]) -> str:
    known = ", ".join(options) if options else "none"
    return f"unknown option {key!r} for bot {name!r}; options: {known}"


def parse_spec(spec: str) -> tuple[type[Bot], dict[str, Any]]:
    """``"mc:budget=200ms"`` → (the bot class, parsed options). Raises ShengjiError with
    one line naming what is wrong."""
    if not isinstance(spec, str):
        raise ShengjiError(f"a bot is named by a string, not {type(spec).__name__}")
    name, *parts = spec.strip().split(":")
    cls = BOTS.get(name.strip())
    if cls is None:
        raise ShengjiError(f"unknown bot {name.strip()!r}; bots: {_bot_list()}")
    values: dict[str, Any] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        key = key.strip()
        if key not in cls.options:
            raise ShengjiError(_unknown_option(cls.name, key, cls.options))
        if not eq:
            raise ShengjiError(f"bot {cls.name!r}: option {key!r} needs a value ({key}=...: "
                               f"{cls.options[key].help})")
        try:
            values[key] = cls.options[key].parse(text.strip())
        except ValueError as e:
            raise ShengjiError(f"bot {cls.name!r}: {key}={text.strip()}: {e}") from None
    return cls, values


def parse_specs(text: str) -> list[str]:
    """``"random, heuristic"`` → ``["random", "heuristic"]``, each spec checked (the
    trainers' ``--opponents``: a list cycled deal by deal). Raises ShengjiError."""
    specs = [s.strip() for s in text.split(",") if s.strip()] if isinstance(text, str) else []
    if not specs:
        parse_spec(text)  # the one-line error of an empty or mistyped spec
    for spec in specs:
        parse_spec(spec)
    return specs


def make_bot(spec: str, variant: Variant, seed: int | str = 0) -> Bot:
    """A bot from its spec (``"heuristic"``, ``"mc:budget=500"``)."""
    from ..variants.variant import Variant

    cls, options = parse_spec(spec)
    if not isinstance(variant, Variant):
        raise ArgumentError(f"variant: expected a Variant (shengji.variants.load_variant), "
                            f"got {type(variant).__name__} {variant!r:.40}")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ArgumentError(f"seed: expected an integer or a string, got "
                            f"{type(seed).__name__} {seed!r:.40}")
    return cls(variant, seed, **options)


def describe(spec: str) -> dict[str, Any]:
    """The spec's name and every option value, defaults included (for results)."""
    cls, options = parse_spec(spec)
    out: dict[str, Any] = {"name": cls.name}
    for key, opt in cls.options.items():
        value = options.get(key, opt.default)
        out[key] = value.text if hasattr(value, "text") else value
    return out
