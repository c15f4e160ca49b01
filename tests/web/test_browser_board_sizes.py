"""A board of six colours in a real browser (Playwright, Debian's Chromium, a real `azul serve
--variants` with ``colours: 6``, and `azul replay --web` of a six-colour record; issue 40): the
page draws each seat's six pattern lines and 6x6 wall, orange in its own look with its letter O,
and takes drafts to line 6 by clicks and by keys (O, then 6); at 375 px the wall and the lines
are on the screen, nothing wider than it, and line 6 is chosen by touch; the replay draws 6x6
walls. The standard game's boards keep their size and classes. The views in process:
``test_board_sizes_web.py``.

Screenshots go to ``build/screenshots/<test name>/`` (or ``$AZUL_SCREENSHOTS``);
``AZUL_README_SCREENSHOT=1`` also refreshes ``docs/images/six-colours-375.png`` (docs/serve.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from test_board_sizes_web import write_sized_variants
from test_browser import DESKTOP, PHONE, ROOT, Person, Server, _need_browser, browser, errors, shots
from test_replay_page import ReplayProcess

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

ORANGE = "rgb(232, 119, 46)"  # the standard plugin's orange, #e8772e


@pytest.fixture
def served(tmp_path):
    _need_browser()
    folder = write_sized_variants(tmp_path)
    server = Server(tmp_path / "data", seed="browser-six-colours", extra=("--variants", str(folder)))
    server.start()
    yield server
    server.stop()


def check_six_by_six(page) -> None:
    """Every board draws six pattern lines of 1 to 6 spaces and a wall of 6 x 6 spaces, orange
    printed once in each row."""
    for board in page.locator(".board").all():
        assert board.locator(".wall .cell").count() == 36
        assert [board.locator(f".line[data-line='{row}']").locator(".slot, .tile").count()
                for row in range(6)] == [1, 2, 3, 4, 5, 6]
        assert board.locator(".line[data-line='6']").count() == 0
        assert board.locator(".wall .cell.printed[aria-label$='(orange)']").count() \
            + board.locator(".wall .cell.filled[aria-label$=': orange']").count() == 6


def inside_the_boards(page) -> None:
    """Each board's lines and wall lie within the board, side by side (measured at once: the
    page may be drawn again between two questions)."""
    for board, lines, wall in page.evaluate("""() => [...document.querySelectorAll(".board")].map(
            board => [board, board.querySelector(".lines"), board.querySelector(".wall")]
                .map(node => node.getBoundingClientRect().toJSON()))"""):
        assert board["left"] < lines["left"] < lines["right"] < wall["left"] < wall["right"] < board["right"]


def orange_tiles(page, where: str = "") -> int:
    """How many orange tiles ``where`` (a selector; the whole page by default) holds: each
    drawn in orange's look, its letter O in black."""
    looks = page.evaluate("""where => [...document.querySelectorAll(
        `${where} .tile[aria-label='orange'], ${where} button.tile[data-colour='orange']`)]
        .map(t => [getComputedStyle(t).backgroundColor, getComputedStyle(t).color, t.textContent])""", where)
    assert all(look == [ORANGE, "rgb(0, 0, 0)", "O"] for look in looks), looks
    return len(looks)


def line_six(page) -> str:
    return page.get_attribute(".board.mine .line[data-line='5']", "aria-label")


def pick_for_line_six(page):
    """A pickable tile, orange where one is offered, with its source and colour (the turns that
    take one go first on their empty line 6: it takes any colour)."""
    tiles = page.locator("#supply button.tile.pickable").all()
    tile = next((tile for tile in tiles if tile.get_attribute("data-colour") == "orange"), tiles[0])
    return tile, tile.get_attribute("data-source"), tile.get_attribute("data-colour")


def take_to_line_six_by_clicks(person: Person) -> str:
    page = person.page
    before = person.version()
    tile, _source, colour = pick_for_line_six(page)
    tile.click()
    page.locator(".board.mine .line[data-line='5'].target").click()
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert "pattern line 6" in page.inner_text("#pending-text")
    page.click("#confirm")
    person.wait_version_after(before)
    assert line_six(page).startswith("pattern line 6: ") and f" {colour} of 6" in line_six(page)
    return colour


def take_to_line_six_by_keys(person: Person) -> str:
    """The factory's digit (C for the centre), the colour's letter, 6 for line 6, Enter."""
    page = person.page
    before = person.version()
    _tile, source, colour = pick_for_line_six(page)
    letter = page.evaluate("c => document.querySelector(`#supply button.tile[data-colour='${c}']`).textContent",
                           colour)
    page.keyboard.press("c" if source == "0" else source)
    page.keyboard.press(letter.lower())
    page.wait_for_function("() => document.activeElement?.matches('.board.mine button.target')")
    page.keyboard.press("6")
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert "pattern line 6" in page.inner_text("#pending-text")
    page.wait_for_function("() => document.activeElement?.id === 'confirm'")
    page.keyboard.press("Enter")
    if page.locator("#pending-warning[data-ask='yes']").is_visible():
        page.keyboard.press("Enter")  # the move costs points: Enter asked once more
    person.wait_version_after(before)
    assert f" {colour} of 6" in line_six(page)
    return colour


