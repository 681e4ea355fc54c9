"""The web server over its websocket (Starlette TestClient): rooms, seats and tokens,
reconnecting, a whole deal, and the security rules — a seat never receives another
seat's cards or the buried kitty; actions without the token, for another seat, out of
turn, malformed or oversized are refused with an error and change nothing."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():  # starlette asks for httpx2; httpx works the same here
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from webtools import BASE, WS, join, new_room, room_of, send, some_action, until  # noqa: E402

from shengji.cards import format_counts  # noqa: E402
from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.frontends.web.rules_api import MAX_RULES_BODY  # noqa: E402
from shengji.protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION  # noqa: E402


@pytest.fixture()
def client():
    with TestClient(create_app(bot_delay=0), base_url=BASE) as c:
        yield c


# ---------------------------------------------------------------- rooms and seats

def test_create_room_validates_its_input(client):
    assert client.get("/api/variants").json()["variants"][0] == "one-deck-40"
    for body, status in [({"variant": "/etc/passwd"}, 400), ({"variant": 3}, 400),
                         ({"seed": [1]}, 400), ({"seed": "x" * 65}, 400),
                         ({"max_deals": 0}, 400), ({"colour": "red"}, 400)]:
        r = client.post("/api/rooms", json=body)
        assert r.status_code == status, body
        assert r.json()["type"] == "error" and r.json()["message"]
    json_type = {"content-type": "application/json"}
    r = client.post("/api/rooms", content=b"{nope", headers=json_type)
    assert r.status_code == 400 and r.json()["code"] == "bad_json"
    r = client.post("/api/rooms", content=b"[1]", headers=json_type)
    assert r.status_code == 400
    # a room's body may carry a house file (rules_api.MAX_RULES_BODY), no more
    r = client.post("/api/rooms", content=b" " * (MAX_RULES_BODY + 1), headers=json_type)
    assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200


def test_join_errors(client):
    code = new_room(client)
    with client.websocket_connect(WS) as ws:
        for msg, err in [({"room": "ZZZZZZZZ"}, "no_such_room"),
                         ({"room": code, "token": "guess"}, "bad_token"),
                         ({"room": code, "seat": 9}, "no_such_seat"),
                         ({"room": code, "protocol": PROTOCOL_VERSION + 1}, "bad_version")]:
            send(ws, **{"type": "join", "protocol": PROTOCOL_VERSION, **msg})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == err, reply
        me = join(ws, code, seat=2, name="ann")
        assert me["seat"] == 2
        send(ws, type="join", protocol=PROTOCOL_VERSION, room=code)
        assert until(ws, "error")["code"] == "already_joined"
    with client.websocket_connect(WS) as ws2:
        send(ws2, type="join", protocol=PROTOCOL_VERSION, room=code, seat=2)
        assert ws2.receive_json()["code"] == "seat_taken"


def test_room_fills_with_bots_and_a_whole_deal_is_played(client):
    code = new_room(client)
    with client.websocket_connect(WS) as ws:
        me = join(ws, code, name="ann")
        room = until(ws, "room")
        assert [s["kind"] for s in room["seats"]] == ["human", "open", "open", "open"]
        send(ws, type="start", token=me["token"])
        n = 0
        while True:
            msg = until(ws, "state")
            assert [s["kind"] for s in msg["seats"]] == ["human", "bot", "bot", "bot"]
            if msg["over"]:
                break
            if msg["legal"]:
                send(ws, type="action", token=me["token"], action=some_action(msg))
                n += 1
        assert n >= 10
        assert room_of(client, code).table.game.deals_played == 1
        send(ws, type="replay", token=me["token"], deal=0)
        replay = until(ws, "replay")
        assert replay["deal"] == 0 and replay["events"]


def test_reconnecting_with_the_token_restores_the_seat(client):
    code = new_room(client)
    with client.websocket_connect(WS) as ws:
        me = join(ws, code)
        send(ws, type="start", token=me["token"])
        first = until(ws, "state")
        while first["legal"] is None:  # the bots act until it is our turn
            first = until(ws, "state")
    with client.websocket_connect(WS) as ws:
        again = join(ws, code, token=me["token"])
        assert again["seat"] == me["seat"] and again["token"] == me["token"]
        state = until(ws, "state")
        assert state["seat"] == me["seat"]
        assert state["view"]["hand"] == first["view"]["hand"]
        assert state["legal"] == first["legal"]
        # the events of the current deal are sent again to a reconnecting client
        assert state["events"][0]["type"] == "DealStarted"
        send(ws, type="action", token=me["token"], action=some_action(state))
        assert until(ws, "state")["event_index"] > state["event_index"]


# ---------------------------------------------------------------- security

class Table4:
    """Four people in one room, driven in lockstep: every action is answered by exactly
    one message per connection, so the game is still at the moment each message shows."""

    def __init__(self, client, code):
        self.client, self.code = client, code
        self.cms = [client.websocket_connect(WS) for _ in range(4)]
        self.ws = [cm.__enter__() for cm in self.cms]
        self.me = [join(w, code) for w in self.ws]
        self.state = [until(w, "state") for w in self.ws]  # the last join starts the game
        self.room = room_of(client, code)

    def close(self):
        for cm in self.cms:
            cm.__exit__(None, None, None)

    @property
    def game(self):
        return self.room.table.game

    def after_action(self) -> None:
        self.state = [w.receive_json() for w in self.ws]
        assert all(m["type"] == "state" for m in self.state), self.state

    def refused(self, seat: int, msg: dict | str) -> dict:
        """Send a bad message from ``seat``: an error comes back, and nothing changes."""
        before = (self.game.snapshot(), len(self.game.actions))
        ws = self.ws[seat]
        ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["message"], reply
        assert (self.game.snapshot(), len(self.game.actions)) == before
        return reply


def check_private(state: dict, seat: int, game) -> None:
    """What ``seat`` received holds its own cards only, and no buried kitty."""
    view = state["view"]
    assert state["seat"] == seat
    assert view["hand"] == format_counts(game.hands[seat])
    if view["kitty"] is not None:
        assert seat == game.dealer and view["phase"] == "bury"
    for e in state.get("events", []):
        if e.get("seat") != seat:
            if e["type"] == "CardDealt":
                assert e["card"] is None
            if e["type"] in ("KittyTaken", "Buried"):
                assert e["cards"] is None
        assert e["type"] != "DealScored" or game.deals_played >= 1
    if state["legal"] is not None:
        assert game.to_act == seat


def test_no_seat_ever_receives_another_seats_cards_or_the_kitty(client):
    t = Table4(client, new_room(client, seed=11))
    try:
        steps = 0
        while not t.game.over:
            for seat in range(4):
                check_private(t.state[seat], seat, t.game)
            seat = t.game.to_act
            send(t.ws[seat], type="action", token=t.me[seat]["token"],
                 action=some_action(t.state[seat]))
            t.after_action()
            steps += 1
        assert steps > 50
    finally:
        t.close()


def test_bad_actions_are_refused_and_change_nothing(client):
    t = Table4(client, new_room(client, seed=12))
    try:
        seat = t.game.to_act
        other = (seat + 1) % 4
        tok, other_tok = t.me[seat]["token"], t.me[other]["token"]
        good = some_action(t.state[seat])
        cases = [
            ({"type": "action", "action": good}, "bad_message"),                 # no token
            ({"type": "action", "token": "forged", "action": good}, "bad_token"),
            ({"type": "action", "token": other_tok, "action": good}, "bad_token"),  # stolen
            ({"type": "action", "token": tok, "action": {**good, "seat": other}},
             "not_your_seat"),
            ({"type": "action", "token": tok, "action": {"type": "Play", "cards": "ZZ"}},
             "bad_cards"),
            ({"type": "action", "token": tok, "action": {"type": "Play", "cards": "S2 " * 300}},
             "illegal"),
            ({"type": "action", "token": tok, "action": {"type": "Play", "cards": "S2 " * 500}},
             "bad_action"),
            ({"type": "start", "token": "forged"}, "bad_token"),
            ({"type": "replay", "token": tok, "deal": 0}, "not_finished"),
            ({"type": "replay", "token": tok, "deal": -1}, "not_finished"),
        ]
        for msg, code in cases:
            assert t.refused(seat, msg)["code"] == code, msg
        # out of turn, with the right token for its own seat
        reply = t.refused(other, {"type": "action", "token": other_tok,
                                  "action": some_action(t.state[seat]) | {}})
        assert reply["code"] == "illegal" and reply["reason"] == "not_your_turn"
        assert reply["rule"].startswith("docs/rules.md")
        # malformed and oversized frames
        for text, code in [("{", "bad_json"), ("[]", "bad_message"), ('"hi"', "bad_message"),
                           (json.dumps({"type": "nope"}), "unknown_type"),
                           (json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE_BYTES}),
                            "too_large"),
                           ("x" * (MAX_MESSAGE_BYTES * 4), "too_large")]:
            assert t.refused(seat, text)["code"] == code, text[:30]
        t.ws[seat].send_bytes(b"\x80\x81")
        assert t.ws[seat].receive_json()["code"] == "bad_json"
        # and after all that, the right action still works
        send(t.ws[seat], type="action", token=tok, action=good)
        t.after_action()
        assert len(t.game.actions) == 1
    finally:
        t.close()


def test_messages_before_joining_are_refused(client):
    code = new_room(client)
    with client.websocket_connect(WS) as ws:
        send(ws, type="action", token="x", action={"type": "Pass"})
        assert ws.receive_json()["code"] == "not_joined"
        send(ws, type="ping")
        assert ws.receive_json()["type"] == "pong"
        me = join(ws, code)
        send(ws, type="action", token=me["token"], action={"type": "Pass"})
        assert until(ws, "error")["code"] == "not_started"
        assert room_of(client, code).table.game.actions == []
