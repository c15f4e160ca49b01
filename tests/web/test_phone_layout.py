"""The table on a phone (375 px wide, Playwright, Debian's Chromium): while a move waits for
Confirm, the player's own board, its floor and the confirm bar are all on the screen at once;
the last round's summary is one button away from the top of the page; long names wrap and
nothing is wider than the screen. Checked with the elements' boxes, not with pixels.

``AZUL_README_SCREENSHOT=1`` also refreshes ``docs/images/keys-phone-*.png`` (docs/serve.md).
"""

from __future__ import annotations

import os
import shutil

import pytest
from test_browser import ROOT, Person, browser, errors, play, server, shots

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server, shots)

LONG_NAME = "Bartholomew_Featherstonehaughs_X"  # 32 characters and no space to break at
SPACED_NAME = "Anna Maria Magdalena von Wolkens"

BOX = "s => { const r = document.querySelector(s).getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"


def box(page, selector: str) -> dict:
    return page.evaluate(BOX, selector)


def on_screen(page, selector: str, above: float | None = None) -> None:
    """The element's box lies within the viewport (and above ``above``, the confirm bar's top)."""
    found = box(page, selector)
    height = page.evaluate("innerHeight")
    width = page.evaluate("innerWidth")
    limit = height if above is None else above
    assert found["top"] >= 0 and found["bottom"] <= limit + 0.5, (selector, found, limit)
    assert found["left"] >= 0 and found["right"] <= width + 0.5, (selector, found, width)


@pytest.mark.parametrize("height", [812, 667])
def test_placing_on_a_phone_shows_board_floor_and_confirm_together(browser, server, shots, errors, height):
    table = server.create("standard", [{"name": LONG_NAME}, {"bot": "greedy"}, {"name": SPACED_NAME}])
    phone = browser.new_context(viewport={"width": 375, "height": height}, has_touch=True)
    ann = Person(phone, table["seats"][0]["url"], "Ann", errors)
    other = Person(browser.new_context(), table["seats"][2]["url"], "Other", errors)
    people = [ann, other]
    # Round 1 is played: the summary of what each tile scored is then on the page.
    play(people, until=lambda: int(ann.body("round")) >= 2 and ann.my_turn())
    page = ann.page
    page.wait_for_selector(".round-summary")

    # The summary is below every board, but a button near the top jumps to it.
    page.evaluate("window.scrollTo(0, 0)")
    on_screen(page, "#jump-summary")
    assert box(page, ".round-summary")["top"] > height, "the summary is near the top already: nothing to test"
    page.click("#jump-summary")
    page.wait_for_function("() => document.querySelector('.round-summary').getBoundingClientRect().top < innerHeight / 2")
    summary = box(page, ".round-summary")
    # Scrolled to whole device pixels: the top may land a fraction of a pixel above the screen's.
    assert -0.5 <= summary["top"] < height
    if height == 812:
        page.screenshot(path=str(shots / "keys-phone-summary.png"))

    # A colour, then a line: the move waits for Confirm. Board, floor and bar are all in view,
    # the board and its floor above the bar (not under it).
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("#supply button.tile.pickable").first.tap()
    if page.locator("#confirm-bar").is_hidden():
        page.locator(".board.mine .target").first.tap()
    page.wait_for_selector("#confirm-bar:not([hidden])")
    page.wait_for_timeout(100)
    bar = box(page, "#confirm-bar")
    on_screen(page, "#confirm-bar")
    on_screen(page, ".board.mine", above=bar["top"])
    on_screen(page, ".board.mine .floor", above=bar["top"])
    on_screen(page, ".board.mine .lines", above=bar["top"])
    on_screen(page, "#confirm")
    if height == 812:
        page.screenshot(path=str(shots / "keys-phone-confirm.png"))

    # Long names wrap: no element is wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    for name in page.locator(".player-name").all():
        right = name.evaluate("n => n.getBoundingClientRect().right")
        assert right <= 375, (name.inner_text(), right)
    assert page.locator(".player-name", has_text=LONG_NAME).count() == 1

    # Confirming sends the move; the bar goes and the page is whole again.
    before = ann.version()
    page.locator("#confirm").tap()
    ann.wait_version_after(before)
    assert page.locator("#confirm-bar").is_hidden()
    if height == 812 and os.environ.get("AZUL_README_SCREENSHOT") == "1":
        for name in ("keys-phone-summary.png", "keys-phone-confirm.png"):
            shutil.copy(shots / name, ROOT / "docs" / "images" / name)
