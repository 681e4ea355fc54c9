"""shengji/schema/rule_examples.json (issue 27): for each setting, positions where the
house rule and its base disagree, shown by the page's house-rules panel. Each example is
judged again here under both variants (the house case file's and its base), and the
whole file is regenerated from tests/cases/house with --long."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shengji.conformance.casefile import load_case_file
from shengji.conformance.examples import _plain, examples
from shengji.conformance.kinds import JUDGES
from shengji.conformance.runner import VariantCache
from shengji.variants import load_variant

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "shengji" / "schema" / "rule_examples.json"
DATA = json.loads(FILE.read_text(encoding="utf-8"))
ITEMS = [(key, ex) for key, exs in DATA.items() for ex in exs]


def test_the_play_settings_have_examples():
    assert {"play.bombs", "play.follow_protection", "play.ruff_compare", "play.failed_throw",
            "play.shorter_tractors", "play.kitty"} <= set(DATA)


@pytest.mark.parametrize("key,ex", ITEMS, ids=[f"{k}:{e['case']}" for k, e in ITEMS])
def test_each_example_is_what_the_core_judges(key, ex):
    cf = load_case_file(ROOT / ex["file"])
    case = next(c for c in cf.cases if c.id == ex["case"])
    house = VariantCache().get(case.variant, case.file, case.players)
    base = load_variant(ex["base"], players=case.players)
    assert _plain(JUDGES[case.kind](house, case)) == ex["house_verdict"]
    assert _plain(JUDGES[case.kind](base, case)) == ex["base_verdict"]
    assert ex["house_verdict"] != ex["base_verdict"]
    node = house.settings
    for part in key.split("."):
        node = node[part]
    if isinstance(ex["value"], dict):  # a map merges into the base's (following)
        assert {k: node[k] for k in ex["value"]} == ex["value"]
    else:
        assert node == ex["value"]


@pytest.mark.long
def test_the_file_is_generated_from_the_case_files():
    assert examples([ROOT / "tests" / "cases" / "house"]) == DATA, (
        "regenerate: python -m shengji.conformance.examples tests/cases/house "
        "> shengji/schema/rule_examples.json")
