"""table.play_takeback over the web server's websocket: the seat that played last sends
TakeBack while the next seat (a person, who has not acted) is to act; every connection
learns it, and the seat plays again. (The page's #takeback-play button sends exactly
this action; shengji.io core/src/game_state/play_phase.rs take_back_cards.)"""

from __future__ import annotations

import time

import pytest

starlette = pytest.importorskip("starlette", reason="the web extra is missing")
from starlette.testclient import TestClient  # noqa: E402
from webtools import BASE, WS, join, room_of, send, some_action  # noqa: E402

from shengji.frontends.web.app import create_app  # noqa: E402

HOUSE = "extends: two-deck-80\ntable:\n  play_takeback: true\n"


def _wait(cond, what: str) -> None:
    end = time.monotonic() + 60  # a bound on a hung server, not a timing condition
    while not cond():
        if time.monotonic() > end:
            pytest.fail(f"the server never got to: {what}")
        time.sleep(0.01)


def test_a_player_takes_back_a_play_over_the_websocket():
    with TestClient(create_app(bot_delay=0), base_url=BASE) as client:
        r = client.post("/api/rooms", json={"rules": HOUSE, "seed": 2, "max_deals": 1})
        assert r.status_code == 200, r.text
        code = r.json()["room"]
        game = lambda: room_of(client, code).table.game  # noqa: E731
        with client.websocket_connect(WS, headers={"origin": BASE}) as a, \
                client.websocket_connect(WS, headers={"origin": BASE}) as b:
            ma, mb = join(a, code, name="A"), join(b, code, name="B")
            ws = {ma["seat"]: (a, ma["token"]), mb["seat"]: (b, mb["token"])}
            assert set(ws) == {0, 1}
            send(a, type="start", token=ma["token"])
            _wait(lambda: game().to_act in ws, "a person's turn")
            for _ in range(300):  # the people's decisions until seat 0 plays, not last
                g = game()
                seat = g.to_act
                if g.phase == "play" and seat == 0 and len(g.trick) < 3:
                    break
                conn, token = ws[seat]
                n = len(g.actions)
                send(conn, type="action", token=token,
                     action=some_action(room_of(client, code).table.state(seat)))
                _wait(lambda n=n: len(game().actions) > n and game().to_act in ws,
                      "the next person's turn")
            else:
                pytest.fail("seat 0 never played")
            n = len(game().actions)
            play = some_action(room_of(client, code).table.state(0))
            send(a, type="action", token=ma["token"], action=play)
            _wait(lambda: len(game().actions) > n, "the play")
            assert game().to_act == 1 and room_of(client, code).table.state(0)["view"][
                "can_take_back"]
            send(a, type="action", token=ma["token"], action={"type": "TakeBack"})
            _wait(lambda: game().to_act == 0, "the take-back")
            assert type(game().events[-1]).__name__ == "PlayTakenBack"
            # seat 1 was told too, and is no longer to act
            for _ in range(200):
                msg = b.receive_json()
                if msg["type"] == "state" and any(e["type"] == "PlayTakenBack"
                                                  for e in msg.get("events", [])):
                    assert msg["legal"] is None and msg["view"]["to_act"] == 0
                    break
            else:
                pytest.fail("seat 1 never heard of the take-back")
