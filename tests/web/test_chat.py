"""Chat at the table (issue 42): a seat's short plain-text messages reach every page of its table
through the game log, are limited in length and in rate, are kept in either store and in the
table's record, and are refused at a table whose creator turned chat off. Through the protocol,
in process, with the server's clock in the test's hands; the page is tested in
``test_browser_chat.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from seats_helpers import FakeClock, create, seats_config, secrets_of, serving
from test_server import assert_valid_record, receive_json, secret_of

from azul_core.web.chat import BURST, MAX_CHARACTERS, WINDOW

REFERENCE_RECORD = Path(__file__).resolve().parents[2] / "tests" / "reference" / "records" / "standard.json"


@pytest.fixture(params=["sqlite", "postgres"])
def where(request):
    """SQLite in a folder, or a PostgreSQL schema of its own (when AZUL_TEST_POSTGRES_URL is set)."""
    if request.param == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres")}


class ChatPage:
    """One WebSocket of a table that asks for the game log, as the page does; it keeps the last
    state and the chat refusals it was told."""

    def __init__(self, client, table: str, secret: str):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        client.sockets.append(self)
        self.closed = False
        self.ws.send_json({"type": "hello", "secret": secret, "log": True})
        self.state: dict | None = None
        self.refusals: list[str] = []
        self.hints: list[dict] = []
        self.wait(lambda page: page.state is not None)

    def receive(self) -> dict:
        message = receive_json(self.ws)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "chat-refused":
            self.refusals.append(message["reason"])
        elif message["type"] == "hint":
            self.hints.append(message)
        return message

    def wait(self, predicate):
        while not predicate(self):
            self.receive()
        return self

    def say(self, text) -> None:
        self.ws.send_json({"type": "chat", "text": text})

    def said(self) -> list[dict]:
        return [entry for entry in self.state["log"] if entry.get("chat")]

    def refused(self) -> str:
        """The next chat refusal told to this page."""
        count = len(self.refusals)
        self.wait(lambda page: len(page.refusals) > count)
        return self.refusals[-1]

    def heard(self, count: int) -> list[dict]:
        """The chat entries of the log once it holds ``count`` of them."""
        return self.wait(lambda page: len(page.said()) >= count).said()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            try:
                self.context.__exit__(None, None, None)
            except Exception:  # closed by the server already
                pass


def sync(page: ChatPage) -> dict:
    """The page's whole state as the server holds it now."""
    page.ws.send_json({"type": "sync"})
    while True:
        message = page.receive()
        if message["type"] == "state":
            return message


def table_of(client, **body) -> tuple[dict, ChatPage, ChatPage]:
    created = create(client, **body).json()
    secrets = secrets_of(created)
    return created, ChatPage(client, created["table"], secrets[0]), ChatPage(client, created["table"], secrets[1])


