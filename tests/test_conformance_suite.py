"""The all-variants suite over every registered variant (OpenSpiel's games_sim_test is
the model), the deliberately broken variants it must catch, and `--variant` on the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from shengji.cli import main
from shengji.conformance.suite import SuiteConfig, check_names, run_check, run_suite
from shengji.variants import list_variants, load_variant

BROKEN = Path(__file__).parent / "broken"
CONFIG = SuiteConfig(seed=0, deals=2)

#: variants the suite skips. This list should remain empty: fix the variant or the
#: engine instead of adding to it.
EXCLUDED: list[str] = []

_loaded: dict = {}


def _variant(name):
    if name not in _loaded:
        _loaded[name] = load_variant(name)
    return _loaded[name]


def test_exclusion_list_stays_empty():
    assert EXCLUDED == []


@pytest.mark.parametrize("check", check_names(CONFIG))
@pytest.mark.parametrize(
    "name", [n for n in list_variants(include_house=True) if n not in EXCLUDED]
)
def test_every_variant_passes_the_suite(name, check):
    result = run_check(_variant(name), check, CONFIG)
    assert result.passed, result.line()


@pytest.mark.parametrize("check", check_names(CONFIG))
@pytest.mark.parametrize("players", [7, *(pytest.param(n, marks=pytest.mark.long)
                                        for n in (9, 12))])
def test_finding_friends_passes_the_suite_at_other_sizes(players, check):
    """Issue 11: the suite on finding-friends at several table sizes (5 is above; 9 and 12
    with --long; test_cli_runs_the_suite_at_a_table_size plays 9 by default)."""
    key = f"finding-friends@{players}"
    if key not in _loaded:
        _loaded[key] = load_variant("finding-friends", players=players)
    result = run_check(_loaded[key], check, CONFIG)
    assert result.passed, result.line()


def test_cli_runs_the_suite_at_a_table_size(capsys):
    assert main(["conformance", "--variant", "finding-friends", "--seats", "9",
                 "--deals", "1"]) == 0
    assert "0 failed" in capsys.readouterr().out


@pytest.mark.parametrize(
    "file, check, words",
    [
        ("impossible-score.yaml", "scoring", ["score_deal(120)", "rise=-1", "≥ 0"]),
        ("wrong-next-dealer.yaml", "next-dealer", ["seat 2", "dealer side", "attackers"]),
    ],
)
def test_broken_variant_is_caught_with_a_message(monkeypatch, file, check, words):
    # the broken plugins are imported as broken.<module>: tests/ is on sys.path (conftest);
    # plugins run code, so the test allows its own explicitly (docs/variants.md "Trust")
    monkeypatch.setenv("SHENGJI_ALLOW_PLUGINS",
                       "broken.impossible_scoring, broken.wrong_next_dealer")
    results = list(run_suite(str(BROKEN / file), SuiteConfig(deals=1)))
    failed = {r.name: r for r in results if not r.passed}
    assert check in failed, [r.line() for r in results]
    for w in words:
        assert w in failed[check].message, failed[check].message
    # and the healthy part of the variant still passes its other fixed checks
    assert failed[check].variant.startswith("broken-")


def test_broken_follow_ladder_is_refused_when_loaded():
    # PlayRules refuses a pattern larger than its lead (no follow could supply it), so the
    # variant never reaches play: one failure, at load, naming the ladder and the pattern
    (r,) = list(run_suite(str(BROKEN / "no-legal-follow.yaml"), SuiteConfig(deals=1)))
    assert not r.passed and r.name == "load"
    for w in ("following.pair", "pattern triple", "asks 3 cards", "no follow could ever"):
        assert w in r.message, r.message


def test_unloadable_variant_is_one_clear_failure(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("extends: two-deck-80\nplay: {kitty: sometimes}\n", encoding="utf-8")
    (r,) = list(run_suite(str(p)))
    assert not r.passed and r.name == "load"
    assert "kitty" in r.message and "sometimes" in r.message


def test_ladders_for_long_tractors_pass_the_follows_check(tmp_path):
    """issue 35's defect: a valid file with ladders for tractors of seven and eight pairs
    was refused ("no legal follow"): the random hand held fewer cards than the lead when
    the led suit had few left. A hand now holds at least the lead's size."""
    p = tmp_path / "long.yaml"
    p.write_text("extends: two-deck-80\nplay:\n  following:\n"
                 "    2x7: [2x7, pair, singles]\n    2x8: [2x8, pair + pair, singles]\n",
                 encoding="utf-8")
    (r,) = [c for c in run_suite(str(p), SuiteConfig(seed=1, deals=0)) if c.name == "follows"]
    assert r.passed, r.message


def test_command_variant_flag(capsys, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("extends: two-deck-80\nplay: {kitty: power}\n", encoding="utf-8")
    assert main(["conformance", "--variant", str(house), "--deals", "1"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"{len(check_names(SuiteConfig(deals=1)))} passed, 0 failed"

    code = main(["conformance", "--variant", str(BROKEN / "wrong-next-dealer.yaml"),
                 "--deals", "1", "--allow-plugin", "broken.wrong_next_dealer"])
    out = capsys.readouterr().out
    assert code == 1
    assert "broken-wrong-next-dealer::next-dealer:" in out and "1 failed" in out


def test_command_refuses_negative_deals(capsys):
    with pytest.raises(SystemExit) as e:
        main(["conformance", "--variant", "two-deck-80", "--deals", "-1"])
    assert e.value.code == 2
    assert "--deals -1: needs 0 or more deals" in capsys.readouterr().err


#: the house-rule files beside the rule cases: a few in the default run, all with --long
HOUSE_FILES = sorted(p for p in (Path(__file__).parent / "cases" / "house").glob("*.yaml")
                     if not p.name.endswith(".cases.yaml"))
QUICK_HOUSE = {"kitty-theft.yaml", "no-trump-rank.yaml"}


@pytest.mark.parametrize("path", [
    p if p.name in QUICK_HOUSE else pytest.param(p, marks=pytest.mark.long)
    for p in HOUSE_FILES], ids=lambda p: p.name)
def test_every_house_file_passes_the_suite(path):
    failed = [c.line() for c in run_suite(str(path), SuiteConfig(seed=1, deals=1))
              if not c.passed]
    assert not failed, failed


def test_a_ladder_for_long_tractors_is_not_refused(tmp_path):
    """issue 35: the follows check dealt a hand of 10 cards against a lead of 7 pairs, and
    then blamed the file's ladder for "no legal follow"."""
    path = tmp_path / "ladder7.yaml"
    path.write_text("extends: two-deck-80\nplay:\n  following:\n"
                    "    2x7: [2x7, 2x6, 2x5, 2x4, 2x3, tractor, pair, singles]\n",
                    encoding="utf-8")
    result = run_check(load_variant(path), "follows", CONFIG)
    assert result.passed, result.line()
