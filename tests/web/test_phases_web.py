"""The plugins' phases at the online table, in process (issue 40): examples/lid-market (a phase
at the round's end) and examples/colour-bid (a phase at the round's start chosen at once, in
secret). The view names the phase; every message a seat, or a watcher, is sent before every
seat has chosen (its view, the last move, the game log, the record, the download) holds no
other seat's pick; once all have chosen the log tells every pick."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("starlette")

# The in-process server's helpers (pytest puts this folder on sys.path).
from test_server import Seat, create, make_config, secret_of, serving  # noqa: E402
from test_updates import ChangesSeat  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path)


class Heard:
    """Every message a client was sent, as text (its ``legal``, the offer to the seat to move,
    left out: it lists every pick on offer, which is not anybody's choice)."""

    def __init__(self):
        self.texts = []

    def keep(self, message: dict) -> None:
        self.texts.append(json.dumps({key: value for key, value in message.items() if key != "legal"}))


class Hearing:
    """A seat's client that keeps every message it is sent in ``heard``."""

    def __init__(self, *args, heard: Heard, **kwargs):
        self.heard = heard
        super().__init__(*args, **kwargs)

    def next_message(self):
        message = super().next_message()  # type: ignore[misc]  # the client class mixed in
        self.heard.keep(message)
        return message


class HeardChanges(Hearing, ChangesSeat):
    """A client that applies updates, keeping what it hears."""


class HeardWhole(Hearing, Seat):
    """A client that asks for whole states, keeping what it hears."""


def picks_told(texts) -> list[str]:
    """The texts that name a pick: its notation or its label's words."""
    return [text for text in texts if "+pick:" in text or "Pick " in text]


def download(client, table: str, secret: str) -> str:
    answer = client.get(f"/api/tables/{table}/record", headers={"authorization": f"Bearer {secret}"})
    assert answer.status_code == 200
    return answer.text


def test_no_message_to_another_seat_tells_a_pick_before_every_seat_has_picked(config, catalog):
    with serving(config, catalog) as client:
        created = create(client, "colour-bid", seats=[{"name": "Ann"}, {"name": "Bob"}]).json()
        table = created["table"]
        secrets = [secret_of(created["seats"][seat]["url"]) for seat in (0, 1)]
        watch = secret_of(created["watch_url"])
        heard = {who: Heard() for who in (0, 1, "watch")}
        # (a client of changes asks for the log or the record: test_updates' client checks the
        # order of the changes against a document of the view, the last move, then the record)
        clients = {seat: [HeardChanges(client, table, secrets[seat], log=True, heard=heard[seat]),
                          HeardChanges(client, table, secrets[seat], record=True, heard=heard[seat]),
                          HeardWhole(client, table, secrets[seat], heard=heard[seat])] for seat in (0, 1)}
        clients["watch"] = [HeardChanges(client, table, watch, log=True, heard=heard["watch"]),
                            HeardChanges(client, table, watch, record=True, heard=heard["watch"])]
        view = clients[0][0].state["view"]
        assert view["phase"] == "choose" and view["stage"]["name"] == "round_start"
        assert view["stage"]["at_once"] is True
        assert view["stage"]["text"].startswith("Round's start: choose before the first draft, in secret")
        first = view["to_move"]
        second = 1 - first
        assert picks_told(heard[second].texts + heard["watch"].texts) == []

        legal = clients[first][0].state["legal"]
        assert [move["label"] for move in legal["moves"]][2] == "Pick red: double points for it this round"
        clients[first][0].move("+pick:2")  # red
        version = clients[first][0].state["version"] + 1
        for seat_clients in clients.values():
            for seat_client in seat_clients:
                seat_client.wait_version(version)
        # The chooser sees its own pick, sealed; the other seat and the watcher that it has chosen.
        mine = clients[first][0].state["view"]["stage"]
        assert mine["chosen"] == [first] and mine["yours"]["move"] == "+pick:2"
        theirs = clients[second][0].state
        assert theirs["view"]["stage"]["chosen"] == [first] and theirs["view"]["stage"]["yours"] is None
        assert theirs["view"]["to_move"] == second
        name = ["Ann", "Bob"][first]
        assert theirs["last"] == {"seat": first, "move": None, "text": f"{name} has chosen, in secret"}
        assert theirs["log"][-1]["text"] == f"{name} has chosen, in secret"
        told = picks_told(heard[second].texts + heard["watch"].texts)
        assert told == [], told[0][:2000] if told else None
        for secret in (secrets[second], watch, secrets[first]):
            assert "+pick" not in download(client, table, secret)
        assert "pick" not in json.dumps(clients[second][1].state["record"])

        clients[second][0].move("+pick:0")  # blue
        version += 1
        for seat_clients in clients.values():
            for seat_client in seat_clients:
                seat_client.wait_for(lambda state: state["version"] >= version)
        for who in (0, 1, "watch"):
            state = clients[who][0].state
            assert state["view"]["stage"] is None and state["view"]["phase"] == "draft"
            revealed = [entry for entry in state["log"] if entry.get("revealed")]
            assert len(revealed) == 1
            picks = {first: "Pick red: double points for it this round (+pick:2)",
                     second: "Pick blue: double points for it this round (+pick:0)"}
            assert revealed[0]["text"] == ("Everyone has chosen: " +
                                           "; ".join(f"{['Ann', 'Bob'][seat]}: {picks[seat]}" for seat in (0, 1)))
            assert state["view"]["memory"]["colour_bid"] == ([0, 2] if first == 1 else [2, 0])
        assert "+pick:2" in download(client, table, watch)


def test_a_bot_that_picks_first_is_not_told_to_the_person_before_they_pick(config, catalog):
    """The bot sits at the seat that picks first: its pick is sealed when the person's page
    first hears of the phase."""
    with serving(config, catalog) as client:
        for attempt in range(8):
            created = create(client, "colour-bid", seats=[{"bot": "greedy"}, {"name": "Ann"}]).json()
            heard = Heard()
            ann = HeardChanges(client, created["table"], secret_of(created["seats"][1]["url"]),
                               log=True, heard=heard)
            state = ann.wait_for(lambda s: s["view"]["to_move"] == 1 or s["view"]["phase"] == "draft")
            if state["view"]["phase"] == "choose" and state["view"]["stage"]["chosen"] == [0]:
                break
        else:
            pytest.fail("no table where the bot picks first")
        assert state["legal"]["moves"] and not picks_told(heard.texts)
        assert "greedy has chosen, in secret" in [entry["text"] for entry in state["log"]]
        ann.move("+pick:4")
        after = ann.wait_for(lambda s: s["view"]["phase"] == "draft")
        assert after["log"][-1]["text"].startswith("Everyone has chosen: greedy: Pick ")
        assert after["log"][-1]["text"].endswith("Ann: Pick white: double points for it this round (+pick:4)")


def test_the_lid_market_at_the_rounds_end_is_named_and_played(config, catalog):
    with serving(config, catalog) as client:
        created = create(client, "lid-market", seats=[{"name": "Ann"}, {"bot": "random"}]).json()
        ann = Seat(client, created["table"], secret_of(created["seats"][0]["url"]))
        rng = random.Random(4)
        for _ in range(300):
            state = ann.wait_for(lambda s: s["view"]["to_move"] == 0 or s["view"]["phase"] == "over")
            view = state["view"]
            assert view["phase"] != "over", "Ann was never offered the market"
            if view["phase"] == "choose" and view["stage"]:
                break
            legal = state["legal"]
            ann.move(rng.choice(legal["columns"] or legal["drafts"])["move"])
            ann.wait_version(state["version"] + 1)
        stage = view["stage"]
        assert stage == {"name": "round_end", "at_once": False, "chosen": [], "yours": None,
                         "text": "Round's end: choose after the wall tiling, before the floors are paid. "
                                 "Buy a tile from the lid for 2 points, or nothing"}  # the plugin's words last
        moves = state["legal"]["moves"]
        assert moves[0] == {"move": "+no-buy", "name": "no-buy", "args": [], "label": "Buy nothing",
                            "exclusive": False}
        buy = moves[1]
        assert buy["label"].startswith("Buy a ") and buy["label"].endswith("(2 points)")
        ann.move(buy["move"])
        after = ann.wait_version(state["version"] + 1)
        assert after["last"]["move"] == buy["move"]
        assert after["last"]["text"] == f"Ann: {buy['label']} ({buy['move']})"


# ---------------------------------------------------------------- azul play --join


def test_join_a_bot_that_picks_first_is_not_shown_before_the_seat_picks(config, catalog, monkeypatch):
    """``azul play --join`` at Ann's seat: the record it is sent ends before the bot's pick;
    the board names the phase, tells that the bot has chosen, never what, until Ann has picked
    (typed by words of its label), then every pick."""
    from test_plugin_moves_web import join
    folder = ROOT / "examples" / "colour-bid"
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(folder))
    with serving(config, catalog) as client:
        for _attempt in range(8):
            created = create(client, "colour-bid", seats=[{"bot": "greedy"}, {"name": "Ann"}]).json()
            watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
            state = watcher.wait_for(lambda s: s["view"]["to_move"] == 1 or s["view"]["phase"] == "draft")
            if state["view"]["phase"] == "choose" and state["view"]["stage"]["chosen"] == [0]:
                break
        else:
            pytest.fail("no table where the bot picks first")
        prompts: list[str] = []
        screens: list[str] = []
        session = None

        def read(prompt):
            prompts.append(prompt)
            screens.append(output.getvalue())
            return "red" if len(prompts) == 1 else "quit"

        session, output = join(client, created["seats"][1]["url"], read, "colour-bid", folder)
        assert session.run() == 0
        before = screens[0]
        assert "round 1   Round's start: Ann chooses in secret" in before
        assert "Round's start: choose before the first draft, in secret" in before
        assert "greedy has chosen, in secret" in before
        shown = "\n".join(line for line in before.splitlines() if "+pick:" not in line)
        assert "Pick " not in shown, shown
        assert prompts[0].startswith("choose (+pick:0, ")
        after = output.getvalue()[len(before):]
        assert "Everyone has chosen: greedy: Pick " in after
        assert "Ann: Pick red: double points for it this round (+pick:2)" in after


