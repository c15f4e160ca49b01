"""The plugins' phases in a real browser (Playwright, Debian's Chromium, a real `azul serve
--variants examples/...`), issue 40.

examples/lid-market: Ann plays against a bot until her page names the phase at the round's end
("Round's end: ...") and offers the market; she buys a tile by clicking, and the last move says
so. examples/colour-bid: Ann and Bob, in two browser contexts, and a bot pick a colour at the
round's start, in secret: each page names the phase, and until every seat has picked each page
shows its own pick alone ("You chose: ...") and who else has chosen, never what (the page's whole
text, the log's too, the moves on offer aside); once all have picked, every page tells every pick.

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
    errors,
    shots,
)

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)

LID_MARKET = ROOT / "examples" / "lid-market"
COLOUR_BID = ROOT / "examples" / "colour-bid"
COLOURS = ("blue", "yellow", "red", "black", "white")
#: what a pick's label or notation starts with, per colour
PICK_WORDS = {colour: (f"Pick {colour}:", f"+pick:{index}") for index, colour in enumerate(COLOURS)}

#: the page's whole text (hidden parts too: the log folded away) but the moves on offer and the
#: move waiting for Confirm, which list what this page's own seat may choose, and the rules of
#: the variant, which list every move the house rule has
PAGE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  for (const node of copy.querySelectorAll('#plugin-moves, #confirm-bar, #rules-box')) node.remove();
  return copy.textContent + ' ' + document.title;
}"""


def in_phase(person: Person, stage: str) -> bool:
    return person.page.locator(f"#phase-note[data-stage='{stage}']").count() == 1


def choose(person: Person, move: str) -> str:
    """Click the house rule's move ``move`` on ``person``'s page and confirm it; its label."""
    page = person.page
    before = person.version()
    button = page.locator(f"#plugin-moves button.plugin-move[data-move='{move}']")
    label = button.inner_text()
    button.click()
    page.wait_for_selector("#confirm-bar:not([hidden])")
    assert page.inner_text("#pending-text") == f"{label} ({move})."
    page.click("#confirm")
    person.wait_version_after(before)
    return label


def offered(person: Person) -> list[str]:
    return person.page.locator("#plugin-moves button.plugin-move").evaluate_all(
        "buttons => buttons.map(b => b.dataset.move)")


def picks_shown(person: Person) -> set[str]:
    """The colours whose pick ``person``'s page names outside its own offer."""
    text = person.page.evaluate(PAGE_TEXT)
    return {colour for colour, words in PICK_WORDS.items() if any(word in text for word in words)}


def revealed(person: Person) -> str:
    """The game log's entry that tells every pick (the log, not the last move: the first draft
    may follow the reveal at once, and a page may skip drawing a version that another follows
    within one frame)."""
    entry = person.page.locator("#game-log li", has_text="Everyone has chosen: ")
    entry.wait_for(state="attached")
    return " ".join((entry.text_content() or "").split())


