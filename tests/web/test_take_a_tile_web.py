"""examples/take-a-tile at the online table, in process (issue 40): a move on another seat's
board. The take is offered with its label, judged by the server, and the update sent to every
seat and to a watcher shows the other seat's line one tile shorter and the tile on the mover's
board; the views the table builds from boards it kept are those built afresh; ``azul play
--join`` takes a tile from the bot's line; the replay page steps through a take."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")

# The in-process server's helpers (pytest puts this folder on sys.path).
import test_plugin_moves_web as plugin_moves_web  # noqa: E402
from test_plugin_moves_web import Game, join  # noqa: E402
from test_server import Seat, create, make_config, secret_of, serving  # noqa: E402
from test_updates import ChangesSeat, unplugged  # noqa: E402

VARIANT = "take-a-tile"
FOLDER = Path(__file__).resolve().parents[2] / "examples" / VARIANT


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path)


def tiles_on_board(board: dict) -> int:
    return sum(line["count"] for line in board["lines"]) + sum(1 for space in board["floor"]
                                                               if space["tile"] not in (None, "marker"))


def line_of(view: dict, mover: int, take: dict) -> dict:
    """The line ``take`` takes from, as ``view`` shows it."""
    ahead, row = take["args"]
    return view["seats"][(mover + ahead) % len(view["seats"])]["lines"][row]


def heard_after(seat: Seat, version: int) -> int:
    """The version of the next state ``seat`` hears after ``version`` (a move, and the deal of
    a round it ended, are one broadcast)."""
    return seat.wait_for(lambda state: state["version"] > version)["version"]


def test_every_seat_is_sent_the_other_seats_line_one_tile_shorter(config, catalog):
    with serving(config, catalog) as client:
        created = create(client, VARIANT, seats=[{"name": "Ann"}, {"name": "Bob"}]).json()
        table = created["table"]
        secrets = [secret_of(created["seats"][seat]["url"]) for seat in (0, 1)]
        changes = {seat: ChangesSeat(client, table, secrets[seat]) for seat in (0, 1)}
        watcher = ChangesSeat(client, table, secret_of(created["watch_url"]))
        whole = Seat(client, table, secrets[1])
        clients = [changes[0], changes[1], watcher, whole]
        rng = random.Random(5)
        takes = []
        version = changes[0].state["version"]
        for _ in range(200):
            for other in clients:
                other.wait_version(version)
            mover = changes[0].state["view"]["to_move"]
            legal = changes[mover].state["legal"]
            offered = [move for move in legal["moves"] if move["name"] == "take"]
            if not offered:
                changes[mover].move(rng.choice(legal["columns"] or legal["drafts"])["move"])
                version = heard_after(changes[mover], version)
                continue
            # A line that keeps tiles after the take first: only its count changes.
            take = max(offered, key=lambda move: line_of(changes[mover].state["view"], mover, move)["count"])
            if line_of(changes[mover].state["view"], mover, take)["count"] < 2 and not takes:
                changes[mover].move(rng.choice(legal["drafts"])["move"])
                version = heard_after(changes[mover], version)
                continue
            assert take["label"].startswith("Take a tile from line ")
            ahead, row = take["args"]
            victim = (mover + ahead) % 2
            before = [json.loads(json.dumps(other.state["view"])) for other in clients]
            changes[mover].move(take["move"])
            version = heard_after(changes[mover], version)
            for other, seen in zip(clients, before):
                view = other.wait_version(version)["view"]
                assert view["seats"][victim]["lines"][row]["count"] == seen["seats"][victim]["lines"][row]["count"] - 1
                assert view["seats"][victim]["lines"][:row] == seen["seats"][victim]["lines"][:row]
                assert tiles_on_board(view["seats"][mover]) == tiles_on_board(seen["seats"][mover]) + 1
                assert other.state["last"]["move"] == take["move"]
                assert other.state["last"]["text"] == f"{['Ann', 'Bob'][mover]}: {take['label']} ({take['move']})"
            # Applying the changes gives what a client of whole states is sent.
            assert unplugged(changes[1].state) == unplugged(whole.state)
            assert changes[0].state["view"]["memory"]["take_a_tile"][mover] is True
            takes.append(take["move"])
            if len(takes) == 2:
                break
        assert len(takes) == 2, "each seat takes once a game"
        assert all(c.whole_states == 1 for c in (changes[0], changes[1], watcher))
        assert not changes[0].refusals and not changes[1].refusals


@pytest.mark.parametrize("players", [2, 3])
def test_the_view_from_kept_boards_is_the_view_built_afresh_after_every_take(catalog, players):
    """``build_view`` rebuilds only the boards whose key changed: a take changes a board that
    is not the mover's."""
    from azul_core.web.store import SeatRow, TableRow
    from azul_core.web.table import Table
    from azul_core.web.views import build_view

    class Accepting:
        def append(self, *args):
            return True

    offered = catalog.get(VARIANT)
    row = TableRow("T", VARIANT, "seed", 0.0, 0.0, None, 0, "w", "a",
                   [SeatRow(i, f"P{i}", None, "h") for i in range(players)])
    table, _events = Table.new(row, offered)
    rng = random.Random(players)
    takes = 0
    while not table.over:
        assert table.view(None) == build_view(table.state, offered, table.seats, table.connected(),
                                              table.progress.last_round, VARIANT)
        legal = json.loads(table.legal_json())
        moves = [move["move"] for move in legal["moves"]]
        takes += bool(moves)
        move = moves[0] if moves else rng.choice(legal["columns"] or legal["drafts"])["move"]
        table.decide(table.state.to_move, table.version, move, Accepting())
    assert takes == players


