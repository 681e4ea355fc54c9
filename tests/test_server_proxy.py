"""Shards behind a real reverse proxy (issue 36; docs/serving.md, "Several processes and
hosts"): Debian's nginx on the generated configuration (frontends/web/proxyconf.py), two
``shengji serve --shard I/2`` processes and one PostgreSQL, on loopback. A deal is
played through the proxy by the protocol client; the shard serving the room is killed
with SIGKILL and started again; the deal finishes, and every event was told once."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

import pytest
import servers

from shengji.frontends.web.proxyconf import letters, main, nginx_config

ROOT = Path(__file__).resolve().parent.parent


def test_the_documented_nginx_configuration_is_the_generated_one():
    text = (ROOT / "docs" / "serving.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- proxyconf: (.*?) \(.*?-->\n```nginx\n(.*?)```", text, re.S)
    assert found, "docs/serving.md: the proxyconf block is missing"
    assert found.group(2) == nginx_config(found.group(1).split())


def test_the_command_prints_the_configuration(capsys):
    assert main(["10.0.0.1:8000", "[::1]:8001", "--listen", "127.0.0.1:8080"]) == 0
    out = capsys.readouterr().out
    assert out == nginx_config(["10.0.0.1:8000", "[::1]:8001"], "127.0.0.1:8080")
    assert "    listen 127.0.0.1:8080;\n" in out and "server [::1]:8001;" in out


@pytest.mark.parametrize("argv, named", [
    (["10.0.0.1:8000;"], "'10.0.0.1:8000;' is not HOST:PORT"),    # would end the directive
    (["a:1 } server { listen 9"], "is not HOST:PORT"),              # would add a block
    (["10.0.0.1"], "'10.0.0.1' is not HOST:PORT"),                  # no port
    (["h:0"], "'h:0' is not HOST:PORT"),
    (["h:65536"], "'h:65536' is not HOST:PORT"),
    (["h:1", "--listen", "80; include /etc/passwd"], "is not PORT or ADDRESS:PORT"),
])
def test_a_bad_address_is_one_line_and_no_configuration(capsys, argv, named):
    """What the command writes goes into nginx's configuration as it is: an address that
    is not one is refused by name, before anything is printed."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert named in err.splitlines()[-1]


def test_every_first_letter_has_one_shard():
    from shengji.frontends.web.rooms import CODE_ALPHABET

    for n in (1, 2, 3, 5):
        parts = [letters(i, n) for i in range(n)]
        assert sorted("".join(parts)) == sorted(CODE_ALPHABET)


@pytest.mark.long
def test_a_deal_through_the_proxy_survives_a_killed_shard(pg_cluster):
    pytest.importorskip("uvicorn")
    reason = servers.missing_nginx()
    if reason:
        pytest.skip(reason)
    import httpx
    from websockets.sync.client import connect

    from shengji.bots import make_bot
    from shengji.engine.serial import game_from_dict
    from shengji.frontends.web import admission
    from shengji.protocol import PROTOCOL_VERSION, ProtocolBot, Table
    from shengji.variants import load_variant

    db = pg_cluster.database()
    ports = [servers.free_port() for _ in range(3)]
    shard_args = [("--shard", f"{i}/2", "--bot-delay", "0", "--proxy-headers")
                  for i in range(2)]
    shards = [servers.start_serve(db, ports[i], *shard_args[i]) for i in range(2)]
    proxy = servers.Nginx(nginx_config([f"127.0.0.1:{p}" for p in ports[:2]],
                                       listen=f"127.0.0.1:{ports[2]}"))
    base = f"http://127.0.0.1:{ports[2]}"
    try:
        proxy.wait(ports[2])
        code = httpx.post(f"{base}/api/rooms", json={"seed": 21, "max_deals": 1}).json()["room"]
        serving = admission.shard_of(code, 2)
        # the proxy sent the creation to some shard; the other refuses the code itself
        other = httpx.get(f"http://127.0.0.1:{ports[1 - serving]}/api/rooms/{code}")
        assert other.status_code == 421 and other.json()["code"] == "wrong_shard"
        assert httpx.get(f"{base}/api/rooms/{code}").json()["room"] == code

        bot = ProtocolBot(make_bot("heuristic", load_variant("two-deck-80"), seed=1), 0)
        seen: dict[int, dict] = {}   # event index -> the event, as told
        told = []                    # event indices in the order told, per connection

        def play(ws, token, stop) -> dict:
            """Act on every state with a legal choice until ``stop(state)``."""
            while True:
                msg = json.loads(ws.recv(timeout=60))
                assert msg["type"] != "error", msg
                if msg["type"] != "state":
                    continue
                first = msg["event_index"] - len(msg["events"])
                for i, event in enumerate(msg["events"], first):
                    assert seen.setdefault(i, event) == event  # told again: unchanged
                    told[-1].append(i)
                if stop(msg):
                    return msg
                if msg["legal"] is not None:
                    ws.send(json.dumps({"type": "action", "token": token,
                                        "action": bot.act(msg)}))

        def mid_deal(msg) -> bool:
            return msg["legal"] is not None and msg["view"]["phase"] == "play" \
                and msg["view"]["trick_number"] >= 3

        url = f"ws://127.0.0.1:{ports[2]}/ws/{code}"
        with connect(url) as ws:
            told.append([])
            ws.send(json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "room": code,
                                "name": "ann"}))
            token = json.loads(ws.recv(timeout=60))["token"]
            ws.send(json.dumps({"type": "start", "token": token}))
            before = play(ws, token, mid_deal)
            shards[serving].send_signal(signal.SIGKILL)
            shards[serving].wait(timeout=10)
        shards[serving] = servers.start_serve(db, ports[serving], *shard_args[serving])
        with connect(url) as ws:
            told.append([])
            ws.send(json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "room": code,
                                "token": token}))
            assert json.loads(ws.recv(timeout=60))["seat"] == 0
            after = play(ws, token, lambda m: True)
            assert after["event_index"] == before["event_index"]
            assert after["view"] == before["view"] and after["legal"] == before["legal"]
            ws.send(json.dumps({"type": "action", "token": token, "action": bot.act(after)}))
            last = play(ws, token, lambda m: m["over"])

        # every event of the deal told once on each connection, none missing
        assert sorted(seen) == list(range(last["event_index"]))
        for indices in told:
            assert indices == list(range(indices[0], indices[-1] + 1))
        assert told[0][0] == 0 and told[1][-1] == last["event_index"] - 1
        # ... and they are the game the store kept: its record, replayed, tells the same
        record = httpx.get(f"{base}/api/rooms/{code}/replay").json()["record"]
        game = game_from_dict(record)
        again = Table(game.variant, game.seed, max_deals=1, actions=game.actions)
        assert [e["type"] for e in again.events(0)] == [seen[i]["type"] for i in sorted(seen)]
        assert any(e["type"] == "DealScored" for e in last["events"])
    finally:
        proxy.stop()
        for proc in shards:
            servers.stop(proc)
