"""Rooms that outlive the server (issue 13): the store keeps rooms, seats and actions; a
restarted server replays each game from its actions and players come back with their
tokens — also after SIGKILL in the middle of a deal. Finished games stay replayable.
The store tests run on both stores (issue 36): an SQLite file and a PostgreSQL database
(``store_db``, tests/conftest.py; the ``postgres`` ones skip where PostgreSQL is
missing). And the play around a table: the turn timer's stand-in bot, the wait for
"next deal", spectators."""

from __future__ import annotations

import asyncio
import json
import signal
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

import servers  # noqa: E402
from webtools import BASE, WS, join, new_room, room_of, send, some_action, until  # noqa: E402

from shengji.engine.serial import game_from_dict  # noqa: E402
from shengji.frontends.web.app import create_app, open_store  # noqa: E402
from shengji.frontends.web.pgstore import is_url  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION  # noqa: E402

HOUSE = "extends: two-deck-80\nplay:\n  bombs: any_suit\npenalties:\n  failed_throw: 10\n"


def app_client(db=None, **kw) -> TestClient:
    return TestClient(create_app(bot_delay=0, db=str(db) if db else None, **kw), base_url=BASE)


def stored(db: str, code: str):
    """The room as the store keeps it, read on a connection of its own."""
    async def read():
        store = open_store(db)
        await store.open()
        try:
            return await store.room(code) if is_url(db) else store.room(code)
        finally:
            await store.aclose()
    return asyncio.run(read())


def play_until(ws, token, stop, msg=None) -> dict:
    """Act whenever asked (on ``msg`` first, if given) until ``stop(state)``; returns
    that state."""
    while True:
        msg = msg or until(ws, "state")
        if stop(msg):
            return msg
        if msg["legal"]:
            send(ws, type="action", token=token, action=some_action(msg))
        msg = None


def in_play_on_my_turn(msg) -> bool:
    view = msg["view"]
    return bool(msg["legal"]) and view["phase"] == "play" and view["trick_number"] >= 3


# ---------------------------------------------------------------- restart in process

def test_rooms_seats_and_games_come_back_from_the_database(store_db):
    db = store_db
    with app_client(db) as client:
        code = new_room(client, seed=5)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code, name="ann")
            send(ws, type="start", token=me["token"])
            before = play_until(ws, me["token"], in_play_on_my_turn)
        actions = list(room_of(client, code).table.game.actions)
    kept = stored(db, code)
    assert kept.started and not kept.finished and len(kept.actions) == len(actions)
    assert [s[0] for s in kept.seats] == ["human", "bot", "bot", "bot"]
    assert kept.seats[0][2] != me["token"].encode()  # a hash, never the token

    with app_client(db) as client:
        assert code not in client.app.state.lobby.rooms  # read back on first use
        with client.websocket_connect(WS) as ws:
            again = join(ws, code, token=me["token"])
            assert again["seat"] == 0
            state = until(ws, "state")
            for key in ("hand", "trick", "tricks", "trick_points", "phase", "to_act"):
                assert state["view"][key] == before["view"][key], key
            assert state["legal"] == before["legal"]
            assert state["event_index"] == before["event_index"]
            assert state["seats"][0]["name"] == "ann"
            assert room_of(client, code).table.game.actions == actions
            play_until(ws, me["token"], lambda m: m["over"], state)
    assert stored(db, code).finished


def test_a_restart_restores_seats_chat_and_house_rules(store_db):
    with app_client(store_db) as client:
        # bob takes a seat and leaves: a stand-in bot plays it (turn_timer)
        code = client.post("/api/rooms", json={"rules": HOUSE, "seed": 4, "max_deals": 1,
                                               "turn_timer": 0.05}).json()["room"]
        first = client.get(f"/api/rooms/{code}").json()
        with client.websocket_connect(WS) as ann:
            me = join(ann, code, name="ann")
            with client.websocket_connect(WS) as bob:
                join(bob, code, name="bob")
                for i in range(3):
                    send(ann, type="chat", token=me["token"], text=f"line {i}")
                    until(bob, "chat")
            send(ann, type="start", token=me["token"])
            before = play_until(ann, me["token"], in_play_on_my_turn)
    with app_client(store_db) as client:
        again = client.get(f"/api/rooms/{code}").json()
        assert again["rules"] == first["rules"]
        assert again["rules_fingerprint"] == first["rules_fingerprint"]
        assert [(s["kind"], s["name"]) for s in again["seats"]] == [
            ("human", "ann"), ("human", "bob"), ("bot", "bot 2"), ("bot", "bot 3")]
        assert room_of(client, code).table.variant.settings["penalties"]["failed_throw"] == 10
        with client.websocket_connect(WS) as ann:
            join(ann, code, token=me["token"])
            assert [x["text"] for x in until(ann, "chat")["lines"]] == [
                "line 0", "line 1", "line 2"]
            state = until(ann, "state")
            assert state["event_index"] == before["event_index"]
            assert state["view"] == before["view"]


