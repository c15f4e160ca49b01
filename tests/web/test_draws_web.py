"""Tiles a rule draws from the bag at the online table (issue 40), in process (Starlette's
TestClient), with examples/refill-factories: after a turn that leaves one factory holding tiles,
the player who just played may refill the empty ones from the bag.

The server alone draws, at once after the move that asks for it (a person's or a bot's), from
the table's seed: each draw is an event of its own (``drawn``, ``~RRB``) that a restarted
server, on SQLite and on PostgreSQL, lays again; the game log tells it in words, the factories
show the tiles, the record holds it for ``azul validate``, the replay page steps through it and
``azul play --join`` tells it. A browser's ``~RRB`` is refused: nobody chooses what is drawn.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from test_server import Seat, assert_valid_record, secret_of, serving  # noqa: E402

from azul_core.engine.notation import format_decision  # noqa: E402
from azul_core.records.game_record import record_from_data, replay_state  # noqa: E402
from azul_core.rules import Move  # noqa: E402
from azul_core.web.app import Config  # noqa: E402
from azul_core.web.catalog import build_catalog  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "examples" / "refill-factories"
VARIANT = FOLDER / "refill-factories.yaml"
DRAWN_WORDS = re.compile(r"^Drawn from the bag onto factory (\d): (\d (blue|yellow|red|black|white)(, )?)+$")


@pytest.fixture(scope="module")
def catalog():
    built = build_catalog([FOLDER])
    assert "refill-factories" in built.variants, built.problems
    return built


@pytest.fixture(params=["sqlite", "postgres"])
def config(request, tmp_path):
    """A server's configuration on either store; its tables' seeds are ``draws-1``, ``draws-2``..."""
    database = request.getfixturevalue("postgres") if request.param == "postgres" else None
    seeds = itertools.count(1)
    return Config(data=tmp_path / "data", variant_dirs=(FOLDER,), bot_delay=0, think=0.05,
                  seed_factory=lambda: f"draws-{next(seeds)}", database_url=database)


class Client(Seat):
    """A seat's (or the watch link's) socket that is sent whole states with the log and the record."""

    def __init__(self, client, table, secret):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        from test_server import OPEN_SEATS
        OPEN_SEATS.append(self)
        self.ws.send_json({"type": "hello", "secret": secret, "version": None, "log": True, "record": True})
        self.state = None
        self.refusals = []
        self.next_state()


def create(client, seats: list[dict]) -> dict:
    answer = client.post("/api/tables", json={"variant": "refill-factories", "seats": seats})
    assert answer.status_code == 201, answer.text
    return answer.json()


def legal_moves(state: dict) -> list[str]:
    legal = state["legal"]
    return [entry["move"] for entry in legal["columns"] or legal["drafts"]] + [m["move"] for m in legal["moves"]]


def play_until(clients: dict, watch: Client, rng: random.Random, choose, refill_offered: bool = False) -> dict:
    """Play the people's seats (``choose(moves)`` picks among a seat's moves, else a random draft)
    to the game's end, or until a person is offered the refill (``refill_offered``: that seat's
    state); bots move by themselves."""
    for _ in range(2000):
        state = watch.wait_for(lambda s: s["view"]["phase"] == "over" or s["view"]["to_move"] in clients)
        if state["view"]["phase"] == "over":
            return state
        mover = clients[state["view"]["to_move"]]
        mover.wait_version(state["version"])
        moves = legal_moves(mover.state)
        if refill_offered and "+refill" in moves:
            return mover.state
        move = choose(moves) or rng.choice([m for m in moves if not m.startswith("+")] or moves)
        mover.move(move)
        watch.wait_version(state["version"] + 1)
    raise AssertionError("the game did not get there")


def refill_if_offered(moves: list[str]) -> str | None:
    return "+refill" if "+refill" in moves else None


def drawn_after_refill(actions: list[str]) -> list[str]:
    """The draws that follow the first ``+refill`` of a round's actions."""
    after = actions[actions.index("+refill") + 1:]
    return list(itertools.takewhile(lambda action: action.startswith("~"), after))


def seed_draws(record: dict, variant, round_number: int, refill_at: int, seed: str) -> list[str]:
    """The draws a table of ``seed`` makes after the refill at action ``refill_at`` of round
    ``round_number``, worked out from the record before them with the engine alone."""
    data = json.loads(json.dumps(record))
    data["rounds"] = data["rounds"][:round_number]
    data["rounds"][-1]["actions"] = data["rounds"][-1]["actions"][:refill_at + 1]
    data["rounds"][-1].pop("scores", None)
    data.pop("result", None)
    state = replay_state(record_from_data(data, "the table"), variant)
    draws = []
    while state.phase == "draw":
        state.bag.sort()
        action = refill_at + 1 + len(draws)
        draws.append(state.draw(random.Random(f"{seed}:round:{round_number}:draw:{action}")).notation)
    return draws


