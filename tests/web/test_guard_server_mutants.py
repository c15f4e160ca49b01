"""The table server's answers that bench/mutation.py (scope web) found no test reading.

A seat handed to a bot, word for word for each refusal; the search-bot limit per address,
where the tables of an address are counted and forgotten; a seat that asked for changes
sees its own secret in them; the bot's line in the game log; the reason a WebSocket is
closed with. Every wait for the server times out (``receive`` of test_guard_server).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.websockets import WebSocketDisconnect  # noqa: E402

# The guard's in-process server and its helpers (pytest puts this folder on sys.path).
from test_guard_server import (  # noqa: E402
    Hub,
    Seat,
    SharedStore,
    create,
    full_watcher,
    join,
    make_config,
    receive,
    secret_of,
    serving,
    stuck_for_watchers,
    wait_until,
)

from azul_core.web.catalog import build_catalog  # noqa: E402
from azul_core.web.patches import apply  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PEOPLE = [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}]
SEARCH_LIMIT = ("1 table with a search bot at once from one address: "
                "finish one first, or choose a quicker bot (greedy, random)")


def hand(client, created, seat, body, admin=None):
    secret = created["admin_secret"] if admin is None else admin
    return client.post(f"/api/tables/{created['table']}/seats/{seat}/bot", json=body,
                       headers={"Authorization": f"Bearer {secret}"})


# ---------------------------------------------------------------- handing a seat to a bot


def test_each_refusal_to_hand_a_seat_to_a_bot_says_why(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        bots = server.table(created["table"]).offered.bots
        listed = ", ".join(bots)
        assert len(bots) > 1, "the listing of several bots is what is read"
        gone = hand(client, {**created, "table": "no-such-table"}, 1, {"bot": "random"})
        assert (gone.status_code, gone.json()) == (404, {"error": "no such table"})
        no_record = client.get("/api/tables/no-such-table/record",
                               headers={"Authorization": f"Bearer {created['admin_secret']}"})
        assert (no_record.status_code, no_record.json()) == (404, {"error": "no such table"})
        not_json = client.post(f"/api/tables/{created['table']}/seats/1/bot", content=b"{bot",
                               headers={"Authorization": f"Bearer {created['admin_secret']}"})
        assert (not_json.status_code, not_json.json()) == (400, {"error": "the request is not JSON"})
        # A body that is JSON but not an object names no bot.
        for body in ([], "random", None):
            answer = hand(client, created, 1, body)
            assert (answer.status_code, answer.json()) == (400, {"error": f"unknown bot 'None' (bots: {listed})"})
        # A long name is quoted to its first 40 characters.
        long_name = "b" * 39 + "cdef"
        answer = hand(client, created, 1, {"bot": long_name})
        assert answer.json() == {"error": f"unknown bot {'b' * 39 + 'c'!r} (bots: {listed})"}
        assert server.table(created["table"]).seats[1].bot is None


def test_each_refusal_to_create_a_table_says_why(tmp_path, catalog):
    """Word for word, as the page shows it: a body that is no object, an unknown variant (its
    name quoted to 40 characters), seats that are no list or none, a count the variant does not
    play, a seat that is neither a person nor a bot, an unknown bot, a bad clock."""
    with serving(make_config(tmp_path), catalog) as (client, _server):
        offered = ", ".join(catalog.variants)
        bots = ", ".join(catalog.get("standard").bots)
        seats_help = "'seats' must be a list: {\"name\": ...} for a person, {\"bot\": ...} for a bot"
        refusals = [
            ([], "send a JSON object: {\"variant\": ..., \"seats\": [...]}"),
            ({"variant": "v" * 39 + "wxyz", "seats": PEOPLE[:2]}, f"unknown variant {'v' * 39 + 'w'!r} (offered: {offered})"),
            ({"variant": "standard"}, seats_help),
            ({"variant": "standard", "seats": []}, seats_help),
            ({"variant": "standard", "seats": {"name": "Ana"}}, seats_help),
            ({"variant": "standard", "seats": PEOPLE[:1]}, "1 seats: variant 'standard' is played by 2, 3, 4"),
            ({"variant": "duel", "seats": PEOPLE}, "3 seats: variant 'duel' is played by 2"),
            # The second seat: "seat 2", as the home page counts them (issue 42).
            ({"seats": [{"name": "Ana"}, "Bo"]}, 'seat 2: expected {"name": ...} or {"bot": ...}'),
            ({"seats": [{"name": "Ana"}, {"bot": "skynet"}]}, f"seat 2: unknown bot 'skynet' (bots: {bots})"),
            ({"seats": [{"name": "Ana"}, {}]}, "seat 2: give a person's name or a bot"),
            ({"seats": PEOPLE[:2], "clock": {"mode": "hourglass"}},
             "clock mode 'hourglass': 'off', 'move' (seconds a move) or 'game' (seconds a game)"),
        ]
        for body, reason in refusals:
            answer = client.post("/api/tables", json=body)
            assert (answer.status_code, answer.json()) == (400, {"error": reason}), body
        # A variant named by no string at all is told as written.
        answer = client.post("/api/tables", json={"variant": 7, "seats": PEOPLE[:2]})
        assert answer.json() == {"error": f"unknown variant '7' (offered: {offered})"}


def test_each_refusal_of_a_name_says_why_and_32_characters_are_taken(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        for name, reason in [(5, "a name is text"), ("  \t ", "the name is empty"),
                             ("x" * 33, "a name has at most 32 characters"),
                             ("a\u0007", "the name holds characters that can't be shown")]:
            answer = create(client, seats=[{"name": "Ana"}, {"name": name}])
            assert (answer.status_code, answer.json()) == (400, {"error": f"seat 2: {reason}"}), name
        created = create(client, seats=[{"name": "Ana"}, {"name": "  " + "x" * 16 + "\n " + "y" * 15}]).json()
        assert server.table(created["table"]).seats[1].name == "x" * 16 + " " + "y" * 15  # 32, spaces made one


def test_the_limits_on_new_tables_say_why(tmp_path, catalog):
    with serving(make_config(tmp_path, tables_per_hour=2), catalog) as (client, _server):
        assert [create(client).status_code for _ in range(2)] == [201, 201]
        answer = create(client)
        assert (answer.status_code, answer.json()) == (429, {"error": "2 tables an hour from one address: try again later"})
    with serving(make_config(tmp_path / "full", max_open_tables=1), catalog) as (client, _server):
        assert create(client).status_code == 201
        answer = create(client)
        assert (answer.status_code, answer.json()) == (
            503, {"error": "the server holds as many open tables as it may: try again later"})


def test_bots_without_a_name_are_named_for_their_bot_and_numbered_when_several(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        seats = [{"bot": "random"}, {"bot": "greedy", "name": "  "}, {"bot": "random"}, {"bot": "greedy", "name": "Robo"}]
        created = create(client, seats=seats).json()
        names = [seat.name for seat in server.table(created["table"]).seats]
        assert names == ["random 1", "greedy 1", "random 2", "Robo"]  # a bot given a name keeps it


def test_one_address_holds_search_bots_at_a_bounded_number_of_tables(tmp_path, catalog):
    """Counted per address: tables created with a search bot and tables a search bot was
    handed to; a second search bot at a counted table is free; a table the server forgot
    (put away after 5 idle minutes, or purged) no longer counts."""
    with serving(make_config(tmp_path, search_tables_per_address=1), catalog) as (client, server):
        # Seat 0, a person, moves first: no search bot ever thinks in this test.
        counted = create(client, seats=[{"name": "Ana"}, {"bot": "mcts"}, {"name": "Cy"}]).json()
        other = create(client, seats=PEOPLE).json()
        refused = hand(client, other, 1, {"bot": "mcts"})
        assert (refused.status_code, refused.json()) == (429, {"error": SEARCH_LIMIT})
        assert server.table(other["table"]).seats[1].bot is None
        assert hand(client, counted, 2, {"bot": "mcts"}).status_code == 200
        assert hand(client, other, 1, {"bot": "greedy"}).status_code == 200
        server.tables.pop(counted["table"])  # what housekeeping does to an idle table
        assert hand(client, other, 2, {"bot": "mcts"}).status_code == 200
        # ... and the table a search bot was handed to counts in its turn.
        third = create(client, seats=PEOPLE).json()
        refused = hand(client, third, 1, {"bot": "mcts"})
        assert (refused.status_code, refused.json()) == (429, {"error": SEARCH_LIMIT})
        assert create(client, seats=[{"name": "Ana"}, {"bot": "mcts"}]).json() == {"error": SEARCH_LIMIT}


def test_the_limit_of_search_bot_tables_is_said_in_the_plural_above_one(tmp_path, catalog):
    with serving(make_config(tmp_path, search_tables_per_address=2), catalog) as (client, _server):
        for _ in range(2):
            assert create(client, seats=[{"name": "Ana"}, {"bot": "mcts"}]).status_code == 201
        answer = create(client, seats=[{"name": "Ana"}, {"bot": "mcts"}])
        assert (answer.status_code, answer.json()["error"]) == (429, SEARCH_LIMIT.replace("1 table", "2 tables"))


def test_the_game_log_names_the_round_and_the_seat_a_bot_took(tmp_path, catalog):
    with serving(make_config(tmp_path, bot_delay=3600), catalog) as (client, server):
        created = create(client).json()
        assert hand(client, created, 1, {"bot": "random"}).status_code == 200
        entry = server.table(created["table"]).progress.log[-1]
        assert entry == {"round": 1, "seat": 1, "bot": "random", "event": "bot",
                         "text": "East's seat is played by the bot 'random' from now on"}


# ---------------------------------------------------------------- what a seat is told


def test_a_seat_that_asks_for_changes_is_told_its_own_secret(tmp_path, catalog):
    """secret-goal deals each seat a secret colour: the updates of a seat's client carry that
    seat's view (its own goal shown, the other's sealed), the same as a whole state."""
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client, "secret-goal").json()
        secret = secret_of(created["seats"][1]["url"])
        whole = Seat(client, created["table"], secret)
        changes = client.websocket_connect(f"/ws/{created['table']}")
        socket = changes.__enter__()
        try:
            socket.send_json({"type": "hello", "secret": secret, "changes": True})
            message = receive(socket)
            while message["type"] != "state":
                message = receive(socket)
            document, version = {"view": message["view"], "last": message["last"]}, message["version"]
            assert document["view"]["secrets"] == whole.state["view"]["secrets"]
            north = join(client, created, 0)
            north.move(north.state["legal"]["drafts"][0]["move"])
            message = receive(socket)
            while message["type"] != "update":
                message = receive(socket)
            assert message["base"] == version
            document = apply(document, message["changes"])
            expected = whole.wait_for(lambda state: state["version"] == message["version"])
            assert document["view"] == expected["view"]
            watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
            assert document["view"]["secrets"] != watcher.state["view"]["secrets"], "its own goal is shown"
        finally:
            changes.__exit__(None, None, None)


def test_a_socket_closed_for_a_reason_says_it_in_the_close_frame_too(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        with client.websocket_connect(f"/ws/{created['table']}") as socket:
            socket.send_json({"type": "hello", "secret": "not-the-secret"})
            reason = "this link's secret is wrong: ask for the link again"
            assert closed_with(socket) == ({"type": "error", "reason": reason}, 4401, reason)


def test_a_rematch_leaves_the_finished_table_finished(tmp_path, catalog):
    """The rematch is an event of the finished table: the table stays finished (purged as
    one, not counted among the open tables)."""
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, seats=[{"bot": "random"}, {"bot": "random"}]).json()
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        watcher.wait_for(lambda state: state["view"]["phase"] == "over")
        server.config.bot_delay = 3600  # the rematch's bots wait
        answer = client.post(f"/api/tables/{created['table']}/rematch", json={},
                             headers={"Authorization": f"Bearer {created['admin_secret']}"})
        assert answer.status_code == 201
        assert server.store.table_ids(unfinished_only=True) == [answer.json()["table"]]
        finished = server.table(created["table"])
        assert finished.progress.log[-1] == {
            "round": finished.state.round, "seat": None, "event": "rematch",
            "text": "The creator made a rematch: a new table with the same seats and variant"}


def test_a_seat_s_record_is_a_json_download_named_for_the_variant_and_the_table(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        answer = client.get(f"/api/tables/{created['table']}/record",
                            headers={"Authorization": f"Bearer {secret_of(created['seats'][0]['url'])}"})
        assert answer.status_code == 200 and answer.json()["format"] == "azul-record/1"
        assert answer.headers["content-type"] == "application/json"
        assert answer.headers["content-disposition"] == (
            f'attachment; filename="azul-standard-{created["table"][:8]}.json"')


# ---------------------------------------------------------------- a move refused


def test_each_refusal_of_a_move_says_why_with_the_move_and_the_version(tmp_path, catalog):
    """The ``refused`` message, whole: the move as sent (when it is text), the table's version,
    and the reason."""
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        version = north.state["version"]
        draft = north.state["legal"]["drafts"][0]["move"]

        def refusal(seat, move, reason, sent_version=version):
            seat.ws.send_json({"type": "move", "move": move, "version": sent_version})
            assert seat.refused() == {"type": "refused", "move": move if isinstance(move, str) else None,
                                      "version": version, "reason": reason}

        refusal(watcher, draft, "this link can watch but not move")
        refusal(east, draft, "it is North's turn, not yours")
        refusal(north, draft, "a move must say the version it was chosen at", None)
        for not_text in (None, 7, ["2R4"]):
            refusal(north, not_text, "send a move in record notation, e.g. 2R4, CK- or w1:3")
        refusal(north, "w1:3", "it is time to take tiles, not to place one on the wall: e.g. 2R4")
        north.ws.send_text("{not json")
        assert north.refused() == {"type": "refused", "move": None, "version": version,
                                   "reason": "the message is not JSON"}
        north.move(draft)  # and a move still goes through
        north.wait_for(lambda state: state["version"] > version)


BROKEN_MOVE_PLUGIN = '''\
from azul_core import hookimpl
from azul_core.rules import Move

AZUL_API = 1
SHOUT = Move("shout", label="Shout")


@hookimpl
def azul_declare_moves():
    return [SHOUT]


@hookimpl
def azul_initial_memory(players):
    return 0


@hookimpl
def azul_offer_moves(stage, seat, memory):
    return [SHOUT] if stage == "turn" else None


@hookimpl
def azul_apply_move(seat, memory):
    raise RuntimeError("the plugin broke")
'''


def test_a_move_a_rule_plugin_fails_on_is_refused_and_not_taken(tmp_path, caplog):
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "shout.py").write_text(BROKEN_MOVE_PLUGIN)
    (folder / "shout.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, shout.py]\n")
    with serving(make_config(tmp_path), build_catalog([folder])) as (client, server):
        created = create(client, "shout").json()
        north = join(client, created, 0)
        version = north.state["version"]
        north.move("+shout")
        with caplog.at_level(logging.WARNING, logger="azul.web"):
            refusal = north.refused()
        # The players are told which plugin failed; where the server keeps it, and the error
        # itself, are for the server's log.
        assert refusal["reason"] == ("a rule plugin failed on this move, so it is not taken: plugin 'shout' "
                                     "failed in azul_apply_move (the server's log says more)")
        assert refusal["version"] == version
        [logged] = caplog.messages
        assert logged.startswith(f"table {created['table'][:6]}: plugin 'shout' raised RuntimeError in azul_apply_move")
        assert logged.endswith(f"{folder / 'shout.py'}:25: the plugin broke")
        assert server.table(created["table"]).version == version  # nothing taken
        north.move(north.state["legal"]["drafts"][0]["move"])  # the table plays on
        north.wait_for(lambda state: state["version"] > version)


REPLAY_BREAKS_PLUGIN = '''\
import os

from azul_core import hookimpl

AZUL_API = 1


@hookimpl
def azul_initial_memory(players):
    if os.environ.get("AZUL_TEST_REPLAY_BREAKS"):
        raise RuntimeError("broken on replay")
    return 0
'''


def test_a_table_s_replay_that_a_plugin_fails_tells_no_server_path(tmp_path, monkeypatch, caplog):
    """The game played, then its plugin fails when the replay is made: the page says which
    plugin failed, and the server's log says where."""
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "fragile.py").write_text(REPLAY_BREAKS_PLUGIN)
    (folder / "fragile.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, fragile.py]\n")
    with serving(make_config(tmp_path), build_catalog([folder])) as (client, server):
        created = create(client, "fragile", [{"bot": "random"}, {"bot": "random"}]).json()
        table = server.table(created["table"])
        deadline = time.monotonic() + 60
        while not table.over:
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
        monkeypatch.setenv("AZUL_TEST_REPLAY_BREAKS", "1")
        watch = {"Authorization": f"Bearer {secret_of(created['watch_url'])}"}
        with caplog.at_level(logging.WARNING, logger="azul.web"):
            index = client.get(f"/api/tables/{created['table']}/replay", headers=watch).json()
    assert index["problem"] == ("a rule plugin failed while replaying: plugin 'fragile' failed in "
                                "azul_initial_memory (the server's log says more)")
    assert str(folder) not in json.dumps(index)
    assert any(str(folder / "fragile.py") in message for message in caplog.messages)


