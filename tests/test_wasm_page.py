"""The rules core in the page (static/rulescore.js over core.wasm), in real Chromium.

While following, a card no legal follow includes is dimmed, the lead's shape is named,
an illegal selection is explained, and pressing Play with it shows the refusal without
sending anything; the hand is in the server's trump order. With WebAssembly switched
off, the page behaves as before: the play is sent and the server's refusal is shown.
"""

from __future__ import annotations

import pytest
import test_browser as tb
from browsertools import advance, illegal_single, pick_cards, state, wait_js
from test_browser import ILLEGAL_SINGLE

from shengji.engine.phase import RULE_FOLLOW

# the browser tests' server for this module too (`page`: tests/conftest.py)
server = tb.server


def test_the_page_cites_the_engines_rule():
    from shengji.frontends.web.app import STATIC

    assert f'RULE_FOLLOW = "{RULE_FOLLOW}"' in (STATIC / "rulescore.js").read_text()


def _start(page, server, seed: str = "7") -> None:
    page.goto(server)
    page.wait_for_selector("#variant option", state="attached")
    page.fill("#seed", seed)
    page.click("#create")
    page.wait_for_selector("#waiting:not([hidden])")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    # every message the page sends, kept for the test
    page.evaluate("""() => {
      window.__sent = [];
      const ws = window.shengji.ws, send = ws.send.bind(ws);
      ws.send = (m) => { window.__sent.push(JSON.parse(m)); send(m); };
    }""")


def _until_illegal_follow(page):
    """On (through the page's websocket, browsertools.advance) until this seat follows a
    single with a card that is not a legal follow; that state and the card."""
    if advance(page, until=ILLEGAL_SINGLE) != "stopped":
        pytest.fail("no illegal single follow came up")
    st = state(page)
    return st, illegal_single(st)


def _actions_sent(page) -> list:
    return page.evaluate("window.__sent.filter((m) => m.type === 'action')")


def test_an_illegal_follow_is_explained_and_not_sent(server, page):
    _start(page, server)
    wait_js(page, "window.shengji.core === 'wasm'")
    st, bad = _until_illegal_follow(page)
    ok = {a["cards"] for a in st["legal"]["actions"]}
    # the hand in the server's trump order
    shown = page.evaluate("[...document.querySelectorAll('#hand .card')].map(e => e.dataset.card)")
    assert shown == [t for g in st["view"]["hand_groups"] for t in g["cards"].split()]
    # dimmed: exactly the cards no legal follow includes
    dim = set(page.evaluate(
        "[...document.querySelectorAll('#hand .card.unplayable')].map(e => e.dataset.card)"))
    assert bad in dim and not dim & ok
    assert dim == {c for c in shown if c not in ok}
    assert page.inner_text("#leadshape").startswith("Lead:") and "(single)" in page.inner_text(
        "#leadshape")
    # selected: explained at once; pressed: refused here, nothing sent
    sent_before = len(_actions_sent(page))
    pick_cards(page, [bad])
    page.wait_for_selector("#selnote")
    assert "Not a legal follow: must follow suit" in page.inner_text("#selnote")
    page.click("#play")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    # plain words first; the rule and its source behind "why?" (issue 21)
    assert "You must follow" in text and "why?" in text
    page.click("#error .why summary")
    assert "docs/rules.md §5" in page.inner_text("#error .why .rule")
    page.wait_for_timeout(300)
    assert len(_actions_sent(page)) == sent_before
    assert state(page)["index"] == st["index"]
    # a legal follow goes to the server as before
    pick_cards(page, sorted(ok)[0].split())
    assert not page.locator("#selnote").count()
    page.click("#play")
    wait_js(page, f"window.shengji.state.event_index > {st['index']}")
    assert len(_actions_sent(page)) == sent_before + 1
    took = sorted(page.evaluate("window.shengji.coreMs"))
    print(f"in-page feedback: median {took[len(took) // 2]:.2f} ms, slowest {took[-1]:.2f} ms "
          f"of {len(took)} renders")


def test_without_webassembly_the_page_works_as_before(server, page):
    page.add_init_script("delete globalThis.WebAssembly;")
    _start(page, server)
    assert page.evaluate("typeof WebAssembly") == "undefined"
    assert page.evaluate("window.shengji.core") == "no WebAssembly"
    st, bad = _until_illegal_follow(page)
    assert not page.locator("#hand .card.unplayable").count()
    assert not page.locator("#leadshape").count()
    sent_before = len(_actions_sent(page))
    pick_cards(page, [bad])
    page.click("#play")
    page.wait_for_selector("#error:not([hidden])")
    assert "You must follow" in page.inner_text("#error")
    sent = _actions_sent(page)
    assert len(sent) == sent_before + 1 and sent[-1]["action"]["cards"] == bad
    assert state(page)["index"] == st["index"]
