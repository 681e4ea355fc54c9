"""Resolving a variant reference: ``extends`` chains, merging, checks beyond the schema.

A reference is a built-in / house / entry-point name, or a path to a YAML file (an
``extends`` path is relative to the file that names it). Files are merged root first:
mappings merge key by key, any other value (lists included) is replaced, except
``plugins``, which accumulate, and ``deck`` and each ``by_players`` entry, which a later
file replaces whole (a deck is one composition). Checks that need the values (shapes in
``following``, table order, deal sizes) report the file, line and key like the schema does.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from ..builtin_rules import DEFAULTS
from ..cards import parse_level, parse_rank
from ..deck import Composition, deal_error
from ..errors import RulesError, ShengjiError, VariantError
from ..rules import parse_pattern, parse_shape
from . import registry
from .files import VariantFile, display_path, from_mapping, read_file

ROOT_KEYS = ("decks", "hand_size", "kitty_size")


@dataclass
class Resolved:
    """A merged variant: its name, its files (root first), settings and plugin names."""

    name: str
    files: list[VariantFile]
    settings: dict
    #: (plugin name, where it was named: "file:line: plugins[i]")
    plugins: list[tuple[str, str]]
    #: plugin names given by a variant an installed package ships (built-in, house or
    #: entry point): as trusted as the package (see shengji.plugins, trust model)
    trusted_plugins: set = field(default_factory=set)

    @property
    def path(self) -> Path | None:
        return self.files[-1].path


def _identity(vf: VariantFile) -> str:
    """What makes two links of an extends chain the same file (for cycle detection)."""
    return str(vf.path.resolve()) if vf.path is not None else f"<mapping {id(vf.data)}>"


def _open(ref: str, base: Path | None, where: str) -> tuple[VariantFile, str | None]:
    """One reference → (its file, the registry name it was found under, if any)."""
    prefix = f"{where}: " if where else ""
    if ref.endswith((".yaml", ".yml")):
        path = Path(ref)
        if base is not None and not path.is_absolute():
            path = base / path
        if not path.is_file():
            raise VariantError(f"{prefix}no such variant file {display_path(path)}")
        return read_file(path), None
    src = registry.find(ref)
    if src is not None:
        if src.mapping is not None:
            return from_mapping(src.mapping, origin=f"<entry point {src.name}>"), src.name
        assert src.path is not None  # a Source holds a mapping or a path
        return read_file(src.path), src.name
    path = Path(ref) if base is None else base / ref
    if path.is_file():
        return read_file(path), None
    known = [s.name for s in registry.all_sources()]
    close = difflib.get_close_matches(str(ref), known, n=2, cutoff=0.8)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    raise VariantError(f"{prefix}no variant named {ref!r} ({hint}known: {', '.join(known)}; "
                       "or give a .yaml path)")


def _check_file(vf: VariantFile) -> None:
    """Value checks the schema cannot state, each with the file and line."""
    d = vf.data
    if "extends" not in d and "by_players" not in d:
        missing = [k for k in ROOT_KEYS if k not in d and not (k == "decks" and "deck" in d)]
        if missing:
            raise vf.error(
                (), f"missing key(s) {', '.join(missing)}: a variant that does not "
                "`extends` another must set decks (or deck), hand_size and kitty_size, "
                "or give them per player count in by_players"
            )
    for count in d.get("by_players") or {}:
        if not (isinstance(count, int) and not isinstance(count, bool) and 2 <= count <= 12):
            raise vf.error(("by_players", count), f"{count!r} is not a player count 2..12")
    following = (d.get("play") or {}).get("following") or {}
    for shape, ladder in following.items():
        try:
            parse_shape(shape)
        except RulesError as e:
            raise vf.error(("play", "following", shape), f"bad led shape: {e}") from None
        for i, pattern in enumerate(ladder):
            try:
                parse_pattern(pattern)
            except RulesError as e:
                raise vf.error(("play", "following", shape, i), f"bad pattern: {e}") from None
    table = (d.get("scoring") or {}).get("table") or []
    for i in range(1, len(table)):
        if table[i]["below"] <= table[i - 1]["below"]:
            raise vf.error(
                ("scoring", "table", i, "below"),
                f"{table[i]['below']} must be greater than the row before it "
                f"({table[i - 1]['below']}): rows go from low points to high",
            )


def merge(base: dict, over: Mapping) -> dict:
    """Deep merge: mappings key by key, everything else replaced."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def resolve(ref: str | PathLike[str] | Mapping, name: str | None = None,
            players: int | None = None) -> Resolved:
    """Follow ``extends`` from a reference (name, path or settings mapping) to its root.
    ``players`` overrides the player count (a CLI option): it is applied above every
    file, and the ``by_players`` table then gives that count's deck and deal."""
    chain: list[VariantFile] = []
    seen: list[str] = []
    shipped: set[int] = set()  # id() of the files that came from the registry
    if isinstance(ref, Mapping):
        vf, src_name = from_mapping(ref), None
    else:
        vf, src_name = _open(str(ref), None, "")
    first_name = name or src_name
    while True:
        if src_name is not None:
            shipped.add(id(vf))
        ident = _identity(vf)
        if ident in seen:
            cycle = " → ".join(display_path(f.path) for f in chain) + f" → {display_path(vf.path)}"
            raise chain[-1].error(("extends",), f"extends cycle: {cycle}")
        seen.append(ident)
        _check_file(vf)
        chain.append(vf)
        parent = vf.data.get("extends")
        if parent is None:
            break
        base = vf.path.parent if vf.path is not None else None
        vf, src_name = _open(parent, base, vf.where(("extends",)))
    chain.reverse()

    top = chain[-1]
    files: dict = {}
    plugins: list[tuple[str, str]] = []
    trusted: set[str] = set()
    for vf in chain:
        data = dict(vf.data)
        data.pop("extends", None)
        for i, plugin in enumerate(data.pop("plugins", None) or []):
            if plugin not in [p for p, _ in plugins]:
                plugins.append((plugin, vf.where(("plugins", i))))
            if id(vf) in shipped:
                trusted.add(plugin)
        data.pop("name", None)
        data.pop("description", None)
        _one_deck_key(files, data)
        # a deck, and each player count's entry, is one whole: replaced, not merged
        table = {**files.get("by_players", {}), **data.pop("by_players", {})}
        if "deck" in data:
            files.pop("deck", None)
        files = merge(files, data)
        if table:
            files["by_players"] = copy.deepcopy(table)
    if players is not None:
        if not (isinstance(players, int) and not isinstance(players, bool)
                and 2 <= players <= 12):
            raise VariantError(f"{top.where()}: players: {players!r} is not a table size "
                               "(2..12 seats)")
        files["players"] = players
    # the per-count table lies between the defaults and the files: a key any file sets wins
    entry = _table_entry(files, top)
    _one_deck_key(entry, files)
    settings = merge(copy.deepcopy(DEFAULTS), entry)
    settings = merge(settings, files)
    settings["plugins"] = [p for p, _ in plugins]
    resolved_name = (
        top.data.get("name") or first_name or (top.path.stem if top.path else "custom")
    )
    settings["name"] = resolved_name
    settings["description"] = top.data.get("description", "")
    _check_merged(settings, top)
    _check_levels(settings, chain)
    return Resolved(name=resolved_name, files=chain, settings=settings, plugins=plugins,
                    trusted_plugins=trusted)


