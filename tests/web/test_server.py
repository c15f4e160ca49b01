"""The table server in process (Starlette's TestClient): HTTP API, WebSocket protocol, store.

Games are played by choosing among the legal moves the server sends, with a
fixed seed; the deals come from fixed table seeds. The server alone judges.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import sqlite3
import time
import warnings
from pathlib import Path

import pytest

starlette = pytest.importorskip("starlette")
import anyio  # noqa: E402  (installed with starlette)

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from azul_core.web.app import Config, create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: The longest a test waits for one message from the server: a broken server fails the test
#: instead of hanging the suite.
TIMEOUT = 20.0


def make_config(tmp_path, **options):
    seeds = itertools.count(1)
    options.setdefault("bot_delay", 0)
    options.setdefault("think", 0.05)
    return Config(data=tmp_path / "data", variant_dirs=(EXAMPLES,),
                  seed_factory=lambda: f"test-{next(seeds)}", **options)


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path)


OPEN_SEATS: list = []


@contextlib.contextmanager
def serving(config, catalog):
    """A server in process; the sockets a test leaves open are closed before it stops (else
    it would wait for them)."""
    with TestClient(create_app(config, catalog)) as test_client:
        try:
            yield test_client
        finally:
            while OPEN_SEATS:
                OPEN_SEATS.pop().close()


@pytest.fixture
def client(config, catalog):
    with serving(config, catalog) as test_client:
        yield test_client


def create(client, variant="standard", seats=None, **headers):
    seats = seats if seats is not None else [{"name": "North"}, {"name": "East"}]
    return client.post("/api/tables", json={"variant": variant, "seats": seats}, headers=headers)


async def _within(seconds: float, receive):
    with anyio.fail_after(seconds):
        return await receive()


def receive_json(ws, seconds: float = TIMEOUT):
    """``ws.receive_json()`` of a test WebSocket, or a failure after ``seconds`` of silence."""
    try:
        message = ws.portal.call(_within, seconds, ws._send_rx.receive)
    except TimeoutError:
        raise AssertionError(f"the server sent nothing for {seconds} s") from None
    ws._raise_on_close(message)
    return json.loads(message["text"])


def secret_of(url: str) -> str:
    return url.split("#", 1)[1].split("&")[0].split("=", 1)[1]


class Seat:
    """One open WebSocket of a table and the last state it received."""

    def __init__(self, client, table, secret, version=None):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        OPEN_SEATS.append(self)
        self.ws.send_json({"type": "hello", "secret": secret, "version": version})
        self.state = None
        self.refusals = []
        self.next_state()

    def next_message(self):
        return receive_json(self.ws)

    def next_state(self):
        """Read until the next state message (refusals are kept, presence skipped)."""
        while True:
            message = self.next_message()
            if message["type"] == "state":
                assert self.state is None or message["version"] > self.state["version"]
                self.state = message
                return message
            if message["type"] == "refused":
                self.refusals.append(message)
                return message

    def wait_for(self, predicate):
        while not predicate(self.state):
            message = self.next_message()
            if message["type"] == "state":
                self.state = message
            elif message["type"] == "refused":
                self.refusals.append(message)
        return self.state

    def wait_version(self, version):
        return self.wait_for(lambda s: s["version"] >= version)

    def move(self, move, version=None):
        self.ws.send_json({"type": "move", "version": self.state["version"] if version is None else version,
                           "move": move})

    def refused(self):
        while True:
            message = self.next_message()
            if message["type"] == "refused":
                return message
            if message["type"] == "state":
                self.state = message

    def close(self):
        if not self.closed:
            self.closed = True
            try:
                self.context.__exit__(None, None, None)
            except Exception:  # closed by the server already
                pass


def human_turn(state, seats_by_index):
    view = state["view"]
    return view["phase"] != "over" and view["seats"][view["to_move"]]["bot"] is None


def play_to_end(seats: dict[int, Seat], rng: random.Random, choose=None, moves=None):
    """Play the human seats by picking legal moves; bots move by themselves. Returns the last
    state (after ``moves`` moves if given). ``choose(legal, state)`` may pick the move
    (default: a random legal one). Every seat has heard each move before the next is sent."""
    any_seat = next(iter(seats.values()))
    for _ in range(moves if moves is not None else 2000):
        state = any_seat.wait_for(lambda s: s["view"]["phase"] == "over" or human_turn(s, seats))
        if state["view"]["phase"] == "over":
            for seat in seats.values():
                seat.wait_version(state["version"])
            return state
        mover = seats[state["view"]["to_move"]]
        mover.wait_version(state["version"])
        legal = mover.state["legal"]
        assert legal is not None, "the seat to move gets its legal moves"
        options = legal["columns"] or legal["drafts"]
        move = choose(legal, mover.state) if choose else None
        if move is None:
            move = rng.choice(options)["move"]
        mover.move(move)
        expected = mover.state["version"] + 1
        for seat in seats.values():
            seat.wait_version(expected)
    if moves is not None:
        return any_seat.wait_for(lambda s: s["view"]["phase"] == "over" or human_turn(s, seats))
    raise AssertionError("the game did not end")


def join_all(client, created):
    seats = {}
    for entry in created["seats"]:
        if entry["url"]:
            seats[entry["seat"]] = Seat(client, created["table"], secret_of(entry["url"]))
    return seats


# ---------------------------------------------------------------- creating tables


def test_create_table_gives_capability_links_and_stores_only_hashes(client, config):
    answer = create(client, seats=[{"name": "North"}, {"name": "East"}, {"bot": "greedy"}])
    assert answer.status_code == 201
    created = answer.json()
    table = created["table"]
    assert len(table) >= 22  # 128 bits from secrets.token_urlsafe
    urls = [s["url"] for s in created["seats"]]
    assert urls[0].startswith(f"http://testserver/t/{table}#seat=") and "?" not in urls[0]
    assert urls[2] is None and created["seats"][2] == {"seat": 2, "name": "greedy", "bot": "greedy",
                                                      "url": None}
    assert created["watch_url"].startswith(f"http://testserver/t/{table}#watch=")
    secrets = [secret_of(u) for u in urls[:2]] + [secret_of(created["watch_url"]), created["admin_secret"]]
    assert len(set(secrets)) == 4 and all(len(s) >= 22 for s in secrets)
    stored = b"".join(p.read_bytes() for p in config.database.parent.iterdir())
    for secret in secrets:
        assert secret.encode() not in stored
    assert table.encode() in stored


def test_variants_listing_offers_shipped_variants_and_operator_house_rules(client):
    listing = {v["name"]: v for v in client.get("/api/variants").json()}
    assert {"standard", "grey-wall", "duel", "family-floor", "five-rounds"} <= set(listing)
    assert listing["standard"]["players"] == [2, 3, 4]
    assert listing["duel"]["players"] == [2] and listing["duel"]["misplaced_to_floor"]
    assert listing["grey-wall"]["column_choice"] and not listing["standard"]["column_choice"]
    assert {"random", "greedy", "mcts"} <= set(listing["standard"]["bots"])
    assert listing["standard"]["rules"][0].startswith("Rules of 'standard'")
    assert any("floor" in line for line in listing["family-floor"]["rules"])
    assert not any(str(ROOT) in line for v in listing.values() for line in v["rules"])


@pytest.mark.parametrize("body, status, words", [
    ({"variant": "nope", "seats": [{"name": "a"}, {"name": "b"}]}, 400, "unknown variant"),
    ({"variant": "../variants/standard.yaml", "seats": [{"name": "a"}, {"name": "b"}]}, 400, "unknown variant"),
    ({"variant": "duel", "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}, 400, "played by 2"),
    ({"variant": "standard", "seats": [{"name": "a"}]}, 400, "played by 2, 3, 4"),
    ({"variant": "standard", "seats": [{"name": "x" * 33}, {"name": "b"}]}, 400, "at most 32"),
    ({"variant": "standard", "seats": [{"name": "a\u0007"}, {"name": "b"}]}, 400, "can't be shown"),
    ({"variant": "standard", "seats": [{"name": "a"}, {"bot": "skynet"}]}, 400, "unknown bot"),
    ({"variant": "standard", "seats": [{"name": "a"}, {}]}, 400, "name or a bot"),
    ({"variant": "standard", "seats": "two"}, 400, "'seats' must be a list"),
    ([1, 2], 400, "JSON object"),
])
def test_bad_table_requests_are_refused_with_a_reason(client, body, status, words):
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_not_json_too_large_and_foreign_origin_are_refused(client):
    assert client.post("/api/tables", content=b"{nope").status_code == 400
    huge = json.dumps({"variant": "standard", "seats": [{"name": "a" * 20000}, {"name": "b"}]})
    assert client.post("/api/tables", content=huge).status_code == 413
    foreign = create(client, Origin="http://evil.example")
    assert (foreign.status_code, foreign.json()) == (403, {"error": "this request comes from another site's page"})
    assert create(client, Origin="http://testserver").status_code == 201


def test_tables_per_client_per_hour_and_open_tables_are_limited(tmp_path, catalog):
    with serving(make_config(tmp_path, tables_per_hour=2), catalog) as client:
        assert create(client).status_code == 201
        assert create(client).status_code == 201
        third = create(client)
        assert third.status_code == 429 and "an hour" in third.json()["error"]
    with serving(make_config(tmp_path / "b", max_open_tables=1), catalog) as client:
        assert create(client).status_code == 201
        assert create(client).status_code == 503


def test_pages_and_api_answers_carry_the_security_headers(client):
    table = create(client).json()["table"]
    for path in ("/", f"/t/{table}", "/api/variants"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        headers = answer.headers
        policy = dict(directive.split(" ", 1) for directive in headers["content-security-policy"].split("; "))
        assert policy == {"default-src": "'self'", "script-src": "'self'", "style-src": "'self'",
                          "img-src": "'self' data:", "connect-src": "'self'", "base-uri": "'none'",
                          "form-action": "'self'", "frame-ancestors": "'none'", "object-src": "'none'"}
        assert {name: headers[name] for name in ("referrer-policy", "x-robots-tag", "x-content-type-options",
                                                 "x-frame-options", "cross-origin-opener-policy")} == {
            "referrer-policy": "no-referrer", "x-robots-tag": "noindex, nofollow",
            "x-content-type-options": "nosniff", "x-frame-options": "DENY",
            "cross-origin-opener-policy": "same-origin"}
        assert headers.get_list("cache-control") == ["no-store"]  # the server's one, alone
    static = client.get("/static/js/table.js")
    assert static.status_code == 200 and static.headers.get_list("cache-control") == ["no-cache"]
    assert client.get("/t/NoSuchTable").status_code == 404


# ---------------------------------------------------------------- playing


def test_join_move_and_every_client_hears_it(client):
    created = create(client).json()
    north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
    east = Seat(client, created["table"], secret_of(created["seats"][1]["url"]))
    watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
    state = north.state
    assert state["you"] == 0 and east.state["you"] == 1 and watcher.state["you"] is None
    view = state["view"]
    assert view["phase"] == "draft" and view["to_move"] == 0 and view["round"] == 1
    assert len(view["factories"]) == 5 and all(len(f) == 4 for f in view["factories"])
    assert view["centre"] == {"tiles": [], "marker": True}
    assert view["seats"][0]["wall"][0][0] == {"colour": "blue", "tile": False, "pattern": "blue"}
    assert [space["cost"] for space in view["seats"][0]["floor"]] == [-1, -1, -2, -2, -2, -3, -3]
    assert state["legal"]["drafts"] and east.state["legal"] is None and watcher.state["legal"] is None
    draft = next(d for d in state["legal"]["drafts"] if d["line"] == 0)
    north.move(draft["move"])
    for seat in (north, east, watcher):
        seat.wait_version(state["version"] + 1)
        assert seat.state["view"]["to_move"] == 1
        assert seat.state["last"]["move"] == draft["move"] and seat.state["last"]["seat"] == 0
    assert north.state["view"]["seats"][0]["lines"][0]["count"] == 1
    assert east.state["legal"] is not None and north.state["legal"] is None


def test_a_wrong_secret_is_refused_and_a_watcher_can_not_move(client):
    created = create(client).json()
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_json({"type": "hello", "secret": "not-the-secret", "version": None})
        message = receive_json(ws)
        assert message["type"] == "error" and "wrong" in message["reason"]
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws)
        assert closed.value.code == 4401
    watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
    watcher.move("1B1")
    assert "watch" in watcher.refused()["reason"]
    with client.websocket_connect("/ws/NoSuchTable") as ws:
        assert receive_json(ws)["type"] == "error"


def test_refusals_say_why_and_change_nothing(client):
    created = create(client).json()
    north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
    east = Seat(client, created["table"], secret_of(created["seats"][1]["url"]))
    version = north.state["version"]
    east.move(north.state["legal"]["drafts"][0]["move"])
    assert east.refused()["reason"] == "it is North's turn, not yours"
    factory = north.state["view"]["factories"][0]
    missing = next(c for c in ("blue", "yellow", "red", "black", "white") if c not in factory)
    north.move(f"1{'BYRKW'['blue yellow red black white'.split().index(missing)]}1")
    reason = north.refused()["reason"]
    assert reason == f"Factory 1 has no {missing} tiles"  # in a player's words (players.refusal_words)
    north.move("7Q9")
    assert "is not a move" in north.refused()["reason"]
    north.move("w1:1")
    assert "time to take tiles" in north.refused()["reason"]
    north.move(north.state["legal"]["drafts"][0]["move"], version=version - 1)
    assert "moved on" in north.refused()["reason"]
    assert north.state["version"] == version  # nothing was applied
    # Line 1 holds one tile: full. Another draft onto it is refused by the rule, in words.
    first = next(d for d in north.state["legal"]["drafts"] if d["line"] == 0 and d["source"] > 0)
    north.move(first["move"])
    east.wait_version(version + 1)
    east.move(next(d for d in east.state["legal"]["drafts"] if d["line"] == 5)["move"])
    north.wait_version(version + 2)
    assert all(d["line"] != 0 for d in north.state["legal"]["drafts"])
    source = next(i for i, f in enumerate(north.state["view"]["factories"], 1) if f)
    letter = "BYRKW"["blue yellow red black white".split().index(north.state["view"]["factories"][source - 1][0])]
    north.move(f"{source}{letter}1")
    assert north.refused()["reason"] == "Line 1 is already full"
    assert north.state["version"] == version + 2


def test_a_move_sent_twice_is_applied_once(client, config):
    created = create(client).json()
    north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
    version = north.state["version"]
    move = north.state["legal"]["drafts"][0]["move"]
    north.move(move, version)
    north.move(move, version)
    north.wait_version(version + 1)
    assert "moved on" in north.refused()["reason"]
    db = sqlite3.connect(config.database)
    moves = db.execute("SELECT COUNT(*) FROM events WHERE table_id = ? AND kind = 'move'",
                       (created["table"],)).fetchone()[0]
    assert moves == 1


def test_a_page_that_was_away_reconnects_and_catches_up(client):
    created = create(client).json()
    north = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
    east = Seat(client, created["table"], secret_of(created["seats"][1]["url"]))
    seen = east.state["version"]
    east.close()
    north.move(north.state["legal"]["drafts"][0]["move"])
    north.wait_version(seen + 1)
    back = Seat(client, created["table"], secret_of(created["seats"][1]["url"]), version=seen)
    assert back.state["version"] == seen + 1
    assert back.state["view"] == north.state["view"] | {"seats": back.state["view"]["seats"]}
    assert back.state["legal"] is not None
    back.move(back.state["legal"]["drafts"][0]["move"])
    north.wait_version(seen + 2)


def test_the_server_restarts_mid_game_and_every_table_goes_on(tmp_path, catalog):
    config = make_config(tmp_path)
    rng = random.Random(3)
    with serving(config, catalog) as client:
        created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"bot": "greedy"}]).json()
        seats = join_all(client, created)
        before = play_to_end(seats, rng, moves=12)
        assert before["view"]["phase"] != "over"
        for seat in seats.values():
            seat.close()
    with serving(config, catalog) as client:
        seats = join_all(client, created)
        after = seats[0].state
        assert after["version"] == before["version"]
        assert after["view"]["factories"] == before["view"]["factories"]
        assert [s["lines"] for s in after["view"]["seats"]] == [s["lines"] for s in before["view"]["seats"]]
        final = play_to_end(seats, rng)
        assert final["view"]["final"]["winners"]
        record = client.get(f"/api/tables/{created['table']}/record",
                            headers={"Authorization": f"Bearer {secret_of(created['watch_url'])}"})
        assert_valid_record(record.text, tmp_path, finished=True)


# ---------------------------------------------------------------- whole games and records


def assert_valid_record(text, tmp_path, finished, options=()):
    from typer.testing import CliRunner

    from azul_core.cli.app import _register, app
    path = tmp_path / f"record-{time.monotonic_ns()}.json"
    path.write_text(text)
    _register()
    result = CliRunner().invoke(app, ["validate", "--json", *options, str(path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    entry = report["files"][0] if "files" in report else report
    assert entry["valid"], entry
    assert entry["finished"] is finished
    return json.loads(text)


def test_a_round_in_which_only_a_later_seat_places_tiles_names_that_seat_s_placements(client):
    """North sends every draft to the floor, East fills line 1: round 1's summary has no tile
    for North and East's tile on row 1, with its point."""
    created = create(client).json()
    seats = join_all(client, created)
    summaries = []

    def north_floors_east_fills_line_1(legal, state):
        summary = state["view"]["last_round"]
        if summary and not summaries:
            summaries.append(summary)
        drafts = [d["move"] for d in legal["drafts"]]
        wanted = [m for m in drafts if m.endswith("-" if state["you"] == 0 else "1")]
        return wanted[0] if wanted else None

    play_to_end(seats, random.Random(3), north_floors_east_fills_line_1, moves=30)
    assert summaries and summaries[0]["round"] == 1
    north, east = summaries[0]["seats"]
    assert north["placed"] == [] and north["floor"] < 0
    assert [(p["row"], p["points"]) for p in east["placed"]] == [(0, 1)]


