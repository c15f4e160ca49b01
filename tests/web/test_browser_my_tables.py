"""Slow games in a real browser (issue 42): the home page's clock in hours and days, a long
clock's "2 d left", and "My tables": the seats this browser opened, each with whose turn it is,
kept in the browser (localStorage) and forgotten with one click."""

from __future__ import annotations

import re

import pytest
from seats_helpers import create_with, screenshot
from test_browser import DESKTOP, PHONE, Person, browser, errors, server, shots  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

TWO_DAYS = {"mode": "move", "seconds": 2 * 86400, "bot": "greedy", "away": "off"}


def open_seat(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-version]")


def my_table(page, table_id: str):
    return page.locator(f"#my-tables li[data-table='{table_id}']")


def test_a_seat_opened_is_listed_at_home_with_whose_turn_it_is_until_forgotten(browser, server, shots, errors):  # noqa: F811
    first = create_with(server, "standard", [{"name": "Ann"}, {"name": "Bob"}], clock=TWO_DAYS)
    second = create_with(server, "standard", [{"name": "Cid"}, {"name": "Ann"}])
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"Ann: {error}"))

    page.goto(server.url + "/")
    page.wait_for_selector("#variant option[value='standard']", state="attached")
    assert page.locator("#my-tables").is_hidden(), "a new visitor has no tables to list"
    assert page.locator("#my-tables li").count() == 0

    open_seat(page, first["seats"][0]["url"])
    page.wait_for_function("document.body.dataset.myTurn === 'yes'")
    clock = page.locator("#clock")
    clock.wait_for(state="visible")
    assert "clock 2 d a move" in clock.inner_text()
    assert re.search(r"you: (2 d|1 d 23 h) left", clock.inner_text()), clock.inner_text()
    screenshot(page, shots / "slow-clock.png", DESKTOP)
    open_seat(page, second["seats"][1]["url"])

    page.goto(server.url + "/")
    page.wait_for_selector("#my-tables[data-loaded='yes']")
    assert page.locator("#my-tables").is_visible()
    yours, waiting = my_table(page, first["table"]), my_table(page, second["table"])
    assert yours.get_attribute("data-state") == "your-turn" and "Your turn" in yours.inner_text()
    assert "standard: Ann, Bob" in yours.inner_text() and "you: Ann" in yours.inner_text()
    assert waiting.get_attribute("data-state") == "waiting" and "Waiting for Cid" in waiting.inner_text()
    names = page.locator("#my-tables li").evaluate_all("items => items.map((item) => item.dataset.table)")
    assert names == [first["table"], second["table"]], "the table where it is your turn comes first"
    # Highlighted: a table where it is your turn stands out from one where you wait.
    assert yours.evaluate("item => getComputedStyle(item).backgroundColor") != \
        waiting.evaluate("item => getComputedStyle(item).backgroundColor")
    # Its link opens the seat again.
    assert yours.locator("a").get_attribute("href") == "/t/" + first["seats"][0]["url"].split("/t/", 1)[1]
    screenshot(page, shots / "my-tables.png", DESKTOP)
    screenshot(page, shots / "my-tables-phone.png", PHONE)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the list is wider than a phone"
    page.set_viewport_size(DESKTOP)

    # Ann moves (on her seat's page): home, looked at again, says she waits for Bob.
    ann = Person(context, first["seats"][0]["url"], "Ann", errors)
    version = ann.version()
    ann.play_one()
    ann.wait_version_after(version)
    ann.page.close()
    page.reload()
    page.wait_for_selector("#my-tables[data-loaded='yes']")
    assert my_table(page, first["table"]).get_attribute("data-state") == "waiting"
    assert "Waiting for Bob" in my_table(page, first["table"]).inner_text()

    my_table(page, second["table"]).locator("button[data-forget]").click()
    assert my_table(page, second["table"]).count() == 0
    page.reload()
    page.wait_for_selector("#my-tables[data-loaded='yes']")
    assert my_table(page, second["table"]).count() == 0, "forgotten for good"
    assert second["table"] not in page.evaluate("localStorage.getItem('azul-my-tables')")
    my_table(page, first["table"]).locator("button[data-forget]").click()
    assert page.locator("#my-tables").is_hidden()
    context.close()


def test_the_home_page_offers_clocks_in_hours_and_days_and_a_slow_game_waits_for_the_clock(browser, server, shots, errors):  # noqa: F811
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.on("pageerror", lambda error: errors.append(f"home: {error}"))
    page.goto(server.url + "/")
    page.wait_for_selector("#variant option[value='standard']", state="attached")
    page.select_option("#seat-count", "2")
    page.fill("input[name=your-name]", "Ann")
    page.select_option("select[name=seat-kind-1]", "person")
    page.fill("input[name=seat-name-1]", "Bob")
    page.select_option("#clock-mode", "move")
    groups = page.locator("#clock-seconds optgroup").evaluate_all("groups => groups.map((group) => group.label)")
    assert groups == ["seconds", "minutes", "hours", "days"]
    assert page.locator("#clock-seconds option[value='1209600']").inner_text() == "14 days"
    assert page.locator("#clock-away").input_value() == "60"
    page.select_option("#clock-seconds", str(3 * 86400))
    assert page.locator("#clock-away").input_value() == "off", "a slow game's stand-in waits for the clock"
    page.locator("#clock-fieldset").scroll_into_view_if_needed()
    screenshot(page, shots / "slow-clock-form.png", DESKTOP)
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    page.click("#open-own")
    page.wait_for_selector("body[data-version]")
    page.locator("#clock").wait_for(state="visible")
    assert "clock 3 d a move" in page.locator("#clock").inner_text()
