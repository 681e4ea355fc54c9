"""Helpers shared by the web server tests (tests/test_server*.py): rooms over HTTP and
protocol messages over the TestClient's websockets."""

from __future__ import annotations

import json

from shengji.protocol import PROTOCOL_VERSION

#: the tests speak to the server as http://127.0.0.1 (an IP literal passes the Host check)
BASE = "http://127.0.0.1"
WS = "ws://127.0.0.1/ws"


def new_room(client, **body) -> str:
    r = client.post("/api/rooms", json={"seed": 1, "max_deals": 1, **body})
    assert r.status_code == 200, r.text
    return r.json()["room"]


def room_of(client, code):
    return client.app.state.lobby.rooms[code]


def send(ws, **msg) -> None:
    ws.send_text(json.dumps(msg))


def join(ws, code, **extra) -> dict:
    send(ws, **{"type": "join", "protocol": PROTOCOL_VERSION, "room": code, **extra})
    msg = ws.receive_json()
    assert msg["type"] == "welcome", msg
    return msg


def until(ws, kind: str) -> dict:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg


def some_action(state: dict) -> dict:
    legal = state["legal"]
    if legal["kind"] == "bury":
        return {"type": "Bury", "cards": " ".join(state["view"]["hand"].split()[:legal["count"]])}
    if legal["kind"] == "call":  # finding friends: `count` of the single calls listed
        calls = [a["calls"][0] for a in legal["actions"][:legal["count"]]]
        return {"type": "CallFriends", "calls": calls}
    return legal["actions"][0]
