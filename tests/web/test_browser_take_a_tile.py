"""examples/take-a-tile in a real browser (Playwright, Debian's Chromium, a real `azul serve
--variants examples/take-a-tile`), issue 40: a move on another seat's board. Ann takes a tile
from the bot's line by clicking the house rule's move, Bob takes one by keyboard alone, and
both friends' pages show the line one tile shorter on the board it was taken from and the tile
on the taker's board. The game is played to the end and its record validates.

Seats: Ann, Bob, then a random bot. Each page notes its boards at every version it shows
(``BOARDS_AT_EACH_VERSION``), so a take is checked as the page drew it, whatever came after.
The server, the pages and the helpers are those of ``test_browser.py``.
"""

from __future__ import annotations

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
    play,
    shots,
)
from test_keyboard import FOCUSED

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

FOLDER = ROOT / "examples" / "take-a-tile"
ANN, BOB, BOT = 0, 1, 2
SEATS = 3

#: Installed in a page: ``window.boardsAt[version]`` is each board's tiles as the page drew it
#: at that version: per pattern line, and on the floor (the start marker not counted).
BOARDS_AT_EACH_VERSION = """() => {
  window.boardsAt = {};
  const note = () => {
    const boards = {};
    for (const board of document.querySelectorAll('#boards .board')) {
      boards[board.dataset.seat] = {
        lines: [...board.querySelectorAll('.lines [data-line]')].map((line) => line.querySelectorAll('.tile').length),
        floor: board.querySelectorAll('.floor .floor-space .tile:not(.marker)').length,
      };
    }
    window.boardsAt[document.body.dataset.version] = boards;
  };
  note();
  new MutationObserver(note).observe(document.body, { attributes: true, attributeFilter: ['data-version'] });
}"""


def boards_at(person: Person, version: int) -> dict[int, dict]:
    drawn = person.page.evaluate("v => window.boardsAt[v] ?? null", str(version))
    assert drawn is not None, f"{person.label}'s page never showed version {version}"
    return {int(seat): board for seat, board in drawn.items()}


def takes_on_offer(person: Person) -> list[str]:
    page = person.page
    if page.locator("#plugin-moves").is_hidden():
        return []
    return [move for move in page.locator("#plugin-moves button.plugin-move").evaluate_all(
        "buttons => buttons.map(b => b.dataset.move)") if move.startswith("+take:")]


def victim_and_row(taker: int, move: str) -> tuple[int, int]:
    ahead, row = map(int, move.split(":")[1:])
    return (taker + ahead) % SEATS, row


def until_offered(people: list[Person], taker: Person, wanted) -> str:
    """Both friends play by clicking until ``taker``'s page offers a take ``wanted(move)``
    accepts, on its turn; that take."""
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, "no such take was offered in time"
        assert not taker.over(), "the game ended before such a take was offered"
        moved = False
        for person in people:
            if not person.my_turn():
                continue
            if person is taker:
                chosen = [move for move in takes_on_offer(person) if wanted(move)]
                if chosen:
                    return chosen[0]
            person.play_one()
            moved = True
        if not moved:
            time.sleep(0.03)


def check_the_take(people: list[Person], taker: int, move: str, before: int) -> None:
    """On every page: the line taken from is one tile shorter, the taker holds one tile more
    (on its line or its floor), the third board is as it was."""
    victim, row = victim_and_row(taker, move)
    for person in people:
        person.wait_version_after(before)
        was, now = boards_at(person, before), boards_at(person, before + 1)
        assert now[victim]["lines"][row] == was[victim]["lines"][row] - 1, (person.label, move)
        assert now[victim]["lines"][:row] + now[victim]["lines"][row + 1:] == \
            was[victim]["lines"][:row] + was[victim]["lines"][row + 1:]
        assert sum(now[taker]["lines"]) + now[taker]["floor"] == sum(was[taker]["lines"]) + was[taker]["floor"] + 1
        third = ({0, 1, 2} - {taker, victim}).pop()
        assert now[third] == was[third], (person.label, move)


def test_take_a_tile_by_click_and_by_keyboard_on_both_pages(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="browser-take-a-tile", extra=("--variants", str(FOLDER)))
    server.start()
    try:
        table = server.create("take-a-tile", [{"name": "Ann"}, {"name": "Bob"}, {"bot": "random"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][ANN]["url"], "Ann", errors)
        bob = Person(browser.new_context(viewport=PHONE), table["seats"][BOB]["url"], "Bob", errors)
        people = [ann, bob]
        for person in people:
            person.page.evaluate(BOARDS_AT_EACH_VERSION)

        # Ann takes from the bot's line (two seats on) by clicking the move, then Confirm.
        move = anns = until_offered(people, ann, lambda m: victim_and_row(ANN, m)[0] == BOT)
        _victim, row = victim_and_row(ANN, move)
        page = ann.page
        button = page.locator(f"#plugin-moves button.plugin-move[data-move='{move}']")
        label = button.inner_text()
        assert label == f"Take a tile from line {row + 1} of the player two seats on"
        bot_line = f".board[data-seat='{BOT}'] [data-line='{row}']"
        assert "empty" not in page.get_attribute(bot_line, "aria-label")
        before = ann.version()
        button.click()
        page.wait_for_selector("#confirm-bar:not([hidden])")
        assert page.inner_text("#pending-text") == f"{label} ({move})."
        page.screenshot(path=str(shots / "take-pending.png"))
        page.click("#confirm")
        check_the_take(people, ANN, move, before)
        # Bob is to move: nothing moves on, so the pages show the take now.
        for person in people:
            assert f"Ann: {label} ({move})" in person.page.inner_text("#last-move")
        assert bob.my_turn() and not takes_on_offer(ann)
        ann.page.screenshot(path=str(shots / "after-take-ann.png"), full_page=True)
        bob.page.screenshot(path=str(shots / "after-take-bob.png"), full_page=True)

        # Bob takes one by keyboard alone: Tab to the colours, Tab to the moves, arrows, Enter, Enter.
        move = bobs = until_offered(people, bob, lambda m: True)
        page = bob.page
        before = bob.version()

        def focused():
            return page.evaluate(FOCUSED)

        if focused() not in ("colour", "move"):
            page.keyboard.press("Tab")
        if focused() == "colour":
            page.keyboard.press("Tab")
        assert focused() == "move"
        for _ in range(len(takes_on_offer(bob))):
            if page.evaluate("document.activeElement.dataset.move") == move:
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.move") == move
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => ({FOCUSED})() === 'confirm'")
        assert f"({move})" in page.inner_text("#pending-text")
        page.keyboard.press("Enter")
        check_the_take(people, BOB, move, before)

        # Each has taken: none is offered again; the game goes on to the end and validates.
        play(people, game_over(people))
        record = check_final(ann, shots, server, variant_folder=FOLDER)
        actions = [action for entry in record["rounds"] for action in entry["actions"]]
        assert record["memory"]["take_a_tile"][:2] == [True, True]
        assert anns in actions and bobs in actions
    finally:
        server.stop()