def test_join_a_seat_that_picked_waits_for_the_others_and_sees_its_own_pick(config, catalog, monkeypatch):
    """Ann picks first (typed by its number); the bot picks next: Ann's client says whom it waits
    for without naming a pick but her own."""
    from test_plugin_moves_web import join

    from azul_core.players.phase_words import own_choice
    folder = ROOT / "examples" / "colour-bid"
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(folder))
    with serving(config, catalog) as client:
        created = create(client, "colour-bid", seats=[{"name": "Ann"}, {"name": "Bob"}]).json()
        watcher = Seat(client, created["table"], secret_of(created["watch_url"]))
        first = watcher.state["view"]["to_move"]
        seen = []

        def read(prompt):
            if not seen:
                seen.append(prompt)
                return "5"  # white
            raise EOFError  # leave once the pick is sent and the client has heard the answer

        session, output = join(client, created["seats"][first]["url"], read, "colour-bid", folder)
        session.open(None)
        try:  # (a socket left open would keep the server from stopping)
            session.update(session.receive())
            session._turn(first)  # the pick, typed as its number
            heard = session.receive()
            while heard.get("type") != "state":
                heard = session.receive()
            session.update(heard)
            session._draw()
        finally:
            session.socket.close()
        mine = own_choice(session.state, first)
        assert session.state.to_move == 1 - first and session.state.sealed == ((first, mine),)
        assert mine.notation == "+pick:4"
        text = output.getvalue()
        assert "You chose: Pick white: double points for it this round." in text
        assert f"Round's start: {['Ann', 'Bob'][1 - first]} chooses in secret" in text


