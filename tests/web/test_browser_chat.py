"""Chat at the table in a real browser (issue 42): two friends' pages and a watcher's, one table
made on the home page with chat on (the default) and one with it off. What one friend writes
reaches the others' game logs as text, never as markup; a message the server refuses is said so
on the sender's page and given back to send again; a watcher reads but has no box to write in."""

from __future__ import annotations

import json
import urllib.request

from test_browser import DESKTOP, PHONE, Server, _need_browser, browser, create_on_home_page, errors, shots
from test_browser_replay import wait_for_the_end

from azul_core.web.chat import MAX_CHARACTERS

#: fixtures of the modules imported, used here under their names
FIXTURES = (browser, errors, shots)


def open_page(context, url: str, errors: list[str], label: str):
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"{label}: {error}"))
    page.goto(url)
    page.wait_for_selector("body[data-version]")
    return page


def say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_chat_between_two_friends_in_the_browser(browser, tmp_path, shots, errors):
    _need_browser()
    running = Server(tmp_path / "data", seed="chat")
    running.start()
    try:
        ann_context = browser.new_context(viewport=DESKTOP)
        home = ann_context.new_page()
        home.goto(running.url + "/")
        home.wait_for_selector("#chat", state="attached")
        assert home.is_checked("#chat"), "chat is on unless the creator turns it off"
        links = create_on_home_page(home, running, "standard", ["me", "person:Bob"], "Ann")
        ann = open_page(ann_context, links["own"], errors, "Ann")
        bob = open_page(browser.new_context(viewport=PHONE), links["seat-1"], errors, "Bob")
        watcher = open_page(browser.new_context(viewport=DESKTOP), links["watch"], errors, "watcher")

        # Keys typed in the box are words, not the table's shortcuts (a factory, a colour, a line).
        assert ann.evaluate("document.body.dataset.myTurn") == "yes"
        ann.type("#chat-input", "1y1")  # factory 1 holds yellow at this seed
        assert ann.locator("#supply .selected").count() == 0 and ann.locator("#confirm-bar").is_hidden()
        say(ann, "hello <b>x</b>")
        for page in (bob, watcher, ann):
            page.wait_for_selector(".log-chat")
            assert page.inner_text(".log-chat .log-chat-name").strip() == "Ann:"
            # Shown as the characters typed: no element was made of them.
            assert page.inner_text(".log-chat .log-chat-text") == "hello <b>x</b>"
            assert page.locator("#game-log b").count() == 0
        assert ann.input_value("#chat-input") == ""
        # Read out to the others (the log itself is no live region), not to the sender.
        assert bob.text_content("#chat-heard") == "Ann says: hello <b>x</b>"
        assert ann.text_content("#chat-heard") == ""
        assert watcher.locator("#chat-form").count() == 0 or watcher.locator("#chat-form").is_hidden()

        say(bob, "hi Ann & co")
        ann.wait_for_selector(".log-chat[data-seat='1']")
        assert ann.inner_text(".log-chat[data-seat='1'] .log-chat-text") == "hi Ann & co"
        bob.locator("#game-log").scroll_into_view_if_needed()
        bob.screenshot(path=str(shots / "chat-phone.png"))
        assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        ann.locator("#game-log").scroll_into_view_if_needed()
        ann.screenshot(path=str(shots / "chat.png"))

        # A message the server refuses (longer than it takes: the box's own limit is passed over
        # here, as a page of another making might) is said so, and given back to send again.
        too_long = "y" * (MAX_CHARACTERS + 1)
        ann.evaluate("text => { document.getElementById('chat-input').value = text; }", too_long)
        ann.click("#chat-send")
        ann.wait_for_selector("#chat-status:has-text('Not sent')")
        assert f"at most {MAX_CHARACTERS} characters" in ann.inner_text("#chat-status")
        assert ann.input_value("#chat-input") == too_long
        assert bob.locator(".log-chat").count() == 2

        # A table made with chat off has no box to write in.
        home.goto(running.url + "/")
        home.wait_for_selector("#variant option[value='standard']", state="attached")
        home.uncheck("#chat")
        quiet = create_on_home_page_keeping(home)
        page = open_page(ann_context, quiet, errors, "Ann, chat off")
        page.wait_for_selector("#game-log", state="attached")
        assert page.locator("#chat-form").count() == 0 or page.locator("#chat-form").is_hidden()
    finally:
        running.stop()


def create_on_home_page_keeping(page) -> str:
    """The home page's form, already open (the chat box unticked), filled for two people: the
    first seat's link."""
    page.fill("input[name=your-name]", "Ann")
    page.select_option("#seat-count", "2")
    page.select_option("select[name=seat-kind-1]", "person")
    page.fill("input[name=seat-name-1]", "Bob")
    page.click("#create-button")
    page.wait_for_selector("#links:not([hidden])")
    return page.get_attribute("#open-own", "href")


def test_the_replay_of_a_table_tells_what_was_said(browser, tmp_path, shots, errors):
    """Ann says something, then leaves her seat to a bot; once the game is over, the replay's
    move list tells her message as text, under the step it followed, and it is no step."""
    _need_browser()
    running = Server(tmp_path / "data", seed="chat-replay")
    running.start()
    try:
        created = running.create("standard", [{"name": "Ann"}, {"bot": "random"}])
        ann = open_page(browser.new_context(viewport=DESKTOP), created["seats"][0]["url"], errors, "Ann")
        say(ann, "gg <b>x</b>")
        ann.wait_for_selector(".log-chat")
        ann.close()
        hand = urllib.request.Request(f"{running.url}/api/tables/{created['table']}/seats/0/bot", method="POST",
                                      data=json.dumps({"bot": "random"}).encode(),
                                      headers={"Content-Type": "application/json",
                                               "Authorization": f"Bearer {created['admin_secret']}"})
        with urllib.request.urlopen(hand, timeout=10) as answer:
            assert answer.status == 200
        watch = created["watch_url"].split("#", 1)[1].split("=", 1)[1]
        wait_for_the_end(running, created["table"], watch)
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{running.url}/t/{created['table']}/replay#watch={watch}")
        page.wait_for_selector("body[data-step='0']")
        said = page.locator("#log-list li.log-chat")
        assert said.count() == 1
        assert said.locator(".log-chat-name").text_content() == "Ann: "
        assert said.locator(".log-chat-text").text_content() == "gg <b>x</b>"
        assert said.locator("b").count() == 0 and said.locator("button").count() == 0
        request = urllib.request.Request(f"{running.url}/api/tables/{created['table']}/replay",
                                         headers={"Authorization": f"Bearer {watch}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            (message,) = json.load(answer)["chat"]
        # Under the step it followed (and the seat events told there, which are no steps either).
        before = said.evaluate("""item => {
            let node = item.previousElementSibling;
            while (!node.querySelector('[data-step]')) node = node.previousElementSibling;
            return node.querySelector('[data-step]').dataset.step;
        }""")
        assert before == str(message["step"])
        page.screenshot(path=str(shots / "replay-chat.png"))
    finally:
        running.stop()
