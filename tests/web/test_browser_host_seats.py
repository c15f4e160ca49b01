"""The creator's list of the seats and their links in a real browser (Playwright, Debian's
Chromium, a real `azul serve`), issue 42: the host lost the links.

Four seats at a table with a turn clock: Host (the creator, whose link carries the admin
secret), Guest (who opens their link), Cy (who never does) and a greedy bot. The host's page
lists every seat, counted from 1, with its state; the host makes a new link for Guest's seat
(asked first: Guest has arrived), copies it, and Guest's page opened with the old link is
closed, the old link refused, the new one opening Guest's seat. Cy's new link is made without a
question (Cy has not arrived); the bot's seat has no link. Guest's page shows no such list, and
the server refuses Guest's request for another seat's link. A new link for the host's own seat
opens the page again with it, the admin secret kept.

The server, the pages and the helpers are those of ``test_browser.py``.
``AZUL_README_SCREENSHOT=1`` also refreshes ``docs/images/seats-host-links.png`` (docs/serve.md).
"""

from __future__ import annotations

import os
import shutil

import pytest
from seats_helpers import create_with, post
from test_browser import DESKTOP, PHONE, ROOT, Person, browser, errors, server, shots

pytestmark = pytest.mark.browser
#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, server, shots)

CLOCK = {"mode": "move", "seconds": 600, "bot": "greedy", "away": 600}


def test_the_host_makes_a_new_link_for_a_seat_and_copies_it(browser, server, shots, errors):
    table = create_with(server, "standard", [{"name": "Host"}, {"name": "Guest"}, {"name": "Cy"}, {"bot": "greedy"}],
                        clock=CLOCK)
    table_id = table["table"]
    host_context = browser.new_context(viewport=DESKTOP)
    host_context.grant_permissions(["clipboard-read", "clipboard-write"])
    host_url = table["seats"][0]["url"] + "&admin=" + table["admin_secret"]
    host = Person(host_context, host_url, "Host", errors)
    guest_url = table["seats"][1]["url"]
    guest = Person(browser.new_context(viewport=DESKTOP), guest_url, "Guest", errors)
    page = host.page

    # Every seat, counted from 1, with its state.
    page.wait_for_selector("#seat-link:not([hidden]) .seat-links")
    page.wait_for_function("document.querySelector(\"#seat-link li[data-seat='1']\").dataset.state === 'arrived'")
    rows = page.locator("#seat-link li[data-seat]")
    assert rows.count() == 4
    said = [(rows.nth(i).locator(".who").inner_text(), rows.nth(i).locator(".seat-state").inner_text()) for i in range(4)]
    assert said == [("Seat 1: Host (you)", "arrived, at the table"), ("Seat 2: Guest", "arrived, at the table"),
                    ("Seat 3: Cy", "not arrived yet"), ("Seat 4: greedy", "bot (greedy): a bot's seat has no link")]
    assert page.locator("[data-new-link='3']").is_hidden(), "a bot's seat has no link to change"
    # No link is shown before one is made: the server keeps only their hashes.
    assert page.locator("[data-copy-link]").count() == 0
    assert table["seats"][1]["url"].split("#")[1] not in page.content()

    # Guest's page: no list, no other seat's controls; the server refuses Guest's request.
    guest.page.wait_for_selector("#seat-link:not([hidden]) #new-link", state="attached")
    assert guest.page.locator(".seat-links, [data-new-link]").count() == 0
    status, refused = post(server, f"/api/tables/{table_id}/seats/2/link", {}, table["seats"][1]["url"].split("#seat=")[1])
    assert status == 401 and "only the seat's own link or the creator's" in refused["error"]

    # A new link for Guest, who has arrived: asked first.
    page.click("[data-new-link='1']")
    page.wait_for_selector("li[data-seat='1'] .seat-link-confirm:not([hidden])")
    assert "Guest has opened their link" in page.inner_text("li[data-seat='1'] .seat-link-confirm")
    page.click("[data-confirm-link='1']")
    page.wait_for_selector("[data-copy-link='1']")
    made = page.input_value("[data-made-link='1']")
    assert made.startswith(f"{server.url}/t/{table_id}#seat=") and made != guest_url
    page.click("[data-copy-link='1']")
    page.wait_for_selector("li[data-seat='1'] .copied:text('copied')")
    assert page.evaluate("navigator.clipboard.readText()") == made
    page.locator("#seat-link").screenshot(path=str(shots / "host-links.png"))
    page.set_viewport_size(PHONE)
    page.locator("#seat-link").screenshot(path=str(shots / "host-links-phone.png"))
    page.set_viewport_size(DESKTOP)
    if os.environ.get("AZUL_README_SCREENSHOT") == "1":
        shutil.copy(shots / "host-links.png", ROOT / "docs" / "images" / "seats-host-links.png")

    # Guest's page opened with the old link is closed, and the old link no longer opens the seat.
    guest.page.wait_for_selector("#connection[data-status='refused']", timeout=10_000)
    assert "this seat has a new link" in guest.page.inner_text("#message")
    old = browser.new_context().new_page()
    old.goto(guest_url)
    old.wait_for_selector("#connection[data-status='refused']", timeout=10_000)
    assert "secret is wrong" in old.inner_text("#message")
    # The new one opens Guest's seat.
    fresh = Person(browser.new_context(viewport=DESKTOP), made, "Guest again", errors)
    assert fresh.page.inner_text(".board.mine .player-name") == "Guest"

    # Cy has not arrived: the new link is made without a question.
    page.click("[data-new-link='2']")
    page.wait_for_selector("[data-copy-link='2']")
    assert page.locator("li[data-seat='2'] .seat-link-confirm").is_hidden()
    assert page.input_value("[data-made-link='2']") != table["seats"][2]["url"]
    # The links made stay through the page's redraws (the seats' comings and goings).
    assert page.input_value("[data-made-link='1']") == made

    # The host's own seat: the page opens the table again with the new link, the admin secret kept.
    old_hash = page.evaluate("location.hash")
    page.click("[data-new-link='0']")
    assert "This page opens the table again" in page.inner_text("li[data-seat='0'] .seat-link-confirm")
    page.click("[data-confirm-link='0']")
    page.wait_for_function("h => location.hash !== h", arg=old_hash)
    page.wait_for_selector("#connection[data-status='live']")
    fragment = page.evaluate("Object.fromEntries(new URLSearchParams(location.hash.slice(1)))")
    assert fragment["admin"] == table["admin_secret"] and fragment["seat"] not in old_hash
    page.wait_for_selector("#seat-link:not([hidden]) li[data-seat='0']")
    assert page.inner_text(".board.mine .player-name") == "Host"