def test_finished_games_stay_replayable(store_db):
    db = store_db
    with app_client(db) as client:
        code = new_room(client, seed=6)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code)
            send(ws, type="start", token=me["token"])
            play_until(ws, me["token"], lambda m: m["over"])
        live = client.get(f"/api/rooms/{code}/replay").json()
    with app_client(db) as client:
        r = client.get(f"/api/rooms/{code.lower()}/replay")
        assert r.status_code == 200
        data = r.json()
        assert data == live and data["over"] and len(data["deals"]) == 1
        game = game_from_dict(data["record"])
        assert game.over and game.deals_played == 1
        deal = data["deals"][0]
        assert all(e["type"] != "CardDealt" for e in deal["events"])
        assert all(e.get("cards") is not None for e in deal["events"] if e["type"] == "Played")
        assert client.get("/api/rooms/NOSUCHRM/replay").status_code == 404


def test_an_unfinished_room_has_no_public_record(tmp_path):
    with app_client() as client:
        code = new_room(client, max_deals=3)
        data = client.get(f"/api/rooms/{code}/replay").json()
        assert data["deals"] == [] and "record" not in data and not data["over"]
        assert "seed" not in json.dumps(data)


# ---------------------------------------------------------------- SIGKILL mid-deal

def test_every_state_sent_is_stored_first_and_dealing_is_one_commit(store_db):
    """The durability guarantee (docs/serving.md): when a state message leaves the room,
    every action of the game is committed; the bots' declarations while dealing are
    stored together with the state that tells them, not one commit each."""
    from shengji.engine import Game
    from shengji.engine.actions import action_from_dict
    from shengji.frontends.web.lobby import Lobby
    from shengji.frontends.web.rooms import Conn
    from shengji.variants import load_variant

    checked, commits = [], []
    variant = load_variant("two-deck-80")

    async def main():
        store, reader = open_store(store_db), open_store(store_db)
        await store.open()
        await reader.open()
        # count the commits of actions: a call of SQLite's add_actions, a statement of
        # PostgreSQL's writer task
        name = "_add_actions" if is_url(store_db) else "add_actions"
        real = getattr(store, name)

        def counted(code, first, actions, *args, **kw):
            commits.append(len(actions))
            return real(code, first, actions, *args, **kw)
        setattr(store, name, counted)
        lobby = Lobby(variants={"two-deck-80": variant}, bot_delay=0, store=store)
        room = await lobby.create("two-deck-80", seed=3, max_deals=1)
        inbox: asyncio.Queue = asyncio.Queue()

        async def send(msg):
            msg = json.loads(msg) if isinstance(msg, str) else msg
            if msg["type"] == "state":  # what the player is told is committed already
                # (the message was built then queued: the game may have moved on since)
                kept = await reader.room(room.code) if is_url(store_db) \
                    else reader.room(room.code)
                again = Game.replay(variant, 3, [action_from_dict(a) for a in kept.actions])
                assert len(again.events) >= msg["event_index"]
                checked.append(len(kept.actions))
            inbox.put_nowait(msg)

        conn = Conn(send, "a")
        await lobby.receive(conn, json.dumps({"type": "join", "protocol": PROTOCOL_VERSION,
                                              "room": room.code}))
        token = (await inbox.get())["token"]
        await lobby.receive(conn, json.dumps({"type": "start", "token": token}))
        while True:
            msg = await asyncio.wait_for(inbox.get(), 30)
            if msg["type"] == "state" and msg["view"]["phase"] == "play":
                break
            if msg["type"] == "state" and msg["legal"]:
                conn.bucket.tokens = 100
                await lobby.receive(conn, json.dumps({"type": "action", "token": token,
                                                      "action": some_action(msg)}))
        room.stop()
        await store.aclose()
        await reader.aclose()
        return len(room.table.game.actions)

    made = asyncio.run(main())
    # stored when a state is about to leave: at most one commit per state sent, and
    # every action once
    assert checked and len(commits) <= len(checked)
    assert sum(commits) == made


