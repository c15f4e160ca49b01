"""A bot's turns at the table server (``Server.bot_turns``): what bench/mutation.py (scope web)
found no test reading.

When a bot hands the turn back to a person its loop ends cleanly; a quick bot is one bot per
seat for the whole game, made from the variant's rules, the table's seed and the server's think
time; a search bot's worker is given the game as its seat knows it; between servers sharing a
store, the server that waited for another's claim on the bot's turn learns, once it holds the
claim, what the other did meanwhile and lets the next bot move. Every wait times out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import textwrap
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")

# The guard's in-process server and its helpers (pytest puts this folder on sys.path).
from test_guard_server import (  # noqa: E402
    TIMEOUT,
    Hub,
    Seat,
    SharedStore,
    a_draft,
    create,
    join,
    make_config,
    secret_of,
    serving,
)
from test_server import assert_valid_record  # noqa: E402

import azul_core.web.app as web_app  # noqa: E402
from azul_core.web import bots as web_bots  # noqa: E402
from azul_core.web import store as store_module  # noqa: E402
from azul_core.web.catalog import build_catalog  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BOT_FAILED = "a bot failed"


def wait_until(condition, seconds: float = TIMEOUT) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.01)


def test_a_bot_that_hands_the_turn_to_a_person_stops_without_an_error(tmp_path, catalog, caplog):
    with caplog.at_level(logging.WARNING, logger="azul.web"), \
            serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, seats=[{"name": "Ana"}, {"bot": "random"}]).json()
        ana = join(client, created, 0)
        assert ana.state["view"]["to_move"] == 0
        version = ana.state["version"]
        ana.move(a_draft(ana.state))
        ana.wait_for(lambda state: state["version"] >= version + 2 and state["legal"])  # the bot moved
        table = server.table(created["table"])
        wait_until(lambda: table.bot_task is None)  # its loop is over
    assert table.state.to_move == 0
    assert not [record.getMessage() for record in caplog.records], "the bot's loop logged a problem"


def own_greedy_variant(folder: Path, log: Path, answer: str = "return state.legal_decisions()[0]") -> None:
    """A house rule whose plugin brings its own ``greedy`` (replacing the built-in one by name):
    it writes which bot object decided, with its seed and think time, and plays the first legal
    decision (or does what ``answer`` says)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "own_greedy.py").write_text(textwrap.dedent(f"""
        import json

        class OwnGreedy:
            def __init__(self, seed=None, think=None):
                self.seed, self.think = seed, think

            def choose(self, state):
                with open({str(log)!r}, "a") as out:
                    out.write(json.dumps([id(self), self.seed, self.think]) + "\\n")
                {answer}

        def azul_register_bots():
            return {{"greedy": OwnGreedy}}
    """))
    (folder / "own-greedy.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, own_greedy.py]\n")


def test_a_quick_bot_is_one_bot_per_seat_made_from_the_variant_the_seed_and_the_think_time(tmp_path):
    """The variant's own ``greedy`` plays (the bot is made from the variant's rules), the same
    object for every decision of its seat, seeded by the table's seed and the seat, thinking for
    the server's ``--think``."""
    log = tmp_path / "decisions.log"
    own_greedy_variant(tmp_path / "variants", log)
    catalog = build_catalog([tmp_path / "variants"])
    with serving(make_config(tmp_path, think=0.25), catalog) as (client, server):
        created = create(client, "own-greedy", [{"bot": "greedy"}, {"name": "Ana"}, {"bot": "greedy"}]).json()
        ana = join(client, created, 1)
        table = server.table(created["table"])
        for _turn in range(2):  # bot, Ana, bot, Ana, ...
            ana.wait_for(lambda state: state["view"]["to_move"] == 1 and state["legal"])
            ana.move(a_draft(ana.state))
            version = ana.state["version"]
            ana.wait_for(lambda state, version=version: state["version"] >= version + 2)
        wait_until(lambda: table.bot_task is None)
    decisions = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(decisions) >= 4, "the variant's own greedy did not play"
    seeds = {seed for _bot, seed, _think in decisions}
    assert seeds == {f"{table.row.seed}:seat:0", f"{table.row.seed}:seat:2"}
    for seed in seeds:  # one bot object per seat
        assert len({bot for bot, each, _think in decisions if each == seed}) == 1
    assert {think for _bot, _seed, think in decisions} == {0.25}