def test_a_refill_is_drawn_at_once_told_stored_replayed_and_recorded(config, catalog, tmp_path, monkeypatch):
    rng = random.Random(1)
    with serving(config, catalog) as client:
        created = create(client, [{"name": "Ann"}, {"name": "Bob"}])
        table = created["table"]
        secrets = {entry["seat"]: secret_of(entry["url"]) for entry in created["seats"]}
        clients = {seat: Client(client, table, secret) for seat, secret in secrets.items()}
        watch = Client(client, table, secret_of(created["watch_url"]))
        offered = play_until(clients, watch, rng, lambda moves: None, refill_offered=True)
        assert offered["view"]["phase"] == "choose", "the refill is offered before the game ends"
        seat = offered["view"]["to_move"]
        name = ["Ann", "Bob"][seat]
        mover = clients[seat]
        empty = [number for number, tiles in enumerate(mover.state["view"]["factories"], 1) if not tiles]
        assert len(empty) == 4  # five factories, one holds tiles
        mover.move("+refill")
        after = watch.wait_version(offered["version"] + 1)
        # The move and one draw per empty factory, each an event: the version counts them all.
        assert after["version"] == offered["version"] + 1 + len(empty)
        view = after["view"]
        assert view["phase"] == "draft" and view["to_move"] == 1 - seat  # the turn passed after the draws
        drawn = [entry for entry in after["log"] if entry.get("drawn")]
        assert [int(DRAWN_WORDS.match(entry["text"]).group(1)) for entry in drawn] == empty
        assert all(entry["seat"] == seat and entry["move"].startswith("~") for entry in drawn)
        for entry in drawn:  # each factory holds the tiles its draw brought
            number = int(DRAWN_WORDS.match(entry["text"]).group(1))
            told = {colour: int(count) for count, colour in re.findall(r"(\d) (\w+)", entry["text"].split(": ")[1])}
            shown = view["factories"][number - 1]
            assert {colour: shown.count(colour) for colour in set(shown)} == told and len(shown) == 4
        assert after["log"][-len(empty) - 1]["text"] == f"{name}: Refill the empty factories from the bag (+refill)"
        assert after["last"]["move"] == "+refill"
        assert after["last"]["text"] == ". ".join(
            [f"{name}: Refill the empty factories from the bag (+refill)"] + [entry["text"] for entry in drawn])
        # The record holds the draws right after the refill, as the log's moves.
        actions = after["record"]["rounds"][-1]["actions"]
        assert drawn_after_refill(actions) == [entry["move"] for entry in drawn]
        # ...and they are the ones the table's seed draws (as its deals are the seed's).
        variant = catalog.get("refill-factories").variant
        assert drawn_after_refill(actions) == seed_draws(after["record"], variant, view["round"],
                                                         actions.index("+refill"), "draws-1")

        # Nobody sends a draw (the seat to move is told why; the one that refilled, that it is
        # not its turn): nothing changes.
        for text in (drawn[0]["move"], "~", "~RRRR"):
            clients[1 - seat].move(text, version=after["version"])
            reason = clients[1 - seat].refused()["reason"]
            assert reason.startswith("what a rule draws from the bag is drawn by the server at random"), reason
        clients[seat].move("~BBBB", version=after["version"])
        assert clients[seat].refused()["reason"] == f"it is {['Ann', 'Bob'][1 - seat]}'s turn, not yours"
        assert clients[1 - seat].state["version"] == clients[seat].state["version"] == after["version"]
        download = client.get(f"/api/tables/{table}/record", headers={"authorization": f"Bearer {secrets[0]}"})
        assert download.status_code == 200
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(FOLDER))
    record = assert_valid_record(download.text, tmp_path, finished=False, options=("--variant", str(VARIANT)))
    assert drawn_after_refill(record["rounds"][-1]["actions"]) == [entry["move"] for entry in drawn]

    # A restarted server lays the stored draws again: the same table, log and record.
    with serving(config, catalog) as client:
        again = Client(client, table, secret_of(created["watch_url"]))
        rebuilt = again.state
        assert rebuilt["version"] == after["version"]
        assert rebuilt["view"]["factories"] == view["factories"]
        assert rebuilt["log"] == after["log"] and rebuilt["last"] == after["last"]
        assert rebuilt["record"] == after["record"]
        # and the game goes on to its end, every later refill drawn the same way
        clients = {seat: Client(client, table, secret) for seat, secret in secrets.items()}
        final = play_until(clients, again, rng, refill_if_offered)
        download = client.get(f"/api/tables/{table}/record", headers={"authorization": f"Bearer {secrets[0]}"})
    record = assert_valid_record(download.text, tmp_path, finished=True, options=("--variant", str(VARIANT)))
    refills = sum(entry["actions"].count("+refill") for entry in record["rounds"])
    assert refills >= 2 and final["view"]["final"]["winners"]
    assert sum(1 for entry in final["log"] if entry.get("drawn")) == \
        sum(1 for entry in record["rounds"] for action in entry["actions"] if action.startswith("~"))


