"""Reading one variant file: YAML with line numbers, then the shipped JSON schema.

Errors name the file, the line, the key path and what is allowed, e.g.
``variants/foo.yaml:12: play.ruff_compare: 'biggest' is not one of strongest, ...``.
PyYAML's node marks give the lines: the file is composed to nodes once (size, nesting
and aliases bounded by ``shengji.safeload``), and a map from key path to line is built
beside the plain data.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, cast

import jsonschema
import yaml

from ..errors import VariantError
from ..safeload import MAX_VARIANT_BYTES, load_yaml, read_text

KeyPath = tuple  # of str keys and int list indices
#: schema problems listed in one error; the rest are counted
MAX_PROBLEMS = 20


def format_path(path: KeyPath) -> str:
    """('play', 'following', 'titanic', 2) → 'play.following.titanic[2]'."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def display_path(path: str | os.PathLike | None) -> str:
    """A file name as users should read it: relative to the working directory when inside it."""
    if path is None:
        return "<settings>"
    p = os.fspath(path)
    try:
        rel = os.path.relpath(p)
    except ValueError:  # another drive on Windows
        return p
    return p if rel.startswith("..") else rel


@dataclass
class VariantFile:
    """One parsed, schema-checked file (or mapping): its data and where each key sits."""

    data: dict
    path: Path | None
    #: key path → 1-based line of the key (for mapping entries) or the item (for lists)
    lines: dict = field(default_factory=dict)

    def where(self, path: KeyPath = ()) -> str:
        """'file:line: key.path' for messages; the line of the nearest known ancestor."""
        probe = tuple(path)
        while probe and probe not in self.lines:
            probe = probe[:-1]
        line = self.lines.get(probe)
        loc = display_path(self.path) + (f":{line}" if line else "")
        return f"{loc}: {format_path(path)}" if path else loc

    def error(self, path: KeyPath, message: str) -> VariantError:
        return VariantError(f"{self.where(path)}: {message}")


def _record_lines(node: yaml.Node, path: KeyPath, lines: dict, file: str) -> None:
    """Walk the composed node tree, recording the line of every key path; reject
    duplicate keys (PyYAML would silently keep the last one)."""
    if isinstance(node, yaml.MappingNode):
        seen: dict = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            line = key_node.start_mark.line + 1
            if key in seen:
                raise VariantError(
                    f"{file}:{line}: {format_path(path + (key,))}: duplicate key "
                    f"(first given on line {seen[key]})"
                )
            seen[key] = line
            lines[path + (key,)] = line
            _record_lines(value_node, path + (key,), lines, file)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[path + (i,)] = item.start_mark.line + 1
            _record_lines(item, path + (i,), lines, file)


def read_file(path: str | os.PathLike) -> VariantFile:
    """Parse and schema-check one variant file. Raises VariantError."""
    path = Path(path)
    shown = display_path(path)
    # bounded size and nesting, no aliases (safeload.py): one line for a hostile file
    text = read_text(path, shown, VariantError, limit=MAX_VARIANT_BYTES, what="variant file")
    data, node = load_yaml(text, shown, VariantError)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise VariantError(
            f"{shown}:1: a variant file must be a mapping of keys (decks, play, ...), "
            f"not a {type(data).__name__}"
        )
    lines: dict = {}
    if node is not None:
        _record_lines(node, (), lines, shown)
    vf = VariantFile(data=data, path=path, lines=lines)
    validate(vf)
    return vf


def from_mapping(data: Mapping, origin: str | os.PathLike | None = None) -> VariantFile:
    """A variant given as a mapping (an entry point, a test): same checks, no lines."""
    if not isinstance(data, Mapping):
        raise VariantError(f"{display_path(origin)}: variant settings must be a mapping")
    vf = VariantFile(data=dict(data), path=Path(origin) if origin else None)
    validate(vf)
    return vf


# --- the schema ------------------------------------------------------------------------


@cache
def schema() -> dict:
    """The JSON schema shipped with the package (shengji/schema/variant.schema.json)."""
    text = resources.files("shengji").joinpath("schema/variant.schema.json").read_text("utf-8")
    return json.loads(text)


def _is_integer(checker, instance) -> bool:
    # JSON Schema counts 25.0 as an integer; the engine does not (hand_size: 25.0 passed
    # `check` and crashed `simulate` with a TypeError), and a bool is never a count
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    plain_enum = cls.VALIDATORS["enum"]

    def strict_enum(validator, enums, instance, sch):
        # likewise 10.0 (or true) would match the rank 10 (or 1) of an enum
        if isinstance(instance, (bool, float)) and all(type(e) is not type(instance)
                                                        for e in enums):
            yield jsonschema.ValidationError(f"{instance!r} is not one of {enums!r}")
            return
        yield from plain_enum(validator, enums, instance, sch)

    strict = jsonschema.validators.extend(
        cls, type_checker=cls.TYPE_CHECKER.redefine("integer", _is_integer),
        validators={"enum": strict_enum},
    )
    return strict(schema())


_TYPE_NAMES = {
    "integer": "an integer",
    "boolean": "true or false",
    "string": "a string",
    "array": "a list",
    "object": "a mapping",
    "number": "a number",
}


def _choices(values) -> str:
    out: list[str] = []
    for v in values:
        s = str(v).lower() if isinstance(v, bool) else str(v)
        if s not in out:
            out.append(s)
    return ", ".join(out)