def test_sigkill_mid_deal_loses_nothing(store_db):
    pytest.importorskip("uvicorn")
    import httpx
    from websockets.sync.client import connect

    db, port = store_db, servers.free_port()
    url = f"ws://127.0.0.1:{port}/ws"

    def states(ws):
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "state":
                yield msg

    server = servers.start_serve(db, port, "--bot-delay", "0")
    try:
        code = httpx.post(f"http://127.0.0.1:{port}/api/rooms",
                          json={"seed": 9, "max_deals": 1}).json()["room"]
        with connect(url) as ws:
            ws.send(json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "room": code,
                                "name": "ann"}))
            token = json.loads(ws.recv())["token"]
            ws.send(json.dumps({"type": "start", "token": token}))
            acted = 0
            for before in states(ws):
                if in_play_on_my_turn(before):
                    break
                if before["legal"]:
                    ws.send(json.dumps({"type": "action", "token": token,
                                        "action": some_action(before)}))
                    acted += 1
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
    assert acted > 5

    # restarted (here, in this process: a new process on the same host, which takes the
    # dead one's rooms at once, lease.py; the proxy test restarts a process)
    with app_client(db) as client, client.websocket_connect(WS) as ws:
        assert join(ws, code, token=token)["seat"] == 0
        after = until(ws, "state")
        assert after["event_index"] == before["event_index"]
        assert after["view"] == before["view"] and after["legal"] == before["legal"]
        # and the deal plays on to its end
        msg = play_until(ws, token, lambda m: m["over"], after)
        assert any(e["type"] == "DealScored" for e in msg["events"])


def test_postgres_away_mid_game_then_back(pg_cluster):
    """The database goes away in the middle of a deal: the action is refused with one
    error and the socket closed (nothing unsaved told); once it is back, the player
    rejoins at the last committed position and plays on."""
    db = pg_cluster.database()
    with app_client(db) as client:
        code = new_room(client, seed=2)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code)
            send(ws, type="start", token=me["token"])
            state = play_until(ws, me["token"], lambda m: m["legal"] is not None)
            pg_cluster.halt()
            try:
                send(ws, type="action", token=me["token"], action=some_action(state))
                error = until(ws, "error")
                assert error["code"] == "store_error" and "cannot reach it" in error["message"]
            finally:
                pg_cluster.start()
        with client.websocket_connect(WS) as ws:
            join(ws, code, token=me["token"])
            again = until(ws, "state")
            assert again["event_index"] == state["event_index"]
            send(ws, type="action", token=me["token"], action=some_action(again))
            assert until(ws, "state")["event_index"] > again["event_index"]


# ---------------------------------------------------------------- playing on

def test_a_stand_in_bot_plays_for_a_player_who_left_until_they_return():
    with app_client() as client:
        r = client.post("/api/rooms", json={"seed": 3, "max_deals": 1, "turn_timer": 0.2})
        code = r.json()["room"]
        room = room_of(client, code)
        with client.websocket_connect(WS) as a:
            me_a = join(a, code, name="ann")
            with client.websocket_connect(WS) as b:
                me_b = join(b, code, name="bob")
                send(a, type="start", token=me_a["token"])
                # ann plays along; bob goes away at his first turn
                until(b, "state")
            state = until(a, "state")
            deadline = time.monotonic() + 20
            while 1 not in room.standins:
                assert time.monotonic() < deadline, "no stand-in after the turn timer"
                if state["legal"]:
                    send(a, type="action", token=me_a["token"], action=some_action(state))
                state = until(a, "state")
            assert state["seats"][1]["standin"] or room.standins == {1}
            n = len(room.table.game.actions)
            # bob is back: the stand-in leaves, and bob's turn waits for bob again
            with client.websocket_connect(WS) as b:
                join(b, code, token=me_b["token"])
                assert 1 not in room.standins and 1 not in room.table.bots
                assert until(b, "state")["seats"][1]["standin"] is False
            assert len(room.table.game.actions) >= n


