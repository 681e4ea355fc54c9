"""Browser tooling shared by tests/test_browser.py and docs/screenshots.py: Debian's
chromium driven by Playwright (no browser download), the server run on uvicorn in a
thread, and the page played by clicking or tapping as a person would."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

#: upper bound on the decisions of one deal at one seat (25 plays, declarations, burial)
MAX_TURNS = 200
WAIT_MS = 15_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 1000}


def serve(app):
    """Run ``app`` on uvicorn in a thread; yields its base URL."""
    import uvicorn

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


def warm_rules_worker(url: str) -> None:
    """Have the server spawn its rules worker (a new interpreter at nice 10, on the first
    check) now, however long a loaded machine takes, rather than inside a page's 15 s
    wait for the house-rules panel that the check fills."""
    import json
    import urllib.request

    req = urllib.request.Request(url + "/api/rules/check",
                                 json.dumps({"rules": "extends: two-deck-80\n"}).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=300) as r:
        assert r.status == 200


#: pages that a finished test handed back (``done``), by (browser, phone): the next test
#: of this worker takes one instead of a new context. A new page costs Chromium about 2 CPU
#: seconds here (a renderer process, the app's first compile); a reset page's next load,
#: about a third of that.
_IDLE: dict[tuple[int, bool], list] = {}
#: the pool each page of this worker goes back to (by id): (browser, phone), or None for a
#: page no other test may have (``new_page(..., reuse=False)``)
_POOL: dict[int, tuple[int, bool] | None] = {}


def new_page(browser, phone: bool = False, reuse: bool = True):
    """A desktop-sized (or phone-sized: 390×844, touch) page with its own cookies and
    storage: one a finished test gave back (``done``), else a new context's. ``reuse=False``:
    always a new context, closed by ``done`` (for a test that changes the page for good,
    such as an init script)."""
    idle = _IDLE.get((id(browser), phone), [])
    while reuse and idle:
        pg = idle.pop()
        if not pg.is_closed():
            return pg
    if phone:
        ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2, reduced_motion="reduce")
    else:
        ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT_MS)
    _POOL[id(pg)] = (id(browser), phone) if reuse else None
    return pg


def done(pg) -> None:
    """The test is over with ``pg``: reset it for the next test of this worker as a new
    context would be (no stored data of any origin, cookies, routes or other tabs; a blank
    document at its size), or close it when it cannot be."""
    pool = _POOL.get(id(pg))
    if pg.is_closed() or pool is None:
        _POOL.pop(id(pg), None)
        pg.context.close()
        return
    ctx = pg.context
    try:
        pg.evaluate("() => { try { sessionStorage.clear(); } catch (e) {} }")
        for other in ctx.pages:
            if other is not pg:
                other.close()
        pg.goto("about:blank")  # first: the app stores nothing more once it is gone
        # every origin the test stored something for, not only the one it ended on
        cdp = ctx.new_cdp_session(pg)
        for origin in ctx.storage_state()["origins"]:
            cdp.send("Storage.clearDataForOrigin",
                     {"origin": origin["origin"], "storageTypes": "all"})
        cdp.detach()
        pg.unroute_all()
        ctx.clear_cookies()
        pg.set_viewport_size(PHONE if pool[1] else DESKTOP)
        pg.set_default_timeout(WAIT_MS)
    except Exception:  # noqa: BLE001  # a page that cannot be reset is not kept
        _POOL.pop(id(pg), None)
        ctx.close()
        return
    _IDLE.setdefault(pool, []).append(pg)


def shot(page, name: str, **options) -> None:
    """Keep a screenshot of ``page`` as $SHENGJI_ARTIFACTS/``name`` when that folder is asked
    for (a person looking at the pages, CI's artefacts); else take none: nobody would look,
    and each one costs the browser a fraction of a second of CPU to draw and encode."""
    folder = os.environ.get("SHENGJI_ARTIFACTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), **options)


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


def create_room(page, server, variant: str | None = None, seats: int | None = None,
                seed: str | None = None) -> str:
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    if seed is not None:
        page.fill("#seed", seed)
    if variant is not None:
        page.select_option("#variant", variant)
    if seats is not None:
        page.select_option("#seats", str(seats))
    page.click("#create")
    page.wait_for_selector("#waiting:not([hidden])")
    return page.inner_text("#waitcode")


def play(page, *, tap: bool = False, stop=None, on_turn=None, max_turns: int = MAX_TURNS):
    """Make this seat's decisions until the deal's result shows (or ``stop(state)``);
    the first legal card of each list, the last cards of the hand to bury. While the cards
    arrive the page passes on a declaration offer by itself (bidding.js): quickly here."""
    page.evaluate("window.shengji.autoPassMs = 20")
    for _ in range(max_turns):
        wait_js(page, "window.shengji.state && window.shengji.state.legal !== null || "
                      "!document.getElementById('result').hidden")
        if page.locator("#result:not([hidden])").count():
            return "result"
        st = state(page)
        if st["legal"] is None:
            continue  # the page passed by itself meanwhile (a declaration offer, bidding.js)
        if stop is not None and stop(st):
            return "stopped"
        if on_turn is not None:
            on_turn(st)
        decide(page, st, tap=tap)
    pytest.fail(f"no deal result after {max_turns} decisions")


def decide(page, st: dict, tap: bool = False) -> None:
    """One decision of this seat in state ``st``, by clicking (or tapping) as a person would:
    pass on a declaration, the first ``count`` calls listed, the first declaration to
    choose, the last cards of the hand to bury, else the first legal play; then wait for
    the server's answer."""
    legal = st["legal"]
    kind = legal["kind"]
    if kind == "declare" and st["view"]["to_deal"] > 0:
        pass  # the page passes by itself while the cards arrive
    elif kind in ("declare", "takeback"):
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


#: the decisions of ``play``, made inside the page and sent through its own websocket:
#: no click, no round trip to the test per decision. __UNTIL__ is a JS expression over
#: ``st`` (the page's state: ``st.legal``, ``st.view``) that stops the run when true.
_ADVANCE = """async ([maxTurns, waitMs]) => {
  const app = window.shengji;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const over = () => !document.getElementById('result').hidden;
  const stop = (st) => (__UNTIL__);
  const until = async (ready) => {
    for (let waited = 0; !ready(); waited += 10) {
      if (waited > waitMs) throw new Error('timed out waiting for the page');
      await sleep(10);
    }
  };
  app.autoPassMs = 20;
  for (let turn = 0; turn < maxTurns; turn++) {
    await until(() => (app.state && app.state.legal !== null) || over());
    if (over()) return 'result';
    const st = app.state, legal = st.legal, index = st.event_index;
    if (stop(st)) return 'stopped';
    let action;
    if (legal.kind === 'declare' && st.view.to_deal > 0) {
      // the page passes by itself while the cards arrive (bidding.js)
      await until(() => app.state.event_index > index || app.state.legal === null || over());
      continue;
    } else if (legal.kind === 'declare' || legal.kind === 'takeback') {
      action = {type: 'Pass'};
    } else if (legal.kind === 'call') {
      action = {type: 'CallFriends',
                calls: legal.actions.slice(0, legal.count).map((a) => a.calls[0])};
    } else if (legal.kind === 'bury') {
      action = {type: 'Bury', cards: st.view.hand.split(' ').slice(-legal.count).join(' ')};
    } else {
      action = legal.actions[0];
    }
    app.ws.send(JSON.stringify({type: 'action', token: app.token, action}));
    await until(() => app.state.event_index > index || over());
  }
  return 'max_turns';
}"""


def advance(page, until: str = "false", max_turns: int = MAX_TURNS) -> str:
    """The quick way to the position a test is about: this seat's decisions as ``play``
    makes them (the first legal action, the last cards of the hand to bury), but chosen
    inside the page and sent through its websocket, without clicking. ``until`` is a JS
    expression over ``st`` (the page's state) at which to stop before deciding. Returns
    "result" (the deal's result shows) or "stopped". The clicking itself is tested by
    ``play`` in the tests of each flow."""
    got = page.evaluate(_ADVANCE.replace("__UNTIL__", until), [max_turns, WAIT_MS])
    if got == "max_turns":
        pytest.fail(f"no deal result after {max_turns} decisions")
    return got


def step(page) -> str:
    """One decision of this seat as ``advance`` makes it (sent through the page's
    websocket); "max_turns" once it is made, or "result"."""
    return page.evaluate(_ADVANCE.replace("__UNTIL__", "false"), [1, WAIT_MS])
