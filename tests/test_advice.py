"""Hints as advice: a bot's action and reason for the seat to act, computed from that
seat's own state message only — through the protocol table, the terminal and the web
server's ``hint`` message."""

from __future__ import annotations

import io
import warnings

import pytest

from shengji.bots import make_bot
from shengji.engine import Game
from shengji.errors import ShengjiError
from shengji.frontends.terminal import Terminal
from shengji.protocol import ProtocolError, Table, decode_action


def test_bots_advise_the_action_they_would_take():
    g = Game("two-deck-80", "advice", max_deals=1)
    bots = {name: make_bot(name, g.variant, 2) for name in ("heuristic", "mc:budget=80",
                                                            "random")}
    advised = 0
    while not g.over:
        s = g.to_act
        legal = g.legal_actions(s)
        view = g.view(s)
        for name in ("heuristic", "mc:budget=80"):
            if legal.kind in ("lead", "follow") and g.trick_number % 4 == 0:
                action, reason = bots[name].advise(view, legal)
                assert g.can(action) and isinstance(reason, str) and reason
                advised += 1
        g.apply(bots["heuristic"].act(view, legal))
    assert advised > 10


def test_advice_does_not_change_the_bots_memory():
    """The heuristic remembers its own burial; advising a burial must not."""
    g = Game("two-deck-80", "memory", max_deals=1)
    bot = make_bot("heuristic", g.variant, 1)
    others = [make_bot("random", g.variant, s) for s in range(4)]
    while g.phase != "bury":
        s = g.to_act
        g.apply(others[s].act(g.view(s), g.legal_actions(s)))
    before = bot._buried
    bot.advise(g.view(g.to_act), g.legal_actions())
    assert bot._buried == before


def test_table_advice_message():
    t = Table("two-deck-80", 4, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"},
              max_deals=1)
    t.run_bots()
    seat = t.game.to_act
    assert seat == 0
    msg = t.advice(0)
    assert msg["type"] == "advice" and msg["seat"] == 0 and msg["reason"]
    t.act(0, msg["action"])  # the advice is an action the seat may take
    other = (t.game.to_act + 1) % 4 if t.game.to_act is not None else 1
    with pytest.raises(ProtocolError) as e:
        t.advice(other)
    assert e.value.code == "not_your_turn"
    t.run_bots()
    with pytest.raises(ShengjiError, match="unknown bot 'wizard'"):
        t.advice(t.game.to_act, "wizard")


def test_advice_sees_only_the_seats_state(monkeypatch):
    """The advisor is handed the seat's state message and nothing else."""
    t = Table("two-deck-80", 6, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"},
              max_deals=1)
    t.run_bots()
    seen = []
    from shengji.protocol import client

    real = client.ProtocolBot.advise

    def spy(self, state):
        seen.append(state)
        return real(self, state)

    monkeypatch.setattr(client.ProtocolBot, "advise", spy)
    t.advice(0, "mc:budget=60")
    assert seen == [t.state(0)]


class Advised:
    """Types hint #0 (the advice) at every prompt."""

    def __init__(self, out):
        self.out = out

    def readline(self):
        return "#0\n"


def test_terminal_leads_the_hints_with_the_advice():
    table = Table("two-deck-80", 3, bots={1: "heuristic", 2: "heuristic", 3: "heuristic"},
                  max_deals=1)
    out = io.StringIO()
    Terminal(table, 0, Advised(out), out, advisor="heuristic").run()
    text = out.getvalue()
    assert "--- Deal 1 result ---" in text and "refused" not in text
    lines = text.splitlines()
    advice = [i for i, ln in enumerate(lines) if ln.startswith("advice: ")]
    assert len(advice) >= 10
    for i in advice:
        first = lines[i + 1].split("hints: ", 1)[1].split(" | ")[0].split(" ", 1)[1]  # "#0 …"
        assert lines[i][len("advice: "):].startswith(first)
    assert "partner" in text or "cannot win it" in text or "win the trick" in text


def test_play_command_hints_with_the_search_bots_advice(monkeypatch, capsys):
    """`shengji play --advisor mc:...`: every prompt leads with mc's play and its reason;
    typing that advice (#0) at every prompt plays a whole deal with nothing refused."""
    from shengji.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("#0\n" * 400))
    code = main(["play", "--variant", "one-deck-40", "--seed", "4", "--deals", "1",
                 "--advisor", "mc:budget=40", "--no-color"])
    out = capsys.readouterr().out
    assert code == 0 and "--- Deal 1 result ---" in out and "refused" not in out
    advice = [ln for ln in out.splitlines() if ln.startswith("advice: ")]
    assert len(advice) >= 8
    # the search's own reason (plays judged over sampled deals), not the heuristic's
    assert any("sampled deals" in ln for ln in advice)
    assert all(" — " in ln for ln in advice)


def test_web_hint_message_answers_with_advice():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient
    from webtools import BASE, WS, join, new_room, send, until

    from shengji.frontends.web.app import create_app

    with TestClient(create_app(bot_delay=0), base_url=BASE) as c:
        code = new_room(c)
        with c.websocket_connect(WS) as ws:
            me = join(ws, code, seat=0)
            send(ws, type="hint", token=me["token"])
            assert until(ws, "error")["code"] == "not_started"
            send(ws, type="start", token=me["token"])
            while True:
                state = until(ws, "state")
                if state["legal"] is not None:
                    break
            send(ws, type="hint", token=me["token"])
            advice = until(ws, "advice")
            assert advice["seat"] == 0 and advice["reason"]
            decode_action(advice["action"], 0)
            send(ws, type="hint", token="not-mine")
            assert until(ws, "error")["code"] == "bad_token"
