"""Reading YAML and JSON that may be hostile: bounded size, bounded nesting, no YAML
aliases, and one-line errors naming the file.

Every file shengji reads (variant files, rule-case files, saved games, protocol
messages) goes through here, so that a small file cannot hang the reader (the YAML
"billion laughs": nine levels of ``&a [*b, *b, ...]`` expand to 10⁹ entries for any
walk of the data) or overflow the stack (``[[[[...`` nested 20,000 deep makes PyYAML's
composer and ``json.loads`` raise RecursionError).

- Aliases are refused outright, at the first ``*name``: a variant or case file never
  needs them, and any walk of aliased data (line numbers, the schema, ``extends``
  merging) would visit every copy.
- Nesting is checked while composing, before the composer recurses one level deeper;
  JSON nesting is checked by a linear scan of the brackets before ``json.loads``.
- Sizes are checked before parsing: the file's size on disk, or the text's length; a
  reader of text from a client can also bound the number of YAML nodes (``max_nodes``:
  parsing costs by the node, and 32 KB of ``[0, 0, ...]`` are 16,000 of them).
- Text that is not Unicode is refused: a YAML escape of a lone surrogate (``"\\ud800"``)
  would give a string that no encoder can write back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml

from .errors import ShengjiError

#: deepest nesting of mappings/lists accepted (variant files nest 4–5 levels)
MAX_DEPTH = 64
#: largest variant file, rule-case file and saved game read (bytes); variant files are
#: a few KB, and parsing YAML in Python costs about 1 s per 100 KB of dense flow style,
#: so this bounds what checking any variant file can cost
MAX_VARIANT_BYTES = 64 << 10
MAX_CASE_BYTES = 8 << 20
MAX_RECORD_BYTES = 64 << 20


def read_text(path: str | os.PathLike, shown: str, error=ShengjiError, *,
              limit: int, what: str = "file") -> str:
    """The UTF-8 text of ``path``, refusing files larger than ``limit`` bytes."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(limit + 1)
    except FileNotFoundError:
        raise error(f"{shown}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{shown}: is a folder, not a {what}") from None
    except OSError as e:
        raise error(f"{shown}: cannot read {what}: {e.strerror or e}") from None
    except ValueError as e:  # e.g. a NUL byte in the name
        raise error(f"{shown!r}: not a usable file name ({e})") from None
    if len(raw) > limit:
        raise error(f"{shown}: {what} larger than {_size(limit)}, refused")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise error(f"{shown}:{line}: not UTF-8 text ({e.reason})") from None


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


class _Refused(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases, nesting deeper than ``max_depth``, more than
    ``max_nodes`` nodes, and scalars that are not Unicode text."""

    def __init__(self, text: str, max_depth: int, max_nodes: int | None = None):
        super().__init__(text)
        self._max_depth = max_depth
        self._depth = 0
        self._max_nodes = self._nodes_left = max_nodes

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise _Refused(event.start_mark.line + 1,
                           f"YAML aliases (*{event.anchor}) are not allowed: write the value out")
        if self._nodes_left is not None:
            self._nodes_left -= 1
            if self._nodes_left < 0:
                raise _Refused(self.peek_event().start_mark.line + 1,
                               f"more than {self._max_nodes} values (YAML nodes): "
                               "refused")
        if self.check_event(yaml.ScalarEvent):
            event = self.peek_event()
            if not is_unicode(event.value):
                raise _Refused(event.start_mark.line + 1,
                               "not Unicode text (a lone surrogate such as \\ud800)")
        if self.check_event(yaml.MappingStartEvent, yaml.SequenceStartEvent):
            if self._depth >= self._max_depth:
                event = self.peek_event()
                raise _Refused(event.start_mark.line + 1,
                               f"nested more than {self._max_depth} levels deep")
            self._depth += 1
            try:
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1
        return super().compose_node(parent, index)


def is_unicode(text: str) -> bool:
    """False for a str holding a lone surrogate (U+D800..U+DFFF): JSON's ``"\\ud800"``
    and YAML's escapes make them, and no UTF-8 encoder can write them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def load_yaml(text: str, shown: str, error=ShengjiError, *, max_depth: int = MAX_DEPTH,
              limit: int | None = None, max_nodes: int | None = None):
    """Parse one YAML document: ``(data, node)``, the node tree for line numbers (None
    for an empty document). Every problem is one ``error`` 'file:line: ...'."""
    if limit is not None and len(text) > limit:
        raise error(f"{shown}: larger than {_size(limit)}, refused")
    loader = None
    try:
        # the reader refuses NUL, BEL, U+FFFE ... while it is built: inside the try
        loader = _BoundedLoader(text, max_depth, max_nodes)
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except _Refused as e:
        raise error(f"{shown}:{e.line}: {e}") from None
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, max(0, e.position)) + 1
        raise error(f"{shown}:{line}: not valid YAML: character #x{e.character:04x} is not "
                    f"allowed ({e.reason})") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        where = f"{shown}:{mark.line + 1}" if mark else shown
        problem = getattr(e, "problem", None) or str(e)
        raise error(f"{where}: not valid YAML: {problem}") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise error(f"{shown}: nested too deeply") from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, node


def json_depth(text: str) -> int:
    """Deepest bracket nesting of a JSON text (brackets inside strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_json(text: str | bytes, shown: str, error=ShengjiError, *, max_depth: int = MAX_DEPTH,
              limit: int | None = None):
    """``json.loads`` with the size and depth bounded; every problem one ``error``.
    Non-finite numbers (``NaN``, ``Infinity``, ``1e400``) are refused."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise error(f"{shown}: not UTF-8 text ({e.reason})") from None
    if not isinstance(text, str):
        raise error(f"{shown}: expected JSON text, got {type(text).__name__}")
    if limit is not None and len(text) > limit:
        raise error(f"{shown}: larger than {_size(limit)}, refused")
    # nesting is only possible with brackets: skip the scan for short or flat texts
    if text.count("[") + text.count("{") > max_depth and json_depth(text) > max_depth:
        raise error(f"{shown}: nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except json.JSONDecodeError as e:
        at = f"line {e.lineno}, column {e.colno}"
        raise error(f"{shown}: not valid JSON: {e.msg} ({at})") from None
    except _NotFinite as e:
        raise error(f"{shown}: not valid JSON: {e} is not a finite number") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise error(f"{shown}: nested too deeply") from None


class _NotFinite(ValueError):
    pass


def _no_constant(name: str):
    raise _NotFinite(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NotFinite(text)
    return value