def test_join_the_lid_market_is_played_by_typing(config, catalog, monkeypatch):
    from test_plugin_moves_web import join

    from azul_core.engine.notation import format_decision
    from azul_core.engine.state import CHOOSE
    folder = ROOT / "examples" / "lid-market"
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(folder))
    with serving(config, catalog) as client:
        created = create(client, "lid-market", seats=[{"name": "Ann"}, {"bot": "random"}]).json()
        rng = random.Random(2)
        typed: list[str] = []
        session = None

        def read(prompt):
            state = session.state
            if len(typed) > 2:
                return "quit"  # a choice typed in words the client can't send: typed again and again
            if state.phase == CHOOSE and state.stage == "round_end":
                buys = [move for move in state.choices if move.name == "buy"]
                typed.append(buys[0].label.lower().removesuffix(" (2 points)") if buys else "buy nothing")
                return typed[-1]
            if typed or state.round > 3:
                return "quit"
            return format_decision(rng.choice(state.legal_decisions()))

        session, output = join(client, created["seats"][0]["url"], read, "lid-market", folder)
        assert session.run() == 0
        text = output.getvalue()
        assert typed, "Ann was never offered the market"
        assert "Round's end: Ann chooses" in text
        assert "Ann: choose one (number or move):" in text and "+no-buy   Buy nothing" in text
        record = json.loads(download(client, created["table"], secret_of(created["watch_url"])))
        actions = [action for entry in record["rounds"] for action in entry["actions"]]
        bought = [action for action in actions if action.startswith("+buy:") or action == "+no-buy"]
        assert bought and (bought[0] == "+no-buy") == (typed[0] == "buy nothing")


