"""The protocol as a contract (issue 29): the JSON Schema (shengji/protocol/schema.py,
shipped as protocol.schema.json) against the Python definitions, the server's messages
and docs/protocol.md; the reference client (docs/client.py) against a live server; and
the documented rule "act once per event_index" when a second connection joins a seat.

Beside these tests, every message the web server sends anywhere in the test suite is
checked against the schema (tests/conftest.py turns SHENGJI_PROTOCOL_CHECK on; the run's
summary gives the count)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shengji.protocol import Table
from shengji.protocol.messages import ACTION_KEYS, CLIENT_MESSAGES, ProtocolError, check_message
from shengji.protocol.schema import (
    CHECKER,
    SCHEMA_FILE,
    SchemaViolation,
    build,
    event_classes,
    load,
    validate_client,
    validate_server,
)
from shengji.variants import load_variant

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_the_shipped_schema_is_built_from_the_python_definitions():
    assert load() == json.loads(json.dumps(build())), (
        "run: python -m shengji.protocol.schema > shengji/protocol/protocol.schema.json")
    # shipped: the protocol package's JSON files are package data
    assert '"shengji.protocol" = ["*.json"]' in (ROOT / "pyproject.toml").read_text()
    assert SCHEMA_FILE.suffix == ".json" and SCHEMA_FILE.parent.name == "protocol"


def test_the_schema_is_valid_draft_07():
    """The draft-07 metaschema accepts the shipped file and what build() makes (a type
    list naming "null" twice, once, was not)."""
    jsonschema = pytest.importorskip("jsonschema")
    for schema in (load(), json.loads(json.dumps(build()))):
        jsonschema.Draft7Validator.check_schema(schema)
        types = re.findall(r'"type": (\[[^]]*\])', json.dumps(schema))
        assert all(len(set(json.loads(t))) == len(json.loads(t)) for t in types)


def test_every_message_and_event_type_has_a_definition():
    defs = load()["definitions"]
    assert {k.split(".", 1)[1] for k in defs if k.startswith("client.")} == set(CLIENT_MESSAGES)
    assert {k.split(".", 1)[1] for k in defs if k.startswith("event.")} == set(event_classes())
    actions = {b["if"]["properties"]["type"]["const"] for b in defs["action"]["allOf"]}
    assert actions == set(ACTION_KEYS)


@pytest.mark.parametrize("msg, ok", [
    ({"type": "join", "protocol": 2, "room": "K7QXM2PA"}, True),
    ({"type": "join", "protocol": 2, "room": "K7QXM2PA", "seat": None, "name": "ann"}, True),
    ({"type": "join", "protocol": 2}, False),                      # missing room
    ({"type": "join", "protocol": 2, "room": "x", "colour": 1}, False),   # unknown key
    ({"type": "join", "protocol": "2", "room": "x"}, False),       # wrong type
    ({"type": "action", "token": "t", "action": {"type": "Play", "cards": "HA"}}, True),
    ({"type": "action", "token": "t", "action": {"type": "Play"}}, False),
    ({"type": "action", "token": "t", "action": {"type": "Pass", "cards": "HA"}}, False),
    ({"type": "action", "token": "t", "action": {"type": "CallFriends", "calls": ["1 HA"]}},
     True),
    ({"type": "chat", "text": "hi"}, True),
    ({"type": "chat", "text": "x" * 201}, False),
    ({"type": "ping"}, True),
    ({"type": "ping", "token": "t"}, False),
    ({"type": "dance"}, False),
])
def test_the_schema_and_the_servers_check_agree_on_client_messages(msg, ok):
    try:
        check_message(json.loads(json.dumps(msg)))
        server_ok = True
    except ProtocolError:
        server_ok = False
    try:
        validate_client(msg)
        schema_ok = True
    except SchemaViolation:
        schema_ok = False
    assert server_ok == schema_ok == ok


def _play(variant: str, players: int | None = None):
    """Every state message of one deal at every seat and a spectator's, as sent."""
    table = Table(load_variant(variant, players=players), seed=5)
    cursors = [0] * table.players
    out = []
    while not table.over and len(out) < 20_000:
        for seat in range(table.players):
            msg = table.state(seat, since=cursors[seat])
            cursors[seat] = msg["event_index"]
            out.append(msg)
        seat = table.game.to_act
        state = table.state(seat)
        legal = state["legal"]
        if legal["kind"] == "bury":
            hand = state["view"]["hand"].split()
            if "restricted" in legal:  # bury settings: the restricted cards last
                kinds = set(legal["restricted"].split())
                hand.sort(key=lambda c: c in kinds)
            action = {"type": "Bury", "cards": " ".join(hand[:legal["count"]])}
        elif legal["kind"] == "call":
            action = {"type": "CallFriends",
                      "calls": [a["calls"][0] for a in legal["actions"][:legal["count"]]]}
        else:
            action = legal["actions"][-1]
        table.act(seat, action)
        if any(e["type"] == "DealScored" for e in table.all_events(max(0, len(
                table.game.events) - 3))):
            break
    out.append(table.state(None, since=0))
    out.append(table.replay(0, 0) if table.game.deals_played else table.state(0))
    return out


# every state of a deal at every seat; the web tests check every message the server
# sends as well (SHENGJI_PROTOCOL_CHECK), so the four-seat deal is long-run depth
@pytest.mark.parametrize("variant, players", [
    pytest.param("two-deck-80", None, marks=pytest.mark.long), ("finding-friends", 6),
    # issue 35: a theft, calls before it; weak-hand redeals (each deals again: long)
    ("house/ran", None), pytest.param("house/shanghai-80", None, marks=pytest.mark.long)])