def test_a_whole_standard_game_with_a_bot_ends_with_bonuses_and_a_valid_record(client, tmp_path):
    created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"bot": "greedy"}]).json()
    seats = join_all(client, created)
    rounds_seen = []

    def watch(legal, state):
        summary = state["view"]["last_round"]
        if summary and summary["round"] not in rounds_seen:
            rounds_seen.append(summary["round"])
            for seat, entry in enumerate(summary["seats"]):
                assert entry["floor"] <= 0
                assert all(p["points"] >= 1 for p in entry["placed"])
                # The colour wall scores only at the round's end: the score stands until the next.
                assert entry["score"] == state["view"]["seats"][seat]["score"]
        return None

    final = play_to_end(seats, random.Random(1), watch)
    view = final["view"]
    assert view["phase"] == "over" and view["to_move"] is None and final["legal"] is None
    summary = view["final"]
    assert [s["total"] for s in summary["seats"]] == summary["scores"] == [s["score"] for s in view["seats"]]
    assert {b["kind"] for b in summary["seats"][0]["bonuses"]} == {"rows", "columns", "colours"}
    assert summary["winners"] and summary["text"]
    for seat in summary["seats"]:
        # A score never drops below 0 at a round's end, so the parts add up to the total or less.
        assert seat["tiles"] + seat["floor"] + sum(b["points"] for b in seat["bonuses"]) <= seat["total"]
    assert rounds_seen[:2] == [1, 2]
    # Every seat's link (and the watch link) downloads the record; no secret, no record.
    table = created["table"]
    nobody = client.get(f"/api/tables/{table}/record")
    assert nobody.status_code == 401
    answer = client.get(f"/api/tables/{table}/record",
                        headers={"Authorization": f"Bearer {secret_of(created['seats'][1]['url'])}"})
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    record = assert_valid_record(answer.text, tmp_path, finished=True)
    assert record["format"] == "azul-record/1" and record["variant"] == "standard"
    assert record["players"] == ["North", "East", "greedy"]
    assert record["result"]["scores"] == summary["scores"]
    assert record["seed"] is not None  # told once the game is over


