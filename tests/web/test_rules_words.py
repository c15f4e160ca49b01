""""Rules of this variant" in a player's words: what differs from the standard game as the rule
books say it (docs/rules/), not plugin names or the probes of `azul rules`; a house rule's own
words from its plugin's docstring, shown as text. The sentences (``variants.words``), the API
(`GET /api/variants`: `words`) and both pages in a real browser.
"""

from __future__ import annotations

import json
import types
import urllib.request
from pathlib import Path

import pytest
from test_browser import DESKTOP, PHONE, ROOT, Server, _need_browser, browser, errors, shots

from azul_core.variants import load_variant
from azul_core.variants.words import house_rule_words, rules_in_words

#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

#: What a player should never have to read: plugin and hook names, the probes' notation.
MACHINE_WORDS = ("plugin '", "Plugins:", "grey_wall", "colour_wall", "azul_", "hook", "seat 0",
                 "(+pass", "probe", "Settings:", "end_when_blocked")


@pytest.fixture(scope="module")
def standard():
    return load_variant("standard")


def words_of(variant: str | Path, standard) -> list[str]:
    return rules_in_words(load_variant(variant), standard)


def machine_free(sentences: list[str]) -> None:
    for sentence in sentences:
        for word in MACHINE_WORDS:
            assert word not in sentence, (word, sentence)


def test_the_standard_game_has_nothing_to_add(standard):
    assert words_of("standard", standard) == ["It plays exactly as the standard game: no rule differs."]


def test_grey_wall_says_you_choose_the_column(standard):
    words = words_of("grey-wall", standard)
    machine_free(words)
    assert words[0].startswith("Grey wall: no colours are printed on the wall.")
    assert "you choose the column" in words[0]
    assert "no colour twice in a row or in a column" in words[0]
    # The blocked wall's end, as the rule book says it (one sentence, not a probe's wording).
    assert any("no player's wall has a row that can still be completed" in w for w in words)
    # The wall-space probes ("where a blue tile of line 1 goes...") are one rule: said once.
    assert not any("blue tile" in w for w in words)
    assert words[-1] == "Everything else is as in the standard game."


def test_duel_in_words(standard):
    words = words_of("duel", standard)
    machine_free(words)
    text = " ".join(words)
    assert "For 2 players" in text
    assert "The floor has 8 spaces" in text and "1, 2, 4, 6, 9, 12, 16, 20 points" in text
    assert "tiled at the end of the turn that filled it" in text
    assert "whoever takes it keeps it in front of them" in text
    assert "all the tiles taken fall to the floor" in text
    assert "A tile placed on the wall scores differently" in text and "scores 4 points (standard game: 5 points)" in text


def test_a_house_rule_speaks_in_its_own_words(standard):
    words = words_of(ROOT / "examples" / "pass-once" / "pass-once.yaml", standard)
    machine_free(words)
    assert words[0] == "Pass once: once per round, a player may pass instead of drafting."
    # The move's button label (the plugin's own words), not its notation or plugin name.
    assert any("Pass this turn (once a round)" in w for w in words)
    five = words_of(ROOT / "examples" / "five-rounds" / "five-rounds.yaml", standard)
    assert "The game also ends after round 5, even with no complete row." in five
    assert not any("round 10" in w for w in five)


def test_a_plugin_without_a_docstring_says_nothing_and_shipped_ones_are_told_by_the_book():
    module = types.ModuleType("azul_file_plugin_1")  # a house rule's .py file, no docstring
    shipped = types.ModuleType("azul_plugins.grey_wall", "The grey wall (free placement): a wall with no printed colours.")
    Plugin = types.SimpleNamespace
    assert house_rule_words([Plugin(module=module), Plugin(module=shipped)]) == []
    module.__doc__ = "Long rule: " + "word " * 200 + "\n\nMore for programmers."
    said = house_rule_words([Plugin(module=module)])
    assert len(said) == 1 and len(said[0]) <= 300 and said[0].endswith("…")


# ---------------------------------------------------------------- the pages

HOSTILE_DOC = '''"""<img src=x onerror="document.title='owned'"> Mirror floor: the floor costs nothing & more.

For programmers: the hook returns 0.
"""
from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_floor_penalty(floor):
    return 0
'''


def test_the_pages_show_the_rules_in_words(browser, tmp_path, shots, errors):
    _need_browser()
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "mirror.py").write_text(HOSTILE_DOC)
    (folder / "mirror.yaml").write_text("name: mirror\ndescription: A floor that costs nothing.\n"
                                        "extends: standard\nplugins: [standard, colour_wall, mirror.py]\n")
    running = Server(tmp_path / "data", seed="rules-words", extra=("--variants", str(folder)))
    running.start()
    try:
        with urllib.request.urlopen(running.url + "/api/variants") as response:
            offered = {v["name"]: v for v in json.load(response)}
        assert offered["grey-wall"]["words"][0].startswith("Grey wall:")
        assert offered["mirror"]["words"][0].startswith('<img src=x onerror="document.title=\'owned\'"> Mirror floor')
        assert offered["standard"]["rules"], "the lines of `azul rules` are still given"

        # The home page: the rules of the variant chosen, in words.
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(running.url + "/")
        page.wait_for_selector("#variant option[value='grey-wall']", state="attached")
        page.select_option("#variant", "grey-wall")
        page.click("#variant-rules-box summary")
        listed = page.locator("#variant-rules li").all_inner_texts()
        assert listed[0].startswith("Grey wall:") and "you choose the column" in listed[0]
        machine_free(listed)
        page.select_option("#variant", "mirror")
        assert "Mirror floor" in page.inner_text("#variant-rules")
        assert page.locator("#variant-rules img").count() == 0

        # The table page: a "Rules of this variant" box, the house rule's words as text.
        table = running.create("mirror", [{"name": "Ann"}, {"bot": "greedy"}])
        for viewport, name in ((DESKTOP, "keys-rules.png"), (PHONE, "keys-rules-phone.png")):
            seat = browser.new_context(viewport=viewport).new_page()
            seat.on("pageerror", lambda error: errors.append(str(error)))
            seat.goto(table["seats"][0]["url"])
            seat.wait_for_selector("#rules-box")
            seat.click("#rules-box summary")
            items = seat.locator("#rules-words li").all_inner_texts()
            assert items[0].startswith("<img src=x") and "Mirror floor: the floor costs nothing & more." in items[0]
            assert "For programmers" not in " ".join(items)
            machine_free(items[1:])
            assert seat.locator("main img").count() == 0 and seat.title() != "owned"
            seat.locator("#rules-box").scroll_into_view_if_needed()
            seat.screenshot(path=str(shots / name))
            assert seat.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        grey = running.create("grey-wall", [{"name": "Ann"}, {"bot": "greedy"}])
        seat = browser.new_context(viewport=DESKTOP).new_page()
        seat.goto(grey["seats"][0]["url"])
        seat.wait_for_selector("#rules-box")
        seat.click("#rules-box summary")
        assert "you choose the column" in seat.inner_text("#rules-words")
    finally:
        running.stop()
