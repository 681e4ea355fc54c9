"""The page in a real browser: open it, create and join a room, start (bots take the other
seats) and play a whole deal by clicking cards (each lead and follow from the Hint
button's advice); an illegal play is explained; the replay of the finished deal opens.
Screenshots go to $SHENGJI_ARTIFACTS (default: pytest's tmp dir).

Uses Debian's chromium at /usr/bin/chromium through the playwright package (no browser
download); skipped when either is missing.
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

if not os.path.exists(CHROMIUM):
    pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium package)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is missing")

from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.protocol import PROTOCOL_VERSION  # noqa: E402

#: upper bound on the decisions of one deal at one seat (25 plays, declarations, burial)
MAX_TURNS = 200
WAIT_MS = 15_000


@pytest.fixture(scope="module")
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(bot_delay=0)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(500):
        if srv.started:
            break
        threading.Event().wait(0.01)
    assert srv.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture()
def page():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page(viewport={"width": 1100, "height": 1000})
        pg.set_default_timeout(WAIT_MS)
        yield pg
        browser.close()


def shots_dir(tmp_path) -> Path:
    d = Path(os.environ.get("SHENGJI_ARTIFACTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


def wait_js(page, expression: str, timeout_ms: int = WAIT_MS) -> None:
    """Poll a JS expression until it is truthy. (Playwright's wait_for_function compiles
    its predicate inside the page, which the page's CSP forbids: no unsafe-eval.)"""
    import time

    end = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(expression):
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {expression}")
        page.wait_for_timeout(20)


def state(page) -> dict:
    return page.evaluate("() => ({index: window.shengji.state.event_index, "
                         "legal: window.shengji.state.legal, view: window.shengji.state.view})")


def click_cards(page, tokens: list[str]) -> None:
    page.click("#actions button:text('Clear')")
    for tok in tokens:
        page.locator(f"#hand .card[data-card='{tok}']:not(.selected)").first.click()


def illegal_single(st) -> str | None:
    """A card of the hand that is not a legal single follow (a card off the led suit)."""
    legal = st["legal"]
    if legal["kind"] != "follow" or legal["count"] != 1:
        return None
    ok = {a["cards"] for a in legal["actions"]}
    hand = st["view"]["hand"].split()
    return next((c for c in hand if c not in ok), None)


def test_play_a_whole_deal_by_clicking(server, page, tmp_path):
    shots = shots_dir(tmp_path)
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    page.fill("#seed", "7")
    page.click("#create")
    page.wait_for_selector("#waiting:not([hidden])")
    assert page.locator("#waitseats li").count() == 4
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")

    refused = False
    hinted = 0
    for _ in range(MAX_TURNS):
        wait_js(page, "window.shengji.state.legal !== null || "
                      "!document.getElementById('result').hidden")
        if page.locator("#result:not([hidden])").count():
            break
        st = state(page)
        legal = st["legal"]
        kind = legal["kind"]
        if kind == "declare":
            page.click("#actions button.pass")
        elif kind == "choose":
            page.locator("#actions button.declare").first.click()
        else:
            bad = None if refused else illegal_single(st)
            if bad is not None:
                # an illegal follow is refused, explained with its rule, and nothing moves
                click_cards(page, [bad])
                page.click("#play")
                page.wait_for_selector("#error:not([hidden])")
                assert "Rule:" in page.inner_text("#error")
                assert "docs/rules.md §5" in page.inner_text("#error")
                assert state(page)["index"] == st["index"]
                page.screenshot(path=str(shots / "browser-refused.png"))
                refused = True
            if kind == "bury":
                click_cards(page, st["view"]["hand"].split()[-legal["count"]:])
            else:
                # the Hint button asks the server's bot: its cards get selected, its
                # reason shown
                page.click("#actions button:text('Clear')")
                page.click("#actions button:text('Hint')")
                page.wait_for_selector("#advice:not([hidden])")
                assert page.inner_text("#advice").startswith("Hint: ")
                hinted += 1
            page.click("#play")
        wait_js(page, f"window.shengji.state.event_index > {st['index']}")
    else:
        pytest.fail(f"no deal result after {MAX_TURNS} decisions")

    assert refused, "the seeded deal offered no chance to try an illegal follow"
    assert hinted >= 10, "every lead and follow was played from the server's hint"
    assert "Deal 1 result" in page.inner_text("#result")
    page.screenshot(path=str(shots / "browser-deal.png"), full_page=True)

    page.click("#replaybtn")
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#rnext")
    assert "Trick 1" in page.inner_text("#replaybody")
    page.screenshot(path=str(shots / "browser-replay.png"))


def test_a_hostile_name_is_shown_as_text_and_runs_nothing(server, page, tmp_path):
    """Issue 13: a player name that is markup reaches the other players as text. The
    page builds every name with text nodes, and the server's Content-Security-Policy
    would refuse an inline handler anyway."""
    import json

    from websockets.sync.client import connect

    evil = '<img src=x onerror="window.__xss=1">'
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    page.click("#create")
    page.wait_for_selector("#waiting:not([hidden])")
    code = page.inner_text("#waitcode")
    with connect(server.replace("http://", "ws://") + "/ws") as ws:
        ws.send(json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "room": code,
                            "name": evil}))
        assert json.loads(ws.recv())["type"] == "welcome"
        wait_js(page, "document.getElementById('waitseats').textContent.includes('<img src=x')")
        page.click("#start")
        page.wait_for_selector("#game:not([hidden])")
        wait_js(page, "document.getElementById('felt').textContent.includes('onerror=')")
        page.screenshot(path=str(shots_dir(tmp_path) / "browser-hostile-name.png"))
        assert page.evaluate("window.__xss") is None
        assert page.locator("img").count() == 0
    headers = page.request.get(server + "/").headers
    assert "script-src 'self'" in headers["content-security-policy"]