def test_the_record_of_a_game_in_progress_validates_and_hides_the_seed(client, tmp_path):
    created = create(client).json()
    seats = join_all(client, created)
    seats[0].move(seats[0].state["legal"]["drafts"][0]["move"])
    seats[0].wait_version(seats[0].state["version"] + 1)
    answer = client.get(f"/api/tables/{created['table']}/record",
                        headers={"Authorization": f"Bearer {secret_of(created['seats'][0]['url'])}"})
    record = assert_valid_record(answer.text, tmp_path, finished=False)
    assert "seed" not in record and len(record["rounds"][0]["actions"]) == 1


def test_a_grey_wall_game_asks_for_wall_columns(client, tmp_path):
    created = create(client, "grey-wall", [{"name": "Ana"}, {"name": "Bo"}]).json()
    seats = join_all(client, created)
    asked = []

    def choose(legal, state):
        if legal["columns"]:
            view = state["view"]
            placing = view["placing"]
            assert view["phase"] == "place" and placing["seat"] == state["you"]
            assert [c["column"] for c in legal["columns"]] == placing["columns"]
            assert all(c["move"] == f"w{placing['row'] + 1}:{c['column'] + 1}" for c in legal["columns"])
            asked.append(len(legal["columns"]))
            return legal["columns"][-1]["move"]
        return None

    final = play_to_end(seats, random.Random(2), choose)
    assert asked and max(asked) > 1
    assert all(cell["pattern"] is None for row in final["view"]["seats"][0]["wall"] for cell in row)
    answer = client.get(f"/api/tables/{created['table']}/record",
                        headers={"Authorization": f"Bearer {secret_of(created['watch_url'])}"})
    record = assert_valid_record(answer.text, tmp_path, finished=True)
    assert any(a.startswith("w") for r in record["rounds"] for a in r["actions"])


