"""Saved games (issue 12): a truncated, mistyped or hostile record raises RecordError
naming the field — never JSONDecodeError, AttributeError, TypeError or OverflowError
from shengji.engine.serial."""

from __future__ import annotations

import json

import pytest

from shengji.bots import make_bot
from shengji.engine import Game, action_from_dict, serial
from shengji.errors import RecordError


@pytest.fixture(scope="module")
def record() -> dict:
    game = Game("two-deck-80", 3, max_deals=1)
    bots = [make_bot("random", game.variant, seed=s) for s in range(game.players)]
    while game.phase == "deal" or len(game.actions) < 40:
        seat = game.to_act
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    return game.to_dict()


def changed(record: dict, **fields) -> str:
    return json.dumps({**record, **fields})


CHOOSE = {"type": "ChooseForced", "seat": 0}

CASES = [
    ("truncated", lambda r: json.dumps(r)[:500],
     "game record: not valid JSON: "),
    ("list", lambda r: "[1, 2]",
     "game record: expected a JSON object with format, variant, seed and actions, got list"),
    ("null", lambda r: "null",
     "game record: expected a JSON object with format, variant, seed and actions, got null"),
    ("actions: 5", lambda r: changed(r, actions=5),
     "game record: actions: 5 is not a list of actions"),
    ('option: "abc"', lambda r: changed(r, actions=[{**CHOOSE, "option": "abc"}]),
     'game record: actions[0].option: "abc" is not an index 0, 1, ...'),
    ("option: 1e400", lambda r: changed(r, actions=[{**CHOOSE, "option": 1}]).replace(
        '"option": 1', '"option": 1e400'),
     "game record: not valid JSON: 1e400 is not a finite number"),
    ("option: true", lambda r: changed(r, actions=[{**CHOOSE, "option": True}]),
     "game record: actions[0].option: true is not an index 0, 1, ..."),
    ('max_deals: "x"', lambda r: changed(r, max_deals="x"),
     'game record: max_deals: "x" is not a number of deals (1 or more, or null)'),
    ("max_deals: -1", lambda r: changed(r, max_deals=-1),
     "game record: max_deals: -1 is not a number of deals (1 or more, or null)"),
    ('state: "x"', lambda r: changed(r, state="x"), 'game record: state: "x" is not an object'),
    ("seed: [1]", lambda r: changed(r, seed=[1]),
     "game record: seed: [1] is not an integer or a string"),
    ("variant: 5", lambda r: changed(r, variant=5),
     "game record: variant: 5 is not a variant name or path"),
    ("no actions", lambda r: json.dumps({k: v for k, v in r.items() if k != "actions"}),
     "game record: missing key 'actions'"),
    ("format: 2", lambda r: changed(r, format=2), "game record: format: 2, expected 1"),
    ('seat: "0"', lambda r: changed(r, actions=[{"type": "Pass", "seat": "0"}]),
     'game record: actions[0].seat: "0" is not a seat number'),
    ("type: Fly", lambda r: changed(r, actions=[{"type": "Fly", "seat": 0}]),
     'game record: actions[0].type: malformed action record {"type": "Fly", "seat": 0}: needs '
     "type (one of Declare, Pass, Bury, Play, ChooseForced, TakeBack, CallFriends, "
     "RequestRedeal), seat and "
     "cards/option/calls"),
    ("cards: 5", lambda r: changed(r, actions=[{"type": "Play", "seat": 0, "cards": 5}]),
     "game record: actions[0].cards: 5 is not a card string such as 'HA HA'"),
    ("cards: HX", lambda r: changed(r, actions=[{"type": "Play", "seat": 0, "cards": "HX"}]),
     "game record: actions[0].cards: malformed card 'HX': unknown rank 'X'"),
    ("nested 100,000 deep", lambda r: "[" * 100_000 + "]" * 100_000,
     "game record: nested more than 64 levels deep"),
    ("not UTF-8", lambda r: b'{"format": 1, "variant": "\xff"}',
     "game record: not UTF-8 text (invalid start byte)"),
]


@pytest.mark.parametrize("text_of, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_record_names_the_field(record, text_of, expected):
    with pytest.raises(RecordError) as info:
        serial.loads(text_of(record))
    message = str(info.value)
    assert message.startswith(expected), message
    assert "\n" not in message


def test_an_action_that_does_not_replay_names_its_index(record):
    actions = list(record["actions"])
    actions[5] = {**actions[5], "seat": (actions[5]["seat"] + 1) % 4}
    with pytest.raises(RecordError, match=r"^game record: actions\[5\] \(.*\) does not replay: "):
        serial.loads(changed(record, actions=actions))


def test_a_good_record_still_loads(record, tmp_path):
    game = serial.loads(json.dumps(record))
    assert game.to_dict() == record
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert serial.load(path).to_dict() == record


def test_a_saved_file_is_named_in_the_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "saved.json").write_text('{"format": 1, "actions": 5}', encoding="utf-8")
    with pytest.raises(RecordError, match=r"^saved.json: missing key 'seed'$"):
        serial.load("saved.json")
    with pytest.raises(RecordError, match=r"^gone.json: no such game record$"):
        serial.load("gone.json")
    with pytest.raises(RecordError, match=r"^'\\x00': not a usable file name"):
        serial.load("\x00")


def test_from_dict_checks_the_same(record):
    with pytest.raises(RecordError, match="^game record: state: 5 is not an object$"):
        Game.from_dict({**record, "state": 5})
    with pytest.raises(RecordError, match=r"^action record.seat: null is not a seat number$"):
        action_from_dict({"type": "Pass", "seat": None})