def test_a_search_bot_is_given_the_game_as_its_seat_knows_it(tmp_path, catalog, monkeypatch):
    """secret-goal deals each seat a secret colour: the worker asked for the bot's decision is
    given the record with the bot's own goal and the other seat's sealed."""
    asked = []

    async def choose(self, variant_ref, record, bot, seed, sealed=((), None, None)):
        asked.append((variant_ref, record, bot, seed))
        return await asyncio.to_thread(web_bots.think, variant_ref, record, "greedy", seed, None)

    monkeypatch.setattr(web_bots.BotPool, "choose", choose)
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, "secret-goal", [{"name": "Ana"}, {"bot": "mcts"}]).json()
        ana = join(client, created, 0)
        version = ana.state["version"]
        ana.move(a_draft(ana.state))
        ana.wait_for(lambda state: state["version"] >= version + 2)  # the bot answered
        table = server.table(created["table"])
    variant_ref, record, bot, seed = asked[0]
    assert variant_ref == str(table.offered.path) and bot == "mcts"
    assert seed == f"{table.row.seed}:seat:1:version:{version + 1}"
    (goals,) = record["secrets"].values()
    assert goals[0] == {"sealed": True}  # Ana's goal is sealed, the bot's is told
    assert goals[1] != {"sealed": True}
    assert goals[1] == table.record(1).to_dict()["secrets"]["secret_goal"][1]


def test_a_seat_handed_to_another_bot_is_played_by_that_bot(tmp_path):
    """A seat handed to the variant's ``greedy``, taken back by its owner, then handed to
    ``random``: ``random`` plays it, not the ``greedy`` bot object the seat had before."""
    log = tmp_path / "decisions.log"
    own_greedy_variant(tmp_path / "variants", log)
    catalog = build_catalog([tmp_path / "variants"])
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, "own-greedy", [{"name": "Ana"}, {"name": "Bo"}]).json()
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        seat_url = f"/api/tables/{created['table']}/seats/1"
        ana = join(client, created, 0)
        table = server.table(created["table"])

        def ana_moves_and_seat_1_answers():
            version = ana.wait_for(lambda state: state["version"] == table.version)["version"]
            ana.move(a_draft(ana.state))
            ana.wait_for(lambda state: state["version"] >= version + 2 and state["view"]["to_move"] == 0)
            wait_until(lambda: table.bot_task is None)

        assert client.post(f"{seat_url}/bot", json={"bot": "greedy"}, headers=admin).status_code == 200
        ana_moves_and_seat_1_answers()
        assert len(log.read_text().splitlines()) == 1  # the variant's greedy answered
        bo = {"Authorization": f"Bearer {secret_of(created['seats'][1]['url'])}"}
        assert client.post(f"{seat_url}/reclaim", json={}, headers=bo).status_code == 200
        assert client.post(f"{seat_url}/bot", json={"bot": "random"}, headers=admin).status_code == 200
        ana_moves_and_seat_1_answers()
    assert len(log.read_text().splitlines()) == 1, "the seat's former greedy bot played for random"


@pytest.fixture
def held_back(monkeypatch):
    """(thinking, answer): the quick bots made by the server tell ``thinking`` when they start to
    choose, and hold their answers until the test sets ``answer``."""
    thinking, answer = threading.Event(), threading.Event()
    make_bot = web_app.make_bot

    class HeldBack:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, state):
            thinking.set()
            assert answer.wait(TIMEOUT)
            return self.bot.choose(state)

    monkeypatch.setattr(web_app, "make_bot", lambda *args, **kwargs: HeldBack(make_bot(*args, **kwargs)))
    return thinking, answer


def test_a_bot_whose_table_moved_on_while_it_thought_thinks_again(tmp_path, catalog, held_back):
    """East's bot is thinking when the creator hands North to a bot too (the table's version moves
    on): the answer, made for the version before, is not played; the bot thinks again and moves."""
    thinking, answer = held_back
    with serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, seats=[{"name": "Ana"}, {"bot": "greedy"}]).json()
        admin = {"Authorization": f"Bearer {created['admin_secret']}"}
        ana = join(client, created, 0)
        table = server.table(created["table"])
        version = ana.state["version"]
        ana.move(a_draft(ana.state))
        assert thinking.wait(TIMEOUT), "the bot never started thinking"
        assert client.post(f"/api/tables/{created['table']}/seats/0/bot", json={"bot": "random"},
                           headers=admin).status_code == 200
        assert table.version == version + 2  # Ana's move, then the hand-over: the table moved on
        answer.set()
        wait_until(lambda: table.over, 60)  # East's bot moved: the two bots played the game out


