"""A variant's extra tiles in a real browser (Playwright, Debian's Chromium, a real `azul serve
--variants examples/wild-tiles`): a whole wild-tiles game played by clicking, where the wild
tiles (letter J, look #d4af37) are drawn with their letter on their look, named in their title
and label, in the supply, standing in on pattern lines, on floors and in the legend; the move
box and the drafts name colours as ever; the record validates with `azul validate --variant`.
The server, the pages and the helpers are those of ``test_browser.py``.

``AZUL_README_SCREENSHOT=1`` also refreshes ``docs/images/tile-kinds.png`` (docs/serve.md): a
wild tile standing in on a pattern line, others in the factories and the centre.
"""

from __future__ import annotations

import os
import shutil
import time

import pytest
from test_browser import (
    DESKTOP,
    GAME_SECONDS,
    PHONE,
    ROOT,
    Person,
    Server,
    _need_browser,
    browser,
    check_final,
    errors,
    game_over,
    shots,
)

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

FOLDER = ROOT / "examples" / "wild-tiles"
GOLD = "rgb(212, 175, 55)"  # #d4af37
BLACK = "rgb(0, 0, 0)"


def style_of(locator) -> dict:
    return locator.evaluate("node => { const s = getComputedStyle(node); "
                            "return {background: s.backgroundColor, color: s.color}; }")


def check_wild(locator) -> None:
    """A wild tile: J on gold in black (gold is light), named "wild" for those who don't see it."""
    assert locator.inner_text() == "J"
    assert locator.get_attribute("data-kind") == "wild"
    assert "wild" in locator.get_attribute("aria-label") and "wild" in locator.get_attribute("title")
    assert style_of(locator) == {"background": GOLD, "color": BLACK}
    assert locator.get_attribute("style") is not None  # set through the CSSOM, never in markup


def take_a_wild_onto_a_line(person: Person) -> bool:
    """Draft a colour from a source holding a wild tile onto a pattern line where both fit:
    True when done (the wild stands in on the line)."""
    page = person.page
    for source in page.locator("#supply [data-source]:has(.t-extra)").all():
        number = source.get_attribute("data-source")
        for tile in source.locator("button.tile.pickable").all():
            colour = tile.get_attribute("data-colour")
            taken = source.locator(f"button.tile[data-colour='{colour}']").count()
            tile.click()
            for line in page.locator(".board.mine .line.target:not(.misplaced)").all():
                row = int(line.get_attribute("data-line"))
                if line.locator(".slot").count() >= taken + 1:
                    before = person.version()
                    line.click()
                    page.wait_for_selector("#confirm-bar:not([hidden])")
                    # The move still names the colour (the wild comes along by the variant's rule).
                    letter = {"blue": "B", "yellow": "Y", "red": "R", "black": "K", "white": "W"}[colour]
                    where = "C" if number == "0" else number
                    assert f"({where}{letter}{row + 1}" in page.inner_text("#pending-text")
                    page.click("#confirm")
                    person.wait_version_after(before)
                    person.moves += 1
                    return True
            page.keyboard.press("Escape")
    return False


def take_a_wild_to_the_floor(person: Person) -> bool:
    """Draft a colour from a source holding a wild tile onto the floor: True when done."""
    page = person.page
    tile = page.locator("#supply [data-source]:has(.t-extra) button.tile.pickable").first
    if not tile.count():
        return False
    before = person.version()
    tile.click()
    if page.locator("#confirm-bar").is_hidden():
        page.locator(".board.mine .floor.target").click()
    page.click("#confirm")
    person.wait_version_after(before)
    person.moves += 1
    return True


def test_wild_tiles_game_in_the_browser(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="browser-wild-tiles", extra=("--variants", str(FOLDER)))
    server.start()
    try:
        table = server.create("wild-tiles", [{"name": "Ann"}, {"name": "Bob"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        bob = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Bob", errors)
        people = [ann, bob]
        page = ann.page
        # The legend names the extra kind, with its tile.
        assert "Also in the bag:" in page.inner_text("#kinds-legend")
        check_wild(page.locator("#kinds-legend .tile"))
        # In the supply: drawn, labelled, never pickable (a draft names a colour).
        wilds = page.locator("#supply button.tile.t-extra")
        assert wilds.count() >= 1
        check_wild(wilds.first)
        assert wilds.first.is_disabled() and "wild from " in wilds.first.get_attribute("aria-label")
        assert page.locator("#supply button.tile.pickable.t-extra").count() == 0
        # The colours keep their own look and letters; the move box's help is unchanged.
        assert page.locator("#supply button.tile:not(.t-extra)").evaluate_all(
            "tiles => tiles.length > 0 && tiles.every(t => t.classList.contains(`t-${t.dataset.colour}`)"
            " && !t.style.length && !t.dataset.kind)")
        assert "(B Y R K W)" in page.inner_text("#move-help")

        # Whoever moves takes a wild along onto a line when they can, until one stands in.
        deadline = time.monotonic() + GAME_SECONDS
        while not ann.page.locator(".board.mine .line .tile.t-extra").count():
            assert time.monotonic() < deadline and not ann.over(), "no wild tile ever stood in on Ann's line"
            for person in people:
                if person.my_turn() and not (person is ann and take_a_wild_onto_a_line(ann)):
                    person.play_one()
        stand_in = page.locator(".board.mine .line:has(.t-extra)").first
        check_wild(stand_in.locator(".tile.t-extra").first)
        assert " and 1 wild of " in stand_in.get_attribute("aria-label")
        # Bob's page draws Ann's line the same.
        assert bob.page.locator(".board:not(.mine) .line .tile.t-extra").count() >= 1
        page.screenshot(path=str(shots / "wild-on-a-line.png"))
        if os.environ.get("AZUL_README_SCREENSHOT") == "1":
            shutil.copy(shots / "wild-on-a-line.png", ROOT / "docs" / "images" / "tile-kinds.png")

        floors_with_wild = 0
        deadline = time.monotonic() + GAME_SECONDS
        until = game_over(people)
        while not until():
            assert time.monotonic() < deadline, "the game did not move on in time"
            moved = False
            for person in people:
                if person.my_turn():
                    # Bob sends a wild tile to his floor once; else wild tiles go onto lines.
                    if not (person is bob and not floors_with_wild and take_a_wild_to_the_floor(bob)) \
                            and not take_a_wild_onto_a_line(person):
                        person.play_one()
                    moved = True
                    on_floors = person.page.locator(".floor .tile.t-extra")
                    if on_floors.count() and not floors_with_wild:
                        check_wild(on_floors.first)
                    floors_with_wild += on_floors.count()
            if not moved:
                time.sleep(0.03)
        assert floors_with_wild, "no wild tile was ever drawn on a floor"
        record = check_final(ann, shots, server, variant_folder=FOLDER)
        assert any("J" in factory for entry in record["rounds"] for factory in entry["factories"])
        actions = [action for entry in record["rounds"] for action in entry["actions"]]
        assert not any("J" in action for action in actions), "drafts name colours"
        ann.page.screenshot(path=str(shots / "game-over.png"), full_page=True)
    finally:
        server.stop()