# ---------------------------------------------------------------------------- azul play --join


def drawn_line(screen: str, row: int) -> list[str]:
    """Pattern line ``row`` (from 1) of each board on the last board drawn in ``screen``."""
    drawn = [line for line in screen.splitlines() if re.match(rf"\s*>?\s*{row} [.A-Z ]+\|", line)]
    assert drawn, screen[-800:]
    return [found.strip() for found in re.findall(rf"(?:^|\s){row} ([.A-Z ]+?) \|", drawn[-1])]


def test_a_terminal_player_joins_and_takes_a_tile_from_the_bots_line(config, catalog, monkeypatch):
    """``azul play --join``: the seat's terminal offers the take, sends it typed, and draws the
    bot's line one tile shorter (the game is the server's record replayed through the engine)."""
    from azul_core.engine.notation import format_decision
    from azul_core.rules import Move

    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(FOLDER))
    rng = random.Random(5)
    taken: dict = {}
    screens: list[str] = []
    with serving(config, catalog) as client:
        game = Game(client, VARIANT, [{"name": "Ana"}, {"bot": "random"}])
        game.seats[0].close()
        session = None

        def read(prompt):
            screens.append(output.getvalue())
            state = session.state
            if "row" in taken and "after" not in taken:
                taken["after"] = [board.line_count[taken["row"]] for board in state.players]
            takes = [d for d in state.legal_decisions() if isinstance(d, Move) and d.name == "take"]
            if takes and "row" not in taken:
                move = max(takes, key=lambda d: state.players[1].line_count[d.args[1]])
                taken.update(move=move.notation, row=move.args[1], screens=len(screens),
                             before=[board.line_count[move.args[1]] for board in state.players])
                return move.notation
            return format_decision(rng.choice([d for d in state.legal_decisions() if not isinstance(d, Move)]))

        try:
            session, output = join(client, game.created["seats"][0]["url"], read, VARIANT, FOLDER)
            assert session.run() == 0
            record = game.record(game.watch_secret)
        finally:
            game.close()
            while plugin_moves_web.OPEN:
                plugin_moves_web.OPEN.pop().close()
    assert "move" in taken, "no take was ever offered to the terminal"
    row, before, after = taken["row"], taken["before"], taken["after"]
    label = f"Take a tile from line {row + 1} of the next player"
    assert f"Also on offer: {taken['move']} {label}" in screens[taken["screens"] - 1]
    text = output.getvalue()
    assert f"Ana: {label} ({taken['move']})" in text        # the server's words for the move
    actions = [action for entry in record["rounds"] for action in entry["actions"]]
    bots_next = actions[actions.index(taken["move"]) + 1]
    assert not bots_next.endswith(str(row + 1)), "the bot's next draft went to the same line: choose another seed"
    assert after == [before[0] + 1, before[1] - 1] or (after[0] == before[0] and after[1] == before[1] - 1)
    # The screen at Ana's next turn draws the bot's line one tile shorter.
    shown = screens[taken["screens"]]
    assert [board.count(".") for board in drawn_line(shown[len(screens[taken["screens"] - 1]):], row + 1)] == \
        [line_capacity - count for line_capacity, count in zip([row + 1] * 2, after)]
    assert "Final scores" in text and taken["move"] in actions


# ---------------------------------------------------------------------------- the replay page


def test_the_replay_page_steps_through_a_take(tmp_path):
    """``azul replay --web`` (and a finished table's replay): the step of the take tells it in
    the plugin's words and draws the line taken from one tile shorter, the tile on the taker's."""
    from typer.testing import CliRunner

    import azul_core.cli.play  # noqa: F401  (registers the command)
    from azul_core.cli.app import app
    from azul_core.records.game_record import read_record
    from azul_core.variants.loading import load_variant
    from azul_core.web.replay_page import Replay

    path = tmp_path / "game.json"
    played = CliRunner().invoke(app, ["play", "--variant", str(FOLDER / f"{VARIANT}.yaml"), "--players",
                                      "random,human", "--seed", "4", "--record", str(path)],
                                input="+take:1:3\nquit\n", env={"TERMINAL_WIDTH": "200", "NO_COLOR": "1"})
    assert played.exit_code == 0, played.output
    replay = Replay(read_record(path), load_variant(str(FOLDER / f"{VARIANT}.yaml")), title="take")
    steps = replay.index()["steps"]
    at = next(i for i, step in enumerate(steps) if step["move"] == "+take:1:3")
    assert steps[at]["text"] == "you: Take a tile from line 4 of the next player (+take:1:3)"
    before, after = replay.step(at - 1)["view"], replay.step(at)["view"]
    assert [seat["lines"][3]["count"] for seat in before["seats"]] == [2, 0]
    assert [seat["lines"][3]["count"] for seat in after["seats"]] == [1, 1]
    assert after["seats"][1]["lines"][3]["colour"] == "white"
