"""The keyboard help is for a keyboard: a phone (375 px wide, a touch screen, whether or not its
browser claims it can hover) doesn't show it; a desktop window does (Playwright, Debian's
Chromium; issue 42)."""

from __future__ import annotations

import pytest
from test_browser import Person, browser, errors, server

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server)

PHONE = {"width": 375, "height": 667}
PHONES = {
    "a touch screen": {"viewport": PHONE, "has_touch": True},
    "a mobile browser": {"viewport": PHONE, "has_touch": True, "is_mobile": True},
    # A phone whose browser says its pointer is fine and hovers, as some Android ones do (and as
    # Chromium's touch emulation can't be made to): a hover media query alone showed the help.
    "a phone that claims to hover": {"viewport": PHONE},
}


def keys_help_shown(browser, server, errors, **context) -> bool:
    table = server.create("standard", [{"name": "Ann"}, {"bot": "greedy"}])
    person = Person(browser.new_context(**context), table["seats"][0]["url"], "Ann", errors)
    page = person.page
    page.wait_for_selector("#keys-help", state="attached")
    shown = page.locator("#keys-help").is_visible()
    person.context.close()
    return shown


@pytest.mark.parametrize("phone", PHONES)
def test_a_phone_does_not_show_the_keyboard_help(browser, server, errors, phone):
    assert not keys_help_shown(browser, server, errors, **PHONES[phone])


def test_a_desktop_window_shows_the_keyboard_help(browser, server, errors):
    assert keys_help_shown(browser, server, errors, viewport={"width": 1280, "height": 800})
