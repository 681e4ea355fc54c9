"""The HTTP API as a contract (issue 37): every JSON answer matches its definition in the
protocol schema (``http.*``, whose keys docs/protocol.md's table is generated from) with
no key the schema does not describe; every error body, 422 ``bad_rules`` and 500
``internal`` included, is a ``server.error`` with its code's status; the game record is
the schema's ``record``; and a room says one variant name everywhere."""

from __future__ import annotations

import asyncio
import json
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from webtools import BASE, WS, join, send, until  # noqa: E402

from shengji.engine import Game  # noqa: E402
from shengji.engine.record import game_to_dict  # noqa: E402
from shengji.frontends.web.app import MAX_BODY, create_app  # noqa: E402
from shengji.protocol.codes import http_status  # noqa: E402
from shengji.protocol.schema import HTTP_ANSWERS, load, validate_http  # noqa: E402
from shengji.variants import load_variant  # noqa: E402

HOUSE = "extends: two-deck-80\npenalties:\n  failed_throw: 10\n"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(bot_delay=0), base_url=BASE) as c:
        yield c


def answer(name: str, response) -> dict:
    """The body, checked against ``name`` with no key the definition does not list."""
    assert response.status_code == 200, response.text
    body = response.json()
    validate_http(name, body)
    described = set(load()["definitions"][name]["properties"])
    assert set(body) <= described, f"{name}: undescribed keys {set(body) - described}"
    return body


def test_every_api_route_has_its_answer_in_the_schema(client):
    routes = {f"{m} {r.path.replace('{code}', 'CODE')}" for r in client.app.routes
              if r.path.startswith("/api/") for m in (r.methods or ()) if m != "HEAD"}
    described = {request for request, _ in HTTP_ANSWERS.values()}
    assert routes == described | {"GET /api/rooms/CODE/replay"}  # that one: public_replay


def test_answers_match_their_definitions(client):
    answer("http.variants", client.get("/api/variants"))
    answer("http.rules_schema", client.get("/api/rules/schema"))
    answer("http.rules_check", client.post("/api/rules/check", json={"rules": HOUSE}))
    for body in ({"seed": 1}, {"rules": HOUSE, "seed": 1}):
        made = answer("http.room_created", client.post("/api/rooms", json=body))
        answer("http.room", client.get(f"/api/rooms/{made['room']}"))
        replay = client.get(f"/api/rooms/{made['room']}/replay").json()
        validate_http("server.public_replay", replay)


def _error(response, code: str) -> dict:
    body = response.json()
    assert body["code"] == code, body
    assert response.status_code == http_status(code), (code, response.status_code)
    validate_http("server.error", body)
    return body


def test_error_bodies_are_error_messages_with_their_status(client):
    bad = _error(client.post("/api/rules/check", json={"rules": "plugins: [os]\n"}),
                 "bad_rules")
    assert bad["errors"] and bad["errors"][0]["key"] == "plugins"
    _error(client.post("/api/rooms", json={"colour": 1}), "bad_message")
    _error(client.post("/api/rooms", json={"variant": "nope"}), "bad_variant")
    _error(client.post("/api/rooms", content=b"{}", headers={"content-type": "text/plain"}),
           "bad_media_type")
    _error(client.post("/api/rooms", content=b" " * (MAX_BODY + 1),
                       headers={"content-type": "application/json"}), "too_large")
    _error(client.post("/api/rooms", content=b"{", headers={"content-type":
                                                           "application/json"}), "bad_json")
    _error(client.get("/api/rooms/ZZZZZZZZ"), "no_such_room")
    _error(client.get("/api/rooms/ZZZZZZZZ/replay"), "no_such_room")
    _error(client.get("/api/variants", headers={"host": "evil.example"}), "bad_host")
    _error(client.post("/api/rooms", json={}, headers={"origin": "http://evil.example"}),
           "cross_site")


def test_a_server_without_house_rules_and_a_bug_answer_errors_too():
    with TestClient(create_app(bot_delay=0, custom_rules=False), base_url=BASE) as c:
        _error(c.post("/api/rules/check", json={"rules": HOUSE}), "custom_rules_off")
    from shengji.frontends.web.app import _internal_error

    response = asyncio.run(_internal_error(None, RuntimeError("bug")))
    assert response.status_code == http_status("internal")
    validate_http("server.error", json.loads(response.body))


def test_the_game_record_is_the_schemas_record():
    validate_http("record", game_to_dict(Game("two-deck-80", 1)))
    house = load_variant({"extends": "two-deck-80", "penalties": {"failed_throw": 10}})
    rec = game_to_dict(Game(house, 1, start_levels=[3, 4, 3, 4], first_dealer=1))
    assert {"rules", "start_levels", "first_dealer"} <= set(rec)
    validate_http("record", rec)
    with pytest.raises(Exception, match="colour"):  # a key the schema does not describe
        validate_http("record", {**rec, "colour": 1})


@pytest.mark.parametrize("body, name", [({}, "two-deck-80"),
                                        ({"rules": HOUSE}, "two-deck-80+house")])
def test_one_variant_name_everywhere(client, body, name):
    """docs/protocol.md "One variant name everywhere": the POST answer, welcome, room,
    state, the lookup by code and the public replay agree."""
    made = client.post("/api/rooms", json={"seed": 2, "max_deals": 1, **body}).json()
    code = made["room"]
    names = {"created": made["variant"],
             "lookup": client.get(f"/api/rooms/{code}").json()["variant"],
             "replay": client.get(f"/api/rooms/{code}/replay").json()["variant"]}
    with client.websocket_connect(WS) as ws:
        me = join(ws, code, name="Ann")
        names["welcome"] = me["variant"]
        names["room"] = until(ws, "room")["variant"]
        send(ws, type="start", token=me["token"])
        names["state"] = until(ws, "state")["variant"]
    assert set(names.values()) == {name}, names