def test_a_duel_game_lists_misplaced_drafts_with_the_reason(client, tmp_path):
    created = create(client, "duel", [{"name": "Ana"}, {"name": "Bo"}]).json()
    seats = join_all(client, created)
    sent = []

    def choose(legal, state):
        misplaced = [d for d in legal["drafts"] if d["misplaced"]]
        for draft in misplaced:
            assert draft["why"] and draft["line"] < 5
        if misplaced and not sent:
            sent.append(misplaced[0])
            return misplaced[0]["move"]
        return None

    final = play_to_end(seats, random.Random(4), choose)
    assert sent, "a duel game offers drafts onto lines that can't take them"
    assert final["view"]["final"]["winners"]
    answer = client.get(f"/api/tables/{created['table']}/record",
                        headers={"Authorization": f"Bearer {secret_of(created['watch_url'])}"})
    assert_valid_record(answer.text, tmp_path, finished=True)


def test_a_house_rule_from_an_operator_folder_is_playable(client, tmp_path, monkeypatch):
    created = create(client, "family-floor", [{"name": "Ana"}, {"bot": "random"}]).json()
    seats = join_all(client, created)
    final = play_to_end(seats, random.Random(5))
    costs = [space["cost"] for space in final["view"]["seats"][0]["floor"]]
    assert costs == [-1, -1, -1, 0, 0, 0, 0]  # every tile costs 1, at most 3 a round
    answer = client.get(f"/api/tables/{created['table']}/record",
                        headers={"Authorization": f"Bearer {secret_of(created['watch_url'])}"})
    # Found by name in the folder (AZUL_VARIANTS_PATH), and allowed to run its plugin file by naming it.
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(EXAMPLES / "family-floor"))
    house_rule = EXAMPLES / "family-floor" / "family-floor.yaml"
    record = assert_valid_record(answer.text, tmp_path, finished=True, options=("--variant", str(house_rule)))
    assert record["variant"] == "family-floor" and record["player_kinds"] == ["human", "random"]


