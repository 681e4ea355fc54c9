"""Chat in a room (issue 21): players and spectators, text only (cleaned, bounded),
rate-limited like every other message, kept with the room and sent to whoever joins, and
never part of the game record or the public replay. The browser half (markup shown as
text) is in tests/test_browser.py."""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from webtools import BASE, WS, join, new_room, room_of, send, until  # noqa: E402

from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.frontends.web.chat import CHAT_KEPT, MAX_CHAT, ChatLog, clean_text  # noqa: E402
from shengji.frontends.web.limits import Limits  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION, ProtocolError  # noqa: E402


def make_client(**limits) -> TestClient:
    return TestClient(create_app(bot_delay=0, limits=Limits(**limits)), base_url=BASE)


def watch(ws, code) -> dict:
    send(ws, type="watch", protocol=PROTOCOL_VERSION, room=code)
    msg = ws.receive_json()
    assert msg["type"] == "welcome" and msg["watching"]
    return msg


def test_players_and_spectators_chat_and_a_newcomer_gets_the_lines():
    with make_client() as client:
        code = new_room(client)
        with client.websocket_connect(WS) as ann, client.websocket_connect(WS) as eve:
            me = join(ann, code, name="ann")
            until(ann, "room")
            watch(eve, code)
            send(ann, type="chat", token=me["token"], text="  hello\n\tall  ")
            for ws in (ann, eve):
                line = until(ws, "chat")["lines"]
                assert line == [{"n": 0, "seat": 0, "name": "ann", "text": "hello all"}]
            send(eve, type="chat", text="<b>nice</b> play")  # a spectator: no token
            for ws in (ann, eve):
                line = until(ws, "chat")["lines"][0]
                assert line["seat"] is None and line["name"] == "spectator"
                assert line["text"] == "<b>nice</b> play"  # kept as text; pages show text
            with client.websocket_connect(WS) as bob:
                join(bob, code, name="bob")
                history = until(bob, "chat")["lines"]
                assert [x["text"] for x in history] == ["hello all", "<b>nice</b> play"]
        room = room_of(client, code)
        assert len(room.chat.lines) == 2


def test_a_bad_chat_line_is_refused_and_changes_nothing():
    with make_client() as client:
        code = new_room(client)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code)
            until(ws, "room")
            for text, why in (("x" * (MAX_CHAT + 1), "longer than"), ("\n \u200b\t", "empty"),
                              (42, "expected string")):
                send(ws, type="chat", token=me["token"], text=text)
                err = until(ws, "error")
                assert err["code"] == "bad_message" and why in err["message"], err
            send(ws, type="chat", token="not-my-token", text="hi")
            assert until(ws, "error")["code"] == "bad_token"
            assert not room_of(client, code).chat.lines


def test_chat_is_rate_limited_like_every_other_message():
    """A flood of chat lines: the burst is said, one rate_limited error, silence, then the
    socket is closed (the same budget as every message: limits.py)."""
    from starlette.websockets import WebSocketDisconnect

    with make_client(msg_rate=1, msg_burst=5, msg_dropped_close=20) as client:
        code = new_room(client)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code)
            until(ws, "room")
            for i in range(60):
                send(ws, type="chat", token=me["token"], text=f"spam {i}")
            seen = []
            with pytest.raises(WebSocketDisconnect):
                while True:
                    seen.append(ws.receive_json())
        chats = [m for m in seen if m["type"] == "chat"]
        errors = [m["code"] for m in seen if m["type"] == "error"]
        # the burst (less the join) is said, the rest of the 60 is not
        assert errors == ["rate_limited"] and 1 <= len(chats) <= 8, (len(chats), errors)
        assert len(room_of(client, code).chat.lines) == len(chats)


def test_a_room_has_its_own_budget_of_chat_lines():
    """Issue 34: forty spectators each within its own message budget sent 720 lines a
    second, each to everyone in the room. A room takes chat_burst lines at once, then
    chat_rate a second, whoever says them."""
    with make_client(chat_rate=0.01, chat_burst=3) as client:
        code = new_room(client)
        with client.websocket_connect(WS) as a, client.websocket_connect(WS) as b:
            watch(a, code)
            watch(b, code)
            said = []
            for i in range(3):
                for ws in (a, b):
                    send(ws, type="chat", text=f"line {i}")
                    msg = until(ws, "chat") if len(said) < 3 else until(ws, "error")
                    said.append(msg["type"])
            assert said == ["chat"] * 3 + ["error"] * 3
            assert len(room_of(client, code).chat.lines) == 3


def test_chat_is_in_no_record_or_replay():
    with make_client() as client:
        code = new_room(client)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code)
            send(ws, type="chat", token=me["token"], text="secret plan")
            until(ws, "chat")
            send(ws, type="start", token=me["token"])
            until(ws, "state")
        text = client.get(f"/api/rooms/{code}/replay").text
        assert "secret plan" not in text
        from shengji.engine.serial import game_to_dict

        record = json.dumps(game_to_dict(room_of(client, code).table.game), ensure_ascii=False)
        assert "secret plan" not in record and "chat" not in record


def test_the_chat_log_keeps_the_last_lines_and_cleans_them():
    log = ChatLog(burst=CHAT_KEPT + 5)  # (no room's budget in the way)
    for i in range(CHAT_KEPT + 5):
        log.add(0, "ann", f"line {i}")
    lines = log.history()["lines"]
    assert len(lines) == CHAT_KEPT and lines[0]["text"] == "line 5"
    assert lines[-1]["n"] == CHAT_KEPT + 4
    assert clean_text("a\u202eb\x00c") == "a b c"  # no bidi override or NUL survives
    with pytest.raises(ProtocolError):
        clean_text("   ")


def test_with_a_database_the_chat_comes_back_after_a_restart(tmp_path):
    """Issue 21: chat is "stored with the room". With --db the kept lines are written
    before anyone sees them and come back with the room; older lines are forgotten."""
    from shengji.frontends.web.store import Store

    db = str(tmp_path / "rooms.sqlite3")
    with TestClient(create_app(bot_delay=0, db=db), base_url=BASE) as client:
        code = new_room(client)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code, name="ann")
            until(ws, "room")
            room_of(client, code).chat.kept = 3   # a short memory, to see it forget
            for i in range(5):
                send(ws, type="chat", token=me["token"], text=f"line {i}")
                until(ws, "chat")
    assert [x["text"] for x in Store(db).room(code).chat] == ["line 2", "line 3", "line 4"]
    with TestClient(create_app(bot_delay=0, db=db), base_url=BASE) as client:
        with client.websocket_connect(WS) as ws:
            join(ws, code, token=me["token"])
            history = until(ws, "chat")["lines"]
            assert [(x["n"], x["text"]) for x in history] == [(2, "line 2"), (3, "line 3"),
                                                              (4, "line 4")]
            send(ws, type="chat", token=me["token"], text="after")
            assert until(ws, "chat")["lines"][0]["n"] == 5   # numbering goes on
