"""Docs tables come from the code (issue 37): every region of docs/*.md marked
``<!-- generated: NAME -->`` is what ``python docs/tables.py`` writes from its one source,
and the sources themselves are complete — every error code the server can send has a
cause, every field of Limits a row (every reason code's sentence: test_web_known.py)."""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib.util
import re
from pathlib import Path

import pytest

from shengji.frontends.web.limits import Limits
from shengji.protocol.codes import ERROR_CODES, HTTP_STATUS, http_status

ROOT = Path(__file__).resolve().parent.parent
SHENGJI = ROOT / "shengji"


def _tables():
    spec = importlib.util.spec_from_file_location("docs_tables", ROOT / "docs" / "tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TABLES = _tables()
PAGES = [p for p in TABLES.pages() if TABLES.regions(p.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_generated_tables_are_what_the_code_says(page):
    text = page.read_text(encoding="utf-8")
    assert TABLES.render(text, page.name) == text, (
        f"docs/{page.name}: a generated table differs from its source: run "
        "python docs/tables.py")


def test_every_table_has_its_place_and_every_place_its_table():
    used = [name for p in PAGES for name in TABLES.regions(p.read_text(encoding="utf-8"))]
    assert sorted(used) == sorted(TABLES.TABLES), "each table once, in some page"
    with pytest.raises(KeyError, match="unknown generated region"):
        TABLES.render("<!-- generated: nonsense -->\n<!-- end -->")


def test_a_changed_source_makes_the_check_fail(monkeypatch):
    from shengji.protocol import refusals

    page = ROOT / "docs" / "protocol.md"
    text = page.read_text(encoding="utf-8")
    monkeypatch.setitem(refusals.REFUSALS, "not_your_turn", "Wait.")
    assert TABLES.render(text) != text


def test_every_field_of_limits_is_stated():
    fields = {f.name for f in dataclasses.fields(Limits)}
    assert TABLES.LIMITS_STATED == fields, (
        f"docs/tables.py states no row for Limits {sorted(fields - TABLES.LIMITS_STATED)}")
    text = "".join(TABLES.TABLES[n]() for n in ("rates", "caps", "connections"))
    lim = Limits()
    for name in ("msg_burst", "conns_per_seat", "watchers_per_room", "rooms_per_address"):
        assert str(getattr(lim, name)) in text


# ------------------------------------------------------------------ the sources are complete

@functools.cache
def _nodes() -> tuple:
    """Every call, assignment and dict display of shengji/ (parsed once)."""
    kinds = (ast.Call, ast.Assign, ast.Dict)
    texts = (p.read_text(encoding="utf-8") for p in SHENGJI.rglob("*.py"))
    return tuple(node for text in texts if WHERE_CODES.search(text)
                 for node in ast.walk(ast.parse(text)) if isinstance(node, kinds))


#: what a module that writes an error code or refusal contains (the others are not parsed)
WHERE_CODES = re.compile(r'ProtocolError\(|_refuse\(|"type": "error"|\bcode = "')


def _calls(name: str):
    for node in _nodes():
        if isinstance(node, ast.Call):
            f = node.func
            if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) == name:
                yield node


def _const(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def sent_codes() -> set[str]:
    """Every error code written in shengji/: ProtocolError("code", ...), the guard's
    refusals, a ``code = "..."`` class attribute (StoreError), and error bodies written
    as dicts ({"type": "error", ..., "code": "..."})."""
    codes = {_const(n.args[0]) for n in _calls("ProtocolError") if n.args}
    codes |= {_const(n.args[2]) for n in _calls("_refuse")  # guard.py's (kind, send, code)
              if len(n.args) > 2 and getattr(n.args[0], "id", "") == "kind"}
    for node in _nodes():
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "code" for t in node.targets):
            codes.add(_const(node.value))
        if isinstance(node, ast.Dict):
            keys = [_const(k) for k in node.keys]
            if "type" in keys and "code" in keys and \
                    _const(node.values[keys.index("type")]) == "error":
                codes.add(_const(node.values[keys.index("code")]))
    return codes - {None}


def test_every_error_code_sent_has_a_cause_and_none_is_stale():
    sent = sent_codes()
    assert {"bad_rules", "store_error", "internal", "bad_host", "join_timeout"} <= sent
    assert sorted(sent - set(ERROR_CODES)) == [], "add them to shengji/protocol/codes.py"
    assert sorted(set(ERROR_CODES) - sent) == [], "codes.py lists codes nothing sends"


def test_http_statuses_are_those_of_listed_codes():
    assert set(HTTP_STATUS) <= set(ERROR_CODES)
    assert http_status("not_your_turn") == 400 and http_status("bad_rules") == 422


def test_the_play_rules_table_names_every_field_rules_json_sends():
    from shengji.rules import PlayRules
    from shengji.wasm import rules_json

    text = TABLES.play_rules()
    rows = re.findall(r"^\| `(\w+)` \|", text, re.M)
    assert rows == list(rules_json(PlayRules())), "a field of PlayRules without its row"
    for name in ("genuine_tuples", "tractors_first", "decomposition", "follow_requirements"):
        assert name in rows