def test_bots_play_their_seats_and_the_creator_hands_a_seat_to_a_bot(client):
    created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"bot": "random"}]).json()
    table = created["table"]
    north = Seat(client, table, secret_of(created["seats"][0]["url"]))
    east = Seat(client, table, secret_of(created["seats"][1]["url"]))
    path = f"/api/tables/{table}/seats/1/bot"
    refused = client.post(path, json={"bot": "greedy"},
                          headers={"Authorization": f"Bearer {secret_of(created['seats'][0]['url'])}"})
    assert refused.status_code == 401
    admin = {"Authorization": f"Bearer {created['admin_secret']}"}
    assert client.post(path, json={"bot": "skynet"}, headers=admin).status_code == 400
    assert client.post(f"/api/tables/{table}/seats/7/bot", json={"bot": "greedy"}, headers=admin).status_code == 404
    assert client.post(path, json={"bot": "greedy"}, headers=admin | {"Origin": "http://evil.example"}).status_code == 403
    answer = client.post(path, json={"bot": "greedy"}, headers=admin)
    assert answer.status_code == 200 and answer.json() == {"seat": 1, "bot": "greedy"}
    assert client.post(path, json={"bot": "greedy"}, headers=admin).status_code == 409
    east.wait_for(lambda s: s["view"]["seats"][1]["bot"] == "greedy")
    assert east.state["legal"] is None
    # North moves; both bots answer by themselves and it is North's turn again.
    version = north.wait_for(lambda s: s["view"]["seats"][1]["bot"] == "greedy")["version"]
    north.move(north.state["legal"]["drafts"][0]["move"])
    state = north.wait_for(lambda s: s["version"] >= version + 3 and s["view"]["to_move"] == 0
                           or s["view"]["phase"] != "draft")
    assert state["last"]["seat"] in (1, 2)
    east.wait_version(state["version"])
    east.move("1B1")
    assert east.refused()["reason"] == "your seat is played by the bot 'greedy' now"


