"""The table's header and information bar in a real browser (issue 38), at 1280×800 and
390×844: the lobby does not say "offline" before there is anything to be connected to;
once the cards are all dealt the trump shows the declaration standing, not "dealing…"
(nor "Dealing — 0 cards to go" on the felt);
the attackers' points count a failed throw's penalty as it happens (as the engine does),
not only in the deal's result; on a phone every box of the bar is on screen, with no
sideways scrolling. Seeded rooms; the decisions go through the page's websocket
(browsertools.advance)."""

from __future__ import annotations

import pytest

tb = pytest.importorskip("test_browser")  # skips with it when chromium/playwright are missing
from browsertools import advance, serve, wait_js, warm_rules_worker  # noqa: E402

from shengji.frontends.web.app import create_app  # noqa: E402
from shengji.frontends.web.limits import Limits  # noqa: E402

SIZES = ({"width": 1280, "height": 800}, {"width": 390, "height": 844})
PENALTY = "extends: two-deck-80\npenalties:\n  failed_throw: 10\n"


@pytest.fixture(scope="module")
def site():
    app = create_app(bot_delay=0, limits=Limits(rooms_per_address=100))
    for url in serve(app):
        warm_rules_worker(url)
        yield url, app


def start(pg, url, seed: str, rules: str | None = None) -> str:
    pg.goto(url)
    pg.wait_for_selector("#variant option", state="attached")
    if rules:
        pg.wait_for_selector("#rules-yaml", state="attached")
        wait_js(pg, "document.getElementById('rules-yaml').value.startsWith('extends:')")
        pg.evaluate("document.querySelector('#houserules details.hr-panel').open = true")
        pg.fill("#rules-yaml", rules)
        wait_js(pg, "document.getElementById('rules-status').textContent.includes('differs')")
    pg.fill("#seed", seed)
    pg.click("#create")
    pg.wait_for_selector("#waiting:not([hidden])")
    code = pg.inner_text("#waitcode")
    pg.click("#start")
    pg.wait_for_selector("#game:not([hidden])")
    return code


def bar_fits(pg) -> None:
    """No sideways scrolling, in the page or in the bar; every box whole on screen."""
    got = pg.evaluate("""() => {
      const bar = document.getElementById('infobar');
      return {page: document.documentElement.scrollWidth <= innerWidth,
              bar: bar.scrollWidth <= bar.clientWidth,
              out: [...bar.querySelectorAll('.info')].filter((e) => {
                const r = e.getBoundingClientRect();
                return r.left < -0.5 || r.right > innerWidth + 0.5; })
                .map((e) => e.firstElementChild.textContent)};
    }""")
    assert got == {"page": True, "bar": True, "out": []}, got


def test_the_lobby_is_not_offline_and_the_trump_shows_the_declaration_standing(site, page):
    """Seed 4: bot 1 declared ♣2 while dealing; after the last card this seat may still
    declare, and the bar said "dealing…"."""
    url, _ = site
    page.set_viewport_size(SIZES[0])
    page.goto(url)
    page.wait_for_selector("#variant option", state="attached")
    for size in SIZES:
        page.set_viewport_size(size)
        assert "offline" not in page.inner_text("header")
    # a player at the table is waited for: the lobby's timer setting says so (item 7)
    assert "always waited for" in page.inner_text("#timerdesc")
    page.set_viewport_size(SIZES[0])
    start(page, url, "4")
    assert page.inner_text("#conn") == "connected"
    assert advance(page, until="st.view.phase === 'deal' && st.view.to_deal === 0") == "stopped"
    for size in SIZES:
        page.set_viewport_size(size)
        trump = page.inner_text("#trump")
        assert "dealing" not in trump and "♣ clubs" in trump and "so far" in trump, trump
        assert page.inner_text("#center").startswith("All dealt — the last declarations")
        bar_fits(page)


def test_the_attackers_points_count_a_failed_throw_at_once_and_the_bar_fits(site, page):
    """Seed 2, a 10-point failed-throw penalty: at this seat's first lead it throws all
    its clubs, and the throw fails. Before, the bar left the penalty out until the
    deal's result."""
    url, app = site
    page.set_viewport_size(SIZES[1])
    code = start(page, url, "2", PENALTY)
    game = app.state.lobby.rooms[code].table.game
    assert advance(page, until="st.legal.kind === 'lead'") == "stopped"
    index = page.evaluate("window.shengji.state.event_index")
    clubs = page.evaluate("window.shengji.state.view.hand_groups.find((g) => g.suit === 'C')"
                          ".cards")
    page.evaluate("(c) => window.shengji.ws.send(JSON.stringify({type: 'action', token: "
                  "window.shengji.token, action: {type: 'Play', cards: c}}))", clubs)
    # this seat's turn again (the trick is over by then: its note with it)
    wait_js(page, f"window.shengji.state.legal !== null && window.shengji.state.event_index"
                  f" > {index}")
    assert game.penalty == -10  # this seat attacks: its failed throw costs the attackers
    want = game.trick_points + game.penalty
    for size in SIZES:
        page.set_viewport_size(size)
        points = page.inner_text("#points")
        assert points == f"{want} incl. penalty −10", points
        assert "penalty 10" in page.inner_text("#loglist")  # "What happened"
        bar_fits(page)