def test_a_message_reaches_every_page_of_its_table_as_plain_text_and_no_other_table(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        created, north, east = table_of(client)
        watcher = ChatPage(client, created["table"], secret_of(created["watch_url"]))
        _other, elsewhere, _ = table_of(client)
        assert "chat" not in north.state["view"] and created["chat"] is True  # on, the default
        version = north.state["version"]

        north.say("  hello <b>x</b>\n\tthere\x1b[2K\u202e &amp; \x00 ")
        for page in (north, east, watcher):
            [entry] = page.heard(1)
            # The text is kept as text: markup and entities as typed, only what can't be shown removed.
            assert entry["text"] == "hello <b>x</b> there[2K &amp;"
            assert entry["seat"] == 0 and entry["name"] == "North" and entry["round"] == 1
        assert north.state["version"] == version + 1
        east.say("hi North")
        assert [(e["name"], e["text"]) for e in watcher.heard(2)] == [("North", "hello <b>x</b> there[2K &amp;"),
                                                                     ("East", "hi North")]
        # Another table's pages hear nothing of it.
        assert not [entry for entry in sync(elsewhere)["log"] if entry.get("chat")]


def test_a_watcher_reads_the_chat_but_can_not_write(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        created, north, _east = table_of(client)
        watcher = ChatPage(client, created["table"], secret_of(created["admin_url"]))
        version = watcher.state["version"]
        watcher.say("I am only watching")
        assert watcher.refused() == "this link can watch but not chat"
        assert sync(north)["version"] == version and not north.said()


@pytest.mark.parametrize("text, reason", [
    ("", "the message is empty"),
    (" \n\t\x07 ", "the message is empty"),
    ("x" * (MAX_CHARACTERS + 1), f"a chat message has at most {MAX_CHARACTERS} characters (this one has 201)"),
    ("x" * 1000, f"a chat message has at most {MAX_CHARACTERS} characters"),
    (["a", "list"], "a chat message is text"),
    (None, "a chat message is text"),
])
def test_an_empty_a_long_or_a_non_text_message_is_refused_to_its_sender_and_changes_nothing(
        tmp_path, catalog, text, reason):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        _created, north, east = table_of(client)
        version = north.state["version"]
        north.say(text)
        assert north.refused() == reason
        assert sync(east)["version"] == version and not east.said()


def test_a_message_of_the_longest_length_is_taken(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        _created, north, east = table_of(client)
        longest = "é" * MAX_CHARACTERS
        north.say(f"  {longest}  ")
        assert east.heard(1)[0]["text"] == longest


def test_a_seat_sends_a_few_messages_at_once_then_waits(tmp_path, catalog):
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock=clock), catalog) as (client, _server):
        _created, north, east = table_of(client)
        for number in range(BURST):
            north.say(f"message {number}")
            east.heard(number + 1)  # taken (at the clock's time) before the clock moves on
            clock.advance(1)
        north.say("one too many")
        assert north.refused() == f"{BURST} messages within {WINDOW:g} seconds is the most: wait 5 seconds before the next"
        # The limit is each seat's own.
        east.say("my turn to talk")
        assert north.heard(BURST + 1)[-1]["text"] == "my turn to talk"
        clock.advance(WINDOW - BURST)  # the first message is now WINDOW seconds old
        north.say("and again")
        assert [entry["text"] for entry in east.heard(BURST + 2)][-1] == "and again"
        assert "one too many" not in [entry["text"] for entry in east.said()]


def test_a_move_chosen_before_a_message_is_still_taken(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        _created, north, east = table_of(client)
        pages = {0: north, 1: east}
        mover = pages[north.state["view"]["to_move"]]
        other = pages[1 - north.state["view"]["to_move"]]
        chosen_at = mover.state["version"]
        move = mover.state["legal"]["drafts"][0]["move"]
        other.say("take your time")
        mover.heard(1)
        mover.ws.send_json({"type": "move", "version": chosen_at, "move": move})
        mover.wait(lambda page: page.state["last"] is not None and page.state["last"]["move"] == move)
        assert other.heard(1)[0]["text"] == "take your time"


def test_chat_is_off_when_the_creator_says_so(tmp_path, catalog, where):
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, _server):
        answer = client.post("/api/tables", json={"variant": "standard", "chat": "no",
                                                  "seats": [{"name": "North"}, {"name": "East"}]})
        assert answer.status_code == 400 and answer.json()["error"] == "'chat' is true or false"
        created, north, east = table_of(client, chat=False)
        assert created["chat"] is False and north.state["view"]["chat"] is False
        version = north.state["version"]
        north.say("hello?")
        assert north.refused() == "chat is off at this table (the table's creator chose so)"
        assert sync(east)["version"] == version
    # The setting is kept with the table: a restarted server still refuses.
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, _server):
        north = ChatPage(client, created["table"], secrets_of(created)[0])
        assert north.state["view"]["chat"] is False
        north.say("hello now?")
        assert north.refused().startswith("chat is off")


def test_messages_are_kept_with_the_table_and_in_its_record(tmp_path, catalog, where):
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, _server):
        created, north, east = table_of(client)
        secrets = secrets_of(created)
        plain = client.get(f"/api/tables/{created['table']}/record",
                           headers={"authorization": f"Bearer {secrets[0]}"}).json()
        assert "chat" not in plain  # a table nobody chatted at writes what it always wrote
        north.say("good luck <script>alert(1)</script>")
        east.heard(1)
        pages = {0: north, 1: east}
        mover = pages[north.state["view"]["to_move"]]
        mover.ws.send_json({"type": "move", "version": mover.state["version"],
                            "move": mover.state["legal"]["drafts"][0]["move"]})
        east.wait(lambda page: page.state["last"] is not None)
        east.say("thanks")
        north.heard(2)
    # A restarted server reads them back from the store, in order, with their places in the game.
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, _server):
        watcher = ChatPage(client, created["table"], secret_of(created["watch_url"]))
        assert [(e["seat"], e["text"], e["action"]) for e in watcher.said()] == [
            (0, "good luck <script>alert(1)</script>", 0), (1, "thanks", 1)]
        response = client.get(f"/api/tables/{created['table']}/record",
                              headers={"authorization": f"Bearer {secret_of(created['watch_url'])}"})
        record = json.loads(response.text)
        assert record["chat"] == [{"seat": 0, "round": 1, "action": 0, "text": "good luck <script>alert(1)</script>"},
                                  {"seat": 1, "round": 1, "action": 1, "text": "thanks"}]
        # Other readers of azul-record/1 keep the field as one they don't know: the record validates.
        assert assert_valid_record(response.text, tmp_path, finished=False)["chat"] == record["chat"]


