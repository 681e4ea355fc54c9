"""The page's take-back of a play (table.play_takeback; shengji.io PlayTakebackPolicy):
two people at seats 0 and 1 of a room with that house rule, bots at the others. When
seat 0 has played and seat 1 (a person) is to act, seat 0's page shows the
``#takeback-play`` button (``data-action="takeback-play"``); clicking it puts the cards
back in the hand and seat 0 plays again; seat 1's page has no such button."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from browsertools import (
    done,
    new_page,
    pick_cards,
    press,
    serve,
    shot,
    state,
    step,
    wait_js,
)

pytest.importorskip("test_browser")  # skips with it when chromium/playwright are missing
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is missing")

from shengji.frontends.web.app import create_app  # noqa: E402

HOUSE = "extends: two-deck-80\ntable:\n  play_takeback: true\n"


def _room(server: str) -> str:
    req = urllib.request.Request(f"{server}/api/rooms", method="POST",
                                 data=json.dumps({"rules": HOUSE, "seed": 5,
                                                  "max_deals": 1}).encode(),
                                 headers={"content-type": "application/json",
                                          "origin": server})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())["room"]


@pytest.fixture(scope="module")
def server():
    yield from serve(create_app(bot_delay=0))


def test_the_take_back_button(server, browser):
    code = _room(server)
    a, b = new_page(browser), new_page(browser)
    try:
        _take_back(server, code, a, b)
    finally:
        done(a)
        done(b)


def _take_back(server, code, a, b):
    for pg in (a, b):
        pg.goto(server)
        pg.wait_for_selector("#variant option", state="attached")
        pg.fill("#joincode", code)
        pg.click("#join")
        pg.wait_for_selector("#waiting:not([hidden])")
        pg.evaluate("window.shengji.autoPassMs = 20")
    a.click("#start")
    pages = {}
    for pg in (a, b):
        pg.wait_for_selector("#game:not([hidden])")
        pages[pg.evaluate("window.shengji.seat")] = pg
    assert set(pages) == {0, 1}
    a, b = pages[0], pages[1]
    end = time.monotonic() + 120  # a bound on a hung page, not a timing rule
    found = False
    while not found:
        assert time.monotonic() < end, "seat 0 never played before seat 1"
        acted = False
        for seat, pg in pages.items():
            st = state(pg)
            legal = st["legal"]
            if legal is None or (legal["kind"] == "declare"
                                 and st["view"]["to_deal"] > 0):
                continue  # not this seat's turn, or the page passes by itself
            if (seat == 0 and st["view"]["phase"] == "play"
                    and len(st["view"]["trick"]) < 3):
                found = True
                break
            step(pg)  # one decision as browsertools.advance makes it, no clicks
            acted = True
        if not acted and not found:
            a.wait_for_timeout(20)
    hand = st["view"]["hand"]
    cards = st["legal"]["actions"][0]["cards"].split()
    pick_cards(a, cards)
    press(a, "#play", False)
    a.wait_for_selector("#takeback-play[data-action='takeback-play']")
    shot(a, "takeback-play.png")
    assert b.locator("#takeback-play").count() == 0  # only the seat that played
    a.click("#takeback-play")
    wait_js(a, "window.shengji.state.legal !== null && "
               "!document.getElementById('takeback-play')")
    st2 = state(a)
    assert st2["view"]["hand"] == hand and st2["view"]["to_act"] == 0
    assert "take back" in a.inner_text("#loglist").lower()
