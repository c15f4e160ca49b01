"""Playing at the online table by keyboard alone (Playwright, Debian's Chromium, a real `azul
serve`): a turn (a colour, a line, Confirm) takes at most six keys, counted here key by key
(tests/web/test_keyboard_claim.py counts the worst case on 2-, 3- and 4-player tables), and
whole games are played for one seat with no click at all: the standard game, the grey wall
(choosing wall columns) and a house rule's move buttons.

Screenshots go to ``build/screenshots/<test>/``; ``AZUL_README_SCREENSHOT=1`` also refreshes
``docs/images/keys-*.png`` (docs/serve.md).
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
    Server,
    _need_browser,
    browser,
    errors,
    server,
    shots,
)

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server, shots)

#: the most keys a whole turn may take (issue 23)
MOST_KEYS = 6

FOCUSED = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "nothing";
  if (a.matches('#supply button.tile.pickable')) return "colour";
  if (a.matches('.board.mine button.target')) return a.dataset.row !== undefined ? "wall" : "line";
  if (a.matches('#plugin-moves button.plugin-move')) return "move";
  if (a.id === 'confirm') return "confirm";
  return a.tagName + (a.id ? '#' + a.id : '');
}"""


class Keyboard:
    """One person's page, played with key presses only; each press is counted."""

    def __init__(self, page, errors: list[str]):
        self.page = page
        self.keys = 0
        self.turns: list[int] = []
        page.on("pageerror", lambda error: errors.append(f"page: {error}"))
        page.wait_for_selector("body[data-version]")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    def focused(self) -> str:
        return self.page.evaluate(FOCUSED)

    def body(self, key: str) -> str | None:
        return self.page.evaluate(f"document.body.dataset.{key} ?? null")

    def version(self) -> int:
        return int(self.body("version") or -1)

    def my_turn(self) -> bool:
        return self.body("myTurn") == "yes"

    def over(self) -> bool:
        return self.body("phase") == "over"

    def wait_for(self, kind: str) -> None:
        self.page.wait_for_function(f"() => ({FOCUSED})() === {kind!r}", timeout=15000)

    def turn(self, number: int) -> str:
        """One whole turn by keys, choosing by arrows now and then; returns what was played."""
        page = self.page
        before, start = self.version(), self.keys
        # The page puts the focus on the turn's first step; from nowhere, Tab goes there.
        if self.focused() not in ("colour", "wall", "move"):
            self.press("Tab")
        kind = self.focused()
        if kind == "colour":
            if number % 2:
                self.press("ArrowRight")
            self.press("Space" if number % 4 == 2 else "Enter")  # either picks
            # A colour with only the floor to go to is chosen at once: Confirm has the focus.
            if self.focused() != "confirm":
                self.wait_for("line")
                places = page.evaluate("[...document.querySelectorAll('.board.mine button.target')]"
                                       ".map(b => b.dataset.line)")
                if number % 3 == 0 and len(places) > 1:
                    # A line's digit (- for the floor) takes it at once, without Enter.
                    place = places[1]
                    self.press("-" if place == "floor" else str(int(place) + 1))
                else:
                    self.press("Enter")
        elif kind in ("wall", "move"):
            if number % 2 and kind == "wall":
                self.press("ArrowRight")
            self.press("Enter")
        else:
            raise AssertionError(f"the turn's first step has no focus (focus on {kind})")
        self.wait_for("confirm")
        self.press("Enter")
        if page.locator("#pending-warning[data-ask='yes']").is_visible():
            self.press("Enter")  # the move costs points: Enter asked once more
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=15000)
        used = self.keys - start
        self.turns.append(used)
        assert used <= MOST_KEYS, f"turn {number} took {used} keys"
        return kind

    def play(self, until, seconds: float = GAME_SECONDS) -> list[str]:
        """Every turn of this seat by keyboard until ``until()``; what each turn played."""
        kinds = []
        deadline = time.monotonic() + seconds
        while not until():
            assert time.monotonic() < deadline, "the game did not move on in time"
            if self.my_turn():
                kinds.append(self.turn(len(kinds)))
            else:
                time.sleep(0.03)
        return kinds


def open_seat(browser, url: str, errors: list[str], viewport=DESKTOP) -> Keyboard:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(url)
    return Keyboard(page, errors)


def test_a_turn_takes_at_most_six_keys(browser, server, shots, errors):
    """Tab lands on the colours, an arrow chooses another colour, Enter picks it and sends the
    focus to the legal lines, an arrow and Enter choose a line, Enter confirms: six keys."""
    table = server.create("standard", [{"name": "North"}, {"bot": "greedy"}])
    north = open_seat(browser, table["seats"][0]["url"], errors)
    page = north.page
    assert north.my_turn() and north.focused() == "nothing"
    # Every legal colour is a button; one of them only is a tab stop (the arrows reach the rest).
    picks = page.locator("#supply button.tile.pickable")
    assert picks.count() > 1
    assert page.locator("#supply button.tile.pickable[tabindex='0']").count() == 1
    before = north.version()

    north.press("Tab")
    assert north.focused() == "colour"
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    north.press("ArrowRight")
    chosen = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert chosen != first
    colour = page.evaluate("document.activeElement.dataset.colour")
    # The focus ring is drawn (an outline of its own), not only the browser's default.
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    north.press("Enter")
    north.wait_for("line")
    assert page.evaluate("document.activeElement.classList.contains('target')")
    lines = page.evaluate("[...document.querySelectorAll('.board.mine button.target')].map(b => b.dataset.line)")
    north.press("ArrowDown")
    line = page.evaluate("document.activeElement.dataset.line")
    assert line == lines[1 % len(lines)]
    page.screenshot(path=str(shots / "keys-line.png"))
    north.press("Enter")
    north.wait_for("confirm")
    assert colour in page.inner_text("#pending-text")
    page.screenshot(path=str(shots / "keys-confirm.png"))
    north.press("Enter")
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert north.keys == MOST_KEYS
    # The move chosen by keys is the one played: its colour is on the line chosen (the bot plays
    # on at once, so the board is read, not the last move).
    if line == "floor":
        assert page.locator(f".board.mine .floor .tile.t-{colour}").count() >= 1
    else:
        assert colour in page.get_attribute(f".board.mine [data-line='{line}']", "aria-label")
    if os.environ.get("AZUL_README_SCREENSHOT") == "1":
        for name in ("keys-line.png",):
            shutil.copy(shots / name, ROOT / "docs" / "images" / name)


