"""Room controls before the start (issue 27, shengji.io's room settings: "levels are set
per player in the room", "the room's chosen landlord", docs/variants.md): each seat's
starting level and the first dealer, as Game arguments that records and pickles keep."""

from __future__ import annotations

import pickle

import pytest

from shengji.bots import make_bot
from shengji.engine import Game
from shengji.engine.runner import play
from shengji.engine.serial import dumps, loads
from shengji.errors import ShengjiError
from shengji.variants import load_variant


@pytest.fixture(scope="module")
def v():
    return load_variant("two-deck-80")


def _first(game, kind):
    return next(e for e in game.events if type(e).__name__ == kind)


def test_starting_levels_and_first_dealer_decide_the_first_deal(v):
    game = Game(v, 3, start_levels=["7", "J", "7", "J"], first_dealer=1, max_deals=1)
    assert game.levels == [5, 9, 5, 9] and game.dealer == 1
    started = _first(game, "DealStarted")
    assert started.dealer == 1 and started.level == 9
    play(game, [make_bot("random", v, seed=s) for s in range(4)])
    trump = _first(game, "TrumpSet")
    assert trump.dealer == 1 and trump.level == 9  # whoever declared, seat 1 deals
    # without the controls the first declarer deals, at the common level
    plain = Game(v, 3, max_deals=1)
    assert plain.dealer is None and _first(plain, "DealStarted").level == 0


def test_partners_share_a_level_and_seats_are_checked(v):
    with pytest.raises(ShengjiError, match="partners share"):
        Game(v, 1, start_levels=[0, 1, 2, 3])
    with pytest.raises(ShengjiError, match="4 seats"):
        Game(v, 1, start_levels=[0, 1])
    with pytest.raises(ShengjiError, match="not a seat"):
        Game(v, 1, first_dealer=4)
    with pytest.raises(ShengjiError, match="not a level"):
        Game(v, 1, start_levels=[0, 1, 0, 13])


def test_records_and_pickles_keep_the_controls(v):
    game = Game(v, 5, start_levels=[3, 3, 3, 3], first_dealer=2, max_deals=1)
    play(game, [make_bot("random", v, seed=s) for s in range(4)], stop_after_deals=1)
    again = loads(dumps(game))
    assert again.start_levels == (3, 3, 3, 3) and again.first_dealer == 2
    assert again.actions == game.actions and again.levels == game.levels
    copy = pickle.loads(pickle.dumps(game))
    assert copy.actions == game.actions and copy.first_dealer == 2


def test_a_house_rules_game_pickles_with_its_rules():
    from shengji.variants.house import check_house

    h = check_house("extends: two-deck-80\npenalties: {failed_throw: 10}\n",
                    {"two-deck-80": load_variant("two-deck-80")})
    game = Game(h.variant, 2, max_deals=1)
    copy = pickle.loads(pickle.dumps(game))
    assert copy.variant.settings["penalties"]["failed_throw"] == 10


# ---------------------------------------------------------------- the room's controls

def test_the_host_arranges_the_room_before_the_start(tmp_path):
    import warnings

    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient
    from webtools import BASE, WS, join, room_of, send, until

    from shengji.frontends.web.app import create_app

    db = str(tmp_path / "rooms.db")
    with TestClient(create_app(bot_delay=0, db=db), base_url=BASE) as client:
        code = client.post("/api/rooms", json={"seed": 4, "max_deals": 1}).json()["room"]
        with client.websocket_connect(WS) as host, client.websocket_connect(WS) as guest:
            me = join(host, code, name="Ann")
            assert until(host, "room")["host"] == 0
            other = join(guest, code, name="Bo")
            assert other["seat"] == 1
            # only the host arranges
            send(guest, type="arrange", token=other["token"], first_dealer=1)
            assert until(guest, "error")["code"] == "not_host"
            send(host, type="arrange", token=other["token"], first_dealer=1)
            assert until(host, "error")["code"] == "bad_token"
            # Bo moves to seat 2 (across the table: Ann's partner); levels and dealer
            send(host, type="arrange", token=me["token"], swap=[1, 2])
            assert until(guest, "seated")["seat"] == 2
            room = until(host, "room")
            assert room["seats"][2]["name"] == "Bo" and room["seats"][1]["kind"] == "open"
            send(host, type="arrange", token=me["token"], levels=["5", "2", "5", "2"],
                 first_dealer=2)
            room = until(host, "room")
            assert room["start_levels"] == [3, 0, 3, 0] and room["first_dealer"] == 2
            send(host, type="arrange", token=me["token"], levels=["5", "2", "3", "2"])
            assert until(host, "error")["code"] == "bad_message"  # partners share a level
            game = room_of(client, code).table.game
            assert game.dealer == 2 and game.levels == [3, 0, 3, 0]
            send(host, type="start", token=me["token"])
            until(host, "state")
            send(host, type="arrange", token=me["token"], shuffle=1)
            assert until(host, "error")["code"] == "started"
    # a restart keeps the arrangement, and Bo's token finds his new seat
    with TestClient(create_app(bot_delay=0, db=db), base_url=BASE) as client:
        with client.websocket_connect(WS) as ws:
            assert join(ws, code, token=other["token"])["seat"] == 2
            game = room_of(client, code).table.game
            assert game.first_dealer == 2 and game.start_levels == (3, 0, 3, 0)
