"""Fair rematches: a rematch moves the first player on (whoever played first plays second), or
draws the first seat, as the table's creator chose; every person keeps their seat and link.
The end of a game tells each seat's points by source, adding up to its score."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from seats_helpers import Page, bearer, create, seats_config, secrets_of, serving  # noqa: E402

#: the finished game's seats in the order they played round 1
NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture(params=["sqlite", "postgres"])
def where(request):
    """SQLite in a folder, or a PostgreSQL schema of its own (when AZUL_TEST_POSTGRES_URL is set)."""
    if request.param == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres")}


def finish_by_bots(client, table: str, admin: str, secrets: dict[int, str]) -> dict:
    """The creator hands every person's seat to a bot, which play the game to its end; the
    final view (as seat 0 sees it). At a rematch the bots that ended the game play on."""
    page = Page(client, table, secrets[0])
    for seat in secrets:
        if page.state["view"]["seats"][seat]["bot"] or page.state["view"]["phase"] == "over":
            continue
        answer = client.post(f"/api/tables/{table}/seats/{seat}/bot", json={"bot": "random"},
                             headers=bearer(admin))
        assert answer.status_code == 200
    page.wait(lambda p: p.state["view"]["phase"] == "over")
    return page.state["view"]


def first_mover(server, table: str) -> int:
    """The seat that made the game's first move, from the table's log."""
    log = server.table(table).progress.log
    return next(entry["seat"] for entry in log if entry.get("move"))


def first_player_of_record(client, table: str, secret: str) -> int:
    answer = client.get(f"/api/tables/{table}/record", headers=bearer(secret))
    assert answer.status_code == 200
    return answer.json().get("first_player", 0)


def rematches(client, server, created: dict, count: int) -> list[int]:
    """Play the table and ``count`` rematches of it to their ends; the seat that played first
    at each, checking that every link still opens its person's seat."""
    secrets, admin = secrets_of(created), created["admin_secret"]
    table = created["table"]
    firsts = []
    for number in range(count + 1):
        finish_by_bots(client, table, admin, secrets)
        first = first_mover(server, table)
        assert first_player_of_record(client, table, secrets[0]) == first
        firsts.append(first)
        if number == count:
            break
        answer = client.post(f"/api/tables/{table}/rematch", json={}, headers=bearer(secrets[1]))
        assert answer.status_code == 201
        table = answer.json()["table"]
        for seat, secret in secrets.items():
            page = Page(client, table, secret)
            assert page.state["you"] == seat
            assert [s["name"] for s in page.state["view"]["seats"]] == NAMES
    return firsts


def test_three_rematches_of_three_players_each_move_the_first_player_on(tmp_path, catalog, where):
    with serving(seats_config(tmp_path / "data", **where), catalog) as (client, server):
        created = create(client, seats=[{"name": name} for name in NAMES]).json()
        # Ann starts; then Cy, so that Ann plays second; then Bob (Ann third); then Ann again.
        assert rematches(client, server, created, 3) == [0, 2, 1, 0]


def test_the_first_seat_drawn_at_random_comes_from_the_rematch_s_seed(tmp_path, catalog):
    drawn = []
    for run in range(2):
        with serving(seats_config(tmp_path / f"data{run}"), catalog) as (client, server):
            created = create(client, seats=[{"name": name} for name in NAMES], rematch_first="draw").json()
            drawn.append(rematches(client, server, created, 3))
    # The test server's seeds are fixed (seats-1, seats-2, ...): the same draws at every run,
    # and not the rotation's [0, 2, 1, 0].
    assert drawn[0] == drawn[1] == [0, 2, 2, 0]


def test_the_setting_and_the_rematch_s_first_seat_survive_a_restart(tmp_path, catalog, where):
    config = seats_config(tmp_path / "data", **where)
    with serving(config, catalog) as (client, server):
        created = create(client, seats=[{"name": name} for name in NAMES]).json()
        secrets = secrets_of(created)
        finish_by_bots(client, created["table"], created["admin_secret"], secrets)
        server.config.bot_delay = 3600  # the rematch's bots wait: its game stays at its start
        new = client.post(f"/api/tables/{created['table']}/rematch", json={},
                          headers=bearer(secrets[0])).json()["table"]
        assert Page(client, new, secrets[0]).state["view"]["to_move"] == 2
    with serving(seats_config(tmp_path / "data", bot_delay=3600, **where), catalog) as (client, server):
        # The rematch's own game is dealt again from its events: Cy still starts it.
        assert Page(client, new, secrets[0]).state["view"]["to_move"] == 2
        assert first_player_of_record(client, new, secrets[0]) == 2
    draw = seats_config(tmp_path / "data2", **where)
    with serving(draw, catalog) as (client, server):
        created = create(client, seats=[{"name": name} for name in NAMES], rematch_first="draw").json()
    with serving(seats_config(tmp_path / "data2", **where), catalog) as (client, server):
        assert server.table(created["table"]).row.rematch_first == "draw"


@pytest.mark.parametrize("value", ["sometimes", 1, None, ["draw"]])
def test_a_first_player_setting_the_server_does_not_know_is_refused_in_one_line(tmp_path, catalog, value):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        answer = create(client, rematch_first=value)
        assert answer.status_code == 400
        reason = answer.json()["error"]
        assert "rematch_first" in reason and "\n" not in reason
        assert server.store.tables_created() == 0


def test_a_variant_that_draws_its_own_first_player_keeps_its_rule_at_the_rematch(tmp_path, catalog):
    with serving(seats_config(tmp_path / "data"), catalog) as (client, server):
        created = create(client, variant="seeded-start", seats=[{"name": name} for name in NAMES]).json()
        secrets = secrets_of(created)
        finish_by_bots(client, created["table"], created["admin_secret"], secrets)
        server.config.bot_delay = 3600
        new = client.post(f"/api/tables/{created['table']}/rematch", json={},
                          headers=bearer(secrets[0])).json()["table"]
        table = server.table(new)
        rules = table.offered.variant.rules
        assert table.row.first_seat is None
        assert Page(client, new, secrets[0]).state["view"]["to_move"] == rules.opening_seat(3, table.row.seed)


@pytest.mark.parametrize("variant", ["standard", "grey-wall", "duel", "secret-goal", "lid-market"])
def test_the_end_tells_each_seat_s_points_by_source_adding_up_to_its_score(tmp_path, catalog, variant):
    seats = [{"name": name} for name in NAMES[:2]]
    with serving(seats_config(tmp_path / "data"), catalog) as (client, _server):
        created = create(client, variant=variant, seats=seats).json()
        final = finish_by_bots(client, created["table"], created["admin_secret"], secrets_of(created))["final"]
        assert final is not None and len(final["sources"]) == 2
        for seat, sources in enumerate(final["sources"]):
            assert sum(source["points"] for source in sources) == final["scores"][seat]
            assert [s["name"] for s in sources][:2] == ["wall", "floor"]
            assert sources[0]["points"] == final["seats"][seat]["tiles"]
            bonuses = {s["name"]: s["points"] for s in sources if s["kind"] == "bonus"}
            assert bonuses == {b["kind"]: b["points"] for b in final["seats"][seat]["bonuses"]}