def test_finding_friends_the_dealer_calls_by_clicking(server, page, tmp_path):
    """Issue 11: at a five-seat finding-friends table the page lets its dealer pick the
    calls ("1 HA" = the first ♥A played) and plays the deal to its result."""
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    page.select_option("#variant", "finding-friends")
    page.fill("#seed", "1")  # a seed where seat 0, declaring at once, deals
    page.click("#create")
    page.wait_for_selector("#waiting:not([hidden])")
    assert page.locator("#waitseats li").count() == 5
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    called = False
    for _ in range(MAX_TURNS):
        wait_js(page, "window.shengji.state.legal !== null || "
                      "!document.getElementById('result').hidden")
        if page.locator("#result:not([hidden])").count():
            break
        st = state(page)
        legal = st["legal"]
        kind = legal["kind"]
        if kind == "declare":  # declare at once: the first declarer deals the first deal
            buttons = page.locator("#actions button.declare")
            (buttons.first if buttons.count() else page.locator("#actions button.pass")).click()
        elif kind == "call":
            assert page.locator("#play").is_disabled()
            for i in range(legal["count"]):
                page.locator("#actions button.declare").nth(i).click()
            page.screenshot(path=str(shots_dir(tmp_path) / "browser-call.png"))
            page.click("#play")
            called = True
        elif kind == "choose":
            page.locator("#actions button.declare").first.click()
        else:
            if kind == "bury":
                tokens = st["view"]["hand"].split()[-legal["count"]:]
            else:
                tokens = legal["actions"][0]["cards"].split()
            click_cards(page, tokens)
            page.click("#play")
        wait_js(page, f"window.shengji.state.event_index > {st['index']}")
    else:
        pytest.fail(f"no deal result after {MAX_TURNS} decisions")
    assert called, "seat 0 did not deal: pick another seed"
    assert "Deal 1 result" in page.inner_text("#result")
