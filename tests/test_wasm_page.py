"""The rules core in the page (static/rulescore.js over core.wasm), in real Chromium.

While following, a card no legal follow includes is dimmed, the lead's shape is named,
an illegal selection is explained, and pressing Play with it shows the refusal without
sending anything; the hand is in the server's trump order. With WebAssembly switched
off, the page behaves as before: the play is sent and the server's refusal is shown.
"""

from __future__ import annotations

import pytest
import test_browser as tb
from browsertools import (
    advance,
    decide,
    done,
    illegal_single,
    new_page,
    pick_cards,
    state,
    wait_js,
)
from test_browser import ILLEGAL_SINGLE

from shengji.cards import JOKER_NAMES, JOKER_SYMBOLS, SUIT_SYMBOLS, SUITS
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


def glyph(tok: str) -> str:
    """A card as the page writes it in a sentence (static/cards.js glyph)."""
    if tok in JOKER_SYMBOLS:
        return JOKER_SYMBOLS[tok] + JOKER_NAMES[tok]
    return SUIT_SYMBOLS[SUITS.index(tok[0])] + tok[1:]


def test_an_illegal_follow_is_explained_and_not_sent(server, page):
    """Also issue 38: the refusal names the refused selection, not the last play this page
    sent (a play is clicked first, so there is one), in the plain sentence of
    shengji.protocol.refusals (no "S card(s)"), and "why?" is a link to the rule in words;
    at 1280×800, then at 390×844."""
    page.set_viewport_size({"width": 1280, "height": 800})
    _start(page, server)
    wait_js(page, "window.shengji.core === 'wasm'")
    advance(page, until="st.legal.kind === 'lead' || st.legal.kind === 'follow'")
    earlier = state(page)
    decide(page, earlier)  # clicked: the page's last sent action (app.lastSent)
    sent_cards = page.evaluate("window.shengji.lastSent.cards").split()
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
    note = page.inner_text("#selnote")
    # the sentence a refusal says, not the core's ("the hand holds 4 S card(s), so ...")
    assert note.startswith("Not a legal follow: You must follow "), note
    assert "card(s)" not in note and "must follow suit:" not in note
    page.click("#play")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    # the cards refused are the selection, not the play sent before (issue 38, item 1)
    assert text.startswith(f"Not allowed: You tried {glyph(bad)}. You must follow "), text
    if bad not in sent_cards:
        assert not any(f"tried {glyph(c)}" in text for c in sent_cards), (sent_cards, text)
    # plain words; "why?" is a link to the rule in words (issue 21, 38)
    assert text.rstrip().endswith("why?") and "docs/" not in text and "seed" not in text
    why = page.locator("#error a.why")
    assert why.get_attribute("href") == "/static/rules.html#following"
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page.set_viewport_size(size)
        page.locator("#error").scroll_into_view_if_needed()
        assert page.locator("#error").is_visible() and why.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), size
    with page.context.expect_page() as opened:
        why.click()
    rules = opened.value
    rules.wait_for_selector("#following:target")
    said = rules.inner_text("#following")
    assert said.startswith("Following suit and shape") and "Play as many cards" in said
    assert "seed" not in rules.inner_text("body") and "docs/" not in rules.inner_text("body")
    assert rules.evaluate("document.documentElement.scrollWidth <= innerWidth")
    rules.close()
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


@pytest.fixture()
def page_without_webassembly(browser):
    """A page of its own: the init script that removes WebAssembly cannot be taken back."""
    pg = new_page(browser, reuse=False)
    yield pg
    done(pg)


def test_without_webassembly_the_page_works_as_before(server, page_without_webassembly):
    page = page_without_webassembly
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
