"""Screenshots of the page for the README: at a desktop (1280×800) and a phone (390×844),
at the start of a deal, in the middle of a trick (a follow to choose) and at the deal's
end, at a six-seat finding-friends table (calls and sides on screen) played by clicking as
the browser tests do (tests/browsertools.py: Debian's chromium through Playwright).

    python docs/screenshots.py [OUT_DIR]      # default: docs/screenshots/

The server runs in this process with bots that answer at once; a fixed seed makes the
same pictures each time.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browsertools import ARGS, CHROMIUM, create_room, new_page, play, wait_js  # noqa: E402

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
VARIANT, SEATS, SEED = "finding-friends", 6, "11"


def shoot(browser, base: str, size: str, out: Path) -> list[Path]:
    page = new_page(browser, phone=size == "phone")
    page.set_viewport_size(SIZES[size])
    shots = []

    def snap(moment: str) -> None:
        path = out / f"{size}-{moment}.png"
        page.screenshot(path=str(path))
        shots.append(path)

    try:
        create_room(page, base, VARIANT, SEATS, seed=SEED)
        page.click("#start")
        page.wait_for_selector("#game:not([hidden])")
        wait_js(page, "window.shengji.state && window.shengji.state.legal !== null")
        snap("start")

        # the middle of a trick: our turn to follow, with cards already played to it
        def mid_trick(st):
            v = st["view"]
            return (st["legal"]["kind"] == "follow" and len(v["trick"]) >= 2
                    and v["trick_number"] >= 2)

        play(page, tap=size == "phone", stop=mid_trick)
        page.evaluate("window.scrollTo(0, 0)")
        snap("mid-trick")
        assert play(page, tap=size == "phone") == "result"
        # a desktop shows it all from the top; a phone scrolls to the result
        page.evaluate("window.scrollTo(0, 0)" if size == "desktop" else
                      "document.getElementById('result').scrollIntoView({block: 'center'})")
        snap("deal-end")
    finally:
        page.context.close()
    return shots


def main(argv: list[str]) -> int:
    from browsertools import serve
    from playwright.sync_api import sync_playwright

    from shengji.frontends.web.app import create_app
    from shengji.frontends.web.limits import Limits

    out = Path(argv[0]) if argv else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    server = serve(create_app(bot_delay=0, limits=Limits(rooms_per_address=100)))
    base = next(server)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                for size in SIZES:
                    for path in shoot(browser, base, size, out):
                        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
            finally:
                browser.close()
    finally:
        next(server, None)  # stops uvicorn
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
