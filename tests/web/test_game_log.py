"""The game log of the online table: every decision in words, each round's points, seats handed
to bots and the end, made from the stored events (so the same after a reconnection, a reload or a
restart of the server), appended to by updates, and never telling a seat's secret; on the page, a
panel of the whole log and a polite live region holding the latest move only.

In process (Starlette's TestClient) for the protocol, in Chromium (Playwright, as
test_browser.py) for the page.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from test_browser import DESKTOP, PHONE, Person, browser, play, server, shots  # noqa: E402,F401  (fixtures)
from test_server import OPEN_SEATS, Seat, create, make_config, play_to_end, receive_json, secret_of, serving  # noqa: E402

from azul_core.web.catalog import build_catalog  # noqa: E402
from azul_core.web.store import MOVE  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


class LogSeat(Seat):
    """A seat's socket that asks for the game log (``"log": true`` in its hello, as the page)."""

    def __init__(self, client, table, secret, version=None):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        OPEN_SEATS.append(self)
        self.ws.send_json({"type": "hello", "secret": secret, "version": version, "log": True})
        self.state = None
        self.refusals = []
        self.next_state()


def moves_of(log: list[dict]) -> list[dict]:
    return [entry for entry in log if "move" in entry]


def record_actions(client, table: str, secret: str) -> list[str]:
    record = client.get(f"/api/tables/{table}/record", headers={"Authorization": f"Bearer {secret}"}).json()
    return [action for entry in record["rounds"] for action in entry["actions"]]


def test_the_log_tells_every_move_and_each_round_s_points_and_outlives_a_restart(tmp_path, catalog):
    config = make_config(tmp_path)
    with serving(config, catalog) as client:
        created = create(client, seats=[{"name": "Ana"}, {"name": "Bob"}, {"bot": "greedy"}]).json()
        table = created["table"]
        seats = {0: LogSeat(client, table, secret_of(created["seats"][0]["url"])),
                 1: LogSeat(client, table, secret_of(created["seats"][1]["url"]))}
        state = play_to_end(seats, random.Random(5), moves=30)
        assert state["view"]["round"] >= 2
        log = state["log"]
        # Every decision of the record, in order, in words; the bot's too.
        actions = record_actions(client, table, secret_of(created["seats"][0]["url"]))
        assert [entry["move"] for entry in moves_of(log)] == actions
        assert all(entry["text"] and entry["seat"] in (0, 1, 2) for entry in moves_of(log))
        assert any(entry["seat"] == 2 and entry["text"].startswith("greedy takes") for entry in log)
        first = moves_of(log)[0]
        assert first["text"].startswith("Ana takes ") and first["round"] == 1
        # Round 1's points come right after its last move, for each seat: the score it made.
        ends = [index for index, entry in enumerate(log) if "points" in entry]
        assert ends and log[ends[0]]["round"] == 1
        assert log[ends[0] - 1]["round"] == 1 and log[ends[0] + 1]["round"] == 2
        assert log[ends[0]]["points"] == log[ends[0]]["scores"], "everybody starts at 0"
        last_round = state["view"]["last_round"]
        assert log[ends[-1]]["round"] == last_round["round"]
        assert log[ends[-1]]["scores"] == [seat["score"] for seat in last_round["seats"]]
        if len(ends) > 1:
            assert log[ends[1]]["points"] == [b - a for a, b in zip(log[ends[0]]["scores"], log[ends[1]]["scores"])]
        # The last move is the log's last move.
        assert state["last"]["text"] == moves_of(log)[-1]["text"]

        # The creator hands Bob's seat to a bot: the log says so.
        answer = client.post(f"/api/tables/{table}/seats/1/bot", json={"bot": "random"},
                             headers={"Authorization": f"Bearer {created['admin_secret']}"})
        assert answer.status_code == 200
        handed = seats[0].wait_for(lambda s: any("bot" in e for e in s["log"]))["log"]
        assert any(e.get("bot") == "random" and "Bob's seat is played by the bot 'random'" in e["text"]
                   for e in handed)
        log = seats[0].wait_for(lambda s: s["view"]["to_move"] == 0 or s["view"]["phase"] == "over")["log"]
        version = seats[0].state["version"]
        for seat in seats.values():
            seat.close()
    # The server stops and starts again: the log is made again from the stored events.
    with serving(config, catalog) as client:
        again = LogSeat(client, table, secret_of(created["seats"][0]["url"]), version=version)
        assert again.state["version"] == version
        assert again.state["log"] == log
        again.close()


def test_the_log_ends_with_the_final_scores_and_who_won(tmp_path, catalog):
    """Two bots play a whole game; a watcher's log ends with the game's end: the rounds played,
    the final scores (end bonuses in), and who won in words."""
    with serving(make_config(tmp_path), catalog) as client:
        created = create(client, seats=[{"name": "Ana", "bot": "greedy"}, {"name": "Bob", "bot": "greedy"}]).json()
        watcher = LogSeat(client, created["table"], secret_of(created["watch_url"]))
        state = watcher.wait_for(lambda s: s["view"]["phase"] == "over")
        watcher.close()
    scores = [seat["score"] for seat in state["view"]["seats"]]
    rounds = [entry for entry in state["log"] if "points" in entry]
    top = max(scores)
    winners = [name for name, score in zip(("Ana", "Bob"), scores) if score == top]
    assert state["log"][-1] == {"round": rounds[-1]["round"], "end": True, "scores": scores,
                                "text": state["log"][-1]["text"]}
    assert state["log"][-1]["text"].startswith(winners[0]) and f"{top} points" in state["log"][-1]["text"]