def test_a_deals_messages_match_the_schema(variant, players):
    msgs = _play(variant, players)
    for msg in msgs:
        validate_server(msg)
    assert len(msgs) > 100


def test_a_redeal_decision_matches_the_schema():
    """issue 35: the state a weak hand is asked in (phase and legal kind redeal)."""
    table = Table(load_variant("house/shanghai-80"), seed=5)
    while table.game.phase != "redeal":
        seat = table.game.to_act
        legal = table.state(seat)["legal"]
        assert legal["kind"] == "declare"
        table.act(seat, legal["actions"][0])
    seat = table.game.to_act
    msg = table.state(seat)
    validate_server(msg)
    assert msg["view"]["phase"] == "redeal" and msg["legal"]["kind"] == "redeal"
    table.act(seat, {"type": "RequestRedeal"})
    events = table.state(seat, since=0)["events"]
    assert any(e["type"] == "RedealAsked" and e["seat"] == seat for e in events)


def test_a_broken_message_is_caught():
    msg = Table("two-deck-80", seed=1).state(0, since=0)
    validate_server(msg)
    for key, value in [("event_index", -1), ("legal", "Pass"), ("over", "no")]:
        with pytest.raises(SchemaViolation, match=key):
            validate_server({**msg, key: value})
    bad_event = {**msg, "events": [{"type": "Played", "seat": 0}]}
    with pytest.raises(SchemaViolation):
        validate_server(bad_event)
    with pytest.raises(SchemaViolation, match="unknown server message type"):
        validate_server({"type": "hello", "protocol": 2})


def test_the_suite_checks_every_server_message():
    assert CHECKER is not None, "tests/conftest.py sets SHENGJI_PROTOCOL_CHECK"


def test_the_doc_names_every_message_event_and_error_code():
    defs = load()["definitions"]
    for key in defs:
        if "." in key:
            name = key.split(".", 1)[1]
            assert f"`{name}`" in DOC or f"`{key}`" in DOC, (
                f"docs/protocol.md does not name `{name}` ({key})")
    codes = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"',
                           "".join(p.read_text() for p in (ROOT / "shengji").rglob("*.py"))))
    missing = sorted(c for c in codes if f"`{c}`" not in DOC)
    assert not missing, f"error codes not in docs/protocol.md: {missing}"


# ---------------------------------------------------------------- over the websocket

starlette = pytest.importorskip("starlette", reason="the web extra is missing")
from starlette.testclient import TestClient  # noqa: E402
from webtools import BASE, WS, join, new_room, send, some_action  # noqa: E402

from shengji.frontends.web.app import create_app  # noqa: E402


def test_a_second_connection_on_a_seat_causes_no_duplicate_action():
    """docs/protocol.md: a connection joining a seat gives every connection on it a
    repeat `state` (same event_index, no events); a client that acts once per
    event_index sends one action, where one acting on every `legal` would send two."""
    with TestClient(create_app(bot_delay=0), base_url=BASE) as client:
        code = new_room(client)
        with client.websocket_connect(WS, headers={"origin": BASE}) as a:
            me = join(a, code)
            send(a, type="start", token=me["token"])
            acted: dict[int, int] = {}
            second_joined = False
            for _ in range(400):
                msg = a.receive_json()
                assert msg["type"] != "error", msg
                if msg["type"] != "state" or msg["over"]:
                    if msg.get("over"):
                        break
                    continue
                if msg["legal"] is None:
                    continue
                index = msg["event_index"]
                if index in acted:  # the repeat: same index, no new events
                    assert msg.get("events") == [], msg.get("events")
                    continue
                acted[index] = acted.get(index, 0) + 1
                if not second_joined and msg["legal"]["kind"] in ("lead", "follow"):
                    # another tab joins this seat before we act: we get the state again
                    with client.websocket_connect(WS, headers={"origin": BASE}) as b:
                        again = join(b, code, token=me["token"])
                        assert again["seat"] == me["seat"]
                        repeat = a.receive_json()
                        assert repeat["type"] == "state"
                        assert repeat["event_index"] == index and repeat["events"] == []
                        assert repeat["legal"] == msg["legal"]
                    second_joined = True
                send(a, type="action", token=me["token"], action=some_action(msg))
            assert second_joined
            assert all(n == 1 for n in acted.values())


@pytest.fixture(scope="module")
def live_server():
    from browsertools import serve
    yield from serve(create_app(bot_delay=0))


@pytest.mark.parametrize("args", [[], ["--variant", "finding-friends", "--players", "6"]])
def test_the_reference_client_plays_a_deal(live_server, args):
    out = subprocess.run([sys.executable, str(ROOT / "docs" / "client.py"), live_server, *args],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert re.match(r"room [A-Z0-9]{8}: attackers -?\d+ points, next side (dealers|attackers) "
                    r"\(\+\d+\); replay: 1 deal\(s\), \d+ actions", out.stdout), out.stdout


@pytest.mark.parametrize("variant, players, sizes", [("two-deck-80", 6, "4 seats"),
                                                     ("two-deck-80", 13, "4 seats"),
                                                     ("finding-friends", 1, "5, 6, 7")])
def test_an_unknown_table_size_names_the_sizes_and_no_path(variant, players, sizes):
    with TestClient(create_app(bot_delay=0), base_url=BASE) as client:
        r = client.post("/api/rooms", json={"variant": variant, "players": players})
    assert r.status_code == 400
    err = r.json()
    assert err["code"] == "bad_variant" and sizes in err["message"], err
    assert ".yaml" not in err["message"] and "/" not in err["message"]
