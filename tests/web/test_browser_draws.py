"""Tiles a rule draws from the bag, in a real browser (Playwright, Debian's Chromium, a real
`azul serve --variants examples/refill-factories`), issue 40.

Ann plays against the random bot until her page offers the refill (a turn of hers left one
factory holding tiles); she clicks "Refill the empty factories from the bag" and confirms: the
factories that were empty show the tiles the server drew, the game log tells each draw in words
("Drawn from the bag onto factory 2: ..."), and so does the last move, after her refill.

The server, the pages and the helpers are those of ``test_browser.py``.
"""

from __future__ import annotations

import re
import time

import pytest
from test_browser import DESKTOP, GAME_SECONDS, ROOT, Person, Server, _need_browser, browser, errors, shots
from test_browser_phases import choose, offered

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

REFILL = ROOT / "examples" / "refill-factories"
#: a draw's words in the log: the factory, then each colour drawn with its count
DRAWN = re.compile(r"Drawn from the bag onto factory (\d): ((?:\d (?:blue|yellow|red|black|white)(?:, )?)+)")

#: each factory's tiles, as the page draws them (their colours' names)
FACTORIES = """() => [...document.querySelectorAll('#factories .factory')]
  .map((factory) => [...factory.querySelectorAll('.tile')].map((tile) => tile.dataset.colour))"""


def test_a_click_refills_the_empty_factories_and_the_log_tells_what_was_drawn(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="browser-refill", extra=("--variants", str(REFILL)))
    server.start()
    try:
        table = server.create("refill-factories", [{"name": "Ann"}, {"bot": "random"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        page = ann.page
        deadline = time.monotonic() + GAME_SECONDS
        while True:
            # One look at the page: its turn and its phase come from the same render.
            seen = page.evaluate("""() => ({mine: document.body.dataset.myTurn === 'yes',
                                            phase: document.body.dataset.phase,
                                            refill: !!document.querySelector("#plugin-moves button[data-move='+refill']")})""")
            if seen["mine"] and seen["refill"]:
                break
            assert time.monotonic() < deadline, "Ann's page never offered the refill"
            assert seen["phase"] != "over", "the game ended before Ann was offered the refill"
            if seen["mine"] and seen["phase"] in ("draft", "place"):
                ann.play_one()
            else:
                time.sleep(0.03)
        assert offered(ann) == ["+refill", "+leave"]
        factories = page.evaluate(FACTORIES)
        empty = [number for number, tiles in enumerate(factories, 1) if not tiles]
        assert len(empty) == 4
        page.screenshot(path=str(shots / "refill-offered.png"), full_page=True)
        log = page.locator("#game-log li.log-drawn")
        before = log.count()  # the bot's refills of earlier rounds
        assert choose(ann, "+refill") == "Refill the empty factories from the bag"
        # Told in the game log, a line per factory refilled, right after Ann's refill.
        log.nth(before + len(empty) - 1).wait_for(state="attached")
        told = [DRAWN.fullmatch(" ".join((text or "").split()))
                for text in log.all_text_contents()[before:before + len(empty)]]
        assert all(told), told
        assert log.nth(before).evaluate("item => item.previousElementSibling.textContent") == \
            "Ann: Refill the empty factories from the bag (+refill)"
        assert [int(match.group(1)) for match in told] == empty
        drawn = {int(match.group(1)): sorted(match.group(2).split(", ")) for match in told}
        # Each factory shows what its draw brought, until someone takes from it: at Ann's next
        # turn the bot has drafted once, so all of them but at most one show their draw's.
        page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
        factories = page.evaluate(FACTORIES)
        for number in empty:
            tiles = factories[number - 1]
            if tiles:
                counts = sorted(f"{tiles.count(colour)} {colour}" for colour in set(tiles))
                assert counts == drawn[number], (number, tiles)
        assert sum(1 for number in empty if factories[number - 1]) >= len(empty) - 1
        # The log's count of moves leaves the draws out: chance, nobody's move.
        count, moves = page.evaluate("""() => [document.querySelector('#game-log .log-count').textContent,
            document.querySelectorAll('#game-log li.log-move:not(.log-drawn)').length]""")
        assert count == f"({moves} moves)"
        page.screenshot(path=str(shots / "refill-drawn.png"), full_page=True)
        assert not errors, errors
    finally:
        server.stop()
