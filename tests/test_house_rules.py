"""House rules from the web (issue 27): POST /api/rules/check with the same loader as
the command line, rooms created with `rules`, the rules stored with the room (text and
fingerprint) and restored exactly, refusals with dotted key paths."""

from __future__ import annotations

import warnings

import pytest
import yaml

pytest.importorskip("starlette", reason="the web extra (starlette) is missing")
pytest.importorskip("httpx", reason="starlette's TestClient needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient  # noqa: E402

from test_server_store import in_play_on_my_turn, play_until  # noqa: E402
from webtools import BASE, WS, join, room_of, send, until  # noqa: E402

from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.protocol.schema import load, validate_http  # noqa: E402
from shengji.variants import load_variant  # noqa: E402
from shengji.variants.house import HouseRulesError, canonical_text, check_house, fingerprint  # noqa: E402

HOUSE = "extends: two-deck-80\nplay:\n  bombs: any_suit\npenalties:\n  failed_throw: 10\n"


@pytest.fixture()
def client():
    with TestClient(create_app(bot_delay=0), base_url=BASE) as c:
        yield c


def _check(client, rules, **extra):
    return client.post("/api/rules/check", json={"rules": rules, **extra})


def test_check_answers_the_resolved_rules_and_the_short_file(client):
    r = _check(client, HOUSE)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["base"] == "two-deck-80" and got["players"] == 4
    settings = yaml.safe_load(got["rules"])
    assert settings["play"]["bombs"] == "any_suit" and settings["penalties"]["failed_throw"] == 10
    assert got["rules_fingerprint"] == fingerprint(got["rules"])
    assert yaml.safe_load(got["house"]) == {"extends": "two-deck-80", "play": {"bombs":
                                            "any_suit"}, "penalties": {"failed_throw": 10}}
    assert {c["key"] for c in got["changes"]} == {"play.bombs", "penalties.failed_throw"}
    # two packs hold no four identical cards: the bombs cannot take effect
    assert [w["key"] for w in got["warnings"]] == ["play.bombs"]


@pytest.mark.parametrize("text,key,words", [
    ("extends: two-deck-80\nplay: {kitty: huge}\n", "play.kitty", "is not one of"),
    ("extends: two-deck-80\npenalties: {failed_throw: 5000}\n", "penalties.failed_throw",
     "out of range"),
    ("extends: two-deck-80\nplugins: [os]\n", "plugins", "plugins are code"),
    ("extends: ../../etc/passwd.yaml\n", "extends", "not offered here"),
    ("extends: /etc/passwd\n", "extends", "not offered here"),
    ("play: {bombs: any_suit}\n", "extends", "missing"),
    ("extends: two-deck-80\nhand_size: 3\n", "hand_size", "the deck"),
    ("extends: two-deck-80\nstart_level: K\nmatch_end: {last_level: '5'}\n", "start_level",
     "above match_end.last_level"),
    ("a: &x 1\nb: *x\n", "", "aliases"),
    ("[" * 100 + "]" * 100, "", "nest"),
    ("extends: two-deck-80\ndeclare: {jokers: {min: seven}}\n", "declare.jokers.min", ""),
])
def test_refusals_name_the_dotted_key(client, text, key, words):
    r = _check(client, text)
    assert r.status_code == 422, r.text
    errors = r.json()["errors"]
    assert any(e["key"] == key and words in e["message"] for e in errors), errors


def test_large_and_malformed_bodies_are_refused(client):
    r = _check(client, "extends: two-deck-80\n# " + "x" * 70_000)
    assert r.status_code == 413
    assert _check(client, 3).status_code == 422
    assert client.post("/api/rules/check", json={"rules": HOUSE, "colour": 1}).status_code == 400
    assert _check(client, HOUSE, players=40).status_code == 400


def test_a_room_with_house_rules_carries_them_in_its_state(client):
    r = client.post("/api/rooms", json={"rules": HOUSE, "seed": 3, "max_deals": 1})
    assert r.status_code == 200, r.text
    code = r.json()["room"]
    # the name of the rules played, as the record and state say (protocol.md "One
    # variant name everywhere"); the base is rules_base
    assert r.json()["variant"] == "two-deck-80+house"
    room = room_of(client, code)
    assert room.table.game.variant.settings["penalties"]["failed_throw"] == 10
    info = client.get(f"/api/rooms/{code}").json()
    assert info["rules_fingerprint"] == fingerprint(info["rules"])
    assert yaml.safe_load(info["rules"])["play"]["bombs"] == "any_suit"
    assert {c["key"] for c in info["rules_changes"]} == {"play.bombs",
                                                         "penalties.failed_throw"}
    with client.websocket_connect(WS) as ws:
        me = join(ws, code, name="Ann")
        assert me["rules_fingerprint"] == info["rules_fingerprint"]
        send(ws, type="start", token=me["token"])
        state = until(ws, "state")
        # the fingerprint, not the text: a client fetches the text once (issue 34)
        assert state["rules_fingerprint"] == info["rules_fingerprint"]
        assert state["variant"] == info["variant"] == "two-deck-80+house"
        assert info["rules_base"] == "two-deck-80"
        assert not {"rules", "rules_house", "rules_changes"} & set(state)


def test_an_invalid_room_is_not_created(client):
    before = len(client.app.state.lobby.rooms)
    r = client.post("/api/rooms", json={"rules": "extends: two-deck-80\nplay: {kitty: x}\n"})
    assert r.status_code == 422 and r.json()["errors"][0]["key"] == "play.kitty"
    assert len(client.app.state.lobby.rooms) == before


def test_room_lookup_by_code_is_rate_limited(client):
    codes = [f"ZZZZZZZ{c}" for c in "ABCDEFGHJKLMNPQRSTUVWXYZ"]
    statuses = [client.get(f"/api/rooms/{c}").status_code for c in codes]
    assert statuses[0] == 404 and statuses[-1] == 429


def test_switches_no_custom_rules_and_bases():
    with TestClient(create_app(bot_delay=0, custom_rules=False), base_url=BASE) as c:
        assert _check(c, HOUSE).status_code == 403
        assert c.post("/api/rooms", json={"rules": HOUSE}).status_code == 403
        assert c.post("/api/rooms", json={"variant": "two-deck-80"}).status_code == 200
    with TestClient(create_app(bot_delay=0, bases=["one-deck-40"]), base_url=BASE) as c:
        r = _check(c, HOUSE)
        assert r.status_code == 422 and r.json()["errors"][0]["key"] == "extends"
        assert _check(c, "extends: one-deck-40\npenalties: {failed_throw: 5}\n").status_code == 200
        assert c.get("/api/rules/schema").json()["bases"] == ["one-deck-40"]


def test_restart_with_db_restores_the_rules_in_force(tmp_path):
    db = str(tmp_path / "rooms.db")
    with TestClient(create_app(bot_delay=0, db=db), base_url=BASE) as c:
        code = c.post("/api/rooms", json={"rules": HOUSE, "seed": 5,
                                          "max_deals": 1}).json()["room"]
        first = c.get(f"/api/rooms/{code}").json()
        with c.websocket_connect(WS) as ws:
            me = join(ws, code, name="Ann")
            send(ws, type="start", token=me["token"])
            play_until(ws, me["token"], in_play_on_my_turn)
    with TestClient(create_app(bot_delay=0, db=db), base_url=BASE) as c:
        again = c.get(f"/api/rooms/{code}").json()
        assert again["rules_fingerprint"] == first["rules_fingerprint"]
        assert again["rules"] == first["rules"]
        game = room_of(c, code).table.game
        assert game.variant.settings["penalties"]["failed_throw"] == 10
        with c.websocket_connect(WS) as ws:
            join(ws, code, token=me["token"])
            play_until(ws, me["token"], lambda m: m["over"])  # the deal finishes
        assert game.deals_played == 1


def test_rules_text_rebuilds_the_same_rules():
    bases = {"two-deck-80": load_variant("two-deck-80")}
    h = check_house(HOUSE, bases)
    assert canonical_text(h.variant.settings) == h.text
    with pytest.raises(HouseRulesError):
        check_house("extends: two-deck-80\nplay: {bombs: sometimes}\n", bases)


def test_records_carry_house_rules_and_shengji_replay_replays_them(tmp_path):
    import io

    from shengji.bots import make_bot
    from shengji.engine import Game
    from shengji.engine.runner import play
    from shengji.engine.serial import dumps, loads
    from shengji.frontends.replay import replay

    bases = {"two-deck-80": load_variant("two-deck-80")}
    h = check_house(HOUSE, bases)
    game = Game(h.variant, 7, max_deals=1)
    play(game, [make_bot("random", h.variant, seed=i) for i in range(4)])
    text = dumps(game)
    # no file or name can rebuild these rules: the record carries them
    again = loads(text)
    assert canonical_text(again.variant.settings) == h.text
    assert again.actions == game.actions
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert replay(path, out=out) == 0
    assert "two-deck-80+house" in out.getvalue()
    # a record's rules are data: a plugin named there is not imported
    import json
    data = json.loads(text)
    data["rules"] = data["rules"].replace("plugins: []", "plugins: [os]")
    with pytest.raises(Exception, match="not trusted"):
        loads(json.dumps(data))


# ---------------------------------------------------------------- "Try these rules"

def test_preview_same_seed_same_figures(client):
    body = {"rules": HOUSE, "seed": 11, "deals": 3}
    first = client.post("/api/rules/preview", json=body)
    assert first.status_code == 200, first.text
    got = first.json()
    validate_http("http.rules_preview", got)  # the schema (docs/protocol.md's HTTP table)
    assert set(got) <= set(load()["definitions"]["http.rules_preview"]["properties"])
    assert got["seed"] == 11 and got["base_name"] == "two-deck-80"
    for side in ("house", "base"):
        assert set(got[side]) >= {"deals", "dealer_hold_rate", "attacker_points",
                                  "levels_per_deal", "failed_throws_per_deal",
                                  "tricks_per_deal"}
        assert got[side]["deals"] == 3 and got[side]["tricks_per_deal"] > 0
    again = client.post("/api/rules/preview", json=body).json()
    assert again["house"] == got["house"] and again["base"] == got["base"]
    bad = client.post("/api/rules/preview", json={"rules": HOUSE, "deals": 1000})
    assert bad.status_code == 400
    refused = client.post("/api/rules/preview", json={"rules": "plugins: [os]\n"})
    assert refused.status_code == 422
    validate_http("server.error", refused.json())


def test_the_preview_says_how_often_each_changed_rule_came_into_play():
    """Issue 38: with a kitty rule or a failed-throw penalty the house and base bars were
    identical (heuristic bots never fail a throw and bury no points) and nothing said the
    rule had not come into play. Now bold bots play such rules, and each changed setting
    says how often it applied, or "did not come into play in this sample"."""
    from shengji.frontends.web.preview import run_preview

    bases = {"two-deck-80": load_variant("two-deck-80")}
    base_text = canonical_text(bases["two-deck-80"].settings)

    def preview(text, seed=5, deals=12):
        got = run_preview(check_house(text, bases).text, base_text, seed, deals, 30.0)
        return got, {a["key"]: a for a in got["applied"]}

    got, said = preview("extends: two-deck-80\nplay:\n  kitty_cap: 2\npenalties:\n"
                        "  failed_throw: 10\n")
    assert got["bots"] == "bold" and "throws fail" in got["bots_said"]
    throws = said["penalties.failed_throw"]
    assert throws["house"] > 0 and throws["said"].startswith(
        f"a throw failed {throws['house']} times (base rules: ")
    cap = said["play.kitty_cap"]
    assert cap["house"] >= 1 and cap["said"].startswith("the kitty rules changed its "
                                                        "multiplier "), cap
    assert got["house"]["attacker_points"] != got["base"]["attacker_points"]
    # a rule that made no difference in the sample says so
    _, said = preview("extends: two-deck-80\nplay:\n  kitty: table\n")
    assert said["play.kitty"]["house"] == 0
    assert said["play.kitty"]["said"].startswith("did not come into play in this sample: the "
                                                 "attackers won the kitty in ")
    # the scoring table decides every deal; a rule the preview cannot count says so
    got, said = preview("extends: two-deck-80\nscoring:\n  step: 30\nplay:\n"
                        "  bombs: any_suit\n", deals=2)
    assert got["bots"] == "heuristic"
    assert said["scoring.step"]["said"] == "it decided each of the 2 deals scored"
    assert said["play.bombs"]["use"] is None and "not counted" in said["play.bombs"]["said"]


def test_preview_is_bounded_per_address_by_a_queue_and_a_time_cap():
    import asyncio

    from shengji.frontends.web.preview import PreviewLimits, Previews, run_preview
    from shengji.protocol import ProtocolError

    bases = {"two-deck-80": load_variant("two-deck-80")}
    h = check_house(HOUSE, bases)
    base_text = canonical_text(bases["two-deck-80"].settings)
    # the cap stops a long match at a deal boundary, and says so
    capped = run_preview(h.text, base_text, 1, 40, 0.05)
    assert capped["capped"] and capped["house"]["deals"] < 40

    async def prepare():
        return h.text, base_text

    async def main():
        p = Previews(PreviewLimits(time_cap=2.0, queue=1))
        try:
            jobs = [asyncio.ensure_future(p.run(a, prepare, 1, 2))
                    for a in ("10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.3")]
            return await asyncio.gather(*jobs, return_exceptions=True)
        finally:
            p.close()

    got = asyncio.run(main())
    codes = [getattr(r, "code", "ok") if isinstance(r, ProtocolError) else "ok" for r in got]
    # the first address twice: the second is refused; the first plays, the second waits
    # in the queue of one; the third finds it full (neither was served before: first come)
    assert codes == ["ok", "rate_limited", "ok", "busy"], got
