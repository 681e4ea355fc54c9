"""House rules given as text (the web's rules editor): checked by the same loader as a
file on the command line, but data only, and resolved into rules that stand alone.

``check_house(text, bases)`` reads the text with the bounded YAML loader, refuses
``plugins:`` (code) and an ``extends`` that is not one of ``bases`` (no file paths from a
client), checks the schema, then resolves and loads it like ``load_variant``. A refusal
is a ``HouseRulesError`` whose ``errors`` are ``[{"key": "play.kitty", "message": ...}]``
(dotted key paths; "" for the file as a whole).

The result's ``text`` is the resolved settings as YAML with no ``extends``: a room keeps
that text (and its ``fingerprint``), so a later edit of the base's file never changes a
table in progress, and ``rules_variant(text)`` rebuilds exactly the same rules.
``house_text(base, base_settings, settings)`` writes the short form back: ``extends:
BASE`` plus only what differs.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import yaml

from ..errors import VariantError
from ..safeload import MAX_VARIANT_BYTES, load_yaml
from .files import _describe, _record_lines, _validator, format_path

#: the largest house file accepted from a client (the command line reads 1 MiB files)
MAX_HOUSE_BYTES = 32 * 1024
#: the most YAML nodes (keys, values, list items) in a house file or rules text from a
#: client: parsing and checking cost by the node, and the largest shipped variant
#: resolves to 260 of them
MAX_HOUSE_NODES = 2000
#: errors listed in a refusal (the rest are counted)
MAX_ERRORS = 50
SHOWN = "rules.yaml"
#: keys of the resolved settings that are not rules a house file may set
NOT_RULES = ("name", "description", "plugins", "extends")
#: values compared and written whole (a deck is one composition, a table one table)
WHOLE = ("deck", "by_players", "following")


class HouseRulesError(VariantError):
    """Refused house rules: ``errors`` lists the problems (the first MAX_ERRORS) with their
    dotted key paths; ``count`` is how many there were."""

    def __init__(self, errors: list[dict], count: int | None = None):
        self.errors = errors[:MAX_ERRORS]
        self.count = len(errors) if count is None else count
        more = self.count - len(self.errors)
        super().__init__("; ".join(f"{e['key'] or SHOWN}: {e['message']}" for e in self.errors)
                         + (f"; and {more} more" if more > 0 else ""))

    def __reduce__(self):  # (pickled between processes: the web's check worker)
        return type(self), (self.errors, self.count)


@dataclass
class HouseRules:
    base: str
    players: int
    variant: object          # the loaded Variant
    text: str                # the resolved rules as YAML (what a room stores)
    fingerprint: str
    house: str               # extends: BASE plus what differs
    name: str | None = None  # the name the file gave
    warnings: list = field(default_factory=list)   # [{"key", "message"}]
    changes: list = field(default_factory=list)    # [{"key", "base", "value"}]


def canonical_text(settings: Mapping) -> str:
    """The resolved settings as YAML, keys sorted: equal rules give equal text. The
    description is left out (one line for listings, not a rule)."""
    rules = {k: v for k, v in settings.items() if k != "description"}
    return yaml.safe_dump(rules, sort_keys=True, allow_unicode=True,
                          default_flow_style=None, width=100)


def fingerprint(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


_PREFIX = re.compile(r"^(?:<settings>|" + re.escape(SHOWN) + r"|[^:\s]+\.ya?ml)(?::\d+)?: ")
_KEY = re.compile(r"^([a-z_]+(?:\.[a-z_]+|\[\d+\])*)(?:/[a-z_]+)?: ")


def _errors_of(e: VariantError) -> list[dict]:
    """A loader message 'file:line: key.path: message' → {"key", "message"} items."""
    out = []
    for line in str(e).splitlines():
        rest = _PREFIX.sub("", line, count=1)
        m = _KEY.match(rest)
        if m and m.group(1) not in ("variant", "hook"):
            out.append({"key": m.group(1), "message": rest[m.end():]})
        else:
            out.append({"key": "", "message": rest})
    return out or [{"key": "", "message": str(e)}]


def read_house(text: str) -> tuple[dict, dict]:
    """The text → (data, key path → line). Bounded (size, nesting, no aliases)."""
    if not isinstance(text, str):
        raise HouseRulesError([{"key": "", "message": "rules: the text of a YAML house file"}])
    if len(text.encode("utf-8", "surrogatepass")) > MAX_HOUSE_BYTES:
        raise HouseRulesError([{"key": "", "message": f"a house file of at most "
                                                      f"{MAX_HOUSE_BYTES // 1024} KiB"}])
    try:
        data, node = load_yaml(text, SHOWN, VariantError, max_nodes=MAX_HOUSE_NODES)
    except VariantError as e:
        raise HouseRulesError([{"key": "", "message": _PREFIX.sub("", str(e))}]) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise HouseRulesError([{"key": "", "message": "a house file is a mapping of keys "
                                                      "(extends, play, ...)"}])
    lines: dict = {}
    if node is not None:
        try:
            _record_lines(node, (), lines, SHOWN)
        except VariantError as e:
            raise HouseRulesError(_errors_of(e)) from None
    return data, lines


def check_house(text: str, bases: Mapping, players: int | None = None,
                default_base: str | None = None) -> HouseRules:
    """Check house rules from a client. ``bases``: name → loaded Variant, the variants a
    house file may extend. ``players``: the table size (else the file's, else the
    base's). Raises HouseRulesError."""
    from . import Variant, load_variant
    from .loading import resolve

    data, lines = read_house(text)
    errors: list[dict] = []
    if "plugins" in data:
        errors.append({"key": "plugins", "message": "plugins are code and a house file from "
                       "the web may hold data only: remove plugins: (a server operator can "
                       "serve a variant with plugins, see docs/variants.md \"Trust\")"})
    base = data.get("extends", default_base)
    if isinstance(base, str) and base.endswith((".yaml", ".yml")):
        # a shipped house file names its base by path (../three-deck-titanic.yaml): the
        # offered variant of that name stands for it; the path is never opened
        stem = base.replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
        base = stem if stem in bases else base
    if base is None:
        errors.append({"key": "extends", "message": "missing: a house file extends one of "
                       f"the variants offered here ({', '.join(bases)})"})
    elif not isinstance(base, str) or base not in bases:
        errors.append({"key": "extends", "message": f"{base!r} is not offered here (extend "
                       f"one of {', '.join(bases)}; file paths are not accepted)"})
    for err in _validator().iter_errors(data):
        for path, msg in _describe(err):
            if path[:1] != ("plugins",):
                errors.append({"key": format_path(path), "message": msg, "_line":
                               lines.get(path, 0)})
    if errors:
        errors.sort(key=lambda e: e.pop("_line", 0))
        raise HouseRulesError(errors)
    assert isinstance(base, str)  # else the checks above named it in errors
    mapping = dict(data)
    mapping["extends"] = base
    if players is None and "players" not in data:
        players = bases[base].players
    try:
        resolved = resolve(mapping, name=data.get("name") or f"{base}+house", players=players)
        variant = Variant(resolved)
        settings = variant.settings
        text_out = canonical_text(settings)
        # what a room keeps must rebuild the same rules (no extends, no file)
        again = rules_variant(text_out)
    except VariantError as e:
        raise HouseRulesError(_errors_of(e)) from None
    if canonical_text(again.settings) != text_out:  # pragma: no cover - a loader bug
        raise HouseRulesError([{"key": "", "message": "these rules do not survive being "
                                                      "written out (a bug: please report)"}])
    base_variant = load_variant(bases[base], players=variant.players)
    return HouseRules(base=base, players=variant.players, variant=again, text=text_out,
                      name=data.get("name"),
                      fingerprint=fingerprint(text_out),
                      house=house_text(base, base_variant.settings, settings,
                                       name=data.get("name")),
                      warnings=deck_warnings(again),
                      changes=[{"key": k, "base": a, "value": b} for k, (a, b) in
                               differences(base_variant.settings, settings).items()])


def rules_variant(text: str, trusted: bool = False):
    """The Variant of resolved rules text (``HouseRules.text``, a room's stored rules, a
    record's ``rules``). ``trusted``: the text is the server's own (a room it stored), so
    the plugins its operator's variant named may load; otherwise plugins load only as
    the trust model allows (docs/variants.md "Trust")."""
    from . import load_variant

    # the server's own text is as large as its operator's variants; a client's is bounded
    data, _ = load_yaml(text, "rules", VariantError, limit=MAX_VARIANT_BYTES,
                        max_nodes=None if trusted else MAX_HOUSE_NODES)
    if not isinstance(data, dict):
        raise VariantError("rules: not a mapping of settings")
    if trusted and data.get("plugins"):
        return load_variant(data, allow_plugins=data["plugins"])
    return load_variant(data)


def differences(base: Mapping, settings: Mapping, prefix: str = "") -> dict:
    """Dotted key → (base value, house value) for every rule that differs."""
    out: dict = {}
    for key in sorted(set(base) | set(settings), key=str):
        if not prefix and key in NOT_RULES:
            continue
        a, b = base.get(key), settings.get(key)
        dotted = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(a, Mapping) and isinstance(b, Mapping) and key not in WHOLE:
            out.update(differences(a, b, dotted))
        elif a != b:
            out[dotted] = (a, b)
    return out


def house_text(base: str, base_settings: Mapping, settings: Mapping,
               name: str | None = None) -> str:
    """``extends: BASE`` plus only what differs from the base (block YAML)."""
    tree: dict = {}
    for dotted, (_, value) in differences(base_settings, settings).items():
        node = tree
        parts = dotted.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = copy.deepcopy(value)
    if "deck" in tree or "decks" in tree:
        _deck_as_resolved(tree, settings)
    head = {"extends": base}
    if name:
        head["name"] = name
    # one top-level key at a time: a mapping of scalars alone would come out in flow style
    # ({decks: 2}), which cannot follow the block-style head
    body = "".join(yaml.safe_dump({k: v}, sort_keys=False, allow_unicode=True, width=100,
                                  default_flow_style=None if isinstance(v, (dict, list))
                                  else False)
                   for k, v in tree.items())
    return yaml.safe_dump(head, sort_keys=False, allow_unicode=True) + body


def _deck_as_resolved(tree: dict, settings: Mapping) -> None:
    """``decks: N`` and ``deck:`` say the same thing, and a file's ``deck`` replaces the
    base's whole (variants/loading.py): write the deck as the resolved rules hold it, so
    the short file resolves to the same rules. No ``deck`` (``decks: N`` replaced the
    base's): ``decks`` alone. A ``deck`` without ``packs``: it took them from ``decks``
    in the same file, so both."""
    deck = settings.get("deck")
    tree.pop("deck", None)
    tree.pop("decks", None)
    if not deck:
        tree["decks"] = settings.get("decks")
        return
    if "packs" not in deck and settings.get("decks") is not None:  # else a list of ranks
        tree["decks"] = settings.get("decks")
    tree["deck"] = copy.deepcopy(dict(deck))


def deck_warnings(variant) -> list[dict]:
    """Settings that cannot take effect with this deck (they load, but change nothing)."""
    s = variant.settings
    play = s.get("play") or {}
    copies = variant.composition.max_copies
    widest = min(variant.play_rules.max_tuple or copies, copies)
    out = []
    if play.get("bombs", "none") != "none" and copies < 4:
        out.append({"key": "play.bombs", "message": f"{play['bombs']}: a bomb is four or more "
                    f"identical cards, and this deck holds at most {copies} of a card"})
    if play.get("follow_protection") in ("longer_tuples", "both") and widest <= 2:
        out.append({"key": "play.follow_protection", "message":
                    f"{play['follow_protection']}: protects tuples longer than a pair, and "
                    f"with {copies} cop{'y' if copies == 1 else 'ies'} of a card (max tuple "
                    f"{widest}) there are none"})
    if play.get("must_break_tuples") is False and widest <= 2:
        out.append({"key": "play.must_break_tuples", "message": "false protects tuples "
                    "longer than a pair, and this deck has none"})
    rainbow = play.get("rainbow_min") or 0
    if rainbow > 4 * copies:
        out.append({"key": "play.rainbow_min", "message": f"{rainbow}: a rank has at most "
                    f"{4 * copies} cards in this deck, so no rainbow can be led"})
    width = play.get("tractor_min_width", 2)
    if play.get("tractors", True) and width > widest:
        out.append({"key": "play.tractor_min_width", "message": f"{width}: no tuple that "
                    f"wide exists (max tuple {widest}), so there are no tractors"})
    if (s.get("declare") or {}).get("min_level_cards", 1) > copies:
        out.append({"key": "declare.min_level_cards", "message": "more level cards than "
                    "the deck holds of one card: only jokers can declare"})
    return out
