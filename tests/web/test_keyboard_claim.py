"""Issue 42, "the keyboard claim": README and docs/serve.md promise at most six keys a turn.
By arrows alone, a first turn taking from factory 6 of 7 took at least 9, and Enter x3 on a
later turn silently played the first colour onto the first legal line, whatever it cost.

Here the worst case is counted key by key on 2-, 3- and 4-player tables, from a freshly opened
page: the last factory (the farthest by arrows), a colour that is not its first, and the floor
(a move that costs points, so Enter asks once more). With the shortcuts (a factory's digit, a
colour's letter, a line's digit or - for the floor) that is Tab, N, a letter, -, Enter, Enter:
six keys. Screenshots of the first turn go to ``build/screenshots/<test>/``;
``AZUL_README_SCREENSHOT=1`` also refreshes docs/images/keys-first-turn*.png."""

from __future__ import annotations

import os
import shutil

import pytest
from test_browser import DESKTOP, PHONE, ROOT, browser, errors, server, shots
from test_keyboard import MOST_KEYS, open_seat

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server, shots)

LETTER = {"blue": "B", "yellow": "Y", "red": "R", "black": "K", "white": "W"}
NAMES = ["North", "East", "South", "West"]


def keep(page, shots, name: str) -> None:
    for size, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)  # let the layout settle before the picture
        page.locator("#confirm-bar").scroll_into_view_if_needed()
        shot = shots / f"{name}{suffix}.png"
        page.screenshot(path=str(shot))
        if os.environ.get("AZUL_README_SCREENSHOT") == "1":
            shutil.copy(shot, ROOT / "docs" / "images" / shot.name)
    page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_worst_first_turn_takes_six_keys(browser, server, shots, errors, players):
    # Every seat a person: nobody moves but the one whose page is opened.
    table = server.create("standard", [{"name": name} for name in NAMES[:players]])
    factories = 2 * players + 1
    probe = open_seat(browser, table["seats"][0]["url"], errors)
    mover = int(probe.page.evaluate("document.querySelector('.board.to-move').dataset.seat"))
    probe.page.context.close()
    keys = open_seat(browser, table["seats"][mover]["url"], errors)
    page = keys.page
    assert keys.my_turn() and keys.focused() == "nothing"
    colours = page.evaluate(f"[...document.querySelectorAll('#factories [data-source=\"{factories}\"] "
                            f"button.tile.pickable')].map(b => b.dataset.colour)")
    colour = next(c for c in colours if c != colours[0])  # not the one the factory's tab stop is on
    before = keys.version()

    keys.press("Tab")
    keys.press(str(factories))
    assert page.evaluate("document.activeElement.dataset.source") == str(factories)
    keys.press(LETTER[colour])
    keys.wait_for("line")
    # The place the focus goes to first costs nothing (a pattern line takes the tiles).
    assert page.evaluate("document.activeElement.dataset.line") != "floor"
    keys.press("-")
    keys.wait_for("confirm")
    assert f"{factories}{LETTER[colour]}-" in page.inner_text("#pending-text")
    keys.press("Enter")
    # The tiles would go to the floor: the Enter asks once more and sends nothing.
    warning = page.locator("#pending-warning[data-ask='yes']")
    assert warning.is_visible() and "Enter again to confirm" in warning.inner_text()
    assert "to the floor" in warning.inner_text() and keys.version() == before
    if players == 4:
        keep(page, shots, "keys-first-turn")
    keys.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert keys.keys == MOST_KEYS
    assert page.locator(".board.mine .floor .tile").count() >= 2
    assert f"from factory {factories}" in page.inner_text("#last-move")


def test_enter_three_times_never_throws_tiles_to_the_floor_unasked(browser, server, errors):
    """Enter, Enter, Enter plays the colour under the focus onto the first place that costs
    nothing; where every place costs points (here: the floor chosen with End), the third Enter
    asks and a fourth sends."""
    table = server.create("standard", [{"name": "North"}, {"name": "East"}])
    keys = open_seat(browser, table["seats"][0]["url"], errors)
    page = keys.page
    before = keys.version()
    keys.press("Tab")
    keys.press("Enter")
    keys.wait_for("line")
    keys.press("End")  # the floor: the last place
    assert page.evaluate("document.activeElement.dataset.line") == "floor"
    keys.press("Enter")
    keys.wait_for("confirm")
    keys.press("Enter")
    assert page.locator("#pending-warning[data-ask='yes']").is_visible() and keys.version() == before
    # Escape takes the choice back: nothing was sent.
    keys.press("Escape")
    assert page.locator("#confirm-bar").is_hidden() and keys.version() == before
    keys.wait_for("colour")
    keys.press("Enter")
    keys.wait_for("line")
    assert page.evaluate("document.activeElement.dataset.line") != "floor"
    keys.press("Enter")
    keys.wait_for("confirm")
    keys.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert page.locator(".board.mine .floor .tile").count() == 0


def test_a_click_on_confirm_does_not_ask_again(browser, server, errors):
    table = server.create("standard", [{"name": "North"}, {"name": "East"}])
    keys = open_seat(browser, table["seats"][0]["url"], errors)
    page = keys.page
    before = keys.version()
    page.locator("#supply button.tile.pickable").first.click()
    page.locator(".board.mine button[data-line='floor']").click()
    page.click("#confirm")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
