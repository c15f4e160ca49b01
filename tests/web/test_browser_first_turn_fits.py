"""The first turn's page in Chromium at 1280 and 375 px, as docs/images/table-first-turn-*.png
shows it (issue 42): what looking at those pictures found. A picked tile's ring covered its
factory's number, and on a phone the move box cut its example off at the right ("2R4, CK-, w").
And the points preview kept the figures of line 5, the standard board's last, off the board
whatever the board's size: a six-colour board's line 6 had them over its spaces."""

from __future__ import annotations

import pytest
from test_browser import DESKTOP, PHONE, Person, browser, errors, server
from test_browser_board_sizes import served

pytestmark = pytest.mark.browser
#: the fixtures of the modules imported, used here under their names
FIXTURES = (browser, errors, server, served)

#: the width the example in the move box needs, against the width its box gives to text
EXAMPLE_AND_ROOM = """() => {
  const input = document.querySelector('#move-form input[name=move]');
  const style = getComputedStyle(input);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [context.measureText(input.placeholder).width, room];
}"""


def first_turn(browser, server, errors, viewport) -> Person:
    table = server.create("standard", [{"name": "Ann"}, {"name": "Bob"}])
    context = browser.new_context(viewport=viewport, reduced_motion="reduce")
    return Person(context, table["seats"][0]["url"], "Ann", errors)


def inside_the_number(page) -> bytes:
    """Factory 1's number, inside its rounded border where its own background is all there is to see."""
    label = page.locator("#factories [data-source='1'] .source-label")
    label.scroll_into_view_if_needed()
    box = label.bounding_box()
    return page.screenshot(clip={"x": box["x"] + 3, "y": box["y"] + 3, "width": box["width"] - 6,
                                 "height": box["height"] - 6})


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "375"])
def test_a_picked_tile_leaves_its_factory_s_number_in_sight(browser, server, errors, viewport):
    page = first_turn(browser, server, errors, viewport).page
    before = inside_the_number(page)
    page.locator("#factories [data-source='1'] button.tile.pickable").first.click()
    page.wait_for_selector("#factories [data-source='1'] button.tile.selected")
    page.mouse.move(0, 0)
    # (On a phone the pick scrolls to the player's board: the number is looked for again.)
    assert inside_the_number(page) == before, "the picked tile's ring is drawn over the factory's number"
    # Line 5, the last, fills the board's width: its figures are in the list under the board only.
    assert page.locator(".board.mine .line[data-line='4'] .preview").is_hidden()
    assert page.locator(".board.mine .line[data-line='3'] .preview").is_visible()
    page.context.close()


@pytest.mark.parametrize("width", [320, 375, 414, 1280])
def test_the_move_box_s_example_is_whole(browser, server, errors, width):
    page = first_turn(browser, server, errors, {"width": width, "height": 800}).page
    example, room = page.evaluate(EXAMPLE_AND_ROOM)
    assert example <= room, f"'2R4, CK-, w1:3' needs {example:.0f} px, the box gives it {room:.0f} at {width} px"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.context.close()


def test_the_last_pattern_line_s_figures_are_in_the_list_only_on_a_board_of_any_size(browser, served, errors):
    """The last line fills the board's width: a figure on it would cover its spaces. On a board of
    six colours that line is line 6, and line 5, one space short, shows its figure like line 4 of
    the standard board."""
    table = served.create("six-colours", [{"name": "Ann"}, {"name": "Bob"}])
    page = Person(browser.new_context(viewport=DESKTOP, reduced_motion="reduce"), table["seats"][0]["url"], "Ann",
                  errors).page
    page.locator("#factories [data-source='1'] button.tile.pickable").first.click()
    page.wait_for_selector(".board.mine .preview-list")
    assert page.locator(".board.mine .line[data-line='5'].target").count() == 1
    assert page.locator(".board.mine .line[data-line='5'] .preview").is_hidden()
    assert page.locator(".board.mine .line[data-line='4'] .preview").is_visible()
    assert "Line 6:" in page.inner_text(".board.mine .preview-list")
    page.context.close()