def _yaml_repr(value) -> str:
    """A value as the file spelt it: true/false/null rather than Python's True/None."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else repr(value)


def _alternatives(schemas) -> str:
    """The choices of a ``oneOf`` in words: "an integer 1..4, decks or null"."""
    words: list[str] = []
    for sub in schemas:
        if "enum" in sub:
            words.extend(_choices(sub["enum"]).split(", "))
        elif sub.get("type") == "null":
            words.append("null")
        elif "$ref" in sub:  # a named definition: "a rank"
            words.append("a " + sub["$ref"].rsplit("/", 1)[-1].replace("_", " "))
        elif sub.get("type") == "integer" and "minimum" in sub and "maximum" in sub:
            words.append(f"an integer {sub['minimum']}..{sub['maximum']}")
        else:
            words.append(_TYPE_NAMES.get(sub.get("type"), str(sub.get("type"))))
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]


def _describe(err: jsonschema.ValidationError) -> list[tuple[KeyPath, str]]:
    """One schema error → [(key path, message)] in words a rule-writer understands."""
    path = tuple(err.absolute_path)
    # every validator named below sits in a mapping schema and has a value (jsonschema's
    # types also allow a bool schema and an unset instance)
    kind, inst, value = err.validator, cast(Any, err.instance), cast(Any, err.validator_value)
    sch: Mapping[str, Any] = err.schema if isinstance(err.schema, Mapping) else {}
    if kind == "additionalProperties":
        known = list(sch.get("properties", {}))
        extra = [k for k in inst if k not in known]
        allowed = ", ".join(known) if known else "none"
        return [(path + (k,), f"unknown key{_did_you_mean(k, known)} (allowed here: "
                              f"{allowed})") for k in extra]
    if kind == "enum":
        return [(path, f"{_yaml_repr(inst)} is not one of {_choices(value)}")]
    if kind == "type":
        want = value
        want = [want] if isinstance(want, str) else want
        words = " or ".join(_TYPE_NAMES.get(w, w) for w in want)
        return [(path, f"{_yaml_repr(inst)} is not {words}")]
    if kind in ("minimum", "maximum"):
        lo, hi = sch.get("minimum"), sch.get("maximum")
        rng = f"{lo}..{hi}" if lo is not None and hi is not None else (
            f"at least {lo}" if lo is not None else f"at most {hi}"
        )
        return [(path, f"{inst!r} is out of range (allowed {rng})")]
    if kind == "required":
        missing = [k for k in value if k not in inst]
        return [(path, f"missing key {', '.join(map(repr, missing))}")]
    if kind == "oneOf":
        # a list where one alternative is a list: what is wrong inside it (an item, the length)
        lists = [i for i, sub in enumerate(value) if sub.get("type") == "array"]
        inner = [e for e in err.context or () if isinstance(inst, list) and lists
                 and e.relative_schema_path and e.relative_schema_path[0] == lists[0]]
        if inner:
            return [d for e in inner for d in _describe(e)]
        # a single value where the other alternative is a list of such values: the
        # single value's own problem ("1 is not one of 2, 3, ...")
        single = [e for e in err.context or () if lists and not isinstance(inst, list)
                  and e.relative_schema_path and e.relative_schema_path[0] != lists[0]
                  and e.validator == "enum"]
        if single:
            return _describe(single[0])
        return [(path, f"{_yaml_repr(inst)} is not {_alternatives(value)}")]
    if kind == "uniqueItems":
        return [(path, f"{_clipped(inst)} lists a value twice")]
    if kind in ("minItems", "minLength"):
        return [(path, f"{inst!r} is empty (at least {value} needed)")]
    if kind in ("maxItems", "maxProperties"):
        return [(path, f"{len(inst)} entries: at most {value}")]
    if kind == "maxLength":
        return [(path, f"{len(inst)} characters: at most {value}")]
    if kind == "pattern":  # (a key of by_players: its propertyNames say what it must be)
        return [(path, f"{_clipped(inst)} is not {sch.get('description', 'allowed here')}")]
    return [(path, _clipped(err.message, 200))]


def _clipped(value, limit: int = 60) -> str:
    """A value's repr, cut short: an error message never repeats a large value whole."""
    text = value if isinstance(value, str) and limit > 60 else repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _did_you_mean(key: Any, known: list[str]) -> str:
    """": did you mean kitty?" for a misspelt key, "" when nothing is close."""
    close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.75)
    return f": did you mean {close[0]}?" if close else ""


def validate(vf: VariantFile) -> None:
    """Check a file against the schema; raise one VariantError listing every problem
    (sorted by line), each as 'file:line: key.path: message'."""
    problems = []
    for err in _validator().iter_errors(vf.data):
        for path, msg in _describe(err):
            problems.append((vf.lines.get(path, 0), format_path(path), f"{vf.where(path)}: {msg}"))
    if problems:
        problems.sort()
        lines = [p[2] for p in problems]
        if len(lines) > MAX_PROBLEMS:  # a file of 60,000 unknown keys: not 60,000 lines
            lines = lines[:MAX_PROBLEMS] + [f"{vf.where()}: ... and {len(lines) - MAX_PROBLEMS} "
                                            "more problems like these"]
        exc = VariantError("\n".join(lines))
        exc.problems = lines
        raise exc


def plugin_origin(obj) -> str:
    """Where a loaded plugin's code lives, for ``variants check``: its file (as
    ``display_path`` shows it) or its name."""
    file = getattr(obj, "__file__", None)
    if file:
        return display_path(file)
    return getattr(obj, "__name__", type(obj).__name__)
