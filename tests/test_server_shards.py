"""Two server instances on one SQLite file, rooms pinned to a shard by the first letter
of their code (docs/scaling.md, "The web server past one process"): each makes only its
own codes, refuses the other's without a lookup, both write games to the same file, and
a restarted shard finds its rooms there."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from webtools import BASE, WS, join, new_room, send, some_action, until  # noqa: E402

from shengji.cli import main  # noqa: E402
from shengji.frontends.web import admission  # noqa: E402
from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.frontends.web.rooms import CODE_ALPHABET  # noqa: E402
from shengji.frontends.web.store import Store  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION  # noqa: E402


def shard(db, index: int) -> TestClient:
    return TestClient(create_app(bot_delay=0, db=str(db), shard=(index, 2)), base_url=BASE)


def play_some(ws, token: str, actions: int) -> None:
    send(ws, type="start", token=token)
    done = 0
    while done < actions:
        msg = until(ws, "state")
        if msg["legal"] is not None:
            send(ws, type="action", token=token, action=some_action(msg))
            done += 1


def test_the_shard_of_a_code_is_its_first_letter():
    assert admission._ALPHABET == CODE_ALPHABET
    assert [admission.shard_of(c + "AAAAAAA", 2) for c in "AB23"] == [0, 1, 0, 1]
    assert sorted({admission.shard_of(c, 3) for c in CODE_ALPHABET}) == [0, 1, 2]


def test_two_shards_share_one_database(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    with shard(db, 0) as a, shard(db, 1) as b:
        codes_a = [new_room(a) for _ in range(5)]
        codes_b = [new_room(b) for _ in range(5)]
        assert {admission.shard_of(c, 2) for c in codes_a} == {0}
        assert {admission.shard_of(c, 2) for c in codes_b} == {1}
        # the other shard's code: refused by its first letter, no lookup, no guess counted
        r = b.get(f"/api/rooms/{codes_a[0]}/replay")
        assert r.status_code == 421 and r.json()["code"] == "wrong_shard"
        assert "shard 0" in r.json()["message"]
        with b.websocket_connect(WS) as ws:
            send(ws, type="join", protocol=PROTOCOL_VERSION, room=codes_a[0])
            assert ws.receive_json()["code"] == "wrong_shard"
        # both play, both write to the one file
        with a.websocket_connect(WS) as wa, b.websocket_connect(WS) as wb:
            token_a = join(wa, codes_a[0])["token"]
            token_b = join(wb, codes_b[0])["token"]
            play_some(wa, token_a, 3)
            play_some(wb, token_b, 3)
    stored = Store(str(db))
    try:
        assert len(stored.room(codes_a[0]).actions) >= 3
        assert len(stored.room(codes_b[0]).actions) >= 3
        assert set(stored.unfinished()) >= set(codes_a + codes_b)
    finally:
        stored.close()
    # shard 0 restarts (another process would do the same): its room comes back
    with shard(db, 0) as a:
        with a.websocket_connect(WS) as wa:
            back = join(wa, codes_a[0], token=token_a)
            assert back["seat"] == 0
            state = until(wa, "state")
            assert state["event_index"] > 0


def test_the_shard_option_is_checked(capsys):
    assert main(["serve", "--shard", "2/2", "--db", ":memory:"]) == 2
    assert "--shard '2/2'" in capsys.readouterr().err
