"""A house rule's moves and secrets in a real browser (Playwright, Debian's Chromium, a real
`azul serve --variants FOLDER`): whole games where the players click the plugin's move buttons,
secrets that stay on their own seat's page until the end, and records that `azul validate`
accepts. The server, the pages and the helpers are those of ``test_browser.py``.

``AZUL_README_SCREENSHOT=1`` also refreshes ``docs/images/plugin-moves.png`` (docs/serve.md): the
choice after a draft from factory 1, one button per move on offer.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

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

from azul_core.colours import NAMES as COLOUR_NAMES

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

EXAMPLES = ROOT / "examples"
HOSTILE_LABEL = '<img src=x onerror="document.title=1">Pass & hide'
HOSTILE_PLUGIN = f'''"""A pass whose label looks like markup: the page shows it as text."""
from azul_core import hookimpl
from azul_core.rules import Move

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_declare_moves():
    return [Move("pass", label={HOSTILE_LABEL!r})]


@hookimpl
def azul_offer_moves(stage):
    return [Move("pass")] if stage == "turn" else None
'''


def running(tmp_path: Path, name: str, *folders: Path) -> Server:
    _need_browser()
    options: list[str] = []
    for folder in folders:
        options += ["--variants", str(folder)]
    server = Server(tmp_path / "data", seed=f"browser-{name}", extra=tuple(options))
    server.start()
    return server


def take_plugin_move(person: Person, choose) -> str | None:
    """If the page offers a house rule's move and ``choose(labels)`` picks one (an index),
    click its button and confirm: the move sent, else None."""
    page = person.page
    buttons = page.locator("#plugin-moves button.plugin-move")
    if page.locator("#plugin-moves").is_hidden() or not buttons.count():
        return None
    index = choose(buttons.all_inner_texts())
    if index is None:
        return None
    before = person.version()
    button = buttons.nth(index)
    move = button.get_attribute("data-move")
    button.click()
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert f"({move})" in page.inner_text("#pending-text")
    page.click("#confirm")
    person.wait_version_after(before)
    person.moves += 1
    return move


def play_with_moves(people: list[Person], until, choose, seconds: float = GAME_SECONDS) -> list[str]:
    """Whoever's page says it is their turn moves: a house rule's move when ``choose`` picks one
    (it must when no draft is on offer), else a draft or a wall space by clicking."""
    taken = []
    deadline = time.monotonic() + seconds
    while not until():
        assert time.monotonic() < deadline, "the game did not move on in time"
        moved = False
        for person in people:
            if not person.my_turn():
                continue
            move = take_plugin_move(person, choose(person))
            if move:
                taken.append(move)
            else:
                person.play_one()
            moved = True
            if until():
                break
        if not moved:
            time.sleep(0.03)
    return taken


def test_pass_once_game_with_move_buttons(browser, tmp_path, shots, errors):
    """Two friends play pass-once: the pass is a button with the plugin's label (and typed once
    in the move box), the server refuses a second pass in a round, the record validates."""
    folder = EXAMPLES / "pass-once"
    server = running(tmp_path, "pass-once", folder)
    try:
        table = server.create("pass-once", [{"name": "Ann"}, {"name": "Bob"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        bob = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Bob", errors)
        assert ann.my_turn()
        button = ann.page.locator("#plugin-moves button.plugin-move")
        assert button.inner_text() == "Pass this turn (once a round)"
        assert bob.page.locator("#plugin-moves").is_hidden(), "not Bob's turn: no button"
        info = ann.page.inner_text("#plugin-info")
        assert "You may still pass this round" in info and "Bob may still pass this round" in info
        button.click()
        ann.page.wait_for_selector("#confirm-bar:not([hidden])")
        ann.page.screenshot(path=str(shots / "plugin-move.png"))
        assert ann.page.inner_text("#pending-text") == "Pass this turn (once a round) (+pass)."
        before = ann.version()
        ann.page.click("#confirm")
        ann.wait_version_after(before)
        bob.wait_version_after(before)
        assert bob.my_turn() and "Ann: Pass this turn (once a round) (+pass)" in bob.page.inner_text("#last-move")
        info = bob.page.inner_text("#plugin-info")
        assert "Ann has passed this round" in info and "You may still pass this round" in info
        assert "false" not in info and "true" not in info
        # Bob types his pass; Ann's second pass of the round is refused by the server, in words.
        bob.page.fill("input[name=move]", "+pass")
        bob.page.press("input[name=move]", "Enter")
        bob.wait_version_after(before + 1)
        assert ann.my_turn() and ann.page.locator("#plugin-moves").is_hidden()
        ann.page.fill("input[name=move]", "+pass")
        ann.page.press("input[name=move]", "Enter")
        ann.page.wait_for_selector("#message:not([hidden])")
        assert "not on offer" in ann.page.inner_text("#message")

        def choose(person):  # pass at every second chance
            return lambda labels: 0 if person.moves % 2 else None

        people = [ann, bob]
        taken = play_with_moves(people, game_over(people), choose)
        assert taken.count("+pass") >= 2
        record = check_final(ann, shots, server, variant_folder=folder)
        actions = [action for entry in record["rounds"] for action in entry["actions"]]
        assert actions[:2] == ["+pass", "+pass"] and actions.count("+pass") == taken.count("+pass") + 2
        ann.page.screenshot(path=str(shots / "game-over.png"), full_page=True)
    finally:
        server.stop()


def test_factory_one_shift_choice_on_the_page(browser, tmp_path, shots, errors):
    """After a draft from factory 1 onto a line, the page offers only the plugin's choices
    (buttons with its labels) until one is confirmed; a whole game against a bot."""
    folder = EXAMPLES / "factory-one-shift"
    server = running(tmp_path, "factory-one-shift", folder)
    try:
        table = server.create("factory-one-shift", [{"name": "Ann"}, {"bot": "random"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        choices: list[list[str]] = []

        def floor_last(labels):  # the last choice sends a tile to the floor
            return len(labels) - 1

        deadline = time.monotonic() + GAME_SECONDS
        while not ann.over():
            assert time.monotonic() < deadline, "the game did not move on in time"
            page = ann.page
            if not ann.my_turn():
                time.sleep(0.03)
            elif ann.body("phase") == "choose":
                labels = page.locator("#plugin-moves button.plugin-move").all_inner_texts()
                if not choices:
                    assert page.locator("#supply button.tile.pickable").count() == 0
                    assert "Choose one of the moves on offer" in page.inner_text("#prompt")
                    page.screenshot(path=str(shots / "choose.png"))
                    if os.environ.get("AZUL_README_SCREENSHOT") == "1":
                        shutil.copy(shots / "choose.png", ROOT / "docs" / "images" / "plugin-moves.png")
                choices.append(labels)
                assert take_plugin_move(ann, floor_last) is not None
            elif page.locator("#supply button.tile.pickable[data-source='1']").count():
                # Factory 1 onto a pattern line whenever it can be: the choice comes often.
                before = ann.version()
                page.locator("#supply button.tile.pickable[data-source='1']").first.click()
                lines = page.locator(".board.mine .line.target")
                if lines.count():
                    lines.first.click()
                elif page.locator("#confirm-bar").is_hidden():
                    page.locator(".board.mine .target").first.click()
                page.wait_for_selector("#confirm-bar:not([hidden])")
                page.click("#confirm")
                ann.wait_version_after(before)
                ann.moves += 1
            else:
                ann.play_one()
        assert choices, "the choice after a draft from factory 1 never came"
        assert all(labels[0] == "Keep the tiles where they are" and labels[-1] == "Move a tile to the floor"
                   for labels in choices)
        check_final(ann, shots, server, variant_folder=folder)
    finally:
        server.stop()


def test_a_secret_stays_on_its_own_seats_page(browser, tmp_path, shots, errors):
    """secret-goal: each seat's page shows its own goal and not the other's, the watch page
    none, a mid-game record fetched with a seat's link seals the other's; at the end every page
    shows both, and the record validates."""
    folder = EXAMPLES / "secret-goal"
    server = running(tmp_path, "secret-goal", folder)
    try:
        table = server.create("secret-goal", [{"name": "Ann"}, {"name": "Bob"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        bob = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Bob", errors)
        watcher = Person(browser.new_context(viewport=DESKTOP), table["watch_url"], "watcher", errors)
        people = [ann, bob]

        def secrets_shown(person):
            return person.page.locator(".plugin-secret").evaluate_all(
                "items => items.map(i => [Number(i.dataset.seat), i.textContent])")

        def fetched_record(person, secret):
            return json.loads(person.page.evaluate(
                """async ([table, secret]) => (await fetch(`/api/tables/${table}/record`,
                    {headers: {Authorization: `Bearer ${secret}`}})).text()""",
                [table["table"], secret]))

        def check_hidden():
            ann_shown, bob_shown = secrets_shown(ann), secrets_shown(bob)
            assert [seat for seat, _ in ann_shown] == [0] and ann_shown[0][1].startswith("Your goal: ")
            assert [seat for seat, _ in bob_shown] == [1] and bob_shown[0][1].startswith("Your goal: ")
            assert ann_shown[0][1].endswith(", 2 points a tile")
            assert "had the goal" not in ann.page.inner_text("body")
            assert "had the goal" not in bob.page.inner_text("body")
            assert secrets_shown(watcher) == [] and watcher.page.locator("#plugin-info").is_hidden()
            return ann_shown[0][1], bob_shown[0][1]

        ann_goal, bob_goal = check_hidden()
        ann_secret = table["seats"][0]["url"].split("#seat=")[1]
        record = fetched_record(ann, ann_secret)
        assert record["secrets"]["secret_goal"][1] == {"sealed": True}
        assert ann_goal == f"Your goal: {COLOUR_NAMES[record['secrets']['secret_goal'][0]]}, 2 points a tile"
        watch_secret = table["watch_url"].split("#watch=")[1]
        assert fetched_record(watcher, watch_secret)["secrets"] == {"secret_goal": [{"sealed": True}] * 2}
        ann.page.screenshot(path=str(shots / "own-secret.png"))

        # Halfway through, after a page is opened again, still each its own.
        play_with_moves(people, lambda: int(ann.body("round") or 1) >= 3 or ann.over(), lambda p: lambda _: None)
        bob.reopen()
        if not ann.over():
            assert check_hidden() == (ann_goal, bob_goal)
        play_with_moves(people, game_over(people + [watcher]), lambda p: lambda _: None)
        # The game is over: every page shows both, the watcher's too, and the bonus they gave.
        ann_had, bob_had = (goal.replace("Your goal: ", f"{name} had the goal ")
                            for goal, name in ((ann_goal, "Ann"), (bob_goal, "Bob")))
        assert [text for _, text in secrets_shown(ann)] == [ann_goal, bob_had]
        assert [text for _, text in secrets_shown(bob)] == [ann_had, bob_goal]
        assert [text for _, text in secrets_shown(watcher)] == [ann_had, bob_had]
        assert "secret goal" in ann.page.inner_text("#final-panel")
        record = check_final(bob, shots, server, variant_folder=folder)
        assert set(map(str, record["secrets"]["secret_goal"])) <= {"0", "1", "2", "3", "4"}
    finally:
        server.stop()


def test_a_move_label_is_text_never_markup(browser, tmp_path, errors):
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "hostile_pass.py").write_text(HOSTILE_PLUGIN)
    (folder / "hostile-pass.yaml").write_text(
        "name: hostile-pass\ndescription: a pass with a label like markup\nextends: standard\n"
        "plugins: [standard, colour_wall, hostile_pass.py]\n")
    server = running(tmp_path, "hostile-pass", folder)
    try:
        table = server.create("hostile-pass", [{"name": "Ann"}, {"name": "Bob"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        assert ann.page.locator("#plugin-moves button.plugin-move").inner_text() == HOSTILE_LABEL
        assert ann.page.locator("main img").count() == 0
        take_plugin_move(ann, lambda labels: 0)
        assert HOSTILE_LABEL in ann.page.inner_text("#last-move")
        assert ann.page.locator("main img").count() == 0 and ann.page.title() != "1"
    finally:
        server.stop()
