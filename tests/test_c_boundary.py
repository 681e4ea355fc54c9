"""The C boundary written once: every constant's value lives in core_c/shengji_core.h;
the cffi declarations (shengji_core_cdef.h) take them from it ("#define SJ_X ...",
array lengths "[...]"), and shengji.core maps PlayRules' policy strings, the playout
policies and the rules-field ids to C values by name (lib.SJ_*). Each map is checked
here against the header as the compiler reads it."""

import dataclasses
import re
from pathlib import Path

import pytest

from shengji import rules
from shengji.core import crules, lib, positions

CORE_C = Path(__file__).resolve().parent.parent / "core_c"
DEFINE = re.compile(r"^#define (SJ_[A-Z0-9_]+)\s+(\S+)", re.M)


def _header_values() -> dict:
    """SJ_* integer #defines of shengji_core.h, as C reads them (hex, u suffix, sign)."""
    text = (CORE_C / "shengji_core.h").read_text(encoding="utf-8")
    values = {}
    for name, raw in DEFINE.findall(text):
        raw = raw.rstrip("uUlL")
        if re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)", raw):
            values[name] = int(raw, 0)
    return values


HEADER = _header_values()


def test_the_header_defines_the_constants():
    assert len(HEADER) > 60 and HEADER["SJ_NK"] == 54


@pytest.mark.parametrize("name", sorted(HEADER))
def test_every_header_constant_reaches_python_with_its_value(name):
    assert getattr(lib, name) == HEADER[name]


def test_the_cdef_repeats_no_value():
    text = (CORE_C / "shengji_core_cdef.h").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    assert [d for d in DEFINE.findall(code) if d[1] != "..."] == []
    assert re.findall(r"\[\s*\d+\s*\]", code) == []  # array lengths from the header too


#: rules.py's choices -> the header's name of each (the names need not match)
POLICY_MAPS = [
    (crules.RUFF_COMPARE_CODES, rules.RUFF_COMPARE,
     {"strongest": "SJ_RUFF_STRONGEST", "all_components": "SJ_RUFF_ALL_COMPONENTS",
      "highest_card": "SJ_RUFF_HIGHEST_CARD", "unit_length": "SJ_RUFF_UNIT_LENGTH",
      "all": "SJ_RUFF_ALL", "cover_winner": "SJ_RUFF_COVER_WINNER"}),
    (crules.FAILED_THROW_CODES, rules.FAILED_THROW,
     {"smallest": "SJ_THROW_SMALLEST", "next_player_chooses": "SJ_THROW_NEXT_PLAYER_CHOOSES",
      "first_blocker": "SJ_THROW_FIRST_BLOCKER", "fewest_cards": "SJ_THROW_FEWEST_CARDS"}),
    (crules.FOLLOW_PROTECTION_CODES, rules.FOLLOW_PROTECTIONS,
     {"none": "SJ_PROTECT_NONE", "longer_tuples": "SJ_PROTECT_LONGER_TUPLES",
      "tractor_on_tractor": "SJ_PROTECT_TRACTORS", "both": "SJ_PROTECT_BOTH",
      "suit_only": "SJ_PROTECT_NO_SHAPE"}),
    (crules.BOMBS_CODES, rules.BOMBS,
     {"none": "SJ_BOMBS_NONE", "any_suit": "SJ_BOMBS_ANY_SUIT",
      "follow_suit": "SJ_BOMBS_FOLLOW_SUIT",
      "follow_suit_or_trump": "SJ_BOMBS_FOLLOW_SUIT_OR_TRUMP"}),
    (crules.KITTY_CODES, rules.KITTY_POLICIES,
     {"exponential": "SJ_KITTY_EXPONENTIAL", "power": "SJ_KITTY_POWER",
      "table": "SJ_KITTY_TABLE", "twice_size": "SJ_KITTY_TWICE_SIZE"}),
    (crules.DECOMPOSITION_CODES, rules.DECOMPOSITIONS,
     {"seeds": "SJ_DECOMP_SEEDS", "shengji_io": "SJ_DECOMP_SHENGJI_IO"}),
    (crules.FOLLOW_REQUIREMENTS_CODES, rules.FOLLOW_REQUIREMENTS,
     {"seeds": "SJ_FOLLOWREQ_SEEDS", "shengji_io": "SJ_FOLLOWREQ_SHENGJI_IO"}),
    (crules.THROW_FOLLOWING_CODES, rules.THROW_FOLLOWING,
     {"as_led": "SJ_THROWFOLLOW_AS_LED", "tuples": "SJ_THROWFOLLOW_TUPLES"}),
    (crules.KITTY_THROW_CODES, rules.KITTY_THROW,
     {"largest": "SJ_KITTYTHROW_LARGEST", "whole": "SJ_KITTYTHROW_WHOLE"}),
    (positions._POLICIES, ("random", "greedy"),
     {"random": "SJ_POLICY_RANDOM", "greedy": "SJ_POLICY_GREEDY"}),
]  # fmt: skip


@pytest.mark.parametrize("codes, choices, names", POLICY_MAPS,
                         ids=[sorted(m[0])[0] + "..." for m in POLICY_MAPS])
def test_every_policy_map_covers_the_choices_with_the_headers_values(codes, choices, names):
    assert set(codes) == set(choices) == set(names)
    assert {k: codes[k] for k in choices} == {k: HEADER[names[k]] for k in choices}
    assert len(set(codes.values())) == len(codes)  # no two choices share a code


def test_every_rules_field_id_names_a_playrules_field():
    ids = {v for k, v in HEADER.items() if k.startswith("SJ_RF_")}
    assert set(crules._RULE_FIELDS) == ids and len(ids) == 28
    # PlayRules' fields, and the Context's own two (level, trump)
    fields = {f.name for f in dataclasses.fields(rules.PlayRules)} | {"level", "trump"}
    assert set(crules._RULE_FIELDS.values()) <= fields
    for name, value in HEADER.items():
        if name.startswith("SJ_RF_") and name not in ("SJ_RF_N_LADDERS", "SJ_RF_LADDERS"):
            assert crules._RULE_FIELDS[value] == name[len("SJ_RF_"):].lower()
