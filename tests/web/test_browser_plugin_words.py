"""Issue 42, "secrets and house-rule memory shown as raw values": the page showed "secret
(secret_goal): 3" and pass-once's memory as ``[false,false]``. Each plugin now says what its
secret and memory mean (``azul_describe``) and the page shows those words, addressed to the
seat's own player or following another seat's name, and never another seat's secret.

``AZUL_README_SCREENSHOT=1`` also refreshes docs/images/words-secret-goal*.png."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from test_browser import DESKTOP, PHONE, ROOT, Person, browser, errors, shots
from test_browser_plugin_moves import EXAMPLES, running

from azul_core.colours import NAMES

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

GOAL = re.compile(r"^Your goal: (blue|yellow|red|black|white), 2 points a tile$")


def words(person: Person) -> list[str]:
    return person.page.locator("#plugin-info li").all_inner_texts()


def keep(page, shots, name: str) -> None:
    """The page at 1280 and 375 px, scrolled to the house rules' words."""
    for size, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)  # let the layout settle before the picture
        page.locator("#plugin-info").scroll_into_view_if_needed()
        shot = shots / f"{name}{suffix}.png"
        page.screenshot(path=str(shot))
        if os.environ.get("AZUL_README_SCREENSHOT") == "1":
            shutil.copy(shot, ROOT / "docs" / "images" / shot.name)
    page.set_viewport_size(DESKTOP)


def test_a_secret_goal_reads_in_words_on_its_own_seat_only(browser, tmp_path, shots, errors):
    server = running(tmp_path, "secret-goal-words", EXAMPLES / "secret-goal")
    try:
        table = server.create("secret-goal", [{"name": "Ann"}, {"name": "Bob"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        bob = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Bob", errors)
        watcher = Person(browser.new_context(viewport=DESKTOP), table["watch_url"], "watcher", errors)
        ann_words, bob_words = words(ann), words(bob)
        assert len(ann_words) == 1 and GOAL.match(ann_words[0]), ann_words
        assert len(bob_words) == 1 and GOAL.match(bob_words[0]), bob_words
        for person in (ann, bob, watcher):
            body = person.page.inner_text("body")
            assert "secret_goal" not in body and "had the goal" not in body
        # Never the other seat's goal: not in the page's text, nor anywhere in its document.
        for person, other in ((ann, "Bob"), (bob, "Ann")):
            html = person.page.content()
            assert f"{other} had the goal" not in html
        assert words(watcher) == [] and watcher.page.locator("#plugin-info").is_hidden()
        keep(ann.page, shots, "words-secret-goal")
    finally:
        server.stop()


def test_pass_once_and_take_a_tile_say_who_may_still_use_their_move(browser, tmp_path, errors):
    server = running(tmp_path, "memory-words", EXAMPLES / "pass-once", EXAMPLES / "take-a-tile")
    try:
        table = server.create("pass-once", [{"name": "Ann"}, {"name": "Bob"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        bob = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Bob", errors)
        assert words(ann) == ["You may still pass this round", "Bob may still pass this round"]
        assert ann.my_turn()
        before = ann.version()
        ann.page.click("#plugin-moves button.plugin-move")
        ann.page.click("#confirm")
        bob.wait_version_after(before)
        assert words(bob) == ["Ann has passed this round", "You may still pass this round"]
        ann.wait_version_after(before)
        assert words(ann)[0] == "You have passed this round"

        table = server.create("take-a-tile", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}])
        cy = Person(browser.new_context(viewport=PHONE), table["seats"][2]["url"], "Cy", errors)
        assert words(cy) == ["Ann may still take a tile", "Bob may still take a tile", "You may still take a tile"]
        assert not any("false" in text or "[" in text for text in words(cy))
    finally:
        server.stop()


def test_the_words_are_text_never_markup(browser, tmp_path, errors):
    folder = tmp_path / "shouting"
    folder.mkdir()
    (folder / "shouting.py").write_text(
        "from azul_core import hookimpl\n"
        "AZUL_API = 1\n\n"
        "@hookimpl\ndef azul_initial_memory(players):\n    return 0\n\n"
        "@hookimpl\ndef azul_describe(kind, seat):\n"
        "    return '<b onmouseover=\"document.title=1\">loud</b>' if seat is None else None\n")
    (folder / "shouting.yaml").write_text(
        "name: shouting\ndescription: Standard Azul with a memory that looks like markup.\n"
        "extends: standard\nplugins: [standard, colour_wall, shouting.py]\n")
    server = running(tmp_path, "shouting", folder)
    try:
        table = server.create("shouting", [{"name": "Ann"}, {"bot": "random"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        assert words(ann) == ['<b onmouseover="document.title=1">loud</b>']
        assert ann.page.locator("#plugin-info b").count() == 0
    finally:
        server.stop()


assert NAMES == ("blue", "yellow", "red", "black", "white"), "GOAL lists the colours' names"