def test_a_websocket_from_another_site_or_a_huge_message_is_refused(client):
    created = create(client).json()
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"/ws/{created['table']}", headers={"Origin": "http://evil.example"}) as ws:
            receive_json(ws)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_text("x" * 5000)
        assert receive_json(ws) == {"type": "error", "reason": "message too large"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws)
        assert closed.value.code == 1009
    seat = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
    seat.ws.send_text("y" * 5000)
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            receive_json(seat.ws)
    assert closed.value.code == 1009


def test_the_secret_may_come_in_a_bearer_header_and_hello_may_ask_for_the_record(client):
    created = create(client).json()
    secret = secret_of(created["seats"][0]["url"])
    with client.websocket_connect(f"/ws/{created['table']}", headers={"Authorization": f"Bearer {secret}"}) as ws:
        ws.send_json({"type": "hello", "version": None, "record": True})
        state = receive_json(ws)
        assert state["you"] == 0 and state["record"]["format"] == "azul-record/1"
        ws.send_json({"type": "ping"})
        replies = [receive_json(ws) for _ in range(2)]
        assert {"type": "pong"} in replies
        assert {"type": "presence", "connected": [True, False]} in replies


def test_finished_idle_tables_are_purged(tmp_path, catalog):
    config = make_config(tmp_path, keep_finished_days=1, keep_idle_days=2)
    with serving(config, catalog) as client:
        old, fresh, idle = (create(client).json()["table"] for _ in range(3))
    db = sqlite3.connect(config.database)
    now = time.time()
    db.execute("UPDATE tables SET finished = ?, updated = ? WHERE id = ?", (now - 3 * 86400, now - 3 * 86400, old))
    db.execute("UPDATE tables SET finished = ?, updated = ? WHERE id = ?", (now, now, fresh))
    db.execute("UPDATE tables SET updated = ? WHERE id = ?", (now - 3 * 86400, idle))
    db.commit()
    db.close()
    with serving(config, catalog) as client:
        assert client.get(f"/t/{old}").status_code == 404
        assert client.get(f"/t/{idle}").status_code == 404
        assert client.get(f"/t/{fresh}").status_code == 200
    db = sqlite3.connect(config.database)
    assert db.execute("SELECT COUNT(*) FROM events WHERE table_id = ?", (old,)).fetchone()[0] == 0