# ---------------------------------------------------------------- a search bot's worker


def test_a_bot_in_a_worker_decides_for_its_own_seat_knowing_only_that_the_other_has_picked(catalog, monkeypatch):
    """A search bot (and a hint) decides in a worker process from the record its seat may see,
    which ends before the picks made so far: they are put back, the others' unknown, so the
    worker's game has the bot's seat to move."""
    from azul_core.players import registry
    from azul_core.web import bots

    offered, table, first = bid_table_with_one_pick(catalog)
    other = 1 - first
    assert table.sealed_choices(other) == ((first,), None, other)
    assert table.sealed_choices(first) == ((first,), "+pick:2", first)
    assert "+pick" not in json.dumps(table.record(other).to_dict())

    seen = []

    class Spy:
        def choose(self, state):
            seen.append(state)
            return state.legal_decisions()[0]

    monkeypatch.setattr(registry, "make_bot", lambda *args, **kwargs: Spy())
    answer = bots.think(str(offered.path), table.record(other).to_dict(), "mcts", "seed", 0.01,
                        table.sealed_choices(other))
    assert answer == "+pick:0"
    assert seen[0].to_move == other and seen[0].sealed == ((first, None),)


def test_the_replay_page_tells_the_picks_its_record_holds(catalog):
    """A record holds the choices every seat has made (a copy of a game in progress ends before
    the others): the replay page steps through each pick told in full."""
    from azul_core.web.replay_page import Replay

    offered, table, first = bid_table_with_one_pick(catalog)
    assert [step.move for step in Replay(table.record(None), offered.variant).steps] == [None]
    table.decide(1 - first, table.version, "+pick:0", Accepting())
    steps = Replay(table.record(None), offered.variant).steps
    names = ["Ann", "Bob"]
    assert [step.text for step in steps[1:]] == [
        f"{names[first]}: Pick red: double points for it this round (+pick:2)",
        f"{names[1 - first]}: Pick blue: double points for it this round (+pick:0)"]


class Accepting:
    """A store's event log that takes every event (a table without a server)."""

    def append(self, *args):
        return True


def bid_table_with_one_pick(catalog):
    """A colour-bid table of Ann and Bob (no server) where the seat to move picked red: the
    variant on offer, the table, that seat."""
    from azul_core.web.store import SeatRow, TableRow
    from azul_core.web.table import Table

    offered = catalog.get("colour-bid")
    row = TableRow("T", "colour-bid", "seed", 0.0, 0.0, None, 0, "w", "a",
                   [SeatRow(seat, name, None, "h") for seat, name in enumerate(("Ann", "Bob"))])
    table, _events = Table.new(row, offered)
    first = table.state.to_move
    table.decide(first, table.version, "+pick:2", Accepting())
    return offered, table, first