def test_updates_append_to_the_log_and_a_reconnection_gets_it_whole(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as client:
        created = create(client).json()
        table = created["table"]
        north_secret, east_secret = (secret_of(s["url"]) for s in created["seats"])
        north = LogSeat(client, table, north_secret)
        assert north.state["log"] == []
        # Without asking, no log (other clients' documents are as they were).
        plain = Seat(client, table, secret_of(created["watch_url"]))
        assert "log" not in plain.state
        plain.close()
        north.move(north.state["legal"]["drafts"][0]["move"])
        north.wait_version(north.state["version"] + 1)
        # A page asks for changes: after the first state, the log grows by "append" changes.
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "secret": east_secret, "version": None, "changes": True, "log": True})
            first = receive_json(ws)
            assert first["type"] == "state" and first["log"] == north.state["log"]
            assert moves_of(first["log"])[0]["text"].startswith("North takes ")
            ws.send_json({"type": "move", "version": first["version"], "move": first["legal"]["drafts"][0]["move"]})
            update = receive_json(ws)
            while update["type"] != "update":
                update = receive_json(ws)
            grown = [change for change in update["changes"] if change["path"] == ["log"]]
            assert grown == [{"path": ["log"], "append": [moves_of(grown[0]["append"])[0]]}]
            assert grown[0]["append"][0]["seat"] == 1 and grown[0]["append"][0]["text"].startswith("East takes ")
        # A page that was away (a reload, a lost network) gets the whole log with its state.
        east = LogSeat(client, table, east_secret, version=first["version"])
        assert [e["move"] for e in moves_of(east.state["log"])] == \
            [moves_of(first["log"])[0]["move"], grown[0]["append"][0]["move"]]
        north.close()
        east.close()


