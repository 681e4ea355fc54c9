"""The page in a real browser: open it, create and join a room, start (bots take the other
seats) and play a whole deal by clicking cards; "Hint" selects the bot's play and says
why; an illegal play is explained in words and card glyphs; the last trick and the
result stay until "Next deal"; the replay opens. On a phone (390×844) the same by
tapping, with no sideways scrolling and no overlapping cards or labels; tables of 5 to
12 seats drawn around the felt at desktop and phone sizes (6, 10 and 12 by default, the
rest with --long); the finding-friends call phase at 5 and 8 seats; lobby errors; a
hostile player name rendered as text. Screenshots go to
$SHENGJI_ARTIFACTS (default: pytest's tmp dir).

Uses Debian's chromium at /usr/bin/chromium through the playwright package (no browser
download); skipped when either is missing.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
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
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 1000}


def serve(app):
    """Run ``app`` on uvicorn in a thread; yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
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


@pytest.fixture(scope="module")
def server():
    # every test here opens rooms from 127.0.0.1: more than the default 10 per address
    # (that limit is tested in test_server_security.py)
    from shengji.frontends.web.limits import Limits

    yield from serve(create_app(bot_delay=0, limits=Limits(rooms_per_address=100)))


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def new_page(browser, phone: bool = False):
    if phone:
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    else:
        ctx = browser.new_context(viewport=DESKTOP)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT_MS)
    return pg


@pytest.fixture()
def page(browser):
    pg = new_page(browser)
    yield pg
    pg.context.close()


@pytest.fixture()
def phone(browser):
    pg = new_page(browser, phone=True)
    yield pg
    pg.context.close()


