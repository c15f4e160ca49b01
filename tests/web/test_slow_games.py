"""Slow games among friends (issue 42): clocks of hours or days a move, up to the server's bound;
a stand-in that waits for the time to run out, not for a player who closed the page; a table in
play kept while its clock may still run (not purged as idle), a finished one purged as before;
the seat's status the home page's "My tables" asks for. On SQLite and on PostgreSQL."""

from __future__ import annotations

import time
import types

import pytest

pytest.importorskip("starlette")

from seats_helpers import FakeClock, Page, bearer, call, create, seats_config, secrets_of, serving  # noqa: E402
from test_postgres_store import row, store, where  # noqa: E402,F401  (the store fixtures, SQLite and PostgreSQL)

import azul_core.web.app as web_app  # noqa: E402
from azul_core.web.clocks import AWAY_OFF, ClockRule, parse_clock  # noqa: E402
from azul_core.web.store import CLOCK, DEAL, Event  # noqa: E402

DAY = 86400
BOTS = ["greedy", "random"]


def test_a_clock_of_up_to_fourteen_days_a_move_or_sixty_days_a_game_is_taken_and_more_is_refused(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        longest = create(client, clock={"mode": "move", "seconds": 14 * DAY, "bot": "greedy"})
        assert longest.status_code == 201, longest.text
        assert longest.json()["clock"]["seconds"] == 14 * DAY
        assert create(client, clock={"mode": "game", "seconds": 60 * DAY}).status_code == 201
        too_long = create(client, clock={"mode": "move", "seconds": 14 * DAY + 1})
        assert (too_long.status_code, too_long.json()) == (
            400, {"error": "clock seconds: from 1 to 1209600 seconds (14 days) a move"})
        too_long = create(client, clock={"mode": "game", "seconds": 60 * DAY + 1})
        assert (too_long.status_code, too_long.json()) == (
            400, {"error": "clock seconds: from 1 to 5184000 seconds (60 days) a game"})
        too_long = create(client, clock={"mode": "move", "seconds": DAY, "away": 14 * DAY + 1})
        assert too_long.json() == {"error": 'clock away: from 1 to 1209600 seconds (14 days), or "off"'}


def test_away_off_is_read_and_kept():
    rule = parse_clock({"mode": "move", "seconds": 2 * DAY, "away": "off"}, BOTS)
    assert rule == ClockRule("move", 2 * DAY, "greedy", AWAY_OFF)
    assert ClockRule.from_text(rule.to_text()) == rule
    with pytest.raises(ValueError, match="clock away"):
        parse_clock({"mode": "move", "seconds": 60, "away": "never"}, BOTS)


def test_a_slow_game_s_stand_in_waits_for_the_clock_not_for_a_player_who_closed_the_page(tmp_path, catalog):
    """Two days a move, away off: North closes the page on her turn and comes back a day later,
    her seat still hers; only when the two days are up does the stand-in play it."""
    clock = FakeClock()
    with serving(seats_config(tmp_path / "data", clock), catalog) as (client, server):
        created = create(client, clock={"mode": "move", "seconds": 2 * DAY, "bot": "greedy", "away": "off"}).json()
        table_id, secrets = created["table"], secrets_of(created)
        Page(client, table_id, secrets[1])  # East stays at the table
        north = Page(client, table_id, secrets[0])
        north.wait_synced(lambda page: page.seating["clock"]["running"] == 0)
        north.close()
        clock.advance(DAY)
        assert call(client, server.seats.check_all) == 0
        assert server.tables[table_id].seats[0].bot is None
        clock.advance(DAY + 1)
        assert call(client, server.seats.check_all) == 1
        assert server.tables[table_id].seats[0].bot == "greedy"
        assert server.tables[table_id].seating.why[0] == "clock"


# ---------------------------------------------------------------- purging: the store's rule


def clocked(seconds: float) -> Event:
    return Event(CLOCK, ClockRule("move", seconds, "greedy").to_text())


def test_the_store_keeps_a_game_in_play_for_its_clock_beyond_the_idle_time(store):  # noqa: F811
    """Untouched since 100: a table without a clock goes at the idle limit; one with a clock of two
    days a move only once the two days have passed too; a finished one at the finished limit,
    whatever its clock."""
    store.create(row("plain"), [Event(DEAL, "BBYR")])
    store.create(row("slow"), [clocked(2 * DAY), Event(DEAL, "BBYR")])
    store.create(row("slow-finished", finished=100.0), [clocked(2 * DAY), Event(DEAL, "BBYR")])
    assert store.purge(finished_before=0.0, idle_before=100.5) == 1
    assert sorted(store.table_ids()) == ["slow", "slow-finished"]
    assert store.purge(finished_before=0.0, idle_before=100 + 2 * DAY) == 0
    assert store.purge(finished_before=100.5, idle_before=100 + 2 * DAY) == 1
    assert store.table_ids() == ["slow"]
    assert store.purge(finished_before=0.0, idle_before=100 + 2 * DAY + 1) == 1
    assert store.table_ids() == []


# ---------------------------------------------------------------- purging: the server


@pytest.fixture(params=["sqlite", "postgres"])
def database(request):
    """The server's options for its store: its SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres")}


def test_a_table_in_play_with_a_day_clock_outlives_the_idle_time_and_a_finished_one_does_not(
        tmp_path, catalog, database, monkeypatch):
    """The server keeps idle tables a day and finished ones a day. A day and a half after the
    last move: the game without a clock is gone, the game in play with two days a move is kept;
    a finished game with the same clock is gone, as any finished game."""
    config = seats_config(tmp_path / "data", keep_idle_days=1, keep_finished_days=1, **database)
    two_days = {"mode": "move", "seconds": 2 * DAY, "bot": "greedy", "away": "off"}
    with serving(config, catalog) as (client, server):
        plain = create(client).json()
        slow = create(client, clock=two_days).json()
        finished = create(client, [{"name": "North"}, {"bot": "greedy"}], clock=two_days).json()
        for table in (plain, slow):
            Page(client, table["table"], secrets_of(table)[0]).close()  # joined: kept past the hour
        north = Page(client, finished["table"], secrets_of(finished)[0])
        handed = client.post(f"/api/tables/{finished['table']}/seats/0/bot", json={"bot": "greedy"},
                             headers=bearer(finished["admin_secret"]))
        assert handed.status_code == 200, handed.text
        north.wait(lambda page: page.state["view"]["phase"] == "over")
        north.close()

        later = time.time() + 1.5 * DAY
        monkeypatch.setattr(web_app, "time", types.SimpleNamespace(time=lambda: later, monotonic=time.monotonic))
        assert call(client, server.purge) == 2
        monkeypatch.undo()
        assert server.store.table_ids() == [slow["table"]]
        assert client.get(f"/api/tables/{slow['table']}/status",
                          headers=bearer(secrets_of(slow)[0])).json()["state"] == "your-turn"


# ---------------------------------------------------------------- the seat's status


def test_a_seat_s_own_link_is_told_whose_turn_it_is_and_no_other_secret_is(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        created = create(client, [{"name": "Ann"}, {"name": "Bob"}]).json()
        table_id, secrets = created["table"], secrets_of(created)

        def status(secret):
            return client.get(f"/api/tables/{table_id}/status", headers=bearer(secret))

        ann = status(secrets[0])
        assert ann.status_code == 200 and ann.headers["cache-control"] == "no-store"
        assert ann.json() == {"table": table_id, "variant": "standard", "seat": 0, "players": ["Ann", "Bob"],
                              "state": "your-turn", "to_move": "Ann", "bot": None, "round": 1,
                              "version": ann.json()["version"], "winners": []}
        assert status(secrets[1]).json()["state"] == "waiting"
        assert status(secrets[1]).json()["to_move"] == "Ann"
        Page(client, table_id, secrets[0]).after_move()
        assert status(secrets[1]).json()["state"] == "your-turn"
        assert status(secrets[0]).json() | {"version": 0} == {
            "table": table_id, "variant": "standard", "seat": 0, "players": ["Ann", "Bob"], "state": "waiting",
            "to_move": "Bob", "bot": None, "round": 1, "version": 0, "winners": []}
        watch = created["watch_url"].split("#watch=", 1)[1]
        for other in (watch, created["admin_secret"], "nonsense", None):
            answer = client.get(f"/api/tables/{table_id}/status", headers=bearer(other) if other else {})
            assert answer.status_code == 401 and "seat's own link" in answer.json()["error"]
        assert client.get("/api/tables/nope/status", headers=bearer(secrets[0])).status_code == 404


def test_a_finished_table_s_status_names_the_winners(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client, [{"name": "Ann"}, {"bot": "greedy"}]).json()
        table_id = created["table"]
        ann = Page(client, table_id, secrets_of(created)[0])
        client.post(f"/api/tables/{table_id}/seats/0/bot", json={"bot": "random"},
                    headers=bearer(created["admin_secret"]))
        ann.wait(lambda page: page.state["view"]["phase"] == "over")
        told = client.get(f"/api/tables/{table_id}/status", headers=bearer(secrets_of(created)[0])).json()
        table = server.tables[table_id]
        assert told["state"] == "finished" and told["to_move"] is None and told["bot"] == "random"
        assert told["winners"] == [table.seats[seat].name for seat in table.state.winners] != []
