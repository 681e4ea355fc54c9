"""The room cap against a flood from many addresses, rooms nobody joins, and guessing
room codes over HTTP and websockets alike (issue 26; shengji/frontends/web/admission.py)."""

from __future__ import annotations

import asyncio
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from webtools import BASE, WS, join, new_room, send  # noqa: E402

from shengji.errors import ShengjiError  # noqa: E402
from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.frontends.web.limits import Limits, address_key  # noqa: E402
from shengji.frontends.web.lobby import Lobby  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION  # noqa: E402
from shengji.variants import load_variant  # noqa: E402


@pytest.fixture(scope="module")
def variants():
    return {"two-deck-80": load_variant("two-deck-80")}


_LOOP = asyncio.new_event_loop()


@pytest.fixture(scope="module", autouse=True)
def _loop():
    yield
    _LOOP.close()


def create(lobby, *args, **kw):
    """A room made by ``Lobby.create`` (a coroutine: it may look codes up in the store),
    on one event loop for the module (a loop per call would cost more than the call)."""
    return _LOOP.run_until_complete(lobby.create(*args, **kw))


def refusal(lobby, address: str) -> str | None:
    """The refusal code of a room created from ``address`` (None: created)."""
    try:
        create(lobby, "two-deck-80", address=address)
    except ShengjiError as e:
        return e.code
    return None


def test_ipv6_addresses_count_per_64():
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9") \
        == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("192.0.2.7") == "192.0.2.7" and address_key("?") == "?"


def test_one_ipv6_network_holds_the_rooms_of_one_address(variants):
    lobby = Lobby(variants=variants, limits=Limits(rooms_per_address=10))
    codes = [refusal(lobby, f"2001:db8::{i:x}")
             for i in range(1, 16)]
    assert codes == [None] * 10 + ["too_many_rooms"] * 5


def test_a_flood_from_200_addresses_leaves_room_for_a_newcomer(variants):
    # (no share kept for newcomers here: the empty rooms of the biggest holder make way)
    lobby = Lobby(variants=variants, limits=Limits(max_rooms=2000, rooms_per_address=10,
                                                   rooms_reserved_share=0))
    start = time.monotonic()
    refused = {}
    for a in range(205):
        for _ in range(10):
            code = refusal(lobby, f"10.1.{a // 250}.{a % 250}")
            refused[code] = refused.get(code, 0) + 1
    flood = time.monotonic() - start
    # the last 5 addresses came when the server was full: each got its share (9 rooms)
    assert len(lobby.rooms) == 2000 and refused[None] == 2045
    # a newcomer gets a room: the biggest holder's least recently used room makes way
    start = time.monotonic()
    room = create(lobby, "two-deck-80", address="203.0.113.7")
    print(f"2,050 creates from 205 addresses in {flood:.2f} s; the newcomer's room in "
          f"{1000 * (time.monotonic() - start):.1f} ms")
    assert room.code in lobby.rooms and len(lobby.rooms) == 2000
    # the flood goes on: nobody gets more than an equal share, the newcomer keeps its room
    for a in range(205):
        assert refusal(lobby, f"10.1.{a // 250}.{a % 250}") \
            in ("too_many_rooms", "server_full", None)
    assert room.code in lobby.rooms and len(lobby.rooms) == 2000
    # a second newcomer too, and the same from an IPv6 address
    assert refusal(lobby, "198.51.100.1") is None
    assert refusal(lobby, "2001:db8:5::1") is None


def test_a_flood_of_joined_rooms_leaves_room_for_newcomers(variants):
    """Issue 34, item 4: 200 addresses x 10 rooms, each with somebody in it, made every
    newcomer's POST /api/rooms a 503 server_full (a room somebody is in never makes
    way). The last quarter of the table is kept for addresses holding fewer than two."""
    lobby = Lobby(variants=variants, limits=Limits(max_rooms=2000, rooms_per_address=10))
    made = 0
    for a in range(200):
        for _ in range(10):
            try:
                room = create(lobby, "two-deck-80", address=f"10.7.{a // 250}.{a % 250}")
            except ShengjiError as e:
                assert e.code == "too_many_rooms"
                continue
            room.conns.append(object())  # somebody is in every room the flood holds
            made += 1
    assert made <= 1500 + 2 * 50
    for i in range(100):  # a hundred newcomers, each with a room somebody is in
        room = create(lobby, "two-deck-80", address=f"198.51.100.{i}")
        room.conns.append(object())
        if i % 2:  # and a second one
            create(lobby, "two-deck-80", address=f"198.51.100.{i}").conns.append(object())
    # the newcomers too hold their share: a third room waits for a free place
    assert refusal(lobby, "198.51.100.1") == "too_many_rooms"
    assert refusal(lobby, "203.0.113.9") is None
    # the cap stays: when every address holds the same share, the server is full
    full = Lobby(variants=variants, limits=Limits(max_rooms=4, rooms_per_address=10))
    for a in range(4):
        create(full, "two-deck-80", address=f"10.2.0.{a}")
    assert refusal(full, "10.2.0.9") == "server_full"