def test_the_lid_market_is_named_and_bought_from_by_click(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="browser-lid-market", extra=("--variants", str(LID_MARKET)))
    server.start()
    try:
        table = server.create("lid-market", [{"name": "Ann"}, {"bot": "random"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        deadline = time.monotonic() + GAME_SECONDS
        page = ann.page
        while True:
            # One look at the page: its turn and its phase come from the same render.
            seen = page.evaluate("""() => ({mine: document.body.dataset.myTurn === 'yes',
                                            phase: document.body.dataset.phase,
                                            market: !!document.querySelector("#phase-note[data-stage='round_end']")})""")
            if seen["mine"] and seen["market"]:
                break
            assert time.monotonic() < deadline, "Ann's page never offered the market"
            assert seen["phase"] != "over", "the game ended before Ann was offered the market"
            if seen["mine"] and seen["phase"] in ("draft", "place"):
                ann.play_one()
            else:
                time.sleep(0.03)
        note = page.inner_text("#phase-note")
        assert note == ("Round's end: choose after the wall tiling, before the floors are paid. "
                        "Buy a tile from the lid for 2 points, or nothing.")
        assert page.inner_text("#prompt") == "Choose one of the moves on offer."
        moves = offered(ann)
        assert moves[0] == "+no-buy" and all(move.startswith("+buy:") for move in moves[1:]) and moves[1:]
        assert page.locator("#plugin-moves button.plugin-move").first.inner_text() == "Buy nothing"
        page.screenshot(path=str(shots / "market-offered.png"), full_page=True)
        label = choose(ann, moves[1])
        assert label.startswith("Buy a ") and label.endswith("(2 points)")
        # In the game log (the last move may be the bot's already: a page may skip a version's
        # drawing when two come within one frame).
        page.wait_for_function("m => document.getElementById('game-log')?.textContent.includes(m)",
                               arg=f"Ann: {label} ({moves[1]})")
        page.screenshot(path=str(shots / "market-bought.png"), full_page=True)
    finally:
        server.stop()


def test_colour_bid_each_page_sees_its_own_pick_alone_until_all_have_picked(browser, tmp_path, shots, errors):
    _need_browser()
    server = Server(tmp_path / "data", seed="browser-colour-bid", extra=("--variants", str(COLOUR_BID)))
    server.start()
    try:
        table = server.create("colour-bid", [{"name": "Ann"}, {"name": "Bob"}, {"bot": "greedy"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ann", errors)
        bob = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Bob", errors)
        people = {"Ann": ann, "Bob": bob}
        for person in people.values():
            person.page.wait_for_selector("#phase-note[data-stage='round_start']")
            note = person.page.inner_text("#phase-note")
            assert note.startswith("Round's start: choose before the first draft, in secret: "
                                   "nobody sees a choice until everyone has chosen.")
        ours = {"Ann": "+pick:2", "Bob": "+pick:4"}  # red, white
        picked: list[str] = []
        deadline = time.monotonic() + GAME_SECONDS
        while len(picked) < 2:
            assert time.monotonic() < deadline, "the picks did not come round in time"
            chooser = next((name for name, person in people.items() if person.my_turn()), None)
            if chooser is None:
                time.sleep(0.03)
                continue
            person = people[chooser]
            person.page.wait_for_selector("#phase-note[data-stage='round_start']")
            waiting = [other for name, other in people.items() if name != chooser and name not in picked]
            for other in waiting:
                # A page whose seat has not picked yet names no pick, though the bot or the other
                # friend may have picked already.
                assert picks_shown(other) == set(), other.label
                assert "Waiting for the others" in other.page.inner_text("#phase-note")
            assert picks_shown(person) == set()
            person.page.screenshot(path=str(shots / f"{chooser}-to-pick.png"), full_page=True)
            for other in waiting:
                other.page.screenshot(path=str(shots / f"{other.label}-waits-while-{chooser}-picks.png"),
                                      full_page=True)
            choose(person, ours[chooser])
            picked.append(chooser)
            if len(picked) == 2:
                break
            # The chooser's page shows its own pick, sealed; the other friend's, that it was made.
            person.page.wait_for_function(
                "() => document.getElementById('phase-note')?.textContent.includes('You chose: Pick')")
            note = person.page.inner_text("#phase-note")
            colour = COLOURS[int(ours[chooser].split(':')[1])]
            assert f"You chose: Pick {colour}: double points for it this round." in note
            assert "Waiting for the others" in note
            assert picks_shown(person) == {colour}
            other = people["Bob" if chooser == "Ann" else "Ann"]
            other.page.wait_for_function(
                "n => document.getElementById('phase-note')?.textContent.includes(n)", arg=f"{chooser}")
            assert picks_shown(other) == set()
            assert f"{chooser} has chosen, in secret" in other.page.evaluate(PAGE_TEXT)
            person.page.screenshot(path=str(shots / f"{chooser}-picked-waits.png"), full_page=True)
        # Every seat has picked once the bot has too: every page tells every pick.
        for person in people.values():
            last = revealed(person)
            assert "Ann: Pick red: double points for it this round (+pick:2)" in last
            assert "Bob: Pick white: double points for it this round (+pick:4)" in last
            assert "greedy: Pick " in last
            assert person.page.locator("#phase-note").count() == 0
            person.page.screenshot(path=str(shots / f"{person.label}-all-picked.png"), full_page=True)
    finally:
        server.stop()


def test_colour_bid_a_bot_that_picks_first_is_not_shown_before_the_person_picks(browser, tmp_path, shots, errors):
    """At this seed the bot (seat 0) picks first in round 1: Ann's page says it has chosen,
    names no pick until hers is made, then tells both."""
    _need_browser()
    server = Server(tmp_path / "data", seed="browser-colour-bid-bot", extra=("--variants", str(COLOUR_BID)))
    server.start()
    try:
        table = server.create("colour-bid", [{"bot": "greedy"}, {"name": "Ann"}])
        ann = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Ann", errors)
        page = ann.page
        page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
        assert in_phase(ann, "round_start")
        assert page.inner_text("#last-move") == "Last move: greedy has chosen, in secret"
        note = page.inner_text("#phase-note")
        assert "greedy has chosen." in note and "You chose" not in note
        assert picks_shown(ann) == set()
        assert page.inner_text("#prompt") == "Choose one of the moves on offer. Nobody sees it until everyone has chosen."
        page.screenshot(path=str(shots / "ann-to-pick-after-the-bot.png"), full_page=True)
        choose(ann, "+pick:1")  # yellow
        last = revealed(ann)
        assert last.startswith("Everyone has chosen: greedy: Pick ")
        assert last.endswith("Ann: Pick yellow: double points for it this round (+pick:1)")
        page.screenshot(path=str(shots / "ann-after-both-picked.png"), full_page=True)
    finally:
        server.stop()
