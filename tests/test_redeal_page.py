"""The page's weak-hand redeal (declare.weak_hand_redeal, issue 35; ChannonTian/80fen
docs/RULES.md §F 完全造反): one person at seat 0 of a room with that house rule, bots at
the others. Once the trump is known the page shows ``#request-redeal``
(``data-action="request-redeal"``) beside "Keep the deal"; clicking it deals again, and
the log says who asked."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from browsertools import done, new_page, press, serve, shot, state

pytest.importorskip("test_browser")  # skips with it when chromium/playwright are missing
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is missing")

from shengji.builtin_rules import drawn_seat  # noqa: E402
from shengji.frontends.web.app import create_app  # noqa: E402

#: every hand counts as weak; the first dealer drawn, so that seat 0 may attack
HOUSE = ("extends: two-deck-80\ndeclare:\n  first_dealer: random\n  weak_hand_redeal: "
         "{points: 200, trumps: null, limit: 1, dealer: kept}\n")
SEED = next(s for s in range(20) if drawn_seat(f"{s}:0:0", 4) % 2)  # seat 0 attacks


def _room(server: str) -> str:
    req = urllib.request.Request(f"{server}/api/rooms", method="POST",
                                 data=json.dumps({"rules": HOUSE, "seed": SEED,
                                                  "max_deals": 1}).encode(),
                                 headers={"content-type": "application/json",
                                          "origin": server})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())["room"]


@pytest.fixture(scope="module")
def server():
    yield from serve(create_app(bot_delay=0))


@pytest.mark.long
def test_the_redeal_button(server, browser):
    page = new_page(browser)
    try:
        _ask_for_a_redeal(server, page)
    finally:
        done(page)


def _ask_for_a_redeal(server, page):
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    page.fill("#joincode", _room(server))
    page.click("#join")
    page.wait_for_selector("#waiting:not([hidden])")
    page.evaluate("window.shengji.autoPassMs = 20")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    end = time.monotonic() + 120  # a bound on a hung page, not a timing rule
    while True:
        assert time.monotonic() < end, "never asked about a redeal"
        st = state(page)
        legal = st["legal"]
        if legal is not None and legal["kind"] == "redeal":
            break
        if legal is not None and legal["kind"] == "declare" \
                and st["view"]["to_deal"] == 0:
            press(page, "#actions button.pass", False)
        page.wait_for_timeout(20)
    button = page.locator("#request-redeal[data-action='request-redeal']")
    assert button.count() == 1 and "Keep the deal" in page.inner_text("#actions")
    shot(page, "request-redeal.png")
    button.click()
    end = time.monotonic() + 60
    while "ask for a redeal" not in page.inner_text("#loglist"):
        assert time.monotonic() < end, "the redeal is not in the log"
        page.wait_for_timeout(20)
    assert state(page)["view"]["phase"] in ("deal", "redeal", "bury", "play")