# ---------------------------------------------------------------- other refusals, word for word


def closed_with(socket) -> tuple[dict, int, str]:
    """The error message a socket was told (after what it was told before), then its close code
    and reason."""
    while (told := receive(socket))["type"] != "error":
        pass
    with pytest.raises(WebSocketDisconnect) as closed:
        receive(socket)
    return told, closed.value.code, closed.value.reason


def test_a_socket_s_first_message_must_be_a_hello_and_messages_are_bounded(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        with client.websocket_connect(f"/ws/{created['table']}") as socket:
            socket.send_json({"type": "move", "move": "1B1"})
            reason = 'the first message must be {"type": "hello", "secret": ...}'
            assert closed_with(socket) == ({"type": "error", "reason": reason}, 4400, reason)
        limit = server.config.max_message
        north = join(client, created, 0)
        north.ws.send_text(json.dumps({"type": "ping", "pad": "x" * limit}))
        reason = f"messages are at most {limit} bytes"
        assert closed_with(north.ws) == ({"type": "error", "reason": reason}, 1009, reason)


def test_a_failure_of_the_server_on_a_socket_closes_it_with_1011_and_a_reason(tmp_path, catalog, monkeypatch):
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        north = join(client, created, 0)

        def broken(client):
            raise RuntimeError("a bug")

        monkeypatch.setattr(server, "send_state", broken)
        north.ws.send_json({"type": "sync"})
        reason = "the server failed: open the link again"
        assert closed_with(north.ws) == ({"type": "error", "reason": reason}, 1011, reason)


def test_other_refusals_of_the_api_say_why(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        answer = client.post("/api/tables", json={"seats": PEOPLE[:2], "hints": "yes"})
        assert (answer.status_code, answer.json()) == (400, {"error": "'hints' is true or false"})
        created = create(client).json()
        answer = client.get(f"/api/tables/{created['table']}/record")
        assert (answer.status_code, answer.json()) == (
            401, {"error": "send a seat's or the watch secret as 'Authorization: Bearer SECRET'"})


def test_a_first_message_too_large_or_not_json_closes_the_socket_with_a_reason(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        limit = server.config.max_message
        for sent, code, reason in [(json.dumps({"type": "hello", "pad": "x" * limit}), 1009, "message too large"),
                                   ("{hello", 4400, "the first message must be a hello")]:
            with client.websocket_connect(f"/ws/{created['table']}") as socket:
                socket.send_text(sent)
                assert closed_with(socket) == ({"type": "error", "reason": reason}, code, reason)


def test_a_hello_without_a_secret_may_bring_it_in_the_authorization_header(tmp_path, catalog):
    """A terminal client (``azul play --join``) sends the seat's secret as a bearer token."""
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        secret = secret_of(created["seats"][1]["url"])
        with client.websocket_connect(f"/ws/{created['table']}",
                                      headers={"Authorization": f"Bearer {secret}"}) as socket:
            socket.send_json({"type": "hello"})
            while (message := receive(socket))["type"] != "state":
                pass
            assert message["you"] == 1


# ---------------------------------------------------------------- tidying: the boundaries


def test_a_table_is_forgotten_after_five_whole_minutes_and_a_purge_waits_purge_every(tmp_path, catalog,
                                                                                       monkeypatch):
    """Both limits of ``Server.tidy`` on either side, on a clock the test holds: a table
    unused for exactly 300 s stays in memory and one unused for 300.5 s is forgotten; a purge
    exactly ``PURGE_EVERY`` seconds after the last is not due yet, half a second later it is."""
    import types

    import azul_core.web.app as web_app
    now = 100_000.0
    with serving(make_config(tmp_path), catalog) as (client, server):
        at_limit, past = (create(client).json()["table"] for _ in range(2))
        server.table(at_limit).last_used = now - 300
        server.table(past).last_used = now - 300.5
        purges = []
        monkeypatch.setattr(server, "purge", lambda: purges.append(now))
        monkeypatch.setattr(web_app, "time", types.SimpleNamespace(monotonic=lambda: now))
        try:
            last_purge = now - web_app.PURGE_EVERY
            assert client.portal.call(server.tidy, last_purge) == last_purge
            assert at_limit in server.tables and past not in server.tables
            assert purges == []
            assert client.portal.call(server.tidy, last_purge - 0.5) == now
            assert purges == [now]
        finally:
            monkeypatch.undo()


def test_a_plugin_s_failure_is_told_by_its_name_and_hook_or_in_general_words():
    """What a browser is told when a rule plugin fails: the plugin and the hook when known,
    never the server's paths (the log has the whole message)."""
    from azul_core.engine.plugins import PluginError
    from azul_core.web.table import told_to_players
    whole = PluginError("boom at /srv/plugins/p.py:3", plugin="p", hook="azul_floor_penalty")
    assert told_to_players(whole) == "plugin 'p' failed in azul_floor_penalty (the server's log says more)"
    assert told_to_players(PluginError("boom at /srv/p.py", plugin="p")) == (
        "plugin 'p' failed (the server's log says more)")
    assert told_to_players(PluginError("boom at /srv/p.py")) == "a plugin failed (the server's log says more)"


def test_a_seat_whose_presence_a_shared_store_can_not_take_still_plays_and_the_log_says_why(
        tmp_path, catalog, caplog):
    """Telling the other processes who is connected is not worth failing a connection for:
    the seat joins, and the log names the table and keeps the store's error."""
    store = SharedStore(tmp_path / "data" / "tables.sqlite3", Hub())
    with serving(make_config(tmp_path), catalog, store) as (client, server):
        created = create(client).json()

        def out_of_reach(*args):
            raise ConnectionError("the store is out of reach")

        server.store.set_presence = out_of_reach
        with caplog.at_level(logging.WARNING, logger="azul.web"):
            seat = join(client, created, 0)
        assert seat.state["you"] == 0
        told = [record for record in caplog.records if record.getMessage().startswith("could not tell")]
        assert told and told[0].getMessage() == (
            f"could not tell the other processes who is at table {created['table'][:6]}")
        assert told[0].exc_info is not None and told[0].exc_info[0] is ConnectionError


def test_a_server_told_to_be_durable_syncs_every_commit(tmp_path, catalog):
    """``azul serve --durable`` (``Config.durable``) reaches the store the server opens: SQLite
    then syncs each commit to the disk (FULL), else as far as a killed process needs (NORMAL)."""
    for durable, synchronous in ((True, 2), (False, 1)):
        with serving(make_config(tmp_path / str(durable), durable=durable), catalog) as (client, server):
            assert server.store.db.execute("PRAGMA synchronous").fetchone()[0] == synchronous


class InOrder:
    """A table's clients kept in a chosen order (a set iterates in an order of its own), so
    that a test knows which client a broadcast tells first."""

    def __init__(self, clients):
        self.clients = dict.fromkeys(clients)

    def add(self, client):
        self.clients[client] = None

    def discard(self, client):
        self.clients.pop(client, None)

    def __iter__(self):
        return iter(list(self.clients))

    def __len__(self):
        return len(self.clients)

    def __contains__(self, client):
        return client in self.clients


def test_a_client_that_can_not_keep_up_is_let_go_and_the_clients_after_it_are_still_told(
        tmp_path, catalog, monkeypatch):
    """The watcher's socket takes nothing more and its queue is full; the move is broadcast to
    it first. It is closed (1013), and both seats, told after it, get the move, the mover on
    a connection that stays open."""
    stuck_for_watchers(monkeypatch)
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        north, east = join(client, created, 0), join(client, created, 1)
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "secret": secret_of(created["watch_url"])})
            table = server.tables[created["table"]]
            watcher = full_watcher(table)
            table.clients = InOrder([watcher] + [c for c in list(table.clients) if c is not watcher])
            version = north.state["version"]
            north.move(north.state["legal"]["drafts"][0]["move"])
            assert east.wait_for(lambda s: s["version"] > version)["last"]["seat"] == 0
            assert north.wait_for(lambda s: s["version"] > version)["last"]["seat"] == 0
            north.ws.send_json({"type": "ping"})
            assert receive(north.ws)["type"] == "pong"
            assert watcher not in table.clients
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    receive(ws, 5)
            assert closed.value.code == 1013


def test_a_move_that_changes_no_seat_tells_no_seating_on_a_table_without_clocks(tmp_path, catalog):
    """A client that asked for the seating (``"seating": true``) is told it when it joins and
    when someone comes or goes, not after every move (docs/serve.md: the page counts the
    seconds away itself)."""
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "secret": secret_of(created["seats"][0]["url"]), "seating": True})
            # joining: its state and the seating, then who is connected and the seating again
            first = [receive(ws) for _ in range(4)]
            assert [m["type"] for m in first] == ["state", "seating", "presence", "seating"]
            state = first[0]
            # another seat joins: who is connected, and the seating once (the whole state and
            # its seating go to the one who joined)
            east = join(client, created, 1)
            assert [receive(ws)["type"] for _ in range(2)] == ["presence", "seating"]
            for _ in range(3):  # three moves, each told as a state and nothing else
                if state["view"]["to_move"] == 0:
                    ws.send_json({"type": "move", "version": state["version"],
                                  "move": state["legal"]["drafts"][0]["move"]})
                else:
                    east.move(east.wait_for(lambda s: s["version"] >= state["version"])  # noqa: B023
                              ["legal"]["drafts"][0]["move"])
                message = receive(ws)
                while message["type"] == "presence":
                    message = receive(ws)
                assert message["type"] == "state" and message["version"] == state["version"] + 1, message["type"]
                state = message


