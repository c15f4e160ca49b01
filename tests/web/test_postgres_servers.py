"""Several ``azul serve`` processes on one PostgreSQL database: the clients of one table split
between them hear every move, bots move once, a kill -9 of one process loses nothing and the
game finishes through the other; the record validates and holds each move once."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

# The real server processes of the SQLite tests (pytest puts this folder on sys.path).
from test_server_cli import RunningServer, secret_of, stop_all  # noqa: E402


@pytest.fixture
def servers(postgres):
    started = []

    def start(data):
        server = RunningServer(data, "--database", postgres)
        started.append(server)
        return server
    yield start
    stop_all(started)


class Player:
    """One client of the table (a seat's or the watch link) on one server process; every state
    it receives moves the version on, never back."""

    def __init__(self, server, table: str, secret: str, changes: bool):
        from websockets.sync.client import connect
        self.server = server
        self.socket = connect(server.url.replace("http", "ws") + f"/ws/{table}", proxy=None).__enter__()
        self.socket.send(json.dumps({"type": "hello", "secret": secret, "version": None, "changes": changes}))
        self.state = None
        self.connected = None
        self.versions = []
        self.refused = []
        self.receive()

    def receive(self) -> None:
        from azul_core.web.patches import apply
        message = json.loads(self.socket.recv(timeout=30))
        if message["type"] == "update":
            assert message["base"] == self.state["version"]
            seen = apply({"view": self.state["view"], "last": self.state["last"]}, message["changes"])
            message = {**self.state, **seen, "version": message["version"], "legal": message["legal"]}
        elif message["type"] == "refused":
            self.refused.append(message)
            return
        elif message["type"] == "presence":
            self.connected = message["connected"]
            return
        elif message["type"] != "state":
            return
        self.connected = [seat["connected"] for seat in message["view"]["seats"]]
        assert self.state is None or message["version"] > self.state["version"], "a version came twice"
        self.state = message
        self.versions.append(message["version"])

    def wait_for(self, predicate) -> dict:
        while self.state is None or not predicate(self.state):
            self.receive()
        return self.state

    def wait_version(self, version: int) -> dict:
        return self.wait_for(lambda s: s["version"] >= version)

    def close(self) -> None:
        try:
            self.socket.close()
        except Exception:
            pass


def human_turn_or_over(state) -> bool:
    view = state["view"]
    return view["phase"] == "over" or view["seats"][view["to_move"]]["bot"] is None


def play(players: dict, rng: random.Random, moves: int, sent: dict) -> dict:
    """Play the human seats for ``moves`` moves (or to the end); ``sent``: version -> the move
    that made it. Every player hears each move before the next is sent."""
    any_player = next(iter(players.values()))
    for _ in range(moves):
        state = any_player.wait_for(human_turn_or_over)
        for player in players.values():
            player.wait_version(state["version"])
        if state["view"]["phase"] == "over":
            return state
        mover = players[state["view"]["to_move"]]
        legal = mover.state["legal"]
        assert legal is not None, "the seat to move gets its legal moves, from whichever process"
        move = rng.choice(legal["columns"] or legal["drafts"])["move"]
        mover.socket.send(json.dumps({"type": "move", "version": state["version"], "move": move}))
        sent[state["version"] + 1] = move
        for player in players.values():
            player.wait_version(state["version"] + 1)
    return any_player.wait_for(human_turn_or_over)


def stored_events(url: str, table: str) -> list[tuple]:
    import psycopg
    with psycopg.connect(url) as db:
        return db.execute("SELECT version, kind, seat, text FROM azul_events WHERE table_id = %s ORDER BY version",
                          (table,)).fetchall()


def check_record(server, created, tmp_path, events, sent):
    """The record validates; each stored event is there once, in order; each move a client sent
    and heard of is the event of its version."""
    text = server.get(f"/api/tables/{created['table']}/record", secret_of(created["watch_url"]))
    record = json.loads(text)
    assert record["result"] is not None
    path = tmp_path / "record.json"
    path.write_text(text)
    validated = subprocess.run([sys.executable, "-c", "from azul_core.cli import main; main()", "validate",
                                str(path)], capture_output=True, text=True, timeout=120)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert [e[0] for e in events] == list(range(1, len(events) + 1))
    moves = [e[3] for e in events if e[1] == "move"]
    assert moves == [action for entry in record["rounds"] for action in entry["actions"]]
    by_version = {e[0]: e for e in events}
    for version, move in sent.items():
        assert by_version[version][1:4:2] == ("move", move), (version, move)


def test_two_processes_serve_one_table_with_its_clients_split_between_them(tmp_path, servers, postgres):
    # The same --data folder too: with a database shared by design, no lock keeps the second out.
    first, second = servers(tmp_path / "data"), servers(tmp_path / "data")
    seats = [{"name": "Ana"}, {"name": "Bo"}, {"bot": "random"}, {"name": "Cy"}]
    created = first.post("/api/tables", {"variant": "standard", "seats": seats})
    # Ana and Cy on the first process, Bo and a watcher on the second; some ask for changes.
    players = {0: Player(first, created["table"], secret_of(created["seats"][0]["url"]), changes=True),
               1: Player(second, created["table"], secret_of(created["seats"][1]["url"]), changes=True),
               3: Player(first, created["table"], secret_of(created["seats"][3]["url"]), changes=False)}
    watcher = Player(second, created["table"], secret_of(created["watch_url"]), changes=True)
    # Each process tells who is at the table: its own clients and the other's.
    for player in [*players.values(), watcher]:
        player.wait_for(lambda s, player=player: player.connected == [True, True, False, True])
    sent: dict = {}
    final = play({**players, "watch": watcher}, random.Random(5), 500, sent)
    assert final["view"]["phase"] == "over"
    events = stored_events(postgres, created["table"])
    # Every client heard every version from the first it got (some are skipped only when two
    # versions are committed in one go: a move and the deal or placement that follow by themselves).
    for player in [*players.values(), watcher]:
        assert player.versions[-1] == len(events) and not player.refused
    check_record(second, created, tmp_path, events, sent)
    # The record of the game, the same from either process.
    assert first.get(f"/api/tables/{created['table']}/record", secret_of(created["watch_url"])) == \
        second.get(f"/api/tables/{created['table']}/record", secret_of(created["watch_url"]))


def test_a_process_killed_mid_game_loses_nothing_and_the_game_ends_through_the_other(tmp_path, servers, postgres):
    first, second = servers(tmp_path / "a"), servers(tmp_path / "b")
    seats = [{"name": "Ana"}, {"bot": "random"}, {"name": "Bo"}]
    created = second.post("/api/tables", {"variant": "grey-wall", "seats": seats})
    secrets = {0: secret_of(created["seats"][0]["url"]), 2: secret_of(created["seats"][2]["url"])}
    players = {0: Player(first, created["table"], secrets[0], changes=True),
               2: Player(second, created["table"], secrets[2], changes=True)}
    rng = random.Random(8)
    sent: dict = {}
    play(players, rng, 12, sent)
    # A move sent through the first process, which is killed at once: taken or not, never half.
    state = players[0].wait_for(human_turn_or_over)
    players[2].wait_version(state["version"])
    mover = players[state["view"]["to_move"]]
    mover.socket.send(json.dumps({"type": "move", "version": state["version"],
                                  "move": rng.choice(mover.state["legal"]["columns"] or
                                                     mover.state["legal"]["drafts"])["move"]}))
    first.stop(signal.SIGKILL)
    players[0].close()
    # Ana's page reconnects: to the other process (there is no other now).
    players[0] = Player(second, created["table"], secrets[0], changes=True)
    assert players[0].connected == [True, False, True]
    final = play(players, rng, 500, sent)
    assert final["view"]["phase"] == "over"
    events = stored_events(postgres, created["table"])
    check_record(second, created, tmp_path, events, sent)
    assert players[2].versions[-1] == len(events)


def test_a_bot_thinks_once_per_move_however_many_processes_hold_its_table(postgres, tmp_path, monkeypatch):
    """Two servers (in this process, to count the bots' decisions) hold an all-bot table: each
    would let the bots move, but one at a time claims the table's bot turns."""
    import time
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    import azul_core.web.app as web_app
    from azul_core.web.app import Config, create_app

    chosen = []
    make_bot = web_app.make_bot

    class Counting:
        """A bot whose every choice is counted (a compiled bot's methods can't be patched)."""

        def __init__(self, bot):
            self.bot = bot

        def choose(self, state):
            chosen.append(1)
            return self.bot.choose(state)

        def __getattr__(self, name):
            return getattr(self.bot, name)

    def counting_bot(*args, **kwargs):
        return Counting(make_bot(*args, **kwargs))

    monkeypatch.setattr(web_app, "make_bot", counting_bot)
    configs = [Config(data=tmp_path / name, database_url=postgres, bot_delay=0, think=0.05, seed="bots")
               for name in ("a", "b")]
    with TestClient(create_app(configs[0])) as first, TestClient(create_app(configs[1])) as second:
        created = first.post("/api/tables", json={"variant": "standard", "seats": [{"bot": "random"}] * 3}).json()
        assert second.get(f"/t/{created['table']}").status_code == 200  # the second holds it too
        watch = {"Authorization": f"Bearer {secret_of(created['watch_url'])}"}
        deadline = time.monotonic() + 120
        while (record := first.get(f"/api/tables/{created['table']}/record", headers=watch).json()).get("result") is None:
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.2)
        decisions = sum(len(entry["actions"]) for entry in record["rounds"])
        assert second.get(f"/api/tables/{created['table']}/record", headers=watch).json() == record
    assert len(chosen) == decisions


def test_a_seat_arrives_once_whichever_process_its_pages_open_on(tmp_path, servers, postgres):
    """At a table with a clock, a seat's first page is an ``arrive`` event (its clock may run
    from then on): stored once though the seat opens pages on both processes, and heard by the
    other process's clients."""
    first, second = servers(tmp_path / "a"), servers(tmp_path / "b")
    created = first.post("/api/tables", {"variant": "standard", "seats": [{"name": "Ana"}, {"name": "Bo"}],
                                         "clock": {"mode": "move", "seconds": 600, "bot": "greedy"}})
    table = created["table"]
    ana = Player(first, table, secret_of(created["seats"][0]["url"]), changes=False)
    ana_again = Player(second, table, secret_of(created["seats"][0]["url"]), changes=True)
    bo = Player(second, table, secret_of(created["seats"][1]["url"]), changes=True)
    ana.wait_version(bo.state["version"])  # Bo's arrival, committed by the other process
    ana_again.wait_version(bo.state["version"])
    arrivals = [(kind, seat) for _version, kind, seat, _text in stored_events(postgres, table) if kind == "arrive"]
    assert arrivals == [("arrive", 0), ("arrive", 1)]
    for player in (ana, ana_again, bo):
        player.close()
