"""The game log tells the seats' events in words, beside the moves: the stand-in bot taking a seat
because its clock ran out or its player left, the seat taken back by its owner, a seat handed to
a bot by the creator, and the rematch made after the end; the same after a restart (made again
from the stored events). In process, with the server's clock moved by the test."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from seats_helpers import FakeClock, Page, bearer, call, create, seats_config, secrets_of, serving  # noqa: E402


class LogPage(Page):
    """A table's socket that asks for the seating messages and the game log, as the page does."""

    def __init__(self, client, table: str, secret: str):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        client.sockets.append(self)
        self.ws.send_json({"type": "hello", "secret": secret, "version": None, "seating": True, "log": True})
        self.state = None
        self.seating = None
        self.kinds: list[str] = []
        self.refusals: list[dict] = []
        self.wait(lambda page: page.state is not None and page.seating is not None)

    def log(self) -> list[dict]:
        return self.state["log"]

    def events(self) -> list[dict]:
        return [entry for entry in self.log() if entry.get("event") or (entry.get("bot") and "move" not in entry)]

    def wait_event(self, words: str) -> dict:
        self.wait(lambda page: any(words in entry["text"] for entry in page.events()))
        return next(entry for entry in self.events() if words in entry["text"])


def test_the_log_tells_each_seat_event_in_words_and_keeps_them_after_a_restart(tmp_path, catalog):
    clock = FakeClock()
    config = seats_config(tmp_path / "data", clock)
    with serving(config, catalog) as (client, server):
        created = create(client, seats=[{"name": "Ana"}, {"name": "Bob"}],
                         clock={"mode": "move", "seconds": 60, "bot": "greedy", "away": 30}).json()
        table = created["table"]
        secrets = secrets_of(created)
        ana = LogPage(client, table, secrets[0])
        bob = LogPage(client, table, secrets[1])
        assert ana.events() == [], "no seat event yet"

        # Ana's clock runs out: the stand-in plays for her, and the log says why.
        clock.advance(61)
        assert call(client, server.seats.check_all) == 1
        entry = bob.wait_event("clock ran out")
        assert entry == {"round": 1, "seat": 0, "bot": "greedy", "event": "standin",
                         "text": "Ana's clock ran out: the stand-in bot 'greedy' plays the seat until they take it back"}
        # She takes the seat back with her link.
        answer = client.post(f"/api/tables/{table}/seats/0/reclaim", json={}, headers=bearer(secrets[0]))
        assert answer.status_code == 200
        assert bob.wait_event("takes the seat back") == {"round": 1, "seat": 0, "event": "reclaim",
                                                         "text": "Ana takes the seat back from the bot"}

        # Bob leaves; at his turn the stand-in takes his seat after the clock's away time.
        ana.wait(lambda page: page.state["view"]["to_move"] in (0, 1))
        if ana.state["view"]["to_move"] == 0:
            moved = ana.after_move()
            ana.wait_synced(lambda page: page.state["version"] > moved)
        bob.close()
        ana.wait(lambda page: page.seating["seats"][1]["away"] is not None)
        clock.advance(31)
        assert call(client, server.seats.check_all) == 1
        assert ana.wait_event("left the table")["text"] == \
            "Bob left the table: the stand-in bot 'greedy' plays the seat until they take it back"

        # The creator hands Ana's seat to a bot; the bots play to the end; Ana asks for a rematch.
        answer = client.post(f"/api/tables/{table}/seats/0/bot", json={"bot": "random"},
                             headers=bearer(created["admin_secret"]))
        assert answer.status_code == 200
        assert ana.wait_event("played by the bot 'random'")["event"] == "bot"
        ana.wait(lambda page: page.state["view"]["phase"] == "over")
        answer = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(secrets[0]))
        assert answer.status_code in (200, 201), answer.text
        rematch = ana.wait_event("rematch")
        assert rematch["text"] == "Ana made a rematch: a new table with the same seats and variant"
        assert answer.json()["table"] not in rematch["text"], "the log names no table"
        log = ana.log()
        # The rematch comes after the game's end in the log.
        assert [i for i, e in enumerate(log) if e.get("end")][0] < log.index(rematch)
        ana.close()
    # Made again from the stored events after a restart: the same words.
    with serving(config, catalog) as (client, server):
        again = LogPage(client, table, secrets[1])
        assert again.log() == log