def test_the_store_applies_a_version_once(tmp_path):
    from azul_core.web.store import Event, SeatRow, SQLiteStore, TableRow
    store = SQLiteStore(tmp_path / "t.sqlite3")
    row = TableRow("T", "standard", "s", 0.0, 0.0, None, 0, "w", "a", [SeatRow(0, "a", None, "h")])
    store.create(row, [Event("deal", "BBBB")])
    assert store.append("T", 1, [Event("move", "1B1", 0)], False)
    assert not store.append("T", 1, [Event("move", "1B2", 0)], False)
    _row, events = store.load("T")
    assert [(e.kind, e.text) for e in events] == [("deal", "BBBB"), ("move", "1B1")]
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_operator_seed_deals_the_same_tables_on_every_run(tmp_path, catalog):
    deals = []
    for run in ("a", "b"):
        config = Config(data=tmp_path / run, seed="demo", bot_delay=0)
        with serving(config, catalog) as client:
            tables = [create(client).json() for _ in range(2)]
            deals.append([Seat(client, t["table"], secret_of(t["seats"][0]["url"])).state["view"]["factories"]
                          for t in tables])
    assert deals[0] == deals[1]
    assert deals[0][0] != deals[0][1]  # the N-th table has its own seed


@pytest.mark.parametrize("variant, players", [("standard", 4), ("grey-wall", 3), ("duel", 2)])
def test_the_view_reusing_boards_and_the_fast_legal_json_are_the_plain_ones(catalog, variant, players):
    from azul_core.web.store import SeatRow, TableRow
    from azul_core.web.table import Table
    from azul_core.web.views import build_legal, build_view

    class Accepting:
        def append(self, *args):
            return True

    offered = catalog.get(variant)
    row = TableRow("T", variant, "seed", 0.0, 0.0, None, 0, "w", "a",
                   [SeatRow(i, f"P{i}", None, "h") for i in range(players)])
    table, _events = Table.new(row, offered)
    rng = random.Random(7)
    while not table.over:
        assert table.view(None) == build_view(table.state, offered, table.seats, table.connected(),
                                              table.progress.last_round, variant)
        legal = json.loads(table.legal_json())
        assert legal == build_legal(table.state)
        table.decide(table.state.to_move, table.version, rng.choice(legal["columns"] or legal["drafts"])["move"],
                     Accepting())
    assert table.view(None)["final"]["winners"]


def test_an_sqlite_store_is_one_process_s_and_a_second_opening_is_refused(tmp_path):
    from azul_core.web.store import SQLiteStore, StoreInUse
    store = SQLiteStore(tmp_path / "t.sqlite3")
    with pytest.raises(StoreInUse, match="another azul serve .* --data"):
        SQLiteStore(tmp_path / "t.sqlite3")
    store.close()
    SQLiteStore(tmp_path / "t.sqlite3").close()