def test_escape_goes_back_and_the_focus_follows(browser, server, errors):
    table = server.create("standard", [{"name": "North"}, {"bot": "greedy"}])
    north = open_seat(browser, table["seats"][0]["url"], errors)
    page = north.page
    north.press("Tab")
    north.press("ArrowRight")
    picked = page.evaluate("document.activeElement.getAttribute('aria-label')")
    north.press("Enter")
    north.wait_for("line")
    north.press("Enter")
    north.wait_for("confirm")
    north.press("Escape")
    # The choice is gone and the focus is back on the colour that was picked.
    assert page.locator("#confirm-bar").is_hidden()
    north.wait_for("colour")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == picked
    assert page.locator(".board.mine .target").count() == 0


@pytest.mark.parametrize("variant", ["standard", "grey-wall"])
def test_a_whole_game_by_keyboard_for_one_seat(browser, server, shots, errors, variant):
    """Every turn of one seat, to the end of the game, with keys only (no click): at most six
    keys a turn. On the grey wall the wall columns are chosen by keyboard too."""
    table = server.create(variant, [{"name": "Keys"}, {"bot": "greedy"}])
    keys = open_seat(browser, table["seats"][0]["url"], errors, viewport=PHONE if variant == "grey-wall" else DESKTOP)
    kinds = keys.play(until=keys.over)
    assert keys.page.locator("#final-panel").count() == 1
    assert len(keys.turns) >= 10 and max(keys.turns) <= MOST_KEYS
    if variant == "grey-wall":
        assert "wall" in kinds, "no wall column was chosen by keyboard"
    keys.page.screenshot(path=str(shots / f"keys-game-over-{variant}.png"), full_page=True)


def test_a_house_rules_move_by_keyboard(browser, tmp_path, errors):
    """pass-once: the house rule's move button is one Tab from the colours; Enter, Enter plays it."""
    _need_browser()
    folder = ROOT / "examples" / "pass-once"
    running = Server(tmp_path / "data", seed="keys-pass-once", extra=("--variants", str(folder)))
    running.start()
    try:
        table = running.create("pass-once", [{"name": "Keys"}, {"bot": "greedy"}])
        keys = open_seat(browser, table["seats"][0]["url"], errors)
        page = keys.page
        before = keys.version()
        keys.press("Tab")
        assert keys.focused() == "colour"
        keys.press("Tab")
        assert keys.focused() == "move"
        keys.press("Enter")
        keys.wait_for("confirm")
        assert "Pass" in page.inner_text("#pending-text")
        keys.press("Enter")
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        assert keys.keys == 4
        # Passed: nothing of this seat's changed, and the pass is spent for the round.
        assert page.locator(".board.mine .line .tile").count() == 0
        page.wait_for_selector("body[data-my-turn='yes']")
        assert page.locator("#plugin-moves").is_hidden()
        # The rest of the round by keyboard (the pass is spent: drafts only).
        keys.play(until=lambda: keys.body("round") == "2" or keys.over(), seconds=60)
    finally:
        running.stop()


def test_a_house_rules_choice_after_a_draft_by_keyboard(browser, tmp_path, errors):
    """factory-one-shift: after a draft from factory 1 the player must choose among the house
    rule's moves; the focus goes to them by itself, and an arrow, Enter, Enter choose one."""
    _need_browser()
    folder = ROOT / "examples" / "factory-one-shift"
    running = Server(tmp_path / "data", seed="keys-shift", extra=("--variants", str(folder)))
    running.start()
    try:
        table = running.create("factory-one-shift", [{"name": "Keys"}, {"bot": "greedy"}])
        keys = open_seat(browser, table["seats"][0]["url"], errors)
        page = keys.page
        keys.press("Tab")
        assert page.evaluate("document.activeElement.dataset.source") == "1"
        before = keys.version()
        keys.press("Enter")
        keys.wait_for("line")
        keys.press("Enter")
        keys.wait_for("confirm")
        keys.press("Enter")
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        # Still this player's turn: the choice the draft from factory 1 offers, focus on it.
        assert keys.my_turn() and keys.body("phase") == "choose"
        keys.wait_for("move")
        start, before = keys.keys, keys.version()
        labels = page.locator("#plugin-moves button.plugin-move").all_inner_texts()
        keys.press("ArrowRight")
        chosen = page.evaluate("document.activeElement.textContent")
        assert chosen == labels[1]
        keys.press("Enter")
        keys.wait_for("confirm")
        keys.press("Enter")
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
        assert keys.keys - start == 3
        # The tile moved to the line chosen (the bot may have moved since: read the board, not the
        # last move). Which line depends on the line the draft went to: the first that costs nothing.
        assert chosen.startswith("Move a tile to line ")
        row = int(chosen.rsplit(" ", 1)[1]) - 1
        assert "empty" not in page.get_attribute(f".board.mine [data-line='{row}']", "aria-label")
    finally:
        running.stop()
