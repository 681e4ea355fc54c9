"""One source for what the page knows: static/known.js is generated from the Python data
(card points, suits, jokers, ranks, refusals and their rules in words), every refusal code
the engine can give has its words, every rule it cites is said in words, and the view
tells the page which cards are trumps (the page does not work it out, so a variant's
constant ranks are trumps on screen too)."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import shengji
from shengji.cards import NUM_KINDS, card_str, parse_cards, point_value
from shengji.core import FollowReason
from shengji.frontends.web.known import known, known_js
from shengji.protocol import Table
from shengji.protocol.refusals import REFUSALS, RULES, refusal_text, rule_words

STATIC = Path(shengji.__file__).parent / "frontends" / "web" / "static"
ENGINE = Path(shengji.__file__).parent / "engine"


def test_the_shipped_known_js_is_generated_from_python():
    assert (STATIC / "known.js").read_text(encoding="utf-8") == known_js(), (
        "regenerate: python -m shengji.frontends.web.known > "
        "shengji/frontends/web/static/known.js")


def test_card_points_in_known_js_are_the_engines():
    points = known()["POINTS"]
    for k in range(NUM_KINDS):
        tok = card_str(k)
        rank = None if tok in ("BJ", "LJ") else tok[1:]
        assert points.get(rank, 0) == point_value(k), tok


def engine_reason_codes() -> set[str]:
    """Every reason code written where the engine refuses an action: the second argument
    of ``_refuse(...)``/``IllegalAction(...)``/``IllegalPlayAction(...)`` (or ``reason=``),
    in any module of shengji/engine/, plus the core's follow reasons."""
    codes = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name not in ("_refuse", "IllegalAction", "IllegalPlayAction"):
                continue
            args = node.args[1:2] + [k.value for k in node.keywords if k.arg == "reason"]
            codes |= {a.value for a in args
                      if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    codes |= {v for k, v in vars(FollowReason).items() if k.isupper() and v != FollowReason.OK}
    # and the server's own: ProtocolError("illegal", message, reason) (web/rooms.py)
    for path in (ENGINE.parent / "frontends").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ProtocolError" \
                    and len(node.args) > 2 and getattr(node.args[0], "value", "") == "illegal":
                codes.add(node.args[2].value)
    return codes


def test_every_refusal_code_has_plain_words_and_no_stale_one():
    codes = engine_reason_codes()
    assert len(codes) >= 12, codes  # the scan finds the engine's refusals
    assert codes - set(REFUSALS) == set(), "a refusal code without words"
    assert set(REFUSALS) - codes == set(), "words for a code the engine never gives"


def test_every_rule_a_refusal_cites_is_said_in_plain_words():
    """Issue 38: "why?" showed "docs/rules.md §5 (…, seed 000 出牌規則)". Every rule the
    engine cites (engine/phase.py RULE_*) has words for players on the page's rules page
    (and the terminal's --explain): no sources, no section numbers; one anchor each."""
    from shengji.engine import phase

    cited = {v for k, v in vars(phase).items() if k.startswith("RULE_")}
    assert cited and cited == set(RULES)
    ids = [r["id"] for r in RULES.values()]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"[a-z-]+", i) for i in ids)
    for said in RULES.values():
        words = said["title"] + " " + said["text"]
        assert not re.search(r"seed|docs/|§|\.md|card\(s\)", words), words
        assert len(said["text"]) > 40
    assert rule_words(phase.RULE_FOLLOW).startswith("Following suit and shape: Play as many")
    assert rule_words("a plugin's own rule") == ""


def test_refusal_words_fill_their_fields_or_fall_back():
    assert refusal_text("must_follow_suit", lead="♥A ♥A", suit="♥ hearts", tried="♠3 ♠4") == (
        "You tried ♠3 ♠4. You must follow ♥ hearts while you hold any: the lead was ♥A ♥A.")
    # a field it needs is unknown: the engine's own sentence
    assert refusal_text("wrong_count", message="seat 0 must bury 8") == "seat 0 must bury 8"
    assert refusal_text("no_such_code", message="odd") == "odd"
    assert refusal_text("not_your_turn", tried="♠3") == "It is not your turn."


@pytest.mark.parametrize("variant", ["two-deck-80", "constant-two"])
def test_the_view_lists_the_trumps_the_hand_groups_use(variant):
    t = Table(variant, seed=3, bots={s: "heuristic" for s in range(1, 4)})
    seen_play = False
    for _ in range(400):
        msg = t.state(0)
        v = msg["view"]
        trumps = set(v["trumps"].split())
        for g in v["hand_groups"]:
            for tok in g["cards"].split():
                assert (tok in trumps) == (g["suit"] == "trump"), (tok, g["suit"], v["trumps"])
        if v["phase"] == "play":
            seen_play = True
            if variant == "constant-two":
                assert {"S2", "H2", "C2", "D2"} <= trumps  # constant ranks are trumps always
            break
        if msg["legal"] is None:
            t.run_bots()
            continue
        legal = msg["legal"]
        if legal["kind"] == "bury":
            action = {"type": "Bury", "cards": " ".join(v["hand"].split()[:legal["count"]])}
        else:
            action = legal["actions"][0]
        t.act(0, action)
        t.run_bots()
    assert seen_play
    assert len(parse_cards(v["trumps"])) == len(trumps)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is missing")
def test_known_js_loads_as_a_module_with_the_same_data():
    out = subprocess.run(
        ["node", "--input-type=module", "-e",
         f"const m = await import({json.dumps((STATIC / 'known.js').as_uri())});"
         "console.log(JSON.stringify(Object.fromEntries(Object.entries(m))));"],
        capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == json.loads(json.dumps(known()))