def test_a_message_leaves_a_hint_given_before_it_good(tmp_path, catalog):
    """A chat message is no move: the hint given before it is told again for the new version
    (a page shows a hint for the version it shows only), and asked again it is the same."""
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        _created, north, east = table_of(client, hints=True)
        pages = {0: north, 1: east}
        mover = pages[north.state["view"]["to_move"]]
        other = pages[1 - north.state["view"]["to_move"]]
        version = mover.state["version"]
        mover.ws.send_json({"type": "hint", "version": version})
        [given] = mover.wait(lambda page: page.hints).hints
        assert given["version"] == version and given["move"]
        other.say("think hard")
        again = mover.wait(lambda page: len(page.hints) == 2).hints[-1]
        assert again == given | {"version": version + 1}
        assert mover.state["version"] == version + 1
        mover.ws.send_json({"type": "hint", "version": version + 1})
        assert mover.wait(lambda page: len(page.hints) == 3).hints[-1] == again
        assert not other.hints  # a seat's hint is told to that seat alone


def test_a_message_reaches_the_pages_on_another_server_process(tmp_path, catalog, postgres):
    """Two server processes on one PostgreSQL (two servers in this process, each with its own
    store and notifications): North writes through the first, East's page on the second reads
    it, and East's answer reaches North the other way."""
    with serving(seats_config(tmp_path / "a", database_url=postgres), catalog) as (first, _first_server), \
            serving(seats_config(tmp_path / "b", database_url=postgres), catalog) as (second, _second_server):
        created = create(first).json()
        secrets = secrets_of(created)
        north = ChatPage(first, created["table"], secrets[0])
        east = ChatPage(second, created["table"], secrets[1])
        north.say("hello from the first <i>server</i>")
        assert [(e["name"], e["text"]) for e in east.heard(1)] == [("North", "hello from the first <i>server</i>")]
        east.say("and back")
        assert [e["text"] for e in north.heard(2)] == ["hello from the first <i>server</i>", "and back"]


def test_the_replay_tells_each_message_under_the_step_it_followed(tmp_path):
    """The record's chat on the replay page (a finished table's, or ``azul replay --web``'s):
    each message under the step of its round and number of actions, with its sender's name; a
    record from elsewhere is not trusted: what is no message of one of its seats is left out,
    text is cleaned and cut as a message sent to the table is."""
    from azul_core.records.game_record import read_record, record_variant
    from azul_core.web.replay_page import Replay

    record = read_record(REFERENCE_RECORD)
    record.extra["chat"] = [
        {"seat": 0, "round": 1, "action": 0, "text": "good luck"},
        {"seat": 1, "round": 1, "action": 2, "text": "nice <b>move</b>\x1b[2K"},
        {"seat": 0, "round": 99, "action": 0, "text": "said after the last step"},
        {"seat": 1, "round": 2, "action": 1, "text": "z" * 1000},
        {"seat": 5, "round": 1, "action": 1, "text": "no such seat"},
        {"seat": True, "round": 1, "action": 1, "text": "a seat is a number"},
        {"seat": 0, "round": 1, "action": 1, "text": ["not", "text"]},
        {"seat": 0, "round": 1, "action": 1, "text": " \x07 "},
        "not a message",
    ]
    replay = Replay(record, record_variant(record), title="standard.json")
    steps = replay.index()["steps"]
    step_of = {(step["round"], step["action"]): number for number, step in enumerate(steps)}
    names = record.players
    assert replay.index()["chat"] == [
        {"step": step_of[(1, 0)], "seat": 0, "name": names[0], "text": "good luck"},
        {"step": step_of[(1, 2)], "seat": 1, "name": names[1], "text": "nice <b>move</b>[2K"},
        {"step": len(steps) - 1, "seat": 0, "name": names[0], "text": "said after the last step"},
        {"step": step_of[(2, 1)], "seat": 1, "name": names[1], "text": "z" * (MAX_CHARACTERS - 1) + "…"},
    ]
    record.extra["chat"] = {"not": "a list"}
    assert Replay(record, record_variant(record)).index()["chat"] == []