def test_grey_wall_placements_are_in_the_log(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as client:
        created = create(client, "grey-wall").json()
        table = created["table"]
        seats = {entry["seat"]: LogSeat(client, table, secret_of(entry["url"])) for entry in created["seats"]}
        rng, sent = random.Random(10), []  # a game with three server-made placements in a row

        def choosing(legal, _state):
            sent.append(rng.choice(legal["columns"] or legal["drafts"])["move"])
            return sent[-1]

        state = play_to_end(seats, rng, choosing)
        placements = [entry for entry in moves_of(state["log"]) if entry["move"].startswith("w")]
        assert placements, "round 1 ended with tiles to place"
        chosen = iter(move for move in sent if move.startswith("w"))
        next_chosen, made_by_the_server, in_a_row, most_in_a_row = next(chosen, None), 0, 0, 0
        moves = moves_of(state["log"])
        rounds = [entry["round"] for entry in moves]
        assert rounds == sorted(rounds) and set(rounds) == set(range(1, max(rounds) + 1))
        for entry, before in zip(moves[1:], moves):
            if entry["move"].startswith("w"):  # placed at the end of the round of the drafts before it
                assert entry["round"] == before["round"], (before, entry)
        for entry in moves:
            if not entry["move"].startswith("w"):  # a draft
                in_a_row = 0
                continue
            row, column = entry["move"][1:].split(":")
            assert f"tile of line {row} in wall column {column} (+" in entry["text"], entry
            # who placed it, by seat and by name (a placement the server made too)
            assert entry["text"].startswith(f"{('North', 'East')[entry['seat']]} places the "), entry
            # a placement with one legal space is made by the server, and the log says so
            if entry["move"] == next_chosen:
                assert "(the only legal space)" not in entry["text"], entry
                next_chosen, in_a_row = next(chosen, None), 0
            else:
                assert entry["text"].endswith(" (the only legal space)"), entry
                made_by_the_server, in_a_row = made_by_the_server + 1, in_a_row + 1
                most_in_a_row = max(most_in_a_row, in_a_row)
        assert next_chosen is None and made_by_the_server and most_in_a_row >= 2
        # the store keeps who made each move, the server's placements too
        _row, events = client.app.server.store.load(table)
        stored = [(event.text, event.seat) for event in events if event.kind == MOVE]
        assert stored == [(entry["move"], entry["seat"]) for entry in moves]
        for seat in seats.values():
            seat.close()


PEEK = '''"""Each seat is dealt a secret word, and may peek at it: the move's label shows the word."""
from azul_core import hookimpl
from azul_core.rules import Move, Outcome

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_deal_secrets(players, rng):
    return [f"hush-{seat}-{rng.randrange(10**12):012d}" for seat in range(players)]


@hookimpl
def azul_declare_moves():
    return [Move("peek", label="Peek at your word")]


@hookimpl
def azul_offer_moves(stage, secret):
    if stage == "turn" and secret is not None:
        return [Move("peek", label=f"Peek: your word is {secret}")]


@hookimpl
def azul_apply_move(move):
    return Outcome()
'''


def test_a_move_s_words_never_tell_another_seat_s_secret(tmp_path):
    folder = tmp_path / "peek"
    folder.mkdir()
    (folder / "secret_peek.py").write_text(PEEK)
    (folder / "secret-peek.yaml").write_text(
        "name: secret-peek\ndescription: Standard Azul with a secret word to peek at.\n"
        "extends: standard\nplugins: [standard, colour_wall, secret_peek.py]\n")
    catalog = build_catalog([folder])
    assert "secret-peek" in catalog.variants, catalog.problems
    config = make_config(tmp_path)
    with serving(config, catalog) as client:
        created = create(client, "secret-peek", [{"name": "Ann"}, {"name": "Bob"}]).json()
        table = created["table"]
        ann = LogSeat(client, table, secret_of(created["seats"][0]["url"]))
        bob = LogSeat(client, table, secret_of(created["seats"][1]["url"]))
        watch = LogSeat(client, table, secret_of(created["watch_url"]))
        offered = ann.state["legal"]["moves"]
        word = ann.state["view"]["secrets"]["secret_peek"][0]
        assert offered == [{"move": "+peek", "name": "peek", "args": [], "label": f"Peek: your word is {word}",
                            "exclusive": False}], "the seat itself is offered the move with its word"
        version = ann.state["version"]
        ann.move("+peek")
        for seat in (ann, bob, watch):
            state = seat.wait_version(version + 1)
            # Everybody reads the label the plugin declared, never the one made from Ann's word.
            assert state["last"]["text"] == "Ann: Peek at your word (+peek)"
            assert moves_of(state["log"])[-1]["text"] == "Ann: Peek at your word (+peek)"
        assert word not in str(bob.state) and word not in str(watch.state)
        for seat in (ann, bob, watch):
            seat.close()


# ---------------------------------------------------------------------------- in the browser


def record_of(running, table: dict) -> list[str]:
    """The decisions of a table of the `azul serve` process, from its record."""
    import json
    import urllib.request
    secret = secret_of(table["seats"][0]["url"])
    request = urllib.request.Request(f"{running.url}/api/tables/{table['table']}/record",
                                     headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        record = json.load(answer)
    return [action for entry in record["rounds"] for action in entry["actions"]]


def test_the_page_shows_the_log_after_a_reload_and_announces_the_latest_move_only(browser, server, shots):  # noqa: F811
    errors: list[str] = []
    table = server.create("standard", [{"name": "Ana"}, {"name": "Bob"}, {"bot": "greedy"}])
    ana = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ana", errors)
    bob = Person(browser.new_context(viewport=PHONE), table["seats"][1]["url"], "Bob", errors)
    play([ana, bob], until=lambda: int(ana.body("round")) >= 2 and ana.moves + bob.moves >= 14 and ana.my_turn())
    page = ana.page
    page.wait_for_selector("#game-log .log-move")
    entries = page.locator("#game-log .log-move").all_inner_texts()
    # Every move so far (the record's), the bot's included; round 1 is headed by each seat's points.
    assert len(entries) == len(record_of(server, table)), "one entry per decision"
    assert any(text.startswith("greedy takes") for text in entries)
    head = page.inner_text("#game-log .log-round[data-round='1'] .log-round-head")
    assert all(name in head for name in ("Ana", "Bob", "greedy")) and ("+" in head or "±0" in head)
    # The live region: polite, and holding the latest move only; the log itself is not live.
    live = page.locator("#last-move")
    assert live.get_attribute("aria-live") == "polite"
    assert live.inner_text() == f"Last move: {entries[-1]}"
    # (The chat's own region announces the others' messages only, never a move.)
    assert page.locator("#game-log [aria-live]:not(#chat-heard), #game-log[aria-live], "
                        "#game-log [role=log]").count() == 0
    assert page.locator("#chat-heard").inner_text() == ""
    page.screenshot(path=str(shots / "log-desktop.png"), full_page=True)
    bob.page.locator("#game-log").scroll_into_view_if_needed()
    bob.page.screenshot(path=str(shots / "log-phone.png"), full_page=True)
    assert bob.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Reloaded, the page shows the same log: it comes from the server, not the page's memory.
    bob.reopen()
    bob.page.wait_for_selector("#game-log .log-move")
    assert bob.page.locator("#game-log .log-move").all_inner_texts() == entries
    # A move after the reload appends to it, and the live region again holds just that move.
    before = ana.version()
    ana.play_one()
    bob.wait_version_after(before)
    bob.page.wait_for_function("n => document.querySelectorAll('#game-log .log-move').length > n", arg=len(entries))
    latest = bob.page.locator("#game-log .log-move").all_inner_texts()
    assert latest[:len(entries)] == entries
    # (The bot may have moved since: whatever the latest move is, the region holds it alone.)
    bob.page.wait_for_function("() => document.querySelector('#last-move').textContent === 'Last move: ' + "
                               "[...document.querySelectorAll('#game-log .log-move')].pop().textContent")
    assert not errors, errors