def closing(ws) -> tuple[list[dict], WebSocketDisconnect]:
    """The messages before the server closes ``ws``, and the close (its code and reason)."""
    told = []
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            told.append(receive(ws, 5))
    return told, closed.value


def test_a_socket_for_a_table_that_does_not_exist_is_closed_with_4404(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        with client.websocket_connect("/ws/no-such-table") as ws:
            told, closed = closing(ws)
    assert told == [{"type": "error", "reason": "no such table"}]
    assert (closed.code, closed.reason) == (4404, "no such table")


def test_messages_in_binary_frames_are_read_as_text_ones(tmp_path, catalog):
    """A client may send its JSON as a binary frame (UTF-8): the hello is taken, a move is
    judged, and a binary frame that is not JSON is refused as a text one is."""
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_bytes(json.dumps({"type": "hello", "secret": secret_of(created["seats"][0]["url"])}).encode())
            state = receive(ws)
            assert state["type"] == "state" and state["you"] == 0
            ws.send_bytes(b"")
            message = receive(ws)
            while message["type"] != "refused":
                message = receive(ws)
            assert message["reason"] == "the message is not JSON"
            ws.send_bytes(json.dumps({"type": "move", "version": state["version"],
                                      "move": state["legal"]["drafts"][0]["move"]}).encode())
            message = receive(ws)
            while message["type"] != "state":
                message = receive(ws)
            assert message["version"] == state["version"] + 1 and message["last"]["seat"] == 0


def test_a_client_that_asks_for_the_whole_state_with_a_full_queue_is_let_go(tmp_path, catalog, monkeypatch):
    """``sync`` when the client's queue is full: closed (1013) to reconnect and catch up."""
    stuck_for_watchers(monkeypatch)
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "secret": secret_of(created["watch_url"])})
            table = server.tables[created["table"]]
            watcher = full_watcher(table)
            ws.send_json({"type": "sync"})
            _told, closed = closing(ws)
            assert closed.code == 1013 and watcher not in table.clients


