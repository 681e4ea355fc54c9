"""Hostile YAML and JSON (issue 12): alias bombs, deep nesting and huge files give one
line naming the file, quickly, from `shengji variants check`, `shengji conformance` and
the readers behind them (shengji/safeload.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shengji.cli import main
from shengji.errors import ShengjiError
from shengji.safeload import MAX_DEPTH, MAX_VARIANT_BYTES, json_depth, load_json, load_yaml


def alias_bomb(first_line: str, levels: int = 9) -> str:
    """The billion laughs: ``levels`` levels of ten aliases each, 10**levels leaves."""
    lines = [first_line, "x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for i in range(1, levels + 1):
        lines.append(f"x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def flow_nested(first_line: str, depth: int) -> str:
    return f"{first_line}\nx: " + "[" * depth + "]" * depth + "\n"


def block_nested(first_line: str, depth: int) -> str:
    return first_line + "\n" + "".join(" " * i + f"k{i}:\n" for i in range(depth))


def check_one_line(capsys, argv, expected: str) -> None:
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [expected], err[:500]
    assert "Traceback" not in out + err and "RecursionError" not in out + err


# --- variant files ----------------------------------------------------------------------

VARIANT = "extends: two-deck-80"


@pytest.mark.parametrize(
    "text, expected",
    [
        (alias_bomb(VARIANT), "v.yaml:3: YAML aliases (*a0) are not allowed: write the value out"),
        # a harmless-looking alias is refused too: variant files never need them
        (VARIANT + "\nplay: &p {tractors: true}\nother: *p\n",
         "v.yaml:3: YAML aliases (*p) are not allowed: write the value out"),
        (flow_nested(VARIANT, 5_000), f"v.yaml:2: nested more than {MAX_DEPTH} levels deep"),
        (flow_nested(VARIANT, 20_000), f"v.yaml:2: nested more than {MAX_DEPTH} levels deep"),
        (block_nested(VARIANT, 300), f"v.yaml:{MAX_DEPTH + 2}: nested more than {MAX_DEPTH} "
                                     "levels deep"),
        (VARIANT + "\n#" + "x" * MAX_VARIANT_BYTES + "\n",
         "v.yaml: variant file larger than 64 KiB, refused"),
    ],
    ids=["alias-bomb", "one-alias", "flow-5000", "flow-20000", "block-300", "too-large"],
)
def test_variants_check_hostile_yaml(tmp_path, monkeypatch, capsys, text, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text(text, encoding="utf-8")
    check_one_line(capsys, ["variants", "check", "v.yaml"], expected)


def test_alias_bomb_does_not_hang_the_installed_command(tmp_path):
    """Before: 10**9 entries still walking after 60 s. Now refused at the first alias."""
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(VARIANT), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "shengji.cli", "variants", "check", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("bomb.yaml:3: YAML aliases (*a0) are not allowed: "
                                        "write the value out")


def test_nesting_within_the_bound_still_loads(tmp_path):
    data, _ = load_yaml(flow_nested("a: 1", MAX_DEPTH - 1), "f.yaml")
    assert data["a"] == 1


def test_non_utf8_variant_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_bytes(b"extends: two-deck-80\nname: \xff\n")
    check_one_line(capsys, ["variants", "check", "v.yaml"],
                   "v.yaml:2: not UTF-8 text (invalid start byte)")


# --- rule-case files --------------------------------------------------------------------

CASES = "variant: two-deck-80"


@pytest.mark.parametrize(
    "text, expected",
    [
        (alias_bomb(CASES),
         "c.cases.yaml:3: YAML aliases (*a0) are not allowed: write the value out"),
        (flow_nested(CASES, 20_000),
         f"c.cases.yaml:2: nested more than {MAX_DEPTH} levels deep"),
    ],
    ids=["alias-bomb", "flow-20000"],
)
def test_conformance_hostile_case_file(tmp_path, monkeypatch, capsys, text, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.cases.yaml").write_text(text, encoding="utf-8")
    assert main(["conformance", "c.cases.yaml"]) == 1
    out, err = capsys.readouterr()
    assert expected in (out + err).splitlines()
    assert "Traceback" not in out + err and "RecursionError" not in out + err


# --- JSON -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[" * 20_000 + "]" * 20_000, f"r.json: nested more than {MAX_DEPTH} levels deep"),
        ('{"a": [1, 2', "r.json: not valid JSON: Expecting ',' delimiter (line 1, column 12)"),
        ('{"a": 1e400}', "r.json: not valid JSON: 1e400 is not a finite number"),
        ('{"a": NaN}', "r.json: not valid JSON: NaN is not a finite number"),
        (b'{"a": "\xff"}', "r.json: not UTF-8 text (invalid start byte)"),
        (None, "r.json: expected JSON text, got NoneType"),
    ],
)
def test_load_json_errors(text, expected):
    with pytest.raises(ShengjiError) as info:
        load_json(text, "r.json")
    assert str(info.value) == expected


def test_json_depth_skips_strings():
    assert json_depth('{"a": "[[[[{{", "b": [[1]]}') == 3
    assert json_depth('["\\"[", [2]]') == 2
    assert load_json('{"k": "[[[[[[[["}', "r.json", max_depth=2) == {"k": "[[[[[[[["}
    with pytest.raises(ShengjiError, match="larger than 1 KiB"):
        load_json("[" + "1," * 1000 + "1]", "r.json", limit=1024)


# --- logs read by `shengji replay` ------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"events": [5]}', "log.json: deal 1, event 1: expected an object with a type, got 5"),
        ('{"events": [{"type": "DealScored"}]}',
         "log.json: deal 1, event 1: missing key 'deal' (a DealScored has deal, "),
        ('{"events": [{"type": "Fly"}]}', "log.json: deal 1, event 1.type: 'Fly' is not an "
                                          "event type (one of "),
        ('{"events": [{"type": "Played", "seat": 0, "cards": 5, "trick": 1, "lead": true}]}',
         "log.json: deal 1, event 1.cards: cards: expected a string such as 'HA HA HK'"),
    ],
)
def test_replay_of_a_malformed_log_is_one_line(tmp_path, monkeypatch, capsys, text, expected):
    """`shengji replay` printed KeyError/TypeError tracebacks for these."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.json").write_text(text, encoding="utf-8")
    assert main(["replay", "log.json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"shengji replay: error: {expected}"), err
    assert len(err.splitlines()) == 1
