"""`shengji variants check` rejects what a run would fail on (issue 12): limits of the
core's ladders, patterns no follow can supply, levels out of order, absurd penalties,
and — through a short seeded test match — hooks that raise on the variant's own
settings. Each input gives one line naming the file (and the line and key when a key
is at fault)."""

from __future__ import annotations

import pytest

from shengji.cli import main

LONG_SHAPES = [f"2x{n}" for n in range(2, 13)] + [f"3x{n}" for n in range(2, 9)]


def run_check(tmp_path, monkeypatch, capsys, files: dict, *extra) -> tuple[int, list, str]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    code = main(["variants", "check", *extra, "v.yaml"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err.splitlines(), out


@pytest.mark.parametrize(
    "body, start, words",
    [
        # the C struct's limits (core's PlayRules checks), now with the file's line
        ("extends: four-deck\nplay:\n  following:\n"
         + "".join(f"    {s}: [singles]\n" for s in LONG_SHAPES[:17]),
         "v.yaml:3: play.following: ", ["ladders", "at most 16"]),
        ("extends: four-deck\nplay:\n  following:\n    2x12:\n"
         + "".join("      - " + " + ".join(["pair"] * (i + 1)) + "\n" for i in range(25)),
         "v.yaml:4: play.following.2x12: ", ["patterns", "at most 24"]),
        ("extends: four-deck\nplay:\n  following:\n    2x12:\n      - "
         + " + ".join(["pair"] * 65) + "\n",
         "v.yaml:4: play.following.2x12: ", ["pattern"]),
        # a following ladder no hand can satisfy on two decks
        ("extends: two-deck-80\nplay:\n  following:\n    pair: [triple, singles]\n",
         "v.yaml:4: play.following.pair: pattern triple: ", ["no follow could ever supply it"]),
        # levels out of order: the first deal would end the match
        ("extends: two-deck-80\nstart_level: K\nmatch_end: {last_level: 5}\n",
         "v.yaml:2: start_level: 'K' is above match_end.last_level 5: the first deal would end "
         "the match", []),
        # a failed-throw penalty of 10**23 (simulate printed 1.2e23 mean points)
        ("extends: two-deck-80\npenalties: {failed_throw: 100000000000000000000000}\n",
         "v.yaml:2: penalties.failed_throw: 100000000000000000000000 is out of range "
         "(allowed 0..1000)", []),
        ("extends: two-deck-80\nplay: {kitty: exponential, kitty_cap: 2147483648}\n",
         "v.yaml:2: play.kitty_cap: 2147483648 is out of range (allowed 1..2147483647)", []),
    ],
    ids=["17-ladders", "25-patterns", "65-shapes", "pair-needs-triple", "start-above-last",
         "penalty-1e23", "kitty-cap"],
)
def test_check_rejects_unplayable_settings(tmp_path, monkeypatch, capsys, body, start, words):
    code, err, out = run_check(tmp_path, monkeypatch, capsys, {"v.yaml": body})
    assert code == 1 and "0 ok, 1 with errors" in out
    assert len(err) == 1 and err[0].startswith(start), err
    for w in words:
        assert w in err[0]


def test_levels_out_of_order_name_the_file_that_sets_them(tmp_path, monkeypatch, capsys):
    files = {"base.yaml": "extends: two-deck-80\nmatch_end: {last_level: 3}\n",
             "v.yaml": "extends: base.yaml\n\nstart_level: 4\n"}
    code, err, _ = run_check(tmp_path, monkeypatch, capsys, files)
    assert code == 1
    assert err == ["v.yaml:3: start_level: 4 is above match_end.last_level 3: the first deal "
                   "would end the match"]


RAISES = """
def shengji_kitty_multiplier(variant, context, play, lead):
    # fails on the variant's own settings: only a deal that reaches its end finds out
    raise RuntimeError("no multiplier for kitty policy " + variant.settings["play"]["kitty"])
"""


def test_a_hook_that_raises_fails_the_test_match(tmp_path, monkeypatch, capsys):
    files = {"raising_hook.py": RAISES,
             "v.yaml": "extends: two-deck-80\nplugins: [raising_hook]\n"}
    code, err, out = run_check(tmp_path, monkeypatch, capsys, files,
                               "--allow-plugin", "raising_hook")
    assert code == 1 and "0 ok, 1 with errors" in out
    assert err == ["v.yaml: loads, but a test match fails: deal-0: VariantError: variant v: "
                   "hook shengji_kitty_multiplier raised RuntimeError: no multiplier for kitty "
                   "policy exponential"]
    # --no-play checks the files and the hooks it can call without a deal
    code, err, out = run_check(tmp_path, monkeypatch, capsys, files,
                               "--allow-plugin", "raising_hook", "--no-play")
    assert code == 0 and err == []
    assert out.startswith("v.yaml: ok (v); ran plugin code: raising_hook (raising_hook.py)")


def test_all_ranks_constant_two_players_four_decks(tmp_path, monkeypatch, capsys):
    """Issue 12: accepted by check; the test match now shows it is playable (every
    suited card a trump, 100-card hands), and check says so within its budget."""
    body = ("extends: four-deck\nplayers: 2\nteams: [0, 1]\nhand_size: 100\nkitty_size: 16\n"
            "play:\n  constant_ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]\n")
    code, err, out = run_check(tmp_path, monkeypatch, capsys, {"v.yaml": body})
    assert (code, err) == (0, []), err
    assert out.splitlines()[0] == "v.yaml: ok (v)"
    assert main(["simulate", "--variant", "v.yaml", "--deals", "2", "--no-progress"]) == 0