def test_without_a_clock_the_host_is_asked_first_and_a_link_made_outlasts_the_game(browser, server, errors):
    """A table without a clock does not note who opened their link: the list says who is at the
    table, and asks first for any seat (Keep the old link changes nothing). At the end no link is
    changed, but a link made and not yet sent stays on the page, with Copy link."""
    table = server.create("standard", [{"name": "Host"}, {"name": "Guest"}])
    table_id = table["table"]
    host = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"] + "&admin=" + table["admin_secret"],
                  "Host", errors)
    page = host.page
    page.wait_for_selector("#seat-link:not([hidden]) li[data-seat='1']")
    assert page.inner_text("li[data-seat='0'] .seat-state") == "at the table"
    assert page.inner_text("li[data-seat='1'] .seat-state") == "not at the table now"
    page.click("[data-new-link='1']")
    assert "Guest may have opened their link" in page.inner_text("li[data-seat='1'] .seat-link-confirm")
    page.click("li[data-seat='1'] .seat-link-confirm button:text('Keep the old link')")
    assert page.locator("li[data-seat='1'] .seat-link-confirm").is_hidden()
    guest = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Guest", errors)
    guest.page.wait_for_selector("#connection[data-status='live']")
    page.wait_for_function("document.querySelector(\"li[data-seat='1'] .seat-state\").textContent === 'at the table'")
    assert page.locator("[data-copy-link]").count() == 0, "nothing was made"
    page.click("[data-new-link='1']")
    page.click("[data-confirm-link='1']")
    made = page.input_value("[data-made-link='1']")
    guest.page.wait_for_selector("#connection[data-status='refused']", timeout=10_000)

    # Bots finish the game: no New link any more, the link made is still there to copy.
    for seat in (0, 1):
        status, _ = post(server, f"/api/tables/{table_id}/seats/{seat}/bot", {"bot": "random"}, table["admin_secret"])
        assert status == 200
    page.wait_for_selector("#final-panel", timeout=120_000)
    page.wait_for_selector("#seat-link .seat-links-over:not([hidden])")
    assert page.locator("[data-new-link]:visible").count() == 0
    assert page.input_value("[data-made-link='1']") == made and page.locator("[data-copy-link='1']").is_visible()