def test_messages_are_compact_json(tmp_path, catalog):
    """No space after a comma or a colon: a state is sent to every client after every move."""
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "secret": secret_of(created["seats"][0]["url"])})
            text = ws.receive_text()
    assert json.loads(text)["type"] == "state"
    assert text == json.dumps(json.loads(text), separators=(",", ":"))


def test_a_socket_that_sends_no_hello_in_time_is_closed_with_4400(tmp_path, catalog):
    """``Config.hello_seconds`` (30 s for ``azul serve``; a fraction of a second here)."""
    assert make_config(tmp_path).hello_seconds == 30.0
    with serving(make_config(tmp_path, hello_seconds=0.2), catalog) as (client, _server):
        created = create(client).json()
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            told, closed = closing(ws)
    assert told == [{"type": "error", "reason": "the first message must be a hello"}]
    assert (closed.code, closed.reason) == (4400, "the first message must be a hello")


@pytest.mark.parametrize("in_hello", [None, "", 7])
def test_a_hello_without_a_usable_secret_takes_the_one_of_the_handshake(tmp_path, catalog, in_hello):
    """No secret in the hello, an empty one or one that is not a string: the handshake's
    ``Authorization: Bearer SECRET`` header says whose seat the socket is."""
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        secret = secret_of(created["seats"][1]["url"])
        with client.websocket_connect(f"/ws/{created['table']}", headers={"Authorization": f"Bearer {secret}"}) as ws:
            hello = {"type": "hello"} if in_hello is None else {"type": "hello", "secret": in_hello}
            ws.send_json(hello)
            state = receive(ws)
    assert state["type"] == "state" and state["you"] == 1