def bot_log(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "azul.web"]


@pytest.mark.parametrize("shared", [False, True], ids=["own store", "shared store"])
def test_a_bot_whose_answer_is_refused_stops_and_the_log_says_why(tmp_path, caplog, monkeypatch, shared):
    """Refused once, the bot is not asked again (on a shared store too, where nothing another
    process did is there to catch up on)."""
    log = tmp_path / "decisions.log"
    own_greedy_variant(tmp_path / "variants", log, answer="return (0, 0, 0)  # the centre is empty")
    store = None
    if shared:
        monkeypatch.setattr(store_module, "_hold_lock", lambda path: None)
        store = SharedStore(tmp_path / "data" / "tables.sqlite3", Hub())
    with caplog.at_level(logging.WARNING, logger="azul.web"), \
            serving(make_config(tmp_path), build_catalog([tmp_path / "variants"]), store) as (client, server):
        created = create(client, "own-greedy", [{"bot": "greedy"}, {"name": "Ana"}]).json()
        table = server.table(created["table"])
        wait_until(lambda: table.bot_task is None and log.exists())
        assert table.state.to_move == 0 and table.version == 1  # the deal alone: no move taken
    assert len(log.read_text().splitlines()) == 1  # asked once
    [said] = [message for message in bot_log(caplog) if "bot" in message]
    assert said.startswith(f"bot greedy refused at table {created['table'][:6]}: ")
    assert "centre" in said


def test_a_bot_that_fails_is_started_again_after_a_doubling_pause_and_each_failure_logged(
        tmp_path, caplog, monkeypatch):
    """A bot that always raises: never a move, each failure in the log with its table and error,
    and the bot asked again after 1, 2, 4... (here hundredths of) seconds, not given up on: a
    bot's task that died would leave its table waiting for good."""
    log = tmp_path / "decisions.log"
    own_greedy_variant(tmp_path / "variants", log, answer="raise RuntimeError('the bot broke')")
    monkeypatch.setattr(web_app, "BOT_RETRY_FIRST", 0.01)
    failed = []
    with caplog.at_level(logging.WARNING, logger="azul.web"), \
            serving(make_config(tmp_path), build_catalog([tmp_path / "variants"])) as (client, server):
        created = create(client, "own-greedy", [{"bot": "greedy"}, {"name": "Ana"}]).json()
        table = server.table(created["table"])
        wait_until(lambda: len(log.read_text().splitlines()) >= 3 if log.exists() else False)
        assert table.version == 1 and table.bot_task is not None
        failed = [record for record in caplog.records if record.name == "azul.web"]
    assert [record.getMessage() for record in failed[:2]] == [
        f"a bot failed at table {created['table'][:6]}: its bots start again in 0.01 s",
        f"a bot failed at table {created['table'][:6]}: its bots start again in 0.02 s"]
    assert all(record.exc_info is not None and str(record.exc_info[1]) == "the bot broke" for record in failed)


def test_a_bot_that_failed_once_moves_when_its_turn_is_started_again(tmp_path, catalog, caplog, monkeypatch):
    """The table goes on: the failure is logged, and the bot's turn, started again, moves."""
    monkeypatch.setattr(web_app, "BOT_RETRY_FIRST", 0.01)
    make_bot = web_app.make_bot
    failed: list[str] = []

    class FailsOnce:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, state):
            if not failed:
                failed.append("once")
                raise RuntimeError("the bot broke once")
            return self.bot.choose(state)

    monkeypatch.setattr(web_app, "make_bot", lambda *args, **kwargs: FailsOnce(make_bot(*args, **kwargs)))
    with caplog.at_level(logging.WARNING, logger="azul.web"), \
            serving(make_config(tmp_path), catalog) as (client, server):
        created = create(client, seats=[{"bot": "greedy"}, {"name": "Ana"}]).json()
        ana = join(client, created, 1)
        ana.wait_for(lambda state: state["version"] >= 2 and state["legal"] is not None)
        assert ana.state["last"]["seat"] == 0, "the bot moved once started again"
    assert bot_log(caplog) == [f"a bot failed at table {created['table'][:6]}: its bots start again in 0.01 s"]


