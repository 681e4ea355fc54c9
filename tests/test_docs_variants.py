"""docs/variants.md documents every variant setting (issue 10): each key the schema
accepts has a row in a key table with its default and a "shengji.io equivalent" cell
(a name there, or "—" when shengji.io has nothing like it)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "variants.md"
SCHEMA = ROOT / "shengji" / "schema" / "variant.schema.json"
#: values that are maps of their own (their rows document the whole map)
WHOLE = {"kitty_table", "following", "by_players"}


def _leaves(node: dict, path: str, defs: dict):
    if "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    props = node.get("properties")
    if props and path.rsplit(".", 1)[-1] not in WHOLE:
        for key, sub in props.items():
            yield from _leaves(sub, f"{path}.{key}" if path else key, defs)
    else:
        yield path


@functools.cache
def _rows() -> dict[str, list[str]]:
    """First-cell key names → the cells of their row, for tables whose header has a
    shengji.io column."""
    rows: dict[str, list[str]] = {}
    header = None
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            continue
        if set(line) <= set("|-: "):
            continue
        for key in re.findall(r"`([a-z_.]+)`", cells[0]):
            rows[key] = [header, cells]  # type: ignore[assignment]
    return rows


SCHEMA_DATA = json.loads(SCHEMA.read_text(encoding="utf-8"))
KEYS = list(_leaves(SCHEMA_DATA, "", SCHEMA_DATA.get("$defs", {})))


def test_the_schema_walk_finds_the_settings():
    assert {"play.follow_protection", "declare.jokers.min_big", "table.hide_played_cards",
            "penalties.failed_throw", "advancement.jack_rule"} <= set(KEYS)


@pytest.mark.parametrize("key", KEYS)
def test_every_setting_has_a_default_and_a_shengji_io_cell(key):
    rows = _rows()
    parts = key.split(".")
    # a section table names its keys without the section (`min_level_cards` under declare:)
    found = next((rows[".".join(parts[i:])] for i in range(len(parts))
                  if ".".join(parts[i:]) in rows), None)
    assert found is not None, f"docs/variants.md: no table row for {key}"
    header, cells = found
    assert "default" in header and "shengji.io equivalent" in header, (
        f"docs/variants.md: the table documenting {key} lacks a default or a "
        f"shengji.io equivalent column ({header})")
    assert len(cells) == len(header), f"{key}: row has {len(cells)} cells, header {len(header)}"
    assert cells[header.index("default")], f"{key}: empty default"
    assert cells[header.index("shengji.io equivalent")], f"{key}: empty shengji.io cell"


# --- the schema is the one source of each key's description and shengji.io name (issue 27)

def _properties(node: dict, path: str = ""):
    """Every property of the schema, nested ones included, as (dotted key, its schema)."""
    for key, sub in (node.get("properties") or {}).items():
        dotted = f"{path}.{key}" if path else key
        yield dotted, sub
        yield from _properties(sub, dotted)


PROPERTIES = list(_properties(SCHEMA_DATA))


def _plain(cell: str) -> str:
    return cell.replace("`", "")


@pytest.mark.parametrize("key,sub", PROPERTIES, ids=[k for k, _ in PROPERTIES])
def test_every_property_has_a_one_line_description(key, sub):
    text = sub.get("description")
    assert isinstance(text, str) and text.strip(), f"schema: {key} has no description"
    assert "\n" not in text and "`" not in text, f"schema: {key}: one plain line"


@pytest.mark.parametrize("key", KEYS)
def test_docs_rows_say_what_the_schema_says(key):
    """docs/variants.md's meaning and shengji.io cells are the schema's description and
    x-shengji-io (Markdown backticks aside; "—" where shengji.io has no such setting)."""
    node = SCHEMA_DATA
    for part in key.split("."):
        node = node["properties"][part]
    rows = _rows()
    parts = key.split(".")
    header, cells = next(rows[".".join(parts[i:])] for i in range(len(parts))
                         if ".".join(parts[i:]) in rows)
    assert _plain(cells[header.index("meaning")]) == node["description"], (
        f"{key}: docs/variants.md's meaning cell and the schema's description differ")
    io = _plain(cells[header.index("shengji.io equivalent")])
    if "x-shengji-io" in node:
        assert io == node["x-shengji-io"], f"{key}: shengji.io names differ"
    else:
        assert io.startswith("—"), f"{key}: docs name {io!r} for shengji.io, the schema none"

