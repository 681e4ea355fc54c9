"""Types in variant files (issue 12): a float or a bool where an integer is meant is an
error with file, line and key — JSON Schema alone counts 25.0 as an integer, so
``hand_size: 25.0`` passed `variants check` and crashed `simulate` with a TypeError."""

from __future__ import annotations

import pytest

from shengji.cli import main
from shengji.errors import VariantError
from shengji.variants import load_variant

BASE = "extends: two-deck-80\n"


@pytest.mark.parametrize(
    "body, expected",
    [
        ("hand_size: 25.0\n", "v.yaml:2: hand_size: 25.0 is not an integer"),
        ("decks: true\n", "v.yaml:2: decks: true is not an integer"),
        ("players: 4.0\n", "v.yaml:2: players: 4.0 is not an integer"),
        ("kitty_size: 8.0\n", "v.yaml:2: kitty_size: 8.0 is not an integer"),
        ("teams: [0, 1.0, 0, 1]\n", "v.yaml:2: teams[1]: 1.0 is not an integer"),
        ("play: {max_tuple: 2.0}\n", "v.yaml:2: play.max_tuple: 2.0 is not an integer"),
        ("play: {kitty: table, kitty_table: {pair: 4.0}}\n",
         "v.yaml:2: play.kitty_table.pair: 4.0 is not an integer"),
        ("penalties: {failed_throw: 10.0}\n",
         "v.yaml:2: penalties.failed_throw: 10.0 is not an integer"),
        ("scoring: {step: false}\n", "v.yaml:2: scoring.step: false is not an integer"),
        ("declare: {min_level_cards: 1.0}\n",
         "v.yaml:2: declare.min_level_cards: 1.0 is not an integer"),
        # a rank given as a float or a bool would match the rank 10 (or 1) of the enum
        ("start_level: 10.0\n",
         "v.yaml:2: start_level: 10.0 is not one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, T"),
        ("match_end: {last_level: 10.0}\n",
         "v.yaml:2: match_end.last_level: 10.0 is not one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, "
         "K, A, T, NT"),
        ("play: {constant_ranks: [2.0]}\n",
         "v.yaml:2: play.constant_ranks[0]: 2.0 is not one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, "
         "Q, K, A, T"),
    ],
)
def test_check_rejects_floats_and_bools_where_ints_are_meant(tmp_path, monkeypatch, capsys,
                                                            body, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text(BASE + body, encoding="utf-8")
    assert main(["variants", "check", "v.yaml"]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [expected]
    assert "0 ok, 1 with errors" in out


def test_simulate_gives_the_same_line_not_a_type_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text(BASE + "hand_size: 25.0\n", encoding="utf-8")
    assert main(["simulate", "--variant", "v.yaml", "--deals", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == ["shengji simulate: error: v.yaml:2: hand_size: 25.0 is not an "
                                "integer"]


def test_mapping_variants_are_checked_alike():
    with pytest.raises(VariantError, match="hand_size: 25.0 is not an integer"):
        load_variant({"extends": "two-deck-80", "hand_size": 25.0})
    # integers and the ranks' own spellings still load
    v = load_variant({"extends": "two-deck-80", "hand_size": 25, "start_level": 10,
                      "match_end": {"last_level": "A"}})
    assert v.hand_size == 25 and v.start_level() == 8


def test_simulate_reads_the_file_again_each_run(tmp_path, monkeypatch, capsys):
    """A variant was cached by its reference: after a run on a good ./v.yaml, a run on a
    broken ./v.yaml elsewhere played the cached good one."""
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.mkdir(), bad.mkdir()
    (good / "v.yaml").write_text(BASE, encoding="utf-8")
    (bad / "v.yaml").write_text(BASE + "hand_size: 25.0\n", encoding="utf-8")
    argv = ["simulate", "--variant", "v.yaml", "--deals", "1", "--no-progress"]
    monkeypatch.chdir(good)
    assert main(argv) == 0
    monkeypatch.chdir(bad)
    assert main(argv) == 2
    assert "v.yaml:2: hand_size: 25.0 is not an integer" in capsys.readouterr().err