def shots_dir(tmp_path) -> Path:
    d = Path(os.environ.get("SHENGJI_ARTIFACTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


def wait_js(page, expression: str, timeout_ms: int = WAIT_MS) -> None:
    """Poll a JS expression until it is truthy. (Playwright's wait_for_function compiles
    its predicate inside the page, which the page's CSP forbids: no unsafe-eval.)"""
    end = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(expression):
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {expression}")
        page.wait_for_timeout(20)


def state(page) -> dict:
    return page.evaluate("() => ({index: window.shengji.state.event_index, "
                         "legal: window.shengji.state.legal, view: window.shengji.state.view})")


def press(page, selector: str, tap: bool) -> None:
    if tap:
        page.tap(selector)
    else:
        page.click(selector)


def pick_cards(page, tokens: list[str], tap: bool = False) -> None:
    press(page, "#actions button:text('Clear')", tap)
    for tok in tokens:
        loc = page.locator(f"#hand .card[data-card='{tok}']:not(.selected)").first
        loc.tap() if tap else loc.click()


def pick_call(page, call: str, tap: bool = False) -> None:
    """The call picker: the card's suit, the card, then which copy ("1 HA": the 1st)."""
    card = call.split()[1]
    group = "J" if card in ("BJ", "LJ") else card[0]
    for sel in (f"#callsuits button[data-suit='{group}']", f"#callcards button[data-card='{card}']",
                f"#callordinals button[data-call='{call}']"):
        press(page, sel, tap)


def illegal_single(st) -> str | None:
    """A card of the hand that is not a legal single follow (a card off the led suit)."""
    legal = st["legal"]
    if legal["kind"] != "follow" or legal["count"] != 1:
        return None
    ok = {a["cards"] for a in legal["actions"]}
    hand = st["view"]["hand"].split()
    return next((c for c in hand if c not in ok), None)


def layout(page) -> dict:
    """Sideways scrolling, and every pair of cards or labels on the table (and of cards in
    the hand) that overlap, also with any one card of the hand raised as selected."""
    return page.evaluate("""() => {
      const boxes = (sel) => [...document.querySelectorAll(sel)]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e, e.getBoundingClientRect()]);
      const clash = (list) => {
        const out = [];
        for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) {
          const [ea, a] = list[i], [eb, b] = list[j];
          if (ea.contains(eb) || eb.contains(ea)) continue;
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
              a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
            out.push([ea.textContent, eb.textContent]);
        }
        return out;
      };
      // each card of the hand raised as if selected (at once, without the animation):
      // it must not cover another card (the rows are further apart than the rise)
      const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
                             a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      const lifted = [];
      const hand = boxes('#hand .card');
      for (const [e] of hand) {
        if (e.classList.contains('selected')) continue;
        const transition = e.style.transition;
        e.style.transition = 'none';
        e.classList.add('selected');
        const r = e.getBoundingClientRect();
        for (const [o, b] of hand)
          if (o !== e && over(r, b)) lifted.push([e.textContent, o.textContent]);
        e.classList.remove('selected');
        e.getBoundingClientRect();  // settle before the animation comes back
        e.style.transition = transition;
      }
      const felt = document.getElementById('felt').getBoundingClientRect();
      const table = boxes('#felt .card, #felt .who');
      return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
              table: clash(table), hand: clash(boxes('#hand .card')), lifted,
              outside: table.filter(([e, r]) => r.left < felt.left - 0.5 ||
                                    r.right > felt.right + 0.5).length,
              played: document.querySelectorAll('#felt .card').length,
              seats: document.querySelectorAll('#felt .spot').length};
    }""")


def check_layout(page, seats: int | None = None, phone: bool = False) -> dict:
    """No sideways scrolling; nothing overlaps on the table; on a phone, every card of
    the hand is a whole tap target (on a desktop the hand is a fan on purpose)."""
    got = layout(page)
    assert got["scroll"] <= got["inner"], f"sideways scrolling: {got}"
    assert not got["table"], f"cards or labels overlap on the table: {got['table'][:3]}"
    if phone:
        assert not got["hand"], f"cards overlap in the hand: {got['hand'][:3]}"
        # a selected card rises: it must stay clear of the row above it
        assert not got["lifted"], f"a raised card covers another: {got['lifted'][:3]}"
    assert got["outside"] == 0
    if seats is not None:
        assert got["seats"] == seats
    return got


def create_room(page, server, variant: str | None = None, seats: int | None = None) -> str:
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    if variant is not None:
        page.select_option("#variant", variant)
    if seats is not None:
        page.select_option("#seats", str(seats))
    page.click("#create")
    page.wait_for_selector("#waiting:not([hidden])")
    return page.inner_text("#waitcode")


def play(page, *, tap: bool = False, stop=None, on_turn=None, max_turns: int = MAX_TURNS):
    """Make this seat's decisions until the deal's result shows (or ``stop(state)``);
    the first legal card of each list, the last cards of the hand to bury."""
    for _ in range(max_turns):
        wait_js(page, "window.shengji.state && window.shengji.state.legal !== null || "
                      "!document.getElementById('result').hidden")
        if page.locator("#result:not([hidden])").count():
            return "result"
        st = state(page)
        if stop is not None and stop(st):
            return "stopped"
        if on_turn is not None:
            on_turn(st)
        legal = st["legal"]
        kind = legal["kind"]
        if kind in ("declare", "takeback"):
            press(page, "#actions button.pass", tap)
        elif kind == "call":  # finding friends: the first `count` calls listed
            for a in legal["actions"][:legal["count"]]:
                pick_call(page, a["calls"][0], tap)
            press(page, "#play", tap)
        elif kind == "choose":
            loc = page.locator("#actions button.declare").first
            loc.tap() if tap else loc.click()
        else:
            if kind == "bury":
                cards = st["view"]["hand"].split()[-legal["count"]:]
            else:
                cards = legal["actions"][0]["cards"].split()
            pick_cards(page, cards, tap)
            press(page, "#play", tap)
        wait_js(page, f"window.shengji.state.event_index > {st['index']} || "
                      "!document.getElementById('result').hidden")
    pytest.fail(f"no deal result after {max_turns} decisions")


# ---------------------------------------------------------------- desktop: a whole deal

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
    refused = []

    def try_illegal(st):
        bad = None if refused else illegal_single(st)
        if bad is None:
            return
        # an illegal follow is refused, explained in words with glyphs, and nothing moves
        pick_cards(page, [bad])
        page.click("#play")
        page.wait_for_selector("#error:not([hidden])")
        text = page.inner_text("#error")
        assert "Rule:" in text and "docs/rules.md §5" in text
        assert "You must follow" in text and "must_follow" not in text
        assert any(s in text for s in "♠♥♣♦"), text
        assert state(page)["index"] == st["index"]
        page.screenshot(path=str(shots / "browser-refused.png"))
        refused.append(text)

    hinted = []

    def ask_hint(st):
        # "Hint" asks the room's bot: its play is selected and its reason shown in words
        if hinted or st["legal"]["kind"] not in ("lead", "follow"):
            return
        page.click("#actions button:text('Hint')")
        page.wait_for_selector("#advice:not([hidden])")
        text = page.inner_text("#advice")
        assert text.startswith("Hint: ") and " — " in text, text
        assert len(text.split(" — ", 1)[1].strip()) > 8, text  # a reason, not a stub
        chosen = page.evaluate("[...document.querySelectorAll('#hand .card.selected')]"
                               ".map((e) => e.dataset.card)")
        assert chosen and not page.locator("#play").is_disabled()
        advised = text[len("Hint: "):].split(" — ", 1)[0].split()
        assert len(advised) == len(chosen), (advised, chosen)
        hinted.append(text)

    def on_turn(st):
        ask_hint(st)
        try_illegal(st)

    assert play(page, on_turn=on_turn) == "result"
    assert refused, "the seeded deal offered no chance to try an illegal follow"
    assert hinted, "no lead or follow to ask a hint for"
    assert "Deal 1 result" in page.inner_text("#result")
    # the last trick stays on the table with the result, until "Next deal"
    held = page.evaluate("window.shengji.hold.trick.plays.length")
    assert held == 4 and layout(page)["played"] >= 4
    assert "your team" in page.inner_text("#result") or "opponents" in page.inner_text("#result")
    assert "team 0" not in page.inner_text("#game") and "team 1" not in page.inner_text("#game")
    page.screenshot(path=str(shots / "browser-deal.png"), full_page=True)

    page.click("#lasttrickbtn")
    assert "Last trick" in page.inner_text("#recall")
    page.click("#recallclose")
    page.click("#replaybtn")
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#rnext")
    assert "Trick 1" in page.inner_text("#replaybody")
    page.screenshot(path=str(shots / "browser-replay.png"))
    page.click("#rclose")
    # the bots waited; "Next deal" lets the next deal go on
    page.click("#nextdeal")
    wait_js(page, "window.shengji.state.view.deal === 1 && "
                  "document.getElementById('result').hidden")
    page.click("#cardsoutbtn")
    assert "cards out" in page.inner_text("#recall")
    # anyone with the code can open the room's public replay from the lobby
    code = page.evaluate("window.shengji.room")
    other = new_page(page.context.browser)
    try:
        other.goto(server)
        other.wait_for_selector("#variant option", state="attached")
        other.fill("#joincode", code)
        other.click("#publicreplay")
        other.wait_for_selector("#replay:not([hidden])")
        assert "Replay of deal 1" in other.inner_text("#replay")
        assert other.locator("#replaybody .card").count() >= 4 * 20
    finally:
        other.context.close()


# ---------------------------------------------------------------- the phone

def test_phone_table_taps_and_fits(server, phone, tmp_path):
    shots = shots_dir(tmp_path)
    phone.goto(server)
    phone.wait_for_selector("#variant option", state="attached")
    # a bad room code is answered where the player looks
    phone.fill("#joincode", "ZZZZ-ZZZZ")
    phone.tap("#join")
    phone.wait_for_selector("#lobbyerror:not([hidden])")
    assert "no room with that code" in phone.inner_text("#lobbyerror")
    phone.screenshot(path=str(shots / "phone-lobby-error.png"))
    check_layout_lobby = phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert check_layout_lobby

    phone.tap("#create")
    phone.wait_for_selector("#waiting:not([hidden])")
    phone.tap("#start")
    phone.wait_for_selector("#game:not([hidden])")
    seen = []

    def look(st):
        if st["view"]["phase"] == "play":
            got = check_layout(phone, seats=4, phone=True)
            if got["played"] >= 3 and not seen:
                phone.screenshot(path=str(shots / "phone-table.png"), full_page=True)
                seen.append(got)

    assert play(phone, tap=True, on_turn=look) == "result"
    assert seen, "no trick with three cards on the table"
    check_layout(phone, seats=4, phone=True)
    phone.screenshot(path=str(shots / "phone-result.png"), full_page=True)


# ---------------------------------------------------------------- big tables

@pytest.mark.parametrize("seats", [6, 10, 12, *(pytest.param(n, marks=pytest.mark.long)
                                                for n in (5, 7, 8, 9, 11))])
def test_big_tables_are_drawn_around_the_felt(server, browser, seats, tmp_path):
    """Issue 11: finding friends at 5 to 12 seats (6, 10 and 12 by default, the other sizes
    with --long), every seat around the felt with a full trick on it, nothing
    overlapping, at desktop and phone sizes."""
    shots = shots_dir(tmp_path)
    for name, phone in (("desktop", False), ("phone", True)):
        pg = new_page(browser, phone=phone)
        try:
            create_room(pg, server, "finding-friends", seats)
            assert pg.locator("#waitseats li").count() == seats
            pg.click("#start")
            pg.wait_for_selector("#game:not([hidden])")
            # play until (nearly) every seat's cards are on the table: our turn to
            # lead (the last trick still shows) or to play last
            def full(st):
                v = st["view"]
                return v["trick_number"] >= 2 and (
                    len(v["trick"]) == seats - 1 or (not v["trick"] and v["tricks"]))

            play(pg, tap=phone, stop=full)
            got = check_layout(pg, seats=seats, phone=phone)
            assert got["played"] >= seats - 1
            pg.screenshot(path=str(shots / f"seats-{seats}-{name}.png"), full_page=True)
        finally:
            pg.context.close()


# ---------------------------------------------------------------- lobby and spectators

def test_a_full_room_offers_to_watch(server, page, tmp_path):
    from websockets.sync.client import connect

    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    code = page.evaluate("""async () => (await (await fetch('/api/rooms', {method: 'POST',
        headers: {'content-type': 'application/json'}, body: '{}'})).json()).room""")
    with connect(server.replace("http://", "ws://") + "/ws") as ws:
        ws.send(json.dumps({"type": "join", "protocol": PROTOCOL_VERSION, "room": code,
                            "name": "host"}))
        token = json.loads(ws.recv())["token"]
        ws.send(json.dumps({"type": "start", "token": token}))
        page.fill("#joincode", code.lower())
        page.click("#join")
        page.wait_for_selector("#lobbyerror:not([hidden])")
        assert "already playing" in page.inner_text("#lobbyerror")
        page.click("#lobbyerror button")
        page.wait_for_selector("#game:not([hidden])")
        assert page.inner_text("#seatname") == "watching"
        assert page.locator("#hand .card").count() == 0
        assert "host" in page.inner_text("#felt")
        page.screenshot(path=str(shots_dir(tmp_path) / "browser-watching.png"))


def test_a_hostile_name_is_shown_as_text_and_runs_nothing(server, page, tmp_path):
    """Issue 13: a player name that is markup reaches the other players as text. The
    page builds every name with text nodes, and the server's Content-Security-Policy
    would refuse an inline handler anyway."""
    from websockets.sync.client import connect

    evil = '<img src=x onerror="window.__xss=1">'
    code = create_room(page, server)
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


@pytest.mark.parametrize("seats, seed", [(5, "1"), (8, "3")])
def test_finding_friends_the_dealer_calls_by_clicking(server, page, tmp_path, seats, seed):
    """Issue 11: at a finding-friends table of 5 (one call) or 8 seats (three calls) the
    page lets its dealer pick the calls ("1 HA" = the first ♥A played; a second copy
    too), sends them, shows them as the deal's calls, and plays the deal to its result."""
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    page.select_option("#variant", "finding-friends")
    page.select_option("#seats", str(seats))
    page.fill("#seed", seed)  # a seed where seat 0, declaring at once, deals
    page.click("#create")
    page.wait_for_selector("#waiting:not([hidden])")
    assert page.locator("#waitseats li").count() == seats
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    called = None
    for _ in range(MAX_TURNS):
        wait_js(page, "window.shengji.state && window.shengji.state.legal !== null || "
                      "!document.getElementById('result').hidden")
        if page.locator("#result:not([hidden])").count():
            break
        st = state(page)
        legal = st["legal"]
        kind = legal["kind"]
        if kind in ("declare", "takeback"):  # declare at once: the first declarer deals
            buttons = page.locator("#actions button.declare")
            (buttons.first if buttons.count() else page.locator("#actions button.pass")).click()
        elif kind == "call":
            offered = [a["calls"][0] for a in legal["actions"]]
            assert not legal["truncated"] and len(offered) == legal["total"]
            # compact: suits, the cards of one suit, the copies of one card — not a
            # button for every call offered
            assert page.locator("#callpicker button").count() < 4 + 13 + 4
            assert len(offered) > 30
            assert page.locator("#hand .card.selected").count() == 0  # the burial's are gone
            # a first copy, then second copies (an ordinal beyond the first)
            picks = [offered[0]] + [c for c in offered if c.startswith("2 ")][:legal["count"] - 1]
            assert len(picks) == legal["count"] == seats // 2 - 1
            for i, c in enumerate(picks):
                assert page.locator("#play").is_disabled()  # until every call is picked
                pick_call(page, c)
                assert page.inner_text("#play") == f"Call {i + 1}/{legal['count']}"
                # the picked calls show as chips, in words ("2nd ♠A")
                assert page.locator("#callpicked .chip").count() == i + 1
                assert page.locator(f"#callpicked .chip[data-call='{c}']").count() == 1
            page.screenshot(path=str(shots_dir(tmp_path) / f"browser-call-{seats}.png"))
            page.click("#play")
            called = picks
            wait_js(page, "window.shengji.state.view.calls.length > 0")
            assert sorted(state(page)["view"]["calls"]) == sorted(called)
            # the calls stay on screen above the table, in words
            assert page.locator("#calls .call").count() == len(called)
            assert "1st" in page.inner_text("#calls") or "2nd" in page.inner_text("#calls")
        elif kind == "choose":
            page.locator("#actions button.declare").first.click()
        else:
            cards = (st["view"]["hand"].split()[-legal["count"]:] if kind == "bury"
                     else legal["actions"][0]["cards"].split())
            pick_cards(page, cards)
            page.click("#play")
        wait_js(page, f"window.shengji.state.event_index > {st['index']} || "
                      "!document.getElementById('result').hidden")
    else:
        pytest.fail(f"no deal result after {MAX_TURNS} decisions")
    assert called, "seat 0 did not deal: pick another seed"
    assert "Deal 1 result" in page.inner_text("#result")
    joined = page.evaluate("window.shengji.prevView ? window.shengji.prevView.joined.length : 0")
    assert page.locator("#felt .badge.side").count() > 0 or joined == 0


def test_a_full_server_is_explained(page):
    from shengji.frontends.web.limits import Limits

    for base in serve(create_app(bot_delay=0, limits=Limits(max_rooms=0))):
        page.goto(base)
        page.wait_for_selector("#variant option", state="attached")
        page.click("#create")
        page.wait_for_selector("#lobbyerror:not([hidden])")
        assert "server is full" in page.inner_text("#lobbyerror")
