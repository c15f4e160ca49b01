"""The end screen in Chromium: each player's points by source in a small table whose total is the
player's score, who plays first at the rematch, and "Watch the replay" opening the replay page;
the home page's setting for the rematch's first player reaches the server."""

from __future__ import annotations

import json
import urllib.request

import pytest

pytest.importorskip("playwright")

from seats_helpers import create_with, post  # noqa: E402
from test_browser import DESKTOP, PHONE, ROOT, Server, _need_browser, browser, errors, shots  # noqa: E402

#: test_browser's fixtures, used here under their names
FIXTURES = (browser, errors, shots)
EXAMPLES = ROOT / "examples"


@pytest.fixture
def server(tmp_path):
    _need_browser()
    running = Server(tmp_path / "data", seed="browser-end-screen", extra=("--variants", str(EXAMPLES)))
    running.start()
    yield running
    running.stop()


def finished_by_bots(server, variant: str, **body) -> dict:
    """A table of Ann and Bob whose seats the creator hands to bots at once: they play it out."""
    created = create_with(server, variant, [{"name": "Ann"}, {"name": "Bob"}], **body)
    for seat in (0, 1):
        status, _answer = post(server, f"/api/tables/{created['table']}/seats/{seat}/bot", {"bot": "random"},
                               created["admin_secret"])
        assert status == 200
    return created


def numbers(locator) -> list[int]:
    return [int(text) for text in locator.all_text_contents()]


@pytest.mark.parametrize("variant", ["secret-goal", "lid-market"])
def test_the_end_screen_tells_the_points_by_source_and_links_to_the_replay(browser, server, shots, errors, variant):
    created = finished_by_bots(server, variant)
    page = browser.new_page(viewport=DESKTOP)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(created["seats"][0]["url"])
    page.wait_for_selector("body[data-phase='over']")
    page.wait_for_selector("#score-sources")
    tables = page.locator("#score-sources .sources-table")
    assert tables.count() == 2
    bought: list[str] = []
    for seat in (0, 1):
        table = page.locator(f"#score-sources .sources-table[data-seat='{seat}']")
        assert table.locator("caption").text_content() == ["Ann", "Bob"][seat]
        points = numbers(table.locator("tbody .source-points"))
        total = int(table.locator(".sources-total").text_content())
        score = int(page.locator(f".final-table tr[data-seat='{seat}'] .final-score").text_content().rstrip("*"))
        assert sum(points) == total == score
        rows = table.locator("tbody th").all_text_contents()
        assert rows[:2] == ["tiles on the wall", "floor"]
        assert {"complete rows", "complete columns", "complete colours"} <= set(rows)
        if variant == "secret-goal":
            assert "bonus: secret goal" in rows
        bought.extend(row for row in rows if row == "moves: lid_market")
    # The random bots bought tiles from the lid: what they paid is a row of its own.
    assert bool(bought) == (variant == "lid-market")
    # Ann played first: Bob plays first at the rematch.
    assert "Bob plays first at the rematch" in page.locator("#rematch-box .rematch-first").text_content()
    page.screenshot(path=str(shots / f"end-screen-{variant}.png"), full_page=True)
    page.locator("#final-panel").screenshot(path=str(shots / f"end-screen-sources-{variant}.png"))
    link = page.locator("#replay-link")
    assert link.text_content() == "Watch the replay"
    link.click()
    page.wait_for_selector("body[data-step='0']")
    assert page.url.startswith(f"{server.url}/t/{created['table']}/replay#seat=")
    page.close()


def test_the_points_by_source_fit_a_phone(browser, server, shots, errors):
    created = finished_by_bots(server, "standard")
    page = browser.new_page(viewport=PHONE)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(created["watch_url"])
    page.wait_for_selector("#score-sources")
    width = page.evaluate("document.documentElement.clientWidth")
    for box in (page.locator(".sources-table").nth(n).bounding_box() for n in range(2)):
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    page.locator("#score-sources").screenshot(path=str(shots / "end-screen-phone.png"))
    page.close()


def test_the_home_page_s_first_player_setting_reaches_the_table(browser, server, errors):
    page = browser.new_page(viewport=DESKTOP)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    page.wait_for_selector("#variant option[value='standard']", state="attached")
    page.fill("input[name=your-name]", "Ann")
    page.select_option("#rematch-first", "draw")
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    admin_url = page.locator("#open-own").get_attribute("href")
    table = admin_url.split("/t/", 1)[1].split("#", 1)[0]
    page.goto(admin_url)
    page.wait_for_selector("body[data-version]")
    # The creator hands every seat to a bot; at the end the rematch box says the first player is drawn.
    secret = admin_url.split("admin=", 1)[1]
    view = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{server.url}/api/tables/{table}/record", headers={"Authorization": f"Bearer {secret}"}), timeout=10).read())
    for seat in range(len(view["players"])):
        status, _answer = post(server, f"/api/tables/{table}/seats/{seat}/bot", {"bot": "random"}, secret)
        assert status in (200, 409)  # 409: a seat that is a bot already
    page.wait_for_selector("body[data-phase='over']", timeout=120_000)
    assert page.locator("#rematch-box .rematch-first").text_content() == "The first player is drawn at random."
    page.close()