class ClaimedElsewhere(SharedStore):
    """A server's connection to a shared store on which another process holds every bot's turn
    while ``held_elsewhere`` is true (``claim_bot_turn`` answers no, as PostgreSQL's lock does)."""

    def __init__(self, path, hub: Hub):
        super().__init__(path, hub)
        self.held_elsewhere = False
        self.claims_refused = 0
        self.claimed_tables: set[str] = set()

    def claim_bot_turn(self, table_id: str) -> bool:
        self.claimed_tables.add(table_id)
        if self.held_elsewhere:
            self.claims_refused += 1
            return False
        return True


@pytest.fixture
def two_servers(tmp_path, catalog, monkeypatch):
    """``start(store_class, deaf=False, **options)``: a server on the test's shared store."""
    monkeypatch.setattr(store_module, "_hold_lock", lambda path: None)  # one file, several servers
    hub = Hub()

    @contextlib.contextmanager
    def start(store_class=SharedStore, deaf=False, **options):
        store = store_class(tmp_path / "data" / "tables.sqlite3", hub)
        store.deaf = deaf
        with serving(make_config(tmp_path, **options), catalog, store) as (client, server):
            yield client, server, store
    return start


def test_a_server_that_waited_for_the_claim_lets_the_next_bot_move_after_the_other_stopped(two_servers, caplog):
    """Server A waits while server B holds the bot's turn; B lets the first bot move, then stops
    before the second. A, told nothing meanwhile (deaf to the store's notices), catches up once it
    holds the claim: the first bot has moved, so A lets the second move, not the first again."""
    seats = [{"name": "Ana"}, {"bot": "random"}, {"bot": "random"}]
    with caplog.at_level(logging.WARNING, logger="azul.web"), \
            two_servers(ClaimedElsewhere, deaf=True) as (a, server_a, store_a):
        store_a.held_elsewhere = True
        with two_servers(bot_delay=2.0) as (b, server_b, _store_b):
            created = create(b, seats=seats).json()
            table_id = created["table"]
            ana = Seat(a, table_id, secret_of(created["seats"][0]["url"]))  # A holds the table
            assert ana.state["view"]["to_move"] == 0
            ana.move(a_draft(ana.state))
            table_b = server_b.table(table_id)
            wait_until(lambda: table_b.state.to_move == 2)  # B let the first bot move...
            assert store_a.claims_refused > 0  # ...while A asked in vain
            assert store_a.claimed_tables == {table_id}
            table_a = server_a.table(table_id)
            assert table_a.state.to_move == 1  # A heard nothing of it
        # B stopped (within its 2 s before the second bot): the claim is free
        store_a.held_elsewhere = False
        wait_until(lambda: table_a.state.to_move == 0)  # the second bot moved through A
        ana.wait_for(lambda state: state["view"]["to_move"] == 0 and state["legal"])
        wait_until(lambda: table_a.bot_task is None)
    assert not [record for record in caplog.records if BOT_FAILED in record.getMessage()]


def test_a_bot_answer_for_a_table_another_server_moved_on_is_thought_again(two_servers, held_back, caplog):
    """Server A's bot is thinking when the creator hands Cy's seat to a bot through server B.
    A, deaf to the store's notices, learns it when the store refuses the answer (made for the
    version before): it catches up and its bot thinks again and moves."""
    thinking, answer = held_back
    seats = [{"name": "Ana"}, {"bot": "greedy"}, {"name": "Cy"}]
    with caplog.at_level(logging.WARNING, logger="azul.web"), \
            two_servers(deaf=True) as (a, server_a, _store_a), \
            two_servers(ClaimedElsewhere) as (b, _server_b, store_b):
        store_b.held_elsewhere = True  # B lets no bot move: A's alone thinks
        created = create(a, seats=seats).json()
        table_id = created["table"]
        ana = join(a, created, 0)
        version = ana.state["version"]
        ana.move(a_draft(ana.state))
        assert thinking.wait(TIMEOUT), "the bot never started thinking"
        table_a = server_a.table(table_id)
        assert b.post(f"/api/tables/{table_id}/seats/2/bot", json={"bot": "random"},
                      headers={"Authorization": f"Bearer {created['admin_secret']}"}).status_code == 200
        assert table_a.version == version + 1  # A heard nothing
        answer.set()
        wait_until(lambda: table_a.state.to_move == 0 and table_a.version >= version + 4)
        wait_until(lambda: table_a.bot_task is None)
        assert table_a.seats[2].bot == "random"
    assert not [message for message in bot_log(caplog) if "bot" in message], bot_log(caplog)


