"""The low-severity findings of issue 26, each attacked as the run did: control
characters in YAML files, bad --db files (a corrupt header, a read-only file, a
corrupted inner page), aborted POST bodies, the write-ahead log under room creations,
shuffled() with wrong types, a variant of thousands of unknown keys or rows, and
replays of an unfinished deal."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
import warnings

import pytest

from shengji.cli import main
from shengji.errors import ArgumentError, ShengjiError

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402
    from starlette.websockets import WebSocketDisconnect  # noqa: E402

from webtools import BASE, WS, join, new_room, room_of, send, some_action, until  # noqa: E402

from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.frontends.web.limits import Limits  # noqa: E402
from shengji.frontends.web.store import Store, StoreError  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION  # noqa: E402


def one_line_error(capsys, argv) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code != 0 and "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err[:2000]
    return lines[0]


# ---------------------------------------------------------------- YAML files

@pytest.mark.parametrize("char", ["\x00", "\x07", "\ufffe"], ids=["NUL", "BEL", "U+FFFE"])
def test_control_characters_in_yaml_files_are_one_line(tmp_path, monkeypatch, capsys, char):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text(f"extends: two-deck-80\nname: a{char}b\n", encoding="utf-8")
    line = one_line_error(capsys, ["variants", "check", "v.yaml"])
    assert line.startswith("v.yaml:2: not valid YAML: character #x") and "not allowed" in line
    (tmp_path / "case.yaml").write_text(f"id: x{char}\n", encoding="utf-8")
    assert main(["conformance", "case.yaml"]) != 0
    out, err = capsys.readouterr()  # the runner reports on stdout, a line per case file
    assert "Traceback" not in out + err and len(out.splitlines()) == 2
    assert out.splitlines()[0].startswith("case.yaml:1: not valid YAML: character #x")


def test_thousands_of_unknown_keys_are_a_bounded_message(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    # 60,000 keys: the file is refused by its size before it is parsed
    (tmp_path / "big.yaml").write_text("extends: two-deck-80\n" + "".join(
        f"k{i}: 1\n" for i in range(60_000)), encoding="utf-8")
    assert one_line_error(capsys, ["variants", "check", "big.yaml"]) == \
        "big.yaml: variant file larger than 64 KiB, refused"
    # as many as fit: 20 listed, the rest counted
    (tmp_path / "many.yaml").write_text("extends: two-deck-80\n" + "".join(
        f"k{i}: 1\n" for i in range(6_000)), encoding="utf-8")
    assert main(["variants", "check", "many.yaml"]) != 0
    err = capsys.readouterr().err
    assert len(err.splitlines()) <= 23 and "... and 5980 more problems" in err


def test_a_scoring_table_of_20000_rows_is_refused_by_size(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)

    def table(rows: int) -> str:
        return "extends: two-deck-80\nscoring:\n  table:\n" + "".join(
            f"    - {{below: {5 * i + 5}, next: dealers, rise: 1}}\n" for i in range(rows))

    (tmp_path / "t.yaml").write_text(table(20_000), encoding="utf-8")
    assert one_line_error(capsys, ["variants", "check", "t.yaml"]) == \
        "t.yaml: variant file larger than 64 KiB, refused"
    # the largest table that fits is still checked (and found out of order)
    text = table(1400).replace("below: 10,", "below: 1,")
    assert len(text) < 64 << 10
    (tmp_path / "t.yaml").write_text(text, encoding="utf-8")
    assert "must be greater than the row before it" in one_line_error(
        capsys, ["variants", "check", "t.yaml"])


# ---------------------------------------------------------------- shuffled

def test_shuffled_refuses_wrong_types():
    from shengji.core import shuffled

    with pytest.raises(ArgumentError, match="a str and bytes"):
        shuffled(None, b"")
    with pytest.raises(ArgumentError, match="a str and bytes"):
        shuffled("s", None)
    assert sorted(shuffled("s", bytes(range(20)))) == list(range(20))


# ---------------------------------------------------------------- bad databases

def test_a_file_that_is_not_a_database_is_one_line_at_start(tmp_path, capsys):
    db = tmp_path / "rooms.sqlite3"
    db.write_bytes(b"this is not an SQLite file\n" * 200)
    line = one_line_error(capsys, ["serve", "--db", str(db), "--port", "1"])
    assert str(db) in line and "file is not a database" in line


def test_a_read_only_database_is_one_line_at_start(tmp_path, capsys, monkeypatch):
    db = tmp_path / "rooms.sqlite3"
    Store(str(db)).close()
    if os.geteuid() == 0:  # root writes read-only files: open it read-only instead
        connect = sqlite3.connect
        monkeypatch.setattr(sqlite3, "connect", lambda path, **kw: connect(
            f"file:{path}?mode=ro", uri=True, **kw))
    else:
        os.chmod(db, 0o444)
    line = one_line_error(capsys, ["serve", "--db", str(db), "--port", "1"])
    assert str(db) in line and "readonly" in line


def test_an_empty_db_and_a_missing_folder_are_errors(tmp_path, capsys, monkeypatch):
    """Issue 34, item 8: ``--db ''`` used the default file in the user's state folder,
    silently; a path in a folder that did not exist made the folder. Both are one line
    now; --create-db-dir asks for the folder."""
    from shengji.commands.serve import database_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    line = one_line_error(capsys, ["serve", "--db", "", "--port", "1"])
    assert line.startswith("shengji: --db '': give a file") or "--db ''" in line
    assert not (tmp_path / "state").exists()
    deep = tmp_path / "no" / "such" / "rooms.sqlite3"
    line = one_line_error(capsys, ["serve", "--db", str(deep), "--port", "1"])
    assert f"no folder {deep.parent}" in line and "--create-db-dir" in line
    assert not (tmp_path / "no").exists()
    assert database_path(str(deep), create_dir=True) == str(deep)
    assert deep.parent.is_dir()
    # the default is the user's state folder, made when missing (as before)
    assert database_path(None) == str(tmp_path / "state" / "shengji" / "rooms.sqlite3")
    assert database_path(":memory:") == ":memory:"


def corrupt_inner_pages(db) -> None:
    """Overwrite every page but the first (the schema) with garbage."""
    size = os.path.getsize(db)
    page = 4096
    assert size > 3 * page
    with open(db, "r+b") as f:
        for at in range(page, size, page):
            f.seek(at + 8)
            f.write(os.urandom(page - 16))


def test_a_corrupted_inner_page_gives_json_errors_and_close_frames(tmp_path, caplog):
    db = tmp_path / "rooms.sqlite3"
    many = Limits(rooms_per_address=100, room_burst=100)
    with TestClient(create_app(bot_delay=0, db=str(db), limits=many), base_url=BASE) as client:
        codes = [new_room(client) for _ in range(60)]
    corrupt_inner_pages(db)
    caplog.set_level(logging.INFO)
    with TestClient(create_app(bot_delay=0, db=str(db)), base_url=BASE) as client:
        r = client.get(f"/api/rooms/{codes[-1]}/replay")
        assert r.status_code == 503 and r.json()["code"] == "store_error", r.text
        r = client.post("/api/rooms", json={})
        assert r.status_code == 503 and r.json()["code"] == "store_error", r.text
        with client.websocket_connect(WS) as ws:
            send(ws, type="join", protocol=PROTOCOL_VERSION, room=codes[0])
            assert ws.receive_json()["code"] == "store_error"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1011
    assert not [r for r in caplog.records if r.exc_info]


def test_a_database_that_fails_mid_game_closes_the_sockets(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    with TestClient(create_app(bot_delay=0, db=str(db)), base_url=BASE) as client:
        code = new_room(client)
        with client.websocket_connect(WS) as ws:
            token = join(ws, code)["token"]
            send(ws, type="start", token=token)
            state = until(ws, "state")
            while state["legal"] is None:
                state = until(ws, "state")
            store = room_of(client, code).store

            def broken(*a, **kw):
                raise StoreError(f"database {db}: disk I/O error")
            store.add_actions = broken
            send(ws, type="action", token=token, action=some_action(state))
            assert until(ws, "error")["code"] == "store_error"
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 1011


def test_room_creations_alone_do_not_grow_the_log(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    store = Store(str(db))
    try:
        seats = [("open", "", None)] * 4
        for i in range(2000):
            store.add_room(f"R{i:07d}", "two-deck-80", i, None, {"turn_timer": 60}, seats)
        wal = f"{db}-wal"
        deadline = time.monotonic() + 10
        while os.path.getsize(wal) > 8 << 20 and time.monotonic() < deadline:
            time.sleep(0.1)
        # the background checkpoint ran: the log is kept to journal_size_limit (8 MiB)
        assert os.path.getsize(wal) <= 8 << 20
        assert store._checkpointer is not None and store._checkpointer.is_alive()
    finally:
        store.close()
    # closing checkpoints the rest: no log left
    assert not os.path.exists(f"{db}-wal") or os.path.getsize(f"{db}-wal") == 0


# ---------------------------------------------------------------- aborted bodies

def test_an_aborted_post_body_logs_one_line(caplog):
    app = create_app(bot_delay=0)
    caplog.set_level(logging.INFO)
    sent = []

    async def run_one():
        messages = [{"type": "http.request", "body": b'{"seed"', "more_body": True},
                    {"type": "http.disconnect"}]

        async def receive():
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send_(message):
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": "/api/rooms", "raw_path": b"",
                 "query_string": b"", "root_path": "", "client": ("127.0.0.9", 5000),
                 "server": ("127.0.0.1", 8000),
                 "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                             (b"content-length", b"100")]}
        await app(scope, receive, send_)

    for _ in range(30):
        asyncio.run(run_one())
    ours = [r for r in caplog.records if "went away" in r.getMessage()]
    assert len(ours) == 30 and not [r for r in caplog.records if r.exc_info]
    assert all(len(r.getMessage().splitlines()) == 1 for r in caplog.records)


# ---------------------------------------------------------------- replays

def test_replays_of_an_unfinished_deal_do_not_rescan_the_events(monkeypatch):
    from shengji.protocol import Table

    calls = []
    real = Table.replay
    monkeypatch.setattr(Table, "replay", lambda self, *a: calls.append(a) or real(self, *a))
    with TestClient(create_app(bot_delay=0), base_url=BASE) as client:
        code = new_room(client, max_deals=2)
        with client.websocket_connect(WS) as ws:
            token = join(ws, code)["token"]
            send(ws, type="start", token=token)
            until(ws, "state")
            room = room_of(client, code)
            for _ in range(50):  # deal 0 waits for this player: it cannot end meanwhile
                send(ws, type="replay", token=token, deal=0)
                assert until(ws, "error")["code"] == "not_finished"
            assert calls == []  # refused from the index of scored deals
            assert room._indexed == len(room.table.game.events)
            public = client.get(f"/api/rooms/{code}/replay").json()
            assert public["deals"] == [] and calls == []
    assert json.dumps(public)


def test_the_public_replay_reuses_each_finished_deal(monkeypatch):
    from shengji.protocol import Table

    calls = []
    real = Table.replay
    monkeypatch.setattr(Table, "replay", lambda self, *a: calls.append(a) or real(self, *a))
    with TestClient(create_app(bot_delay=0), base_url=BASE) as client:
        code = new_room(client, max_deals=3)
        with client.websocket_connect(WS) as ws:
            token = join(ws, code)["token"]
            send(ws, type="start", token=token)
            room = room_of(client, code)
            while 0 not in room._scored_deals():
                msg = ws.receive_json()
                if msg["type"] == "state" and msg["legal"] is not None:
                    send(ws, type="action", token=token, action=some_action(msg))
                elif msg["type"] == "state" and msg["waiting"]:
                    send(ws, type="next", token=token)
            first = client.get(f"/api/rooms/{code}/replay").json()
            assert [d["deal"] for d in first["deals"]] == [0] and calls == [(None, 0)]
            room._public = None  # as if the game had moved: the message is built again
            again = client.get(f"/api/rooms/{code}/replay").json()
            assert again["deals"] == first["deals"] and calls == [(None, 0)]


def test_a_store_error_is_a_shengji_error():
    assert issubclass(StoreError, ShengjiError)
    with pytest.raises(StoreError, match="cannot use it"):
        Store("/proc/version")


def test_a_database_of_another_schema_version_is_refused_and_closed(tmp_path, monkeypatch):
    import sqlite3

    from shengji.frontends.web import store as store_mod
    db = tmp_path / "future.db"
    with sqlite3.connect(db) as c:
        c.execute(f"PRAGMA user_version={store_mod.SCHEMA_VERSION + 1}")
    opened = []
    real_connect = sqlite3.connect

    def spy(*args, **kw):
        conn = real_connect(*args, **kw)
        opened.append(conn)
        return conn
    monkeypatch.setattr(store_mod.sqlite3, "connect", spy)
    with pytest.raises(StoreError, match="schema version"):
        Store(str(db))
    assert len(opened) == 1
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        opened[0].execute("SELECT 1")
