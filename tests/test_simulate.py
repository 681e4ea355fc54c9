"""``shengji simulate``: summary, JSON, log, parallel jobs, errors without tracebacks."""

from __future__ import annotations

import json

import pytest

from shengji.cli import main

BASE = ["simulate", "--variant", "two-deck-80", "--seed", "5", "--no-progress"]


def run(capsys, *args):
    code = main([*BASE, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_summary_has_every_row(capsys):
    code, out, err = run(capsys, "--deals", "12")
    assert code == 0, err
    for row in ("deals", "dealer-side hold rate", "attackers' mean points", "kitty-bonus rate",
                "levels gained, dealers", "levels gained, attackers", "deals per second"):
        assert row in out
    assert "Traceback" not in err


def test_json_summary(capsys):
    code, out, _ = run(capsys, "--deals", "15", "--json",
                       "--players", "random,heuristic,random,heuristic")
    assert code == 0
    s = json.loads(out)
    assert s["deals"] == 15 and s["variant"] == "two-deck-80"
    assert 0 <= s["dealer_hold_rate"] <= 1 and 0 <= s["kitty_bonus_rate"] <= 1
    assert set(s["teams"]) == {"random", "heuristic"}
    assert s["bot_options"][1] == {"name": "heuristic"}
    gained = s["levels"]["dealers_gained"] + s["levels"]["attackers_gained"]
    assert gained == sum(t["levels_gained"] for t in s["teams"].values())
    assert s["deals_per_second"] > 0


def test_jobs_change_speed_not_results(capsys):
    _, one, _ = run(capsys, "--deals", "45", "--json", "--jobs", "1")
    _, two, _ = run(capsys, "--deals", "45", "--json", "--jobs", "2")
    a, b = json.loads(one), json.loads(two)
    for key in ("seconds", "deals_per_second", "jobs"):
        a.pop(key), b.pop(key)
    assert a == b


def test_log_has_every_deal(capsys, tmp_path):
    log = tmp_path / "deals.jsonl"
    code, _, _ = run(capsys, "--deals", "7", "--log", str(log))
    assert code == 0
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 7
    for rec in lines:
        types = [e["type"] for e in rec["events"]]
        assert types[0] == "DealStarted" and types[-1] == "DealScored"
        assert types.count("CardDealt") >= 100


def test_whole_matches(capsys):
    code, out, _ = run(capsys, "--matches", "1", "--json",
                       "--players", "heuristic,random,heuristic,random")
    s = json.loads(out)
    assert code == 0 and s["matches"] == 1 and s["deals"] >= 1
    assert sum(t["matches_won"] for t in s["teams"].values()) == 1


def test_progress_bar_on_stderr(capsys):
    # captured stderr is no terminal: no bar unless forced (tests/test_progress.py)
    code = main(["simulate", "--deals", "3", "--seed", "1", "--progress"])
    out, err = capsys.readouterr()
    assert code == 0 and "3/3" in err and "deals" in err and "3/3" not in out
    code = main(["simulate", "--deals", "3", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""


@pytest.mark.parametrize("args,message", [
    (["--deals", "5", "--players", "random,robot,random,random"], "unknown bot 'robot'"),
    # issue 13: one mistyped name is named, not miscounted
    (["--deals", "1", "--players", "mcts"], "unknown bot 'mcts'; bots: random, heuristic"),
    (["--deals", "5", "--players", "random,random"], "4 seats"),
    (["--deals", "0"], "positive"),
    (["--deals", "5", "--jobs", "0"], "--jobs"),
])
def test_bad_input_is_one_clear_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_unknown_variant_is_one_clear_line(capsys):
    code = main(["simulate", "--variant", "no-such-variant", "--deals", "3"])
    _, err = capsys.readouterr()
    assert code == 2 and "no-such-variant" in err and "Traceback" not in err


def test_bot_options_are_recorded(capsys):
    code, out, err = run(capsys, "--deals", "1", "--json",
                         "--players", "mc:budget=40,random,mc:budget=40,random")
    assert code == 0, err
    s = json.loads(out)
    assert s["bot_options"][0] == {"name": "mc", "budget": "40", "policy": "greedy", "cap": 12,
                                   "bury": "search", "alloc": "halving"}
    assert s["players"][0] == "mc:budget=40"


@pytest.mark.parametrize("seats", range(5, 13))
def test_finding_friends_at_every_table_size(capsys, seats):
    """Issue 11: ``simulate --variant finding-friends --seats N`` for N = 5..12 (random
    bots at every seat, pagat's deck for the size)."""
    code, out, err = run(capsys, "--variant", "finding-friends", "--seats", str(seats),
                         "--deals", "2", "--json", "--seed", f"ff{seats}")
    assert code == 0, err
    s = json.loads(out)
    assert s["seats"] == seats and s["deals"] == 2 and len(s["players"]) == seats
