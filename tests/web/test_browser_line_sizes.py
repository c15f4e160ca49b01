"""A variant's pattern-line sizes in a real browser (Playwright, Debian's Chromium, a real `azul
serve --variants examples/short-lines`, and `azul replay --web` of a short-lines record): line 1
holds two tiles, so every board draws two spaces there (the page drew ``row + 1``: one space, and
"2 of 1" once a pair was on it). The views in process: ``test_line_sizes.py``.

Screenshots go to ``build/screenshots/<test name>/`` (or ``$AZUL_SCREENSHOTS``).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from test_browser import DESKTOP, ROOT, Person, Server, _need_browser, browser, errors, shots
from test_replay_page import ReplayProcess

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

FOLDER = ROOT / "examples" / "short-lines"
VARIANT = FOLDER / "short-lines.yaml"
SHORT_LINES = [2, 2, 3, 4, 5]


def spaces_per_line(board) -> list[int]:
    """How many spaces (empty or tiled) each pattern line of a board draws."""
    return [board.locator(f".line[data-line='{row}']").locator(".slot, .tile").count() for row in range(5)]


def check_boards(page, seats: int) -> None:
    boards = page.locator(".board")
    assert boards.count() == seats
    for board in boards.all():
        assert spaces_per_line(board) == SHORT_LINES
        line = board.locator(".line[data-line='0']")
        assert line.get_attribute("aria-label").endswith(" of 2") or ", closed" in line.get_attribute("aria-label")


def take_a_pair_onto_line_one(person: Person) -> str:
    """Click a colour of which a factory holds exactly two, then pattern line 1, then Confirm:
    the colour taken."""
    page = person.page
    for tile in page.locator("#supply button.tile.pickable").all():
        source, colour = tile.get_attribute("data-source"), tile.get_attribute("data-colour")
        pair = page.locator(f"#supply [data-source='{source}'][data-colour='{colour}']")
        if source == "0" or pair.count() != 2:
            continue
        tile.click()
        line = page.locator(".board.mine .line[data-line='0'].target:not(.misplaced)")
        if not line.count():
            page.keyboard.press("Escape")
            continue
        before = person.version()
        line.click()
        page.wait_for_selector("#confirm-bar:not([hidden])")
        page.click("#confirm")
        person.wait_version_after(before)
        return colour
    raise AssertionError("no factory offers a pair for line 1 (another seed?)")


def test_the_table_draws_each_line_with_the_variants_size(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="browser-short-lines", extra=("--variants", str(FOLDER)))
    server.start()
    try:
        table = server.create("short-lines", [{"name": "Ann"}, {"name": "Bob"}])
        people = [Person(browser.new_context(viewport=DESKTOP), seat["url"], seat["name"], errors)
                  for seat in table["seats"]]
        ann = people[0]
        check_boards(ann.page, 2)
        mover = next(person for person in people if person.my_turn())
        colour = take_a_pair_onto_line_one(mover)
        ann.wait_version_after(mover.version() - 1)
        board = ann.page.locator(f".board[data-seat='{people.index(mover)}']")
        line = board.locator(".line[data-line='0']")
        assert line.locator(".tile").count() == 2 and line.locator(".slot").count() == 0
        assert line.get_attribute("aria-label").startswith(f"pattern line 1: 2 {colour} of 2")  # full
        check_boards(ann.page, 2)
        ann.page.screenshot(path=str(shots / "short-lines-table.png"))
    finally:
        server.stop()


LONG_LINE = """\
from azul_core import hookimpl

AZUL_API = 1


@hookimpl
def azul_line_capacity(row):
    return 7 if row == 4 else None
"""


def test_a_line_longer_than_five_fits_on_the_board(browser, tmp_path, shots, errors):
    """The lines are as wide as the longest, and the board's tiles smaller: its seven spaces
    stay beside the wall, not under it, and the wall stays on the board."""
    _need_browser()
    folder = tmp_path / "long-line"
    folder.mkdir()
    (folder / "long_line.py").write_text(LONG_LINE)
    (folder / "long-line.yaml").write_text("name: long-line\nextends: standard\n"
                                           "plugins: [standard, colour_wall, long_line.py]\n")
    server = Server(tmp_path / "data", seed="browser-long-line", extra=("--variants", str(folder)))
    server.start()
    try:
        table = server.create("long-line", [{"name": "Ann"}, {"bot": "greedy"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        for board in ann.page.locator(".board").all():
            assert spaces_per_line(board) == [1, 2, 3, 4, 7]
        # Measured at once: the page may be drawn again between two questions.
        for box, line, wall, spaces in ann.page.evaluate("""() => [...document.querySelectorAll(".board")].map(
                board => [board, board.querySelector(".line[data-line='4']"), board.querySelector(".wall"),
                          [...board.querySelectorAll(".line[data-line='4'] .slot")]]
                    .map(node => Array.isArray(node) ? node.map(n => n.getBoundingClientRect().toJSON())
                                                      : node.getBoundingClientRect().toJSON()))"""):
            assert len(spaces) == 7 and all(line["left"] <= space["left"] and space["right"] <= line["right"] + 0.5
                                            for space in spaces)
            assert box["left"] < line["left"] and line["right"] <= wall["left"]
            assert wall["right"] < box["right"]  # smaller tiles, not a wider board
        ann.page.screenshot(path=str(shots / "long-line-table.png"))
    finally:
        server.stop()


def test_the_replay_page_draws_each_line_with_the_variants_size(browser, tmp_path, shots, errors):
    _need_browser()
    subprocess.run([sys.executable, "-m", "azul_core.cli", "simulate", "--variant", str(VARIANT), "-n", "1",
                    "-s", "7", "-b", "greedy", "--record-dir", str(tmp_path), "-q"], check=True, capture_output=True)
    record = next(tmp_path.glob("game-*.json"))
    served = ReplayProcess(str(record), "--variant", str(VARIANT))  # the variant file's plugin may run
    try:
        page = browser.new_page(viewport=DESKTOP)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served.url)
        page.wait_for_selector("body[data-step='0']")
        check_boards(page, 2)
        page.keyboard.press("End")
        page.wait_for_selector("body[data-phase='over']")
        check_boards(page, 2)
        page.screenshot(path=str(shots / "short-lines-replay-end.png"), full_page=True)
    finally:
        served.stop()