@pytest.mark.parametrize("turn_timer, wait", [
    pytest.param(None, 0.3, id="no-timer"),
    # issue 38: the turn timer ended the wait for "next" of a player who was there,
    # reading the result: the next deal was dealt, declared and buried without them. Now
    # the timer ends only the turn of a player who left; a reader is waited for
    pytest.param(0.2, 1.0, id="past-five-turn-timers"),
])
def test_bots_wait_for_a_player_reading_the_result(turn_timer, wait):
    timer = {} if turn_timer is None else {"turn_timer": turn_timer}
    with app_client() as client:
        code = new_room(client, max_deals=2, **timer)
        room = room_of(client, code)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code)
            send(ws, type="start", token=me["token"])
            scored = play_until(ws, me["token"], lambda m: any(
                e["type"] == "DealScored" for e in m["events"]))
            assert scored["waiting"] == [0]
            n = len(room.table.game.actions)
            time.sleep(wait)
            assert len(room.table.game.actions) == n and room.waiting == {0}
            assert room.table.game.deals_played == 1
            send(ws, type="next", token=me["token"])
            msg = until(ws, "state")
            assert msg["waiting"] == []
            play_until(ws, me["token"], lambda m: m["over"], msg)
            assert room.table.game.deals_played == 2


def test_spectators_see_public_facts_only():
    with app_client() as client:
        code = new_room(client, max_deals=1)
        with client.websocket_connect(WS) as p, client.websocket_connect(WS) as w:
            me = join(p, code)
            send(w, type="watch", protocol=PROTOCOL_VERSION, room=code)
            hello = w.receive_json()
            assert hello["type"] == "welcome" and hello["seat"] is None
            assert hello["token"] is None and hello["watching"] is True
            assert w.receive_json()["type"] == "room"
            send(p, type="start", token=me["token"])
            seen = 0
            while True:
                # every change is one state to each connection: the two stay in step
                mine = until(p, "state")
                if mine["legal"]:
                    send(p, type="action", token=me["token"], action=some_action(mine))
                msg = until(w, "state")
                seen += 1
                v = msg["view"]
                assert msg["seat"] is None and msg["legal"] is None
                assert v["hand"] == "" and v["hand_groups"] == [] and v["kitty"] is None
                for e in msg["events"]:
                    if e["type"] == "CardDealt":
                        assert e["card"] is None
                    if e["type"] in ("KittyTaken", "Buried"):
                        assert e["cards"] is None
                if v["phase"] == "play":
                    break
            # a spectator cannot act, start or take a seat on the same socket
            send(w, type="action", token=me["token"], action={"type": "Pass"})
            assert until(w, "error")["code"] == "not_joined"
            send(w, type="join", protocol=PROTOCOL_VERSION, room=code)
            assert until(w, "error")["code"] == "already_joined"
            assert seen > 0


def test_a_room_at_another_table_size_is_kept_at_that_size(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    with app_client(db) as client:
        assert client.get("/api/variants").json()["seats"]["finding-friends"] == \
            list(range(5, 13))
        r = client.post("/api/rooms", json={"variant": "two-deck-80", "players": 6})
        assert r.status_code == 400 and r.json()["code"] == "bad_variant"
        assert "two-deck-80 at 6 seats" in r.json()["message"]
        r = client.post("/api/rooms", json={"variant": "finding-friends", "players": 13})
        assert r.status_code == 400 and r.json()["code"] == "bad_variant"
        code = new_room(client, variant="finding-friends", players=7)
        with client.websocket_connect(WS) as ws:
            me = join(ws, code)
            assert len(until(ws, "room")["seats"]) == 7
            send(ws, type="start", token=me["token"])
            until(ws, "state")
    with app_client(db) as client:
        with client.websocket_connect(WS) as ws:
            join(ws, code, token=me["token"])
            assert until(ws, "state")["view"]["players"] == 7