def test_a_room_somebody_is_in_never_makes_way(variants):
    lobby = Lobby(variants=variants, limits=Limits(max_rooms=3, rooms_per_address=10))
    rooms = [create(lobby, "two-deck-80", address="10.3.0.1") for _ in range(3)]
    for r in rooms:
        r.conns.append(object())  # somebody is connected to each
    assert refusal(lobby, "10.3.0.2") == "server_full"


def test_rooms_nobody_joined_expire_within_minutes(variants):
    limits = Limits(max_rooms=10, rooms_per_address=5, rooms_reserved_share=0)
    lobby = Lobby(variants=variants, limits=limits)
    made = [create(lobby, "two-deck-80", address=f"10.4.0.{i % 2}") for i in range(10)]
    joined = made[0]
    joined.seats[0].kind = "human"  # somebody took a seat (and left)
    assert refusal(lobby, "10.4.0.0") == "too_many_rooms"
    for r in made:
        r.touched -= limits.unjoined_seconds + 1
    assert limits.unjoined_seconds <= 300
    # the unjoined rooms are idle now: they count for nobody and make way for anyone
    assert [r.idle for r in made] == [False] + [True] * 9
    for _ in range(4):
        create(lobby, "two-deck-80", address="10.4.0.0")
    assert joined.code in lobby.rooms and len(lobby.rooms) <= 10


def test_rooms_nobody_joined_leave_the_store_when_dropped(variants, tmp_path):
    from shengji.frontends.web.store import Store

    store = Store(tmp_path / "rooms.sqlite3")
    try:
        lobby = Lobby(variants=variants, limits=Limits(max_rooms=2, unjoined_seconds=0),
                      store=store)
        old = [create(lobby, "two-deck-80", address="10.5.0.1") for _ in range(2)]
        time.sleep(0.01)
        create(lobby, "two-deck-80", address="10.5.0.2")
        assert not any(store.exists(r.code) for r in old)
    finally:
        store.close()


# ---------------------------------------------------------------- guessing codes

def make_client(tmp_path=None, **limits) -> TestClient:
    db = str(tmp_path / "rooms.sqlite3") if tmp_path else None
    return TestClient(create_app(bot_delay=0, limits=Limits(**limits), db=db), base_url=BASE)


def test_replay_lookups_and_joins_share_one_guess_limit():
    with make_client(failed_join_burst=5, failed_join_rate=0.0001) as client:
        code = new_room(client)
        statuses = [client.get(f"/api/rooms/{g}/replay").status_code
                    for g in ["AAAAAAAA", "BBBBBBBB", "not-a-code", "CCCCCCCC", "DDDDDDDD"]]
        assert statuses == [404] * 5
        r = client.get(f"/api/rooms/{code}/replay")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        # the websocket join of the same address is refused too, even with the right code
        with client.websocket_connect(WS) as ws:
            send(ws, type="join", protocol=PROTOCOL_VERSION, room=code)
            assert ws.receive_json()["code"] == "rate_limited"
    with make_client(failed_join_burst=2, failed_join_rate=0.0001) as client:
        code = new_room(client)
        with client.websocket_connect(WS) as ws:
            for guess in ["AAAAAAAA", "BBBBBBBB"]:
                send(ws, type="watch", protocol=PROTOCOL_VERSION, room=guess)
                assert ws.receive_json()["code"] == "no_such_room"
        assert client.get(f"/api/rooms/{code}/replay").status_code == 429


def test_guessing_over_http_is_held_to_the_rate(tmp_path):
    # guesses as fast as they go: a burst of 20, then 0.2 a second
    with make_client(tmp_path) as client:
        store = client.app.state.lobby.store
        looked = []
        real_claim = store.claim

        async def claim(code):
            looked.append(code)
            return await real_claim(code)
        store.claim = claim
        code = new_room(client)
        start = time.monotonic()
        answers = {}
        for i in range(300):
            s = client.get(f"/api/rooms/AAAA{i:04d}/replay").status_code
            answers[s] = answers.get(s, 0) + 1
        took = time.monotonic() - start
        misses = answers.get(404, 0)
        print(f"300 guesses in {took:.1f} s: {misses} answered 404, the rest 429")
        assert answers.get(429, 0) + misses == 300
        assert misses <= 20 + 0.2 * took + 1
        # only the misses reached SQLite, one primary-key lookup each
        assert len(looked) <= misses
        assert client.get(f"/api/rooms/{code}/replay").status_code == 429


def test_a_right_code_is_found_over_http_and_websocket():
    with make_client() as client:
        code = new_room(client)
        assert client.get(f"/api/rooms/{code.lower()}/replay").status_code == 200
        with client.websocket_connect(WS) as ws:
            assert join(ws, code)["room"] == code


def test_the_websocket_total_keeps_a_share_for_new_addresses(variants):
    """Issue 34, item 10, for websockets: three addresses at their caps of 64 against a
    total of 160; the last eighth (20) is kept for addresses holding fewer than 16."""
    lobby = Lobby(variants=variants, limits=Limits(max_connections=160, conns_per_address=64))
    for a in range(3):
        for _ in range(64):
            lobby.connect(f"10.9.0.{a}")
    assert lobby.connections == 64 + 64 + 16
    assert lobby.connect("10.9.0.2").code == "too_many_connections"
    assert all(lobby.connect("203.0.113.5") is None for _ in range(10))
