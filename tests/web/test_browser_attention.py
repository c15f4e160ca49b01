"""Knowing it is your turn, a move arriving shown travelling, and the move box's `?` list, in
Chromium (Playwright, the server and pages of test_browser.py), issue 42.

- The title starts with "● Your turn — " and the icon is the amber-dotted one while it is the
  seat's turn, and both are as before once it is not.
- "Sound when it's my turn" is kept across a reload (localStorage); with it on, the turn arriving
  while the page is hidden plays one tone, and never while the page is seen or with it off. The
  page's AudioContext is a stand-in that counts the tones, and `document.hidden` is the test's.
- Another seat's draft flies from its source to its line as a tile drawn over the page, which
  already shows the new version; a click lands it, so does the next update; the page's own move
  does not fly, and nothing flies for a browser that asks for less motion. The flights are held
  still (their animation paused) so that the test looks at them without racing them.
- The `?` list is asked for again when the seat's turn comes and closed when it passes, and it
  fits in the screen at 375 and 1280 px: nothing hidden at its right.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from test_browser import DESKTOP, PHONE, Person, browser, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

PLAIN_ICON = "/static/favicon.svg"
TURN_ICON = "/static/favicon-turn.svg"
TURN_MARK = "● Your turn — "

#: A stand-in for the Web Audio API that counts the tones started (window.tones), and a
#: `document.hidden` the test sets (window.pretendHidden).
FAKE_AUDIO_AND_HIDDEN = """
window.tones = 0;
window.pretendHidden = false;
Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => window.pretendHidden });
const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {}, linearRampToValueAtTime() {} };
class CountingAudio {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    return { type: 'sine', frequency: param, connect: (node) => node, start: () => { window.tones += 1; }, stop() {} };
  }
  createGain() { return { gain: param, connect: (node) => node }; }
}
window.AudioContext = CountingAudio;
window.webkitAudioContext = CountingAudio;
"""

#: Every flying tile put on the page is noted (window.flights), and its animation held still.
NOTE_FLIGHTS = """
window.flights = [];
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.classList?.contains('flying-tile')) {
        window.flights.push({ move: node.dataset.move, letter: node.textContent,
                              version: document.body.dataset.version });
      }
    }
  }
}).observe(document, { childList: true, subtree: true });
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const animation = animate.apply(this, args);
  animation.pause();
  return animation;
};
"""


@pytest.fixture
def errors():
    found: list[str] = []
    yield found
    assert not found, "errors on the pages:\n" + "\n".join(found)


def person(browser, url: str, label: str, errors: list[str], script: str = "", **options) -> Person:  # noqa: F811
    context = browser.new_context(**{"viewport": DESKTOP, **options})
    if script:
        context.add_init_script(script)
    return Person(context, url, label, errors)


def looks(someone: Person) -> tuple[str, str]:
    return someone.page.title(), someone.page.get_attribute("link[rel~='icon']", "href")


def moved(mover: Person, *watching: Person) -> None:
    """``mover`` makes one move; every page in ``watching`` shows it."""
    before = mover.version()
    mover.play_one()
    for other in watching:
        other.wait_version_after(before)


def test_the_title_and_the_icon_say_it_is_your_turn_and_a_hidden_page_sounds_once(browser, server, errors):  # noqa: F811
    table = server.create("standard", [{"name": "Ann"}, {"name": "Bob"}])
    ann = person(browser, table["seats"][0]["url"], "Ann", errors, FAKE_AUDIO_AND_HIDDEN)
    bob = person(browser, table["seats"][1]["url"], "Bob", errors, FAKE_AUDIO_AND_HIDDEN)
    assert looks(ann) == (f"{TURN_MARK}Azul (standard)", TURN_ICON)
    assert looks(bob) == ("Azul (standard)", PLAIN_ICON)

    # The setting is off at first, and kept once ticked, past a reload.
    sound = bob.page.locator("#turn-sound")
    assert bob.page.get_by_label("Sound when it's my turn").is_visible() and not sound.is_checked()
    sound.check()
    bob.reopen()
    assert bob.page.locator("#turn-sound").is_checked()

    moved(ann, bob)
    assert looks(ann) == ("Azul (standard)", PLAIN_ICON)
    assert looks(bob) == (f"{TURN_MARK}Azul (standard)", TURN_ICON)
    assert bob.page.evaluate("window.tones") == 0, "the page was in view: no sound"

    moved(bob, ann)
    assert looks(bob) == ("Azul (standard)", PLAIN_ICON)
    bob.page.evaluate("window.pretendHidden = true")
    moved(ann, bob)
    assert looks(bob)[0].startswith(TURN_MARK)
    assert bob.page.evaluate("window.tones") == 1, "hidden, with the sound on: one tone"

    # Off again: hidden, the turn arrives in silence.
    bob.page.locator("#turn-sound").uncheck()
    moved(bob, ann)
    moved(ann, bob)
    assert bob.my_turn() and bob.page.evaluate("window.tones") == 1
    bob.reopen()
    assert not bob.page.locator("#turn-sound").is_checked()


def test_another_seat_s_move_flies_to_its_line_and_lands_on_a_click_or_the_next_update(browser, server, errors):  # noqa: F811
    table = server.create("standard", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}])
    ann = person(browser, table["seats"][0]["url"], "Ann", errors, NOTE_FLIGHTS)
    bob = person(browser, table["seats"][1]["url"], "Bob", errors)
    cy = person(browser, table["seats"][2]["url"], "Cy", errors)
    flying = ann.page.locator(".flying-tile")

    moved(ann, bob, cy)
    assert ann.page.evaluate("window.flights") == [], "the page's own move does not fly"

    before = ann.version()
    moved(bob, ann, cy)
    flights = ann.page.evaluate("window.flights")
    assert len(flights) == 1 and flying.count() == 1
    move = flights[0]["move"]
    # Drawn over the page once it showed the move (it held nothing back), a tile of its colour.
    assert int(flights[0]["version"]) > before and flights[0]["letter"] == move[1]
    line = "floor" if move[2] == "-" else str(int(move[2]) - 1)
    assert ann.page.locator(f".board[data-seat='1'] [data-line='{line}'] .tile").count() >= 1
    ann.page.mouse.click(5, DESKTOP["height"] - 5)
    assert flying.count() == 0, "a click lands it"

    # Cy's move arrives while Bob's is in the air (nobody clicks on Ann's page): Bob's lands.
    moved(cy, ann, bob)
    moved(ann, bob, cy)
    moved(bob, ann, cy)
    moved(cy, ann, bob)
    flights = ann.page.evaluate("window.flights")
    assert len(flights) == 4 and flying.count() == 1
    assert flying.get_attribute("data-move") == flights[3]["move"]

    # A new version that is no move (Bob's seat handed to a bot, on Ann's turn) flies nothing
    # again, and lands what is in the air.
    before = ann.version()
    hand_over = urllib.request.Request(f"{server.url}/api/tables/{table['table']}/seats/1/bot", method="POST",
                                       data=json.dumps({"bot": "random"}).encode(),
                                       headers={"Authorization": f"Bearer {table['admin_secret']}",
                                                "Content-Type": "application/json"})
    with urllib.request.urlopen(hand_over, timeout=10) as answer:
        assert answer.status == 200
    ann.wait_version_after(before)
    assert flying.count() == 0 and len(ann.page.evaluate("window.flights")) == 4


def test_nothing_flies_for_a_browser_that_asks_for_less_motion(browser, server, errors):  # noqa: F811
    table = server.create("standard", [{"name": "Ann"}, {"name": "Bob"}])
    ann = person(browser, table["seats"][0]["url"], "Ann", errors, NOTE_FLIGHTS, reduced_motion="reduce")
    bob = person(browser, table["seats"][1]["url"], "Bob", errors)
    for _ in range(2):
        moved(ann, bob)
        moved(bob, ann)
    assert ann.page.evaluate("window.flights") == []


def answer_box(someone: Person) -> dict:
    return someone.page.evaluate("""() => {
      const box = document.querySelector('#move-answer');
      const text = box.querySelector('pre');
      const edge = box.getBoundingClientRect();
      // The lines that name moves (a sentence is the page's to wrap).
      const lines = text.textContent.split('\\n').filter((line) => /^(C|\\d)/.test(line))
        .map((line) => line.trimEnd().length);
      const probe = document.createElement('span');
      probe.textContent = '0'.repeat(10);
      text.append(probe);
      const across = (text.clientWidth - 16) / (probe.getBoundingClientRect().width / 10);
      probe.remove();
      return { left: edge.left, right: edge.right, hidden: box.hidden, text: text.textContent,
               hiddenAtRight: text.scrollWidth > text.clientWidth, moves: lines.length,
               unbroken: Math.max(...lines) <= across };
    }""")


def ask(someone: Person, question: str) -> None:
    someone.page.evaluate("() => { const box = document.querySelector('#move-answer pre'); if (box) box.textContent = ''; }")
    someone.page.fill("input[name=move]", question)
    someone.page.press("input[name=move]", "Enter")
    someone.page.wait_for_function("() => document.querySelector('#move-answer pre')?.textContent")


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["375px", "1280px"])
def test_the_question_mark_list_follows_the_turn_and_fits_the_screen(browser, server, errors, screen):  # noqa: F811
    table = server.create("standard", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}, {"name": "Di"}])
    seats = [person(browser, seat["url"], name, errors, viewport=screen)
             for seat, name in zip(table["seats"], ["Ann", "Bob", "Cy", "Di"])]
    ann, bob = seats[0], seats[1]

    ask(bob, "?")
    assert answer_box(bob)["text"].startswith("It is Ann's turn")
    # Bob's turn comes: the list is asked for again, and is his moves.
    moved(ann, bob)
    bob.page.wait_for_function("() => document.querySelector('#move-answer pre').textContent.startsWith('Type e.g.')")
    listed = answer_box(bob)
    assert not listed["hidden"]
    # Nine factories' moves, laid out for the box (no line broken in two): all of it in the
    # screen, none hidden at its right.
    assert 0 <= listed["left"] and listed["right"] <= screen["width"] and not listed["hiddenAtRight"], listed
    assert listed["moves"] > 10 and listed["unbroken"], listed["text"]
    assert bob.page.evaluate("document.documentElement.scrollWidth") <= screen["width"]

    # His turn passes: the list of his moves is closed, not left to go stale.
    moved(bob, ann)
    assert answer_box(bob)["hidden"]

    # How to type a move does not go out of date: it stays open.
    ask(bob, "help")
    moved(seats[2], bob)
    help_box = answer_box(bob)
    assert not help_box["hidden"] and help_box["text"].startswith("Type a move")
    assert help_box["right"] <= screen["width"] and not help_box["hiddenAtRight"]


def test_the_list_is_laid_out_for_the_width_a_page_asks_kept_within_bounds():
    """No browser: the server lays the `?` list out for the page's width, one column where two
    don't fit, and never narrower than MIN_WIDTH or wider than the terminal's 80 columns,
    whatever the page sent."""
    import random
    import re

    from azul_core.players.render import WIDTH, draw_legal, render_text
    from azul_core.testing import new_game
    from azul_core.web.asking import MIN_WIDTH, asked_width

    game = new_game("standard", players=4)
    game.deal(random.Random(3))
    moves = re.compile(r"^(C|\d)")  # the lines that name moves, not the sentences
    wide = [line for line in render_text(draw_legal(game)).splitlines() if moves.match(line)]
    narrow = [line for line in render_text(draw_legal(game, width=44)).splitlines() if moves.match(line)]
    assert max(len(line.rstrip()) for line in wide) > 44, "two columns at 80"
    assert max(len(line.rstrip()) for line in narrow) <= 44
    assert len(narrow) > len(wide)
    assert [asked_width(value) for value in (44, 5, 10**9, "wide", True, None, 44.5)] == \
        [44, MIN_WIDTH, WIDTH, WIDTH, WIDTH, WIDTH, WIDTH]
