"""Variants: YAML data (``variants/*.yaml``), ``extends`` for house rules, and plugin
modules only where data cannot say it. See docs/variants.md.

    from shengji.variants import load_variant, list_variants
    v = load_variant("two-deck-80")          # a name, or a path to a YAML file
    v.score_deal(130)                        # ScoreOutcome(next='attackers', rise=1)

Modules: ``files`` (YAML + line numbers + schema), ``loading`` (extends, merge, checks),
``registry`` (built-in files and entry points), ``variant`` (the Variant object).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import VariantError
from .loading import resolve
from .registry import VARIANT_GROUP, all_sources, builtin_dir
from .variant import Variant

__all__ = ["Variant", "load_variant", "list_variants", "builtin_dir", "VARIANT_GROUP"]


def load_variant(
    ref: str | os.PathLike[str] | Mapping[str, Any] | Variant,
    plugins: Iterable[object] = (),
    name: str | None = None,
    players: int | None = None,
    allow_plugins: Iterable[str] = (),
) -> Variant:
    """Load a variant by built-in or registered name, YAML path, or settings mapping.

    :param plugins: extra plugin objects (modules or instances with hookimpls) to
        register after the variant's own, e.g. a test plugin.
    :param name: the name to give a variant built from a mapping.
    :param players: play this variant at another table size (``--seats``): the count
        overrides every file, and the variant's ``by_players`` table gives its deal.
    :param allow_plugins: module names the variant's ``plugins:`` may import (besides
        entry points and the process-wide ``shengji.plugins.allow_plugins``): a plugin
        is code, see docs/variants.md "Trust".
    :raises VariantError: with file, line, key path and allowed values.
    """
    if isinstance(allow_plugins, str):
        allow_plugins = [allow_plugins]
    from ..errors import ArgumentError

    if isinstance(plugins, (str, bytes, Mapping)) or not isinstance(plugins, Iterable):
        raise ArgumentError(f"plugins: expected a list of plugin objects, got "
                            f"{type(plugins).__name__}")
    if isinstance(allow_plugins, (bytes, Mapping)) or not isinstance(allow_plugins, Iterable):
        raise ArgumentError(f"allow_plugins: expected a list of module names, got "
                            f"{type(allow_plugins).__name__}")
    if not isinstance(ref, (str, os.PathLike, Mapping, Variant)):
        raise ArgumentError(f"variant: expected a name, a YAML path, a settings mapping or a "
                            f"Variant, got {type(ref).__name__} {ref!r:.40}")
    if isinstance(ref, Variant):
        if not plugins and (players is None or players == ref.players):
            return ref
        # another table size of a loaded variant keeps its name and its extra plugins
        name = name or ref.name
        plugins = plugins or ref.extra_plugins
        allow_plugins = (*ref.allow_plugins, *allow_plugins)
        ref = ref.source
    try:
        settings = resolve(ref, name=name, players=players)
    except VariantError:
        if players is None:
            raise
        _check_table_size(ref, name, players)  # a plain word on the sizes, not the file's
        raise
    v = Variant(settings, extra_plugins=plugins, allow_plugins=allow_plugins)
    v.source = ref
    v.players_override = players
    return v


def _check_table_size(ref: str | os.PathLike[str] | Mapping[str, Any], name: str | None,
                      players: int) -> None:
    """A fixed-size variant asked for at another table size (``--seats 6`` of a
    four-seat game) is refused naming the size it is played at (ArgumentError), not by
    the file's own complaint ("teams: 4 entries for 6 players")."""
    from ..errors import ArgumentError

    try:
        base = Variant(resolve(ref, name=name))
    except VariantError:
        return  # the file itself is broken: its own error says so
    if base.settings.get("by_players"):
        return  # the loader names the sizes of a by_players table itself
    sizes = [base.players]
    if players not in sizes:
        listed = ", ".join(map(str, sizes[:-1])) + (" or " if len(sizes) > 1 else "") \
            + str(sizes[-1])
        raise ArgumentError(f"{base.name} is played at {listed} seats, not {players}")


def list_variants(include_house: bool = False) -> list[str]:
    """Names of the built-in variants (fixed order), then entry-point variants; with
    ``include_house`` also the house-rule examples shipped in ``variants/house/``
    (named ``house/<file stem>``)."""
    return [s.name for s in all_sources() if include_house or s.kind != "house"]