def test_a_table_put_away_while_its_socket_waited_for_the_hello_is_closed_with_4404(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        looked_up = []
        table_of = server.table

        def noting(table_id):
            looked_up.append(table_id)
            return table_of(table_id)

        server.table = noting
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            # the socket is open and the table was there; then it is deleted as an idle one
            wait_until(lambda: looked_up)
            server.tables.pop(created["table"], None)
            assert server.store.purge(finished_before=0, idle_before=time.time() + 60) == 1
            ws.send_json({"type": "hello", "secret": secret_of(created["seats"][0]["url"])})
            told, closed = closing(ws)
    assert told == [{"type": "error", "reason": "no such table"}]
    assert (closed.code, closed.reason) == (4404, "no such table")


def test_a_message_that_is_json_but_not_an_object_is_ignored_and_the_socket_stays_open(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        north = join(client, created, 0)
        for odd in ([1, 2], 5, "move", None):
            north.ws.send_json(odd)
        north.ws.send_json({"type": "ping"})
        message = receive(north.ws)
        while message["type"] != "pong":
            assert message["type"] in ("presence", "seating"), message
            message = receive(north.ws)


def test_a_table_is_kept_five_minutes_from_when_its_last_client_left(tmp_path, catalog):
    """Leaving uses the table: ``tidy`` keeps it five minutes from then, whenever its last
    move was."""
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        table = server.table(created["table"])
        north = join(client, created, 0)
        table.last_used = time.monotonic() - 3600  # nothing happened for an hour
        north.ws.close()
        wait_until(lambda: not table.clients)
        assert client.portal.call(server.tidy, time.monotonic()) is not None
        assert created["table"] in server.tables
        assert time.monotonic() - 5 < table.last_used <= time.monotonic()


def test_a_fault_while_serving_a_socket_is_logged_and_the_client_told_to_open_the_link_again(
        tmp_path, catalog, monkeypatch, caplog):
    from azul_core.web import asking

    def broken(*args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(asking, "reply", broken)
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        north = join(client, created, 0)
        with caplog.at_level(logging.ERROR, logger="azul.web"):
            north.ws.send_json({"type": "check", "move": "1B1"})
            told, closed = closing(north.ws)
    assert {"type": "error", "reason": "the server failed: open the link again"} in told
    assert (closed.code, closed.reason) == (1011, "the server failed: open the link again")
    failed = [r for r in caplog.records if r.getMessage().startswith("the connection to table")]
    assert [r.getMessage() for r in failed] == [f"the connection to table {created['table'][:6]} failed"]
    assert failed[0].exc_info[0] is RuntimeError


def test_the_store_keeps_who_made_each_move(tmp_path, catalog):
    """Each stored move names its seat (the ``seat`` of the events, for an operator reading the
    database)."""
    import random

    from azul_core.web.store import MOVE
    rng = random.Random(4)
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, "grey-wall").json()
        seats = [join(client, created, 0), join(client, created, 1)]
        for _ in range(30):
            version = max(seat.state["version"] for seat in seats)
            state = seats[0].wait_for(lambda s: s["version"] >= version)  # noqa: B023
            mover = seats[state["view"]["to_move"]]
            legal = mover.wait_for(lambda s: s["version"] >= version)["legal"]  # noqa: B023
            mover.move(rng.choice(legal["columns"] or legal["drafts"])["move"])
            for seat in seats:
                seat.wait_for(lambda s: s["version"] > version)  # noqa: B023
        _row, events = server.store.load(created["table"])
        log = server.table(created["table"]).progress.log
    moves = [event for event in events if event.kind == MOVE]
    told = [entry for entry in log if "move" in entry]
    assert len(moves) == len(told) >= 30
    assert [(event.text, event.seat) for event in moves] == [(entry["move"], entry["seat"]) for entry in told]


def test_a_move_s_text_is_at_most_40_characters_and_not_blank(tmp_path, catalog):
    """A legal move padded with spaces to 40 characters is taken; to 41 it is refused as not a
    move in record notation, as a blank one is, before anything else is judged."""
    notation = "send a move in record notation, e.g. 2R4, CK- or w1:3"
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client).json()
        north = join(client, created, 0)
        move = north.state["legal"]["drafts"][0]["move"]
        for text in ("", "   ", move.rjust(41)):
            north.move(text)
            assert north.refused()["reason"] == notation, text
        version = north.state["version"]
        north.move(move.rjust(40))
        assert north.wait_for(lambda s: s["version"] > version)["last"]["move"] == move


def test_a_bot_s_move_for_a_seat_a_person_plays_is_refused(tmp_path, catalog):
    """``Table.decide(..., by_bot=True)`` for a seat no bot plays (its owner took it back):
    refused with the reason, nothing taken. The server's bot loop never gets there (taking a
    seat back is a new version, and it looks again first); the table's own check says why."""
    from azul_core.web.table import Refused
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client).json()
        north = join(client, created, 0)
        table = server.table(created["table"])
        version, move = table.version, north.state["legal"]["drafts"][0]["move"]

        def bot_moves():
            with pytest.raises(Refused) as refused:
                table.decide(0, version, move, server.store, by_bot=True)
            return str(refused.value)

        assert client.portal.call(bot_moves) == "the seat's owner took it back"
        assert table.version == version


