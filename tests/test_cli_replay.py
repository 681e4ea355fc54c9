"""`shengji replay`, `shengji watch`, `shengji --version`, "did you mean" for a mistyped
variant, and the terminal's wording (issue 13)."""

from __future__ import annotations

import io
import json

import pytest

from shengji.cli import main
from shengji.engine.serial import game_to_dict
from shengji.errors import VariantError
from shengji.frontends.terminal import Terminal
from shengji.protocol import Table
from shengji.variants import load_variant


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip().startswith("shengji 0.")


def test_replay_a_simulate_log_trick_by_trick(tmp_path, capsys):
    log = tmp_path / "deals.jsonl"
    assert run(capsys, "simulate", "--deals", "2", "--seed", "4", "--log", str(log),
               "--no-progress")[0] == 0
    code, out, err = run(capsys, "replay", str(log), "--no-color")
    assert code == 0 and not err
    assert out.count("--- Deal ") == 2 and out.count("Deal 1 result") == 1
    lines = out.splitlines()
    tricks = [ln for ln in lines if ln.startswith("  trick ")]
    assert len(tricks) >= 2 * 10 and all(" | " in t for t in tricks)
    assert sum(ln.lstrip().startswith("→ seat") for ln in lines) == len(tricks)
    # every hand is shown once trump is set
    assert sum(ln.startswith("    seat ") for ln in lines) == 8
    code, out, _ = run(capsys, "replay", str(log), "--deal", "2", "--no-color")
    assert code == 0 and "Deal 2 result" in out and "Deal 1 result" not in out
    code, _, err = run(capsys, "replay", str(log), "--deal", "9")
    assert code == 2 and err.count("\n") == 1 and "deals 1..2" in err


def test_replay_a_game_record_and_a_public_replay(tmp_path, capsys):
    table = Table("two-deck-80", 8, bots={s: "random" for s in range(4)}, max_deals=1)
    table.run_bots()
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps(game_to_dict(table.game)))
    code, out, _ = run(capsys, "replay", str(rec), "--no-color")
    won = sum(type(e).__name__ == "TrickWon" for e in table.game.events)
    assert code == 0 and sum(ln.startswith("  trick ") for ln in out.splitlines()) == won

    from shengji.frontends.web.rooms import Room

    room = Room("ABCDEFGH", load_variant("two-deck-80"), 8, max_deals=1)
    room.table.game = table.game
    public = tmp_path / "public.json"
    public.write_text(room.public_replay(lambda: True))
    code, out2, _ = run(capsys, "replay", str(public), "--no-color")
    assert code == 0 and out2.split("\n", 1)[1] == out.split("\n", 1)[1]


@pytest.mark.parametrize("text, says", [
    ("", "empty file"), ("{nope", "not JSON (Expecting property name enclosed in double "
                                    "quotes, column 2)"),
    ('{"a": 1}', "not a game record"),
    ('{"format": 1, "variant": "two-deck-80", "seed": 1, "actions": [{"type": "Play"}]}',
     "game record")])
def test_replay_of_a_bad_file_is_one_line(tmp_path, capsys, text, says):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2 and says in err and err.count("\n") == 1 and "Traceback" not in err
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err


def test_watch_plays_a_deal_card_by_card(capsys):
    code, out, err = run(capsys, "watch", "--delay", "0", "--seed", "2", "--no-color")
    assert code == 0 and not err
    assert " leads " in out and " plays " in out and "Deal 1 result" in out
    code, out, err = run(capsys, "watch", "--delay", "0", "--players", "random,heuristic",
                         "--no-color")
    assert code == 2 and "seats" in err


def test_options_are_never_abbreviated(capsys):
    # `play --players mcts` was read as an abbreviation of --players-count ("invalid int
    # value"): a mistyped option is named as such, whatever options share its prefix
    for argv, said in ((["play", "--players", "mcts"], "--players mcts"),
                       (["simulate", "--deal", "3"], "--deal 3")):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
        assert f"unrecognized arguments: {said}" in capsys.readouterr().err


def test_a_mistyped_variant_gets_did_you_mean(capsys):
    with pytest.raises(VariantError, match="did you mean 'two-deck-80'"):
        load_variant("two-deck80")
    code, _, err = run(capsys, "watch", "--variant", "tw0-deck-80")
    assert code == 2 and "did you mean 'two-deck-80'" in err


def test_terminal_wording():
    table = Table("two-deck-80", 1)
    term = Terminal(table, 0, io.StringIO(), out := io.StringIO())
    view = table.state(0)["view"]
    assert term.verb(0, "wins") == "win" and term.verb(0, "tries") == "try"
    assert term.verb(1, "wins") == "wins"
    term.narrate([{"type": "ThrowFailed", "seat": 1, "attempted": "SA SK S9",
                   "options": ["S9"], "chooser": None, "penalty": 10, "blocker": 0,
                   "beaten": "S9", "beaten_by": "S10"},
                  {"type": "MatchOver", "winner": view["team"], "levels": [13] * 4,
                   "deals": 9}], view)
    text = out.getvalue()
    assert "tries to throw ♠A ♠K ♠9: ♠9 is beaten by your ♠10" in text
    assert "plays ♠9 instead" in text and "penalty: 10 points" in text
    assert "your team wins" in text and "team 0" not in text


@pytest.mark.parametrize("argv, says", [
    (["watch", "--delay", "inf"], "--delay inf: at most 3600 seconds"),
    (["watch", "--delay", "nan"], "--delay nan: at most 3600 seconds"),
    (["watch", "--delay", "-1"], "--delay: cannot be negative"),
    (["replay", "LOG", "--delay", "inf"], "--delay inf: at most 3600 seconds"),
    (["serve", "--bot-delay", "nan"], "--bot-delay nan: at most 3600 seconds"),
])  # fmt: skip
def test_delays_that_time_sleep_cannot_take_are_one_line(tmp_path, capsys, argv, says):
    # issue 12: `--delay inf` ended in OverflowError from time.sleep, NaN was taken as 0
    log = tmp_path / "log.json"
    log.write_text("{}")
    code, _, err = run(capsys, *[str(log) if a == "LOG" else a for a in argv])
    assert code == 2 and says in err and err.count("\n") == 1, err