def where_set(files: list[VariantFile], path: tuple) -> str:
    """'file:line: key.path' of the file (last in the chain) that sets ``path``; the
    top file when none does (the value is a default)."""
    for vf in reversed(files):
        node = vf.data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                break
            node = node[key]
        else:
            return vf.where(path)
    return files[-1].where(path)


def _check_levels(s: dict, files: list[VariantFile]) -> None:
    """A match that starts above its last level would be won by the first deal; levels
    per team or per seat come one for each; a ladder climbs."""
    start, last = s.get("start_level"), (s.get("match_end") or {}).get("last_level")
    if start is None or last is None:
        return
    starts = start if isinstance(start, list) else [start]
    try:
        levels, b = [parse_rank(r) for r in starts], parse_level(last)
        ladder = [parse_level(r) for r in (s.get("advancement") or {}).get("ladder") or []]
    except ShengjiError:
        return  # the schema reports a bad rank with its line
    if max(levels) > b:
        raise VariantError(
            f"{where_set(files, ('start_level',))}: {starts[levels.index(max(levels))]!r} is "
            f"above match_end.last_level {last!r}: the first deal would end the match"
        )
    teams = s.get("teams") or []
    if isinstance(start, list):
        per_team = len(set(teams))
        if len(start) not in (per_team, len(teams)):
            raise VariantError(
                f"{where_set(files, ('start_level',))}: {len(start)} levels; give one per "
                f"team ({per_team}) or one per seat ({len(teams)})")
        if len(start) == len(teams) and any(
                levels[i] != levels[teams.index(t)] for i, t in enumerate(teams)):
            raise VariantError(
                f"{where_set(files, ('start_level',))}: partners share their level (the "
                "seats of a team rise together)")
    if ladder and (ladder != sorted(ladder) or ladder[-1] > b):
        raise VariantError(
            f"{where_set(files, ('advancement', 'ladder'))}: the rungs climb from low to high, "
            f"up to match_end.last_level {last!r}")


def _one_deck_key(below: dict, above: dict) -> None:
    """``decks: N`` and ``deck:`` say the same thing: the one given later (above) replaces
    the other inherited from below."""
    if "deck" in above:
        below.pop("decks", None)
    if "decks" in above:
        below.pop("deck", None)


def _table_entry(files: dict, top: VariantFile) -> dict:
    """The ``by_players`` entry for the player count, or {} when there is no table."""
    table = files.get("by_players")
    if not table:
        return {}
    players = files.get("players", DEFAULTS["players"])
    entry = table.get(players)
    if entry is None:
        counts = sorted(table)
        raise VariantError(
            f"{top.where()}: players: {players}: this variant seats "
            f"{', '.join(map(str, counts))} players (its by_players table)")
    return copy.deepcopy(entry)


def _check_merged(s: dict, top: VariantFile) -> None:
    """Whole-variant consistency: teams per seat, and the deal adds up to the deck."""
    where = top.where()
    players = s["players"]
    teams = s.get("teams")
    if s.get("game_mode") == "finding_friends":
        # sides are made by the calls each deal; every seat keeps its own level
        s["teams"] = list(range(players))
    elif teams is None:
        if players % 2:
            raise VariantError(
                f"{where}: teams: missing, and {players} players cannot sit in two "
                "alternating teams (give `teams:`, one team id per seat)")
        s["teams"] = [seat % 2 for seat in range(players)]
    elif len(teams) != players:
        raise VariantError(
            f"{where}: teams: {len(teams)} entries for {players} players "
            "(one team id per seat)"
        )
    for key in ("hand_size", "kitty_size"):
        if key not in s:
            raise VariantError(f"{where}: {key}: missing for {players} players")
    try:
        comp = Composition.from_settings(s)
    except VariantError as e:
        raise VariantError(f"{where}: {e}") from None
    s["decks"] = comp.packs
    problem = deal_error(players, s["hand_size"], s["kitty_size"], comp)
    if problem:
        raise VariantError(f"{where}: hand_size/kitty_size: {problem}")