def test_a_table_id_of_more_than_64_characters_is_not_looked_up(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (_client, server):
        asked = []
        load = server.store.load

        def noting(table_id):
            asked.append(table_id)
            return load(table_id)

        server.store.load = noting
        assert server.table("a" * 64) is None and asked == ["a" * 64]
        assert server.table("a" * 65) is None and asked == ["a" * 64]
        assert server.table(65) is None and asked == ["a" * 64]


def test_a_table_whose_variant_the_server_no_longer_offers_is_not_served_and_the_log_says_why(
        tmp_path, catalog, caplog):
    """The server started again without the folder of the table's house rule: its links say
    there is no such table, and the operator's log names the table and the variant."""
    config = make_config(tmp_path)
    with serving(config, catalog) as (client, _server):
        created = create(client, "five-rounds").json()
    with serving(config, build_catalog([])) as (client, _server):
        with caplog.at_level(logging.WARNING, logger="azul.web"):
            with client.websocket_connect(f"/ws/{created['table']}") as ws:
                _told, closed = closing(ws)
    assert closed.code == 4404
    warned = [r.getMessage() for r in caplog.records if "no longer offers" in r.getMessage()]
    assert warned and warned[0] == (f"table {created['table'][:6]} plays variant 'five-rounds', "
                                    "which this server no longer offers")


def test_a_table_loaded_outside_the_event_loop_starts_its_bot_at_the_next_kick(tmp_path, catalog):
    """Loading a table where no event loop runs cannot start its bot; the bot starts at the
    next kick from the loop."""
    with serving(make_config(tmp_path, bot_delay=3600), catalog) as (client, server):
        created = create(client, seats=[{"bot": "greedy"}, {"name": "East"}]).json()
        table_id = created["table"]
        server.tables.pop(table_id).bot_task.cancel()  # forgotten, its bot still waiting
        server.config.bot_delay = 0
        table = server.table(table_id)  # from the test's thread: no running loop here
        assert table.bot_task is None and table.version == server.store.load(table_id)[0].version
        version = table.version
        client.portal.call(server.kick_bot, table)
        wait_until(lambda: table.version > version)
        assert table.progress.last["seat"] == 0


def test_a_full_server_purges_at_most_every_ten_seconds(tmp_path, catalog, monkeypatch):
    """At its open-table limit the server purges expired tables before it refuses a new one,
    at most once in 10 seconds (on a clock the test holds): refused at once again, purged again
    past 10 s."""
    import types

    import azul_core.web.app as web_app
    now = [1_000.0]
    with serving(make_config(tmp_path, max_open_tables=1), catalog) as (client, server):
        assert create(client).status_code == 201
        purges = []
        monkeypatch.setattr(server, "purge", lambda: purges.append(now[0]))
        monkeypatch.setattr(web_app, "time", types.SimpleNamespace(monotonic=lambda: now[0], time=time.time))
        server.purged_at = now[0] - 10.5
        try:
            for at in (1_000.0, 1_009.5, 1_010.0, 1_010.5):
                now[0] = at
                answer = create(client)
                assert answer.status_code == 503, (at, answer.status_code)
            assert purges == [1_000.0, 1_010.5]
        finally:
            monkeypatch.undo()


def test_bots_without_names_are_named_by_their_kind_and_count(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        created = create(client, seats=[{"bot": "greedy"}, {"bot": "greedy"}, {"name": "Ana"}, {"bot": "random"}])
        assert created.status_code == 201
        table = created.json()["table"]
        watcher = Seat(client, table, secret_of(created.json()["watch_url"]))
        names = [seat["name"] for seat in watcher.state["view"]["seats"]]
    assert names == ["greedy 1", "greedy 2", "Ana", "random"]


def test_an_unknown_bot_is_quoted_to_40_characters(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as (client, _server):
        answer = create(client, seats=[{"name": "Ana"}, {"bot": "b" * 60}])
    assert answer.status_code == 400
    assert answer.json() == {"error": f"seat 2: unknown bot {'b' * 40!r} (bots: greedy, mcts, random)"}


def test_a_clock_whose_stand_in_is_a_search_bot_counts_as_a_search_bot_table(tmp_path, catalog):
    """The stand-in of a table's clock plays when a person's time runs out: a search bot there
    counts against the address like a search bot in a seat."""
    with serving(make_config(tmp_path, search_tables_per_address=1), catalog) as (client, _server):
        body = {"variant": "standard", "seats": PEOPLE, "clock": {"mode": "move", "seconds": 60, "bot": "mcts"}}
        assert client.post("/api/tables", json=body).status_code == 201
        assert client.post("/api/tables", json=body).json() == {"error": SEARCH_LIMIT}
        greedy = {**body, "clock": {"mode": "move", "seconds": 60, "bot": "greedy"}}
        assert client.post("/api/tables", json=greedy).status_code == 201


def test_a_new_table_s_answer_names_its_variant_and_links_under_the_public_url(tmp_path, catalog):
    """The links start with ``--public-url`` as given (a path too, without its last slash);
    the admin link is the watch link with the admin secret."""
    public = "https://games.example/AZUX/"
    with serving(make_config(tmp_path, public_url=public, allowed_hosts=("games.example",)), catalog,
                 base_url="https://games.example") as (client, _server):
        created = create(client, "five-rounds").json()
    base = f"https://games.example/AZUX/t/{created['table']}"
    assert created["variant"] == "five-rounds"
    assert created["watch_url"].startswith(f"{base}#watch=")
    assert created["admin_url"] == f"{created['watch_url']}&admin={created['admin_secret']}"
    assert all(seat["url"].startswith(f"{base}#seat=") for seat in created["seats"])


def test_a_server_given_no_catalog_offers_the_folders_its_config_names(tmp_path):
    from azul_core.web.app import Server
    server = Server(make_config(tmp_path))  # variant_dirs: examples/
    assert server.catalog.get("five-rounds") is not None and server.catalog.get("standard") is not None


def test_the_search_bots_think_in_as_many_workers_as_configured_or_the_default(tmp_path, catalog):
    from azul_core.web.app import Server
    from azul_core.web.bots import default_workers
    assert Server(make_config(tmp_path, bot_workers=3), catalog).bot_pool.workers == 3
    assert Server(make_config(tmp_path, bot_workers=0), catalog).bot_pool.workers == max(1, default_workers())


# ---------------------------------------------------------------- purging and housekeeping


def test_a_purge_gives_the_store_each_limit_to_the_second_and_forgets_only_the_tables_it_removed(
        tmp_path, catalog, monkeypatch, caplog):
    """``Server.purge`` asks the store to remove the tables finished, idle and never joined
    for longer than the config keeps them (the limits to the second, on a clock the test
    holds), logs how many went, and forgets those it had in memory, keeping the others."""
    import types

    import azul_core.web.app as web_app
    config = make_config(tmp_path, keep_finished_days=2, keep_idle_days=30, keep_unjoined_hours=1)
    with serving(config, catalog) as (client, server):
        kept = create(client).json()
        Seat(client, kept["table"], secret_of(kept["seats"][1]["url"])).close()  # joined: kept
        unjoined = create(client).json()["table"]
        with sqlite3.connect(config.database) as db:  # both made two hours ago
            db.execute("UPDATE tables SET created = created - 7200, updated = updated - 7200")
        assert {kept["table"], unjoined} <= set(server.tables)
        now = time.time()
        monkeypatch.setattr(web_app, "time", types.SimpleNamespace(time=lambda: now, monotonic=time.monotonic))
        asked = []
        purge = server.store.purge
        monkeypatch.setattr(server.store, "purge", lambda *limits: asked.append(limits) or purge(*limits))
        with caplog.at_level(logging.INFO, logger="azul.web"):
            assert server.purge() == 1
        monkeypatch.undo()
        assert asked == [(now - 2 * 86400, now - 30 * 86400, now - 3600)]
        assert "purged 1 idle tables" in caplog.messages
        assert kept["table"] in server.tables and unjoined not in server.tables
        assert server.store.table_ids() == [kept["table"]]


def test_housekeeping_tidies_every_minute_from_the_time_it_started(tmp_path, catalog, monkeypatch):
    """The housekeeping task sleeps a minute, tidies, and hands each tidy the time of the last
    purge that the previous one answered (the first: when the task started)."""
    import asyncio

    from azul_core.web.app import Server

    class Stop(Exception):
        pass

    server = Server(make_config(tmp_path), catalog)
    slept, given = [], []

    async def sleep(seconds):
        slept.append(seconds)

    def tidy(last_purge):
        given.append(last_purge)
        if len(given) == 3:
            raise Stop
        return f"purged {len(given)}"

    monkeypatch.setattr(asyncio, "sleep", sleep)
    monkeypatch.setattr(server, "tidy", tidy)
    before = time.monotonic()
    with pytest.raises(Stop):
        asyncio.run(server.housekeeping())
    monkeypatch.undo()
    assert slept == [60, 60, 60]
    assert isinstance(given[0], float) and before <= given[0] <= time.monotonic()
    assert given[1:] == ["purged 1", "purged 2"]


# ---------------------------------------------------------------- headers and host names


def answer_through_security_headers(path: str, start: dict) -> list[tuple[bytes, bytes]]:
    """The headers ``SecurityHeaders`` sends for an answer whose own start message is ``start``."""
    import asyncio

    from azul_core.web.app import SecurityHeaders

    async def answer(scope, receive, send):
        await send(start)
        await send({"type": "http.response.body", "body": b"ok"})

    sent = []

    async def send(message):
        sent.append(message)

    asyncio.run(SecurityHeaders(answer)({"type": "http", "path": path}, None, send))
    assert [message["type"] for message in sent] == ["http.response.start", "http.response.body"]
    return list(sent[0]["headers"])


SECURITY_HEADER_NAMES = [b"content-security-policy", b"referrer-policy", b"x-robots-tag", b"x-content-type-options",
                         b"x-frame-options", b"cross-origin-opener-policy", b"cache-control"]


def test_the_security_headers_replace_an_answer_s_own_caching_and_keep_its_other_headers():
    """Whatever an answer says about caching (in any case), the server's word replaces it:
    ``no-store``, or ``no-cache`` for static files; its other headers are kept. Header names
    are lower case, as ASGI asks (and HTTP/2 requires)."""
    own = [(b"Cache-Control", b"max-age=3600"), (b"content-type", b"text/plain"), (b"CACHE-CONTROL", b"public")]
    headers = answer_through_security_headers("/api/variants", {"type": "http.response.start", "status": 200,
                                                                "headers": own})
    assert headers[0] == (b"content-type", b"text/plain")
    assert [name for name, _value in headers[1:]] == SECURITY_HEADER_NAMES
    assert [value for name, value in headers if name.lower() == b"cache-control"] == [b"no-store"]
    static = answer_through_security_headers("/static/js/table.js", {"type": "http.response.start", "status": 200,
                                                                    "headers": own})
    assert [value for name, value in static if name.lower() == b"cache-control"] == [b"no-cache"]


def test_an_answer_that_starts_without_headers_gets_the_security_headers():
    """ASGI lets a start message leave its headers out."""
    headers = answer_through_security_headers("/", {"type": "http.response.start", "status": 204})
    assert [name for name, _value in headers] == SECURITY_HEADER_NAMES


@pytest.mark.parametrize("host", [None, "", ":8000", "[::1"])
def test_a_host_header_that_names_no_host_is_refused(host):
    from azul_core.web.app import host_allowed
    assert host_allowed(host, ("azul.example.org",)) is False


def test_an_allowed_host_written_with_its_final_dot_or_in_capitals_is_the_same_name():
    from azul_core.web.app import host_allowed
    allowed = ("Azul.Example.Org.",)
    assert all(host_allowed(host, allowed) for host in ("azul.example.org", "AZUL.example.org.:8000"))
    assert not host_allowed("example.org", allowed) and not host_allowed("azul.example.org.evil", allowed)


# ---------------------------------------------------------------- the SQLite store itself


def a_row(table_id: str = "t1"):
    from azul_core.web.store import SeatRow, TableRow
    return TableRow(table_id, "standard", "seed", 1.0, 1.0, None, 0, "w", "a", [SeatRow(0, "Ana", None, "h")])


def test_a_store_in_memory_leaves_no_file_behind_and_closes(tmp_path, monkeypatch):
    """``SQLiteStore(":memory:")`` (for tests and embedding) writes no lock file and no
    database, keeps its tables while open, and closes."""
    from azul_core.web.store import Event, SQLiteStore
    monkeypatch.chdir(tmp_path)
    store = SQLiteStore(":memory:")
    store.create(a_row(), [Event("deal", "BBYR")])
    assert store.exists("t1") and store.checkpoints is None
    store.close()
    assert list(tmp_path.iterdir()) == []


def test_a_store_syncs_as_far_as_a_killed_process_needs_unless_told_to_be_durable(tmp_path):
    from azul_core.web.store import SQLiteStore
    for path, options, synchronous in (("plain.sqlite3", {}, 1), ("durable.sqlite3", {"durable": True}, 2)):
        store = SQLiteStore(tmp_path / path, **options)
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == synchronous, path
        store.close()


def test_a_new_table_s_events_are_numbered_from_version_1(tmp_path):
    """A table's events carry the version they bring it to: the first is 1, as ``events_after(0)``
    (what another process asks of a table it has not seen) expects."""
    from azul_core.web.store import Event, SQLiteStore
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    first = [Event("clock", "move 60 random"), Event("deal", "BBYR")]
    store.create(a_row(), first)
    assert [event.text for event in store.events_after("t1", 0)] == ["move 60 random", "BBYR"]
    assert [event.text for event in store.events_after("t1", 1)] == ["BBYR"]
    store.close()


def test_a_table_that_can_not_be_created_leaves_the_store_usable(tmp_path):
    """A failed creation (an id taken) raises its own error and rolls back: the next
    creation works."""
    from azul_core.web.store import SQLiteStore
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    store.create(a_row(), [])
    with pytest.raises(sqlite3.IntegrityError):
        store.create(a_row(), [])
    store.create(a_row("t2"), [])
    assert sorted(store.table_ids()) == ["t1", "t2"]
    store.close()


def test_a_database_whose_events_have_no_times_opens_and_opens_again(tmp_path):
    """A database of a version before events had times gets the column once: opened a second
    time, it is found and not added again."""
    from azul_core.web.store import Event, SQLiteStore
    path = tmp_path / "tables.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript("CREATE TABLE events (table_id TEXT NOT NULL, version INTEGER NOT NULL, kind TEXT NOT NULL,"
                         " seat INTEGER, text TEXT NOT NULL, PRIMARY KEY (table_id, version));")
    db.close()
    for number in range(2):
        store = SQLiteStore(path)
        store.create(a_row(f"t{number}"), [Event("deal", "BBYR")])
        store.close()
    with sqlite3.connect(path) as db:
        assert [row[1] for row in db.execute("PRAGMA table_info(events)")][-1] == "at"
    db.close()


def test_a_store_left_open_does_not_keep_the_process_from_ending(tmp_path):
    """The checkpoint thread is a daemon: a program that opens a store and ends without closing
    it (a script, a crash on the way out) is not held open by it."""
    from azul_core.web.store import SQLiteStore
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    thread = store.checkpoints.thread
    try:
        assert thread.is_alive() and thread.daemon
    finally:
        store.close()
    assert not thread.is_alive()  # closing the store ends it


def test_a_checkpoint_that_fails_is_logged_and_tried_again(tmp_path, monkeypatch, caplog):
    """A checkpoint the disk refuses (the log then grows meanwhile) is logged with the
    database and the error, and tried again a second later; the last one still runs when the
    store closes, and is logged the same way if it fails."""
    import threading
    import types

    import azul_core.web.store as store_module

    asked, failures = [], threading.Semaphore(0)

    class Refusing:
        def execute(self, sql):
            asked.append(sql)
            if sql == "PRAGMA wal_checkpoint(PASSIVE)":
                failures.release()
                raise sqlite3.OperationalError("disk I/O error")
            if sql == "PRAGMA wal_checkpoint(TRUNCATE)":
                raise sqlite3.OperationalError("database is locked")
            return types.SimpleNamespace(fetchall=lambda: [])

        def close(self):
            asked.append("close")

    monkeypatch.setattr(store_module, "sqlite3", types.SimpleNamespace(connect=lambda *a, **k: Refusing(),
                                                                       Error=sqlite3.Error))
    monkeypatch.setattr(store_module._Checkpoints, "EVERY", 0.01)
    path = tmp_path / "tables.sqlite3"
    with caplog.at_level(logging.WARNING, logger="azul.web"):
        checkpoints = store_module._Checkpoints(path)
        assert all(failures.acquire(timeout=20) for _ in range(2)), "tried again after failing"
        checkpoints.stop()
    assert not checkpoints.thread.is_alive()
    assert caplog.messages[0] == f"could not checkpoint {path}: disk I/O error"
    assert asked[-2:] == ["PRAGMA wal_checkpoint(TRUNCATE)", "close"]
    assert caplog.messages[-1] == f"could not checkpoint {path}: database is locked"  # the last one, too