def test_a_bot_s_refill_is_drawn_after_its_move(config, catalog, tmp_path, monkeypatch):
    """The random bot refills, three times in this game (at this table seed and Ann's moves),
    while Ann leaves the factories empty: the server draws after a bot's move as after a person's."""
    rng = random.Random(3)
    with serving(config, catalog) as client:
        created = create(client, [{"name": "Ann"}, {"bot": "random"}])
        table = created["table"]
        ann = Client(client, table, secret_of(created["seats"][0]["url"]))
        watch = Client(client, table, secret_of(created["watch_url"]))
        final = play_until({0: ann}, watch, rng, lambda moves: "+leave" if "+leave" in moves else None)
        download = client.get(f"/api/tables/{table}/record",
                              headers={"authorization": f"Bearer {secret_of(created['watch_url'])}"})
    log = final["log"]
    bot_refills = [index for index, entry in enumerate(log) if entry.get("move") == "+refill"]
    assert len(bot_refills) == 3 and all(log[index]["seat"] == 1 for index in bot_refills)
    for index in bot_refills:
        assert log[index + 1].get("drawn") and log[index + 1]["seat"] == 1
        assert DRAWN_WORDS.match(log[index + 1]["text"])
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(FOLDER))
    record = assert_valid_record(download.text, tmp_path, finished=True, options=("--variant", str(VARIANT)))
    assert record["player_kinds"] == ["human", "random"]
    assert any(action.startswith("~") for entry in record["rounds"] for action in entry["actions"])


@pytest.mark.parametrize("config", ["sqlite"], indirect=True)
def test_the_replay_page_steps_through_the_draws(config, catalog):
    from azul_core.web.replay_page import Replay
    rng = random.Random(1)
    with serving(config, catalog) as client:
        created = create(client, [{"name": "Ann"}, {"name": "Bob"}])
        table = created["table"]
        clients = {entry["seat"]: Client(client, table, secret_of(entry["url"])) for entry in created["seats"]}
        watch = Client(client, table, secret_of(created["watch_url"]))
        final = play_until(clients, watch, rng, refill_if_offered)
    replay = Replay(record_from_data(final["record"], "the table"), catalog.get("refill-factories").variant,
                    public=True)
    assert replay.problem is None and replay.over
    steps = replay.index()["steps"]
    draws = [index for index, step in enumerate(steps) if step["move"] and step["move"].startswith("~")]
    assert draws
    told = [entry["text"] for entry in final["log"] if entry.get("drawn")]
    assert [steps[index]["text"] for index in draws] == told  # in the table's own words
    for index in draws:
        step = steps[index]
        number = int(DRAWN_WORDS.match(step["text"]).group(1))
        assert replay.step(index - 1)["view"]["factories"][number - 1] == []
        shown = replay.step(index)["view"]["factories"][number - 1]
        assert len(shown) == sum(int(n) for n in re.findall(r"(\d) ", step["text"].split(": ")[1]))


@pytest.mark.parametrize("config", ["sqlite"], indirect=True)
def test_the_joined_terminal_tells_the_draws(config, catalog, monkeypatch):
    from test_plugin_moves_web import Game, play_joined

    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(FOLDER))
    rng = random.Random(4)
    with serving(config, catalog) as client:
        game = Game(client, "refill-factories", [{"name": "Ana"}, {"bot": "random"}])
        game.seats[0].close()

        def choose(state):
            decisions = state.legal_decisions()
            if Move("refill") in decisions:
                return "+refill"
            return format_decision(rng.choice([d for d in decisions if not isinstance(d, Move)]))

        text = play_joined(client, game, "refill-factories", FOLDER, choose)
    refill = text.index("Ana: Refill the empty factories from the bag (+refill)")
    assert re.match(r"\s*Drawn from the bag onto factory \d: \d ", text[refill:].split("\n", 1)[1])