def test_a_game_that_ends_for_want_of_tiles_reads_back_the_same_after_a_restart(tmp_path, monkeypatch):
    """One factory and one tile of each colour, with no end for a starved wall: the game ends
    when a round has nothing to deal. Its record names the factory left empty (``""``, as the
    record format says) and validates; a restarted server reads the table back to the same end
    (it failed: "expected 1 factories, got 0")."""
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "five-tiles.yaml").write_text(
        "extends: standard\nplayers: [2]\n"
        "settings:\n  factories: {2: 1}\n  tiles_per_colour: 1\n  end_when_starved: false\n")
    catalog = build_catalog([folder])
    config = make_config(tmp_path)
    with serving(config, catalog) as (client, server):
        created = create(client, "five-tiles", [{"bot": "random"}, {"bot": "random"}]).json()
        table = server.table(created["table"])
        wait_until(lambda: table.over)
        before = table.record().to_dict()
    assert before["rounds"][-1] == {"factories": [""], "actions": []}, "the last round dealt nothing"
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(folder))  # the record names the variant: found there
    assert_valid_record(json.dumps(before), tmp_path, finished=True,
                        options=("--variant", str(folder / "five-tiles.yaml")))
    with serving(config, catalog) as (client, server):
        table = server.table(created["table"])
        assert table.over and table.record().to_dict() == before


class OneClaimAtATime(SharedStore):
    """A bot's turn claimed as PostgreSQL's lock is: one server at a time holds a table's claim,
    until it releases it (or closes)."""

    def claim_bot_turn(self, table_id: str) -> bool:
        return self.hub.claims.setdefault(table_id, self) is self

    def release_bot_turn(self, table_id: str) -> None:
        if self.hub.claims.get(table_id) is self:
            del self.hub.claims[table_id]


def test_a_server_releases_the_claim_when_its_bot_has_moved(two_servers):
    """Server A lets the bot move after Ana's first move; Ana's second move comes through server B,
    which can claim the bot's turn only if A released it (A, deaf, never hears of the move)."""
    seats = [{"name": "Ana"}, {"bot": "random"}, {"name": "Bo"}]
    with two_servers(OneClaimAtATime, deaf=True) as (a, server_a, _store_a), \
            two_servers(OneClaimAtATime) as (b, server_b, _store_b):
        created = create(a, seats=seats).json()
        table_id = created["table"]
        ana_a, bo_b = join(a, created, 0), join(b, created, 2)
        ana_a.move(a_draft(ana_a.state))
        table_a = server_a.table(table_id)
        wait_until(lambda: table_a.state.to_move == 2 and table_a.bot_task is None)  # A's bot moved
        bo = bo_b.wait_for(lambda state: state["view"]["to_move"] == 2 and state["legal"])
        bo_b.move(a_draft(bo))
        ana_b = join(b, created, 0)
        ana = ana_b.wait_for(lambda state: state["view"]["to_move"] == 0 and state["legal"])
        ana_b.move(a_draft(ana))
        table_b = server_b.table(table_id)
        wait_until(lambda: table_b.state.to_move == 2)  # B's bot moved: the claim was free


class ReleaseFails(SharedStore):
    def release_bot_turn(self, table_id: str) -> None:
        raise ConnectionError("the database went away")


def test_a_claim_that_cannot_be_released_ends_the_bot_s_turn_quietly(two_servers, monkeypatch):
    """Releasing the claim fails (the store's connection is gone: it frees the claim anyway):
    the bot's task ends without an exception, and the next bot's turn is taken again."""
    finished = []
    real_bot_turns = web_app.Server.bot_turns

    async def bot_turns(self, table):
        try:
            await real_bot_turns(self, table)
        except BaseException as exc:
            finished.append(exc)
            raise
        finished.append(None)

    monkeypatch.setattr(web_app.Server, "bot_turns", bot_turns)
    with two_servers(ReleaseFails) as (client, server, _store):
        created = create(client, seats=[{"name": "Ana"}, {"bot": "random"}]).json()
        ana = join(client, created, 0)
        for _turn in range(2):
            version = ana.wait_for(lambda state: state["legal"] is not None)["version"]
            ana.move(a_draft(ana.state))
            ana.wait_for(lambda state, version=version: state["version"] >= version + 2 and state["legal"])
        table = server.table(created["table"])
        wait_until(lambda: table.bot_task is None)
    assert finished == [None, None]
