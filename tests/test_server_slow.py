"""A client that does not read never freezes its room (issue 34, item 1). Each test runs
a real uvicorn (conns.server_config) on a free loopback port with small socket buffers
and a short send timeout (Limits), a player who reads and plays, and raw websockets that
stop reading after the handshake (webtools.SilentSocket): the repros of the issue, made
small. The player's states keep coming while the silent ones are cut off."""

from __future__ import annotations

import json
import threading
import time

import pytest

pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is missing")

from webtools import SilentSocket, closed_within, live, some_action  # noqa: E402

from shengji.frontends.web.limits import Limits  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION  # noqa: E402

#: small buffers and a short send timeout: a silent client is found out in well under a
#: second, not after the megabytes a real socket takes
SMALL = Limits(send_buffer=4096, send_timeout=0.5)
#: the longest wait between two of the player's states that counts as "still moving":
#: well under a second on a quiet machine (benchmarks/attack_server.py measures it), 2 s
#: here so that a loaded one (the suite runs beside other work) is not taken for a
#: frozen room; a frozen room sends nothing again, until the end of the test
GAP = 2.0
#: how long each attack lasts (the small buffers fill in well under the send timeout, so
#: the old server froze within its first second), and the player plays on after it: at
#: least GAP, so that a room frozen at the attack's very end still fails
ATTACK, AFTER = 1.5, 2.0


class Player(threading.Thread):
    """Seat 0 of a room, played as fast as the states come (sends ``next`` after each
    deal) until ``stop`` is set; notes when each state arrives."""

    def __init__(self, port: int, code: str):
        super().__init__(daemon=True)
        self.url, self.code = f"ws://127.0.0.1:{port}/ws", code
        self.times: list[float] = []
        self.deals_scored = 0
        self.playing = threading.Event()
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        from websockets.sync.client import connect

        try:
            with connect(self.url, max_size=1 << 22) as ws:
                self._play(ws)
        except BaseException as e:  # noqa: BLE001  # told to the test
            self.error = e

    def _play(self, ws) -> None:
        def say(**msg):
            ws.send(json.dumps(msg))

        say(type="join", protocol=PROTOCOL_VERSION, room=self.code, name="ann")
        token = json.loads(ws.recv(timeout=10))["token"]
        say(type="start", token=token)
        while not self.stop.is_set():
            try:
                msg = json.loads(ws.recv(timeout=0.1))
            except TimeoutError:
                continue
            if msg["type"] != "state":
                continue
            self.times.append(time.monotonic())
            self.playing.set()
            if 0 in msg.get("waiting", ()):
                self.deals_scored += 1
                say(type="next", token=token)
            elif msg["legal"]:
                say(type="action", token=token, action=some_action(msg))

    def finish(self) -> None:
        self.stop.set()
        end = time.monotonic()
        self.join(10)
        self.times.append(end)  # a silence until the end counts as a gap

    def longest_gap(self, since: float) -> float:
        before = [t for t in self.times if t < since]
        times = before[-1:] + [t for t in self.times if t >= since]
        return max(b - a for a, b in zip(times, times[1:], strict=False))


def _room(port: int, **body) -> str:
    import httpx

    r = httpx.post(f"http://127.0.0.1:{port}/api/rooms",
                   json={"seed": 5, "max_deals": 50, **body})
    assert r.status_code == 200, r.text
    return r.json()["room"]


def _watch(port: int, code: str) -> SilentSocket:
    s = SilentSocket(port)
    assert s.send(type="watch", protocol=PROTOCOL_VERSION, room=code)
    return s


def _attack(player: Player, silent: list[SilentSocket], message: dict | None,
            rate: float) -> float:
    """Each silent socket sends ``message`` ``rate`` times a second for ATTACK seconds
    (or only watches: None); the player's longest wait for a state meanwhile."""
    start = time.monotonic()
    while time.monotonic() - start < ATTACK:
        for s in silent:
            if message is not None:
                s.send(**message)
        time.sleep(1 / rate)
    time.sleep(AFTER)
    player.finish()
    return player.longest_gap(start)


def _all_cut_off(config, code: str, silent: list[SilentSocket], player: Player) -> None:
    assert player.error is None, player.error
    closed = sum(closed_within(s.sock, 3.0) is not None for s in silent)
    assert closed == len(silent), f"{len(silent) - closed} silent sockets still open"
    assert config.app.state.lobby.rooms[code].watchers == []


def test_silent_watchers_sending_chat_do_not_freeze_the_room():
    """Repro A: watchers from one address send chat (18 a second each), never reading."""
    with live(SMALL, bot_delay=0.05) as (port, config):
        code = _room(port)
        player = Player(port, code)
        player.start()
        assert player.playing.wait(10)
        silent = [_watch(port, code) for _ in range(40)]
        gap = _attack(player, silent, {"type": "chat", "text": "la " * 66}, 18)
        assert gap < GAP, f"the player waited {gap:.2f} s for a state"
        _all_cut_off(config, code, silent, player)


def test_a_silent_spectator_asking_for_replays_does_not_freeze_the_room():
    """Repro B: after deal 0, a spectator asks for its replay 19 times a second and never
    reads the answers."""
    with live(SMALL, bot_delay=0.02, bot="random") as (port, config):
        code = _room(port)
        player = Player(port, code)
        player.start()
        deadline = time.monotonic() + 20
        while player.deals_scored == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert player.deals_scored, "deal 0 did not end"
        silent = [_watch(port, code)]
        gap = _attack(player, silent, {"type": "replay", "deal": 0}, 19)
        assert gap < GAP, f"the player waited {gap:.2f} s for a state"
        _all_cut_off(config, code, silent, player)


