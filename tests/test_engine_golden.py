"""Golden transcripts: recorded (variant, seed, actions) with the events each caused.

Replaying the actions must reproduce every event byte for byte, so any silent change of
the engine's behaviour (shuffle, dealing order, declarations, tricks, scoring) shows up
as a diff naming the first differing line. After an intended change, regenerate with

    SHENGJI_REGEN_GOLDEN=1 pytest tests/test_engine_golden.py

and review the diff of tests/golden/ like code.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from shengji.bots import make_bot
from shengji.engine import Game, action_from_dict
from shengji.variants import list_variants

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("SHENGJI_REGEN_GOLDEN") == "1"
#: (variant, seed): two per built-in variant, one per house variant
CASES = [(n, s) for n in list_variants() for s in (1, 2)] + [
    (n, 1) for n in list_variants(include_house=True) if n not in list_variants()
]


def _path(name: str, seed: int) -> Path:
    return GOLDEN / f"{name.replace('/', '__')}-seed{seed}.jsonl"


def _line(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def record(name: str, seed: int) -> list[str]:
    game = Game(name, seed, max_deals=1)
    players = ["random", "heuristic"] * (game.players // 2 + 1)
    bots = [make_bot(players[s], game.variant, f"golden/{seed}/{s}") for s in range(game.players)]
    lines = [_line({"variant": name, "seed": seed, "max_deals": 1}),
             _line({"action": None, "events": [e.to_dict() for e in game.events]})]
    while not game.over:
        seat = game.to_act
        action = bots[seat].act(game.view(seat), game.legal_actions(seat))
        events = game.apply(action)
        lines.append(_line({"action": action.to_dict(), "events": [e.to_dict() for e in events]}))
    return lines


def replay(lines: list[str]) -> list[str]:
    head = json.loads(lines[0])
    game = Game(head["variant"], head["seed"], max_deals=head["max_deals"])
    out = [lines[0], _line({"action": None, "events": [e.to_dict() for e in game.events]})]
    for line in lines[2:]:
        action = action_from_dict(json.loads(line)["action"])
        events = game.apply(action)
        out.append(_line({"action": action.to_dict(), "events": [e.to_dict() for e in events]}))
    assert game.over, "the transcript ends with the deal scored"
    return out


@pytest.mark.parametrize("name,seed", CASES)
def test_golden_transcript(name, seed):
    path = _path(name, seed)
    if REGEN or not path.exists():
        if not REGEN:
            pytest.fail(f"{path} missing: run with SHENGJI_REGEN_GOLDEN=1 to record it")
        path.write_text("\n".join(record(name, seed)) + "\n", encoding="utf-8")
    want = path.read_text(encoding="utf-8").splitlines()
    got = replay(want)
    for i, (a, b) in enumerate(zip(want, got, strict=False), start=1):
        if a != b:
            pytest.fail(f"{path.name} line {i} differs:\n  golden: {a[:400]}\n  now:    {b[:400]}")
    assert len(want) == len(got)


def test_golden_files_are_all_in_use():
    expected = {_path(n, s).name for n, s in CASES}
    present = {p.name for p in GOLDEN.glob("*.jsonl")}
    assert present <= expected, f"stale golden files: {sorted(present - expected)}"