def test_a_six_colour_table_played_by_clicks_and_keys(browser, served, shots, errors):
    table = served.create("six-colours", [{"name": "Ann"}, {"name": "Bob"}])
    people = [Person(browser.new_context(viewport=DESKTOP), seat["url"], seat["name"], errors)
              for seat in table["seats"]]
    ann = people[0]
    page = ann.page
    check_six_by_six(page)
    inside_the_boards(page)
    # Orange in its look, with its letter in a legible ink; the standard colours keep their classes.
    assert orange_tiles(page, "#supply") > 0
    printed = page.locator(".board .cell.p-look").first
    assert printed.locator(".print").text_content() == "O"
    assert page.locator(".tile.t-blue[style], .cell.p-blue[style]").count() == 0
    # The help says the variant's letters and lines.
    assert "B Y R K W O" in page.inner_text("#move-help") and "line 1-6" in page.inner_text("#move-help")
    assert "BYRKWO" in page.inner_text("#keys-help").replace(" ", "") and "1–6" in page.inner_text("#keys-help")

    played = []
    for number in range(4):
        mover = next(person for person in people if person.my_turn())
        if number == 0:
            played.append(take_to_line_six_by_clicks(mover))
        elif number == 1:
            played.append(take_to_line_six_by_keys(mover))
        else:
            mover.play_one(typed=False)
        for person in people:
            person.wait_version_after(mover.version() - 1)
    check_six_by_six(page)
    assert orange_tiles(page, ".board") > 0  # on a line 6
    for person in people:  # each one's line 6 holds the colour taken there
        assert any(f" {colour} of 6" in line_six(person.page) for colour in played)
    page.screenshot(path=str(shots / "six-colours-1280.png"), full_page=True)

    # The standard game's boards keep their size, classes and tiles' looks.
    standard = served.create("standard", [{"name": "Cy"}, {"name": "Di"}])
    cy = Person(browser.new_context(viewport=DESKTOP), standard["seats"][0]["url"], "Cy", errors)
    assert cy.page.locator(".board.sized, .tile.t-look, .cell.p-look, .tile[style]").count() == 0
    assert cy.page.locator(".board").first.locator(".wall .cell").count() == 25
    assert cy.page.evaluate("getComputedStyle(document.querySelector('.board .wall')).gridTemplateColumns") \
        == "28px 28px 28px 28px 28px"
    assert "B Y R K W)" in cy.page.inner_text("#move-help") and "line 1-5" in cy.page.inner_text("#move-help")


def test_a_six_colour_board_fits_a_phone_and_takes_line_six_by_touch(browser, served, shots, errors):
    table = served.create("six-colours", [{"name": "Ann"}, {"bot": "greedy"}])
    phone = browser.new_context(viewport=PHONE, has_touch=True)
    ann = Person(phone, table["seats"][0]["url"], "Ann", errors)
    page = ann.page
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    check_six_by_six(page)
    # The walls and lines of both boards, and every space in them, lie within the screen.
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = page.evaluate("""() => [...document.querySelectorAll(
        ".board .wall, .board .lines, .board .wall .cell, .board .line .slot, .board .line .tile")]
        .map(node => node.getBoundingClientRect().toJSON())""")
    assert len(boxes) == 2 * (2 + 36 + 21)
    inside_the_boards(page)
    for box in boxes:
        assert box["left"] >= 0 and box["right"] <= width + 0.5 and box["width"] >= 18, box
    page.screenshot(path=str(shots / "six-colours-375.png"))

    before = ann.version()
    tile, _source, colour = pick_for_line_six(page)
    tile.tap()
    line = page.locator(".board.mine .line[data-line='5'].target")
    # Scrolled to and measured in one step in the page: the board may be drawn anew meanwhile
    # (a node scrolled to by Playwright can be replaced before it is measured).
    box = page.wait_for_function("""() => {
        const node = document.querySelector(".board.mine .line[data-line='5'].target");
        if (!node) return null;
        node.scrollIntoView({block: "nearest"});
        const rect = node.getBoundingClientRect();
        return rect.width > 0 ? {x: rect.x, width: rect.width} : null;
    }""").json_value()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    line.tap()
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert "pattern line 6" in page.inner_text("#pending-text")
    page.locator("#confirm").tap()
    ann.wait_version_after(before)
    assert f" {colour} of 6" in line_six(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "six-colours-375-line-six.png"))
    if os.environ.get("AZUL_README_SCREENSHOT") == "1":
        shutil.copy(shots / "six-colours-375.png", ROOT / "docs" / "images" / "six-colours-375.png")


def test_the_replay_of_a_six_colour_game_draws_six_by_six_walls(browser, tmp_path, shots, errors):
    _need_browser()
    variant = write_sized_variants(tmp_path) / "six-colours.yaml"
    subprocess.run([sys.executable, "-m", "azul_core.cli", "simulate", "--variant", str(variant), "-n", "1",
                    "-s", "7", "-b", "greedy", "--record-dir", str(tmp_path), "-q"], check=True, capture_output=True)
    record = next(tmp_path.glob("game-*.json"))
    replay = ReplayProcess(str(record), "--variant", str(variant))
    try:
        page = browser.new_page(viewport=DESKTOP)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(replay.url)
        page.wait_for_selector("body[data-step='0']")
        check_six_by_six(page)
        page.keyboard.press("End")
        page.wait_for_selector("body[data-phase='over']")
        check_six_by_six(page)
        assert page.locator(".board .wall .cell.filled").count() > 0
        # The last round's account names an orange tile placed, drawn in its look.
        assert orange_tiles(page, ".round-summary") > 0 and orange_tiles(page, ".board .wall") > 0
        page.screenshot(path=str(shots / "six-colours-replay-end.png"), full_page=True)
    finally:
        replay.stop()