def test_one_silent_watcher_of_a_room_with_big_states_does_not_freeze_it():
    """Repro C: the largest states the offered variants make (finding friends at twelve
    seats: 5-13 KB each) and one watcher that never reads."""
    with live(SMALL, bot_delay=0.05, bot="random",
              variants=["finding-friends"], default_variant="finding-friends") as (port, config):
        code = _room(port, variant="finding-friends", players=12)
        player = Player(port, code)
        player.start()
        assert player.playing.wait(10)
        silent = [_watch(port, code)]
        gap = _attack(player, silent, None, 10)
        assert gap < GAP, f"the player waited {gap:.2f} s for a state"
        _all_cut_off(config, code, silent, player)


# ---------------------------------------------------------------- the queue itself

def test_a_player_cut_off_keeps_the_seat_and_comes_back_with_the_token():
    """A phone gone to sleep mid-send: its sends stop completing, it is cut off after
    the send timeout, the others are told it is away, and its token takes the seat
    again."""
    import asyncio

    from shengji.frontends.web.lobby import Lobby
    from shengji.frontends.web.rooms import Conn
    from shengji.variants import load_variant

    lobby = Lobby(variants={"two-deck-80": load_variant("two-deck-80")}, bot_delay=0,
                  limits=Limits(send_timeout=0.2))

    async def main():
        room = await lobby.create("two-deck-80", seed=1)
        asleep = asyncio.Event()
        got: list[dict] = []
        cut: list[str] = []

        async def send(text):
            if asleep.is_set():
                await asyncio.Event().wait()  # a socket whose buffers never drain
            got.append(json.loads(text))

        def cut_off(reason):  # what the web app does (app.py): the socket goes
            cut.append(reason)
            lobby.disconnect(phone)

        phone = Conn(send, "a", lobby.limits, on_fail=cut_off)
        await lobby.receive(phone, json.dumps({"type": "join", "protocol": PROTOCOL_VERSION,
                                               "room": room.code}))
        await phone.outbox.flush()
        token = got[0]["token"]
        asleep.set()
        other = Conn(lambda text: asyncio.sleep(0), "b", lobby.limits)
        await lobby.receive(other, json.dumps({"type": "join", "protocol": PROTOCOL_VERSION,
                                               "room": room.code}))
        await asyncio.sleep(0.5)
        assert cut and "too slow" in cut[0] and phone not in room.conns
        assert room.seat_infos()[0]["connected"] is False
        back: list[dict] = []

        async def send_back(text):
            back.append(json.loads(text))

        again = Conn(send_back, "a", lobby.limits)
        await lobby.receive(again, json.dumps({"type": "join", "protocol": PROTOCOL_VERSION,
                                               "room": room.code, "token": token}))
        await again.outbox.flush()
        assert back[0]["type"] == "welcome" and back[0]["seat"] == 0

    asyncio.run(main())


def test_a_queue_past_its_bound_cuts_the_client_off_without_waiting():
    import asyncio

    from shengji.frontends.web.seats import Conn

    async def main():
        cut: list[str] = []

        async def never(text):
            await asyncio.Event().wait()

        conn = Conn(never, "a", Limits(send_queue=5, send_timeout=60), on_fail=cut.append)
        start = time.monotonic()
        for i in range(10):
            conn.send({"type": "pong", "n": i})  # never waits, whatever the client does
        assert time.monotonic() - start < 0.1
        assert cut == ["too slow: 5 messages waiting to be sent"]
        assert len(conn.outbox) == 0  # forgotten, not kept

    asyncio.run(main())


# ---------------------------------------------------------------- a room's memory

def test_a_room_keeps_a_bounded_number_of_replays():
    """Issue 34, item 5: a room's cached replays do not grow with every seat's replay of
    every deal (REPLAYS_KEPT of them, the least recently asked dropped); the public ones
    are kept encoded, once per deal."""
    import asyncio

    from shengji.frontends.web.lobby import Lobby
    from shengji.frontends.web.replays import REPLAYS_KEPT
    from shengji.variants import load_variant

    lobby = Lobby(variants={"two-deck-80": load_variant("two-deck-80")}, bot_delay=0)
    room = asyncio.run(lobby.create("two-deck-80", seed=1))
    room._scored, room._indexed = list(range(40)), len(room.table.game.events)
    room.table.replay = lambda seat, deal: {"type": "replay", "deal": deal, "seat": seat}
    for deal in range(40):
        for seat in (0, 1, 2, 3, None):
            room.replay(seat, deal)
    assert len(room._replays) == REPLAYS_KEPT
    assert (3, 39) in room._replays and (0, 0) not in room._replays
    assert len(room._public_deals) == 40 and isinstance(room._public_deals[0], str)
    # a room asked for no max_deals plays at most MAX_DEALS_LIMIT
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient
    from webtools import BASE

    from shengji.frontends.web.app import MAX_DEALS_LIMIT, create_app

    with TestClient(create_app(variants=["two-deck-80"]), base_url=BASE) as client:
        code = client.post("/api/rooms", json={}).json()["room"]
        assert client.app.state.lobby.rooms[code].table.game.max_deals == MAX_DEALS_LIMIT
