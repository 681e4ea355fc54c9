"""One writer per room (issue 36; shengji/frontends/web/lease.py), on both stores: a
second process asked for a room another live process serves refuses it; a process that
stalled past its lease and lost the room to another cannot write to it, so the game
never forks; ``(room, seq)`` is a compare-and-set. And idle rooms are reclaimed
(reclaim.py)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402
    from starlette.websockets import WebSocketDisconnect  # noqa: E402

from test_server_store import app_client, in_play_on_my_turn, play_until, stored  # noqa: E402
from webtools import BASE, WS, join, new_room, room_of, send, some_action, until  # noqa: E402

from shengji.frontends.web.app import create_app, open_store  # noqa: E402
from shengji.frontends.web.limits import Limits  # noqa: E402
from shengji.frontends.web.pgstore import is_url  # noqa: E402
from shengji.frontends.web.reclaim import IDLE_CLOSE, reclaim  # noqa: E402
from shengji.frontends.web.rooms import IDLE_SECONDS  # noqa: E402
from shengji.frontends.web.store import StoreError  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION  # noqa: E402


def expire(db: str, owner: str) -> None:
    """End a process's lease in the database, as if it had stalled past it."""
    if is_url(db):
        async def run():
            import asyncpg
            c = await asyncpg.connect(db)
            try:
                await c.execute("UPDATE processes SET expires = now() - interval '1 hour' "
                                "WHERE owner = $1", owner)
            finally:
                await c.close()
        asyncio.run(run())
    else:
        with sqlite3.connect(db) as c:
            c.execute("UPDATE processes SET expires=0 WHERE owner=?", (owner,))


async def _stall() -> None:
    """A heartbeat that does not come (the process is stuck)."""


def test_a_second_writer_is_refused_and_the_game_does_not_fork(store_db):
    with app_client(store_db) as a, app_client(store_db) as b:
        code = new_room(a, seed=8)
        with a.websocket_connect(WS) as on_a:
            me = join(on_a, code, name="ann")
            send(on_a, type="start", token=me["token"])
            state_a = play_until(on_a, me["token"], in_play_on_my_turn)
            # B is another process: the room is A's while A lives
            with b.websocket_connect(f"{WS}/{code}") as on_b:
                send(on_b, type="join", protocol=PROTOCOL_VERSION, room=code,
                     token=me["token"])
                assert until(on_b, "error")["code"] == "room_elsewhere"
            r = b.get(f"/api/rooms/{code}")
            assert r.status_code == 421 and r.json()["code"] == "room_elsewhere"
            assert code not in b.app.state.lobby.rooms
            # A stalls past its lease: B takes the room over and plays on
            store_a = a.app.state.lobby.store
            store_a.heartbeat = _stall
            expire(store_db, store_a.owner)
            with b.websocket_connect(f"{WS}/{code}") as on_b:
                join(on_b, code, token=me["token"])
                state_b = until(on_b, "state")
                assert state_b["view"] == state_a["view"]
                send(on_b, type="action", token=me["token"], action=some_action(state_b))
                until(on_b, "state")
                game_b = room_of(b, code).table.game
                # A, still holding its copy, is told by its player to play the other
                # card: its write is refused, its sockets closed, nothing of it stored
                other = state_a["legal"]["actions"][-1]
                send(on_a, type="action", token=me["token"], action=other)
                assert until(on_a, "error")["code"] == "store_error"
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        on_a.receive_json()
                assert closed.value.code == 1011
                # the store holds B's game, one action for that turn, none of A's
                assert stored(store_db, code).actions == [x.to_dict() for x in game_b.actions]
            # asked again, A lets its copy go and refuses: B holds the room
            with a.websocket_connect(WS) as again:
                send(again, type="join", protocol=PROTOCOL_VERSION, room=code,
                     token=me["token"])
                assert until(again, "error")["code"] == "room_elsewhere"


def test_an_action_number_is_a_compare_and_set(store_db):
    async def run():
        store = open_store(store_db)
        await store.open()
        try:
            store.add_room("ABCDEFGH", "two-deck-80", 1, None, {}, [("open", "", None)] * 4)
            await store.flush("ABCDEFGH")
            store.add_actions("ABCDEFGH", 0, [{"type": "Pass", "seat": 0}])
            await store.flush("ABCDEFGH")
            with pytest.raises((StoreError, sqlite3.IntegrityError)):
                store.add_actions("ABCDEFGH", 0, [{"type": "Pass", "seat": 1}])
                await store.flush("ABCDEFGH")
            assert (await store.claim("ABCDEFGH")).actions == [{"type": "Pass", "seat": 0}]
        finally:
            await store.aclose()
    asyncio.run(run())


def test_a_clean_stop_gives_the_rooms_back(store_db):
    with app_client(store_db) as a:
        code = new_room(a)
        with a.websocket_connect(WS) as ws:
            join(ws, code)
    with app_client(store_db) as b:  # at once: no lease left behind
        with b.websocket_connect(WS) as ws:
            join(ws, code)


# ---------------------------------------------------------------- dead processes

def test_only_a_dead_process_of_this_boot_is_known_gone(monkeypatch):
    """A lease ends at once only for a pid known to be gone: on this host and this boot.
    Another host's pid, a live pid, or a host whose boot cannot be told apart (a pid
    may have been reused since) wait for the lease to expire."""
    import subprocess
    import sys

    from shengji.frontends.web import lease

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # reaped: its pid names no process now
    here = lease.this_host()
    if here.endswith(" "):
        pytest.skip("this system gives no boot id (/proc/sys/kernel/random/boot_id)")
    assert lease.gone(here, child.pid)
    assert not lease.gone(here, os.getpid())
    assert not lease.gone("another-host " + here.split(" ", 1)[1], child.pid)

    def no_boot_id(path, *args, **kwargs):
        raise FileNotFoundError(path)
    monkeypatch.setattr("builtins.open", no_boot_id)
    assert lease.this_host().endswith(" ")
    assert not lease.gone(lease.this_host(), child.pid)


# ---------------------------------------------------------------- idle rooms

def test_idle_rooms_are_reclaimed_and_come_back(tmp_path):
    limits = Limits(idle_room_seconds=60)
    app = create_app(bot_delay=0, db=str(tmp_path / "rooms.sqlite3"), limits=limits)
    with TestClient(app, base_url=BASE) as client:
        lobby = client.app.state.lobby
        busy, idle_code, left = new_room(client), new_room(client), new_room(client)
        with client.websocket_connect(WS) as ws, client.websocket_connect(WS) as quiet:
            me = join(ws, busy)
            you = join(quiet, idle_code)
            send(quiet, type="start", token=you["token"])
            # the bots play up to this player's turn, and the table waits for ever
            before = play_until(quiet, you["token"], lambda m: m["legal"] is not None)
            room_of(client, idle_code).touched -= limits.idle_room_seconds + 1
            room_of(client, left).touched -= IDLE_SECONDS + 1  # nobody there for an hour
            gone = client.portal.call(reclaim, lobby)
            assert sorted(gone) == sorted([idle_code, left])
            assert busy in lobby.rooms and idle_code not in lobby.rooms
            assert until(quiet, "error")["code"] == "idle"
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    quiet.receive_json()
            assert closed.value.code == IDLE_CLOSE
            send(ws, type="chat", token=me["token"], text="still here")
            assert until(ws, "chat")["lines"][-1]["text"] == "still here"
        # kept in the store: the player comes back to the same position
        with client.websocket_connect(WS) as quiet:
            join(quiet, idle_code, token=you["token"])
            assert until(quiet, "state")["view"] == before["view"]
