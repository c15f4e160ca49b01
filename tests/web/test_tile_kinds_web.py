"""A variant's extra tiles at the online table, in process (Starlette's TestClient): the
example ``wild-tiles`` (ten wild tiles, letter J, look #d4af37; a draft takes one wild along,
which stands in for the colour on the pattern line).

The view names every tile by its kind (factories, centre, floors; a line's stand-ins in its
``extra``) and describes the extra kinds once (``kinds``); a standard table's view has neither.
Every tile of the game is somewhere in every view; the deals (letters J included) survive a
restart; ``azul play --join`` draws the wild tiles with their look.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402, F401 (the helpers below use it)

from test_plugin_moves_web import Game, Socket, join, replays_to_its_result, server_of, serving  # noqa: E402

from azul_core.web.app import Config  # noqa: E402
from azul_core.web.catalog import build_catalog  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "examples" / "wild-tiles"
WILD = {"name": "wild", "letter": "J", "look": "#d4af37"}
COLOURS = ("blue", "yellow", "red", "black", "white")
TOTAL = 5 * 20 + 10


@pytest.fixture(scope="module")
def catalog():
    built = build_catalog([FOLDER])
    assert "wild-tiles" in built.variants, built.problems
    return built


@pytest.fixture
def config(tmp_path):
    seeds = itertools.count(1)
    return Config(data=tmp_path / "data", variant_dirs=(FOLDER,), bot_delay=0, think=0.05,
                  seed_factory=lambda: f"kinds-{next(seeds)}")


@pytest.fixture
def client(config, catalog):
    with serving(config, catalog) as test_client:
        yield test_client


def tiles_in(view: dict) -> dict[str, int]:
    """Every tile a view shows, by name: factories, centre, lines (stand-ins by their kind),
    walls and floors; the bag and the lid as a total under "hidden"."""
    counts: dict[str, int] = {}

    def add(name, number=1):
        counts[name] = counts.get(name, 0) + number

    for tiles in [*view["factories"], view["centre"]["tiles"]]:
        for name in tiles:
            add(name)
    for seat in view["seats"]:
        for line in seat["lines"]:
            extra = line.get("extra", [])
            if line["count"]:
                add(line["colour"], line["count"] - len(extra))
            for name in extra:
                add(name)
        for cells in seat["wall"]:
            for cell in cells:
                if cell["tile"]:
                    add(cell["colour"])
        for space in seat["floor"]:
            if space["tile"] not in (None, "marker"):
                add(space["tile"])
    add("hidden", view["bag"] + view["lid"])
    return counts


def unplugged(view: dict) -> dict:
    """The view without who is connected (that comes and goes with the sockets)."""
    return {**view, "seats": [{**seat, "connected": None} for seat in view["seats"]]}


def check_view(view: dict, state) -> None:
    """The view shows the state's tiles, each where it lies, and all of them."""
    names = state.table.kind_names
    assert view["kinds"] == [WILD]
    assert [tiles for tiles in view["factories"]] == [
        [names[k] for k, n in enumerate(source) for _ in range(n)] for source in state.sources[1:]]
    for seat, board in zip(view["seats"], state.players):
        assert [line["extra"] for line in seat["lines"]] == [[names[k] for k in extra] for extra in board.line_extra]
        assert [line["count"] for line in seat["lines"]] == list(board.line_count)
        assert [space["tile"] for space in seat["floor"] if space["tile"]] == [
            "marker" if tile == -1 else names[tile] for tile in board.floor]
    assert sum(tiles_in(view).values()) == TOTAL


def test_a_standard_view_has_no_kinds_and_no_extra(tmp_path):
    catalog = build_catalog([])
    config = Config(data=tmp_path / "data", bot_delay=0, think=0.05, seed_factory=lambda: "kinds-standard")
    with serving(config, catalog) as client:
        game = Game(client, "standard", [{"name": "Ann"}, {"name": "Bob"}])
        rng = random.Random(1)
        for _ in range(12):
            view = game.view
            assert "kinds" not in view
            assert all(set(line) == {"capacity", "colour", "count", "closed"}
                       for seat in view["seats"] for line in seat["lines"])
            assert set(tiles_in(view)) <= {*COLOURS, "hidden"} and sum(tiles_in(view).values()) == 100
            legal = game.legal()
            game.move(rng.choice(legal["drafts"] + legal["columns"])["move"])
        game.close()


def test_wild_tiles_are_named_everywhere_and_all_counted(client, catalog):
    game = Game(client, "wild-tiles", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}])
    table = server_of(client).tables[game.id]
    rng = random.Random(7)
    seen = {"factory": False, "centre": False, "line": False, "floor": False}
    while game.view["phase"] != "over":
        view = game.view
        check_view(view, table.state)
        # Each seat's view and the watcher's show the same tiles.
        assert all(tiles_in(socket.state["view"]) == tiles_in(view) for socket in game.seats.values())
        seen["factory"] |= any("wild" in tiles for tiles in view["factories"])
        seen["centre"] |= "wild" in view["centre"]["tiles"]
        seen["line"] |= any(line["extra"] for seat in view["seats"] for line in seat["lines"])
        seen["floor"] |= any(space["tile"] == "wild" for seat in view["seats"] for space in seat["floor"])
        legal = game.legal()
        # Drafts still name colours only; a wild tile is taken along, never drafted.
        assert all(d["colour"] in COLOURS for d in legal["drafts"])
        # Onto a line where one can: the stand-ins show up on the lines.
        onto_lines = [d for d in legal["drafts"] if d["line"] < 5]
        game.move(rng.choice(onto_lines or legal["drafts"] + legal["columns"])["move"])
    check_view(game.view, table.state)
    assert all(seen.values()), seen
    record = game.record(game.watch_secret)
    assert any("J" in factory for entry in record["rounds"] for factory in entry["factories"])
    replays_to_its_result(record, catalog, "wild-tiles")
    game.close()


def test_a_draft_takes_one_wild_along_onto_the_line(client):
    game = Game(client, "wild-tiles", [{"name": "Ann"}, {"name": "Bob"}])
    state = server_of(client).tables[game.id].state
    view = game.view

    def room(line: int) -> int:
        return view["seats"][view["to_move"]]["lines"][line]["capacity"]

    # A factory with a wild tile and a colour, onto an empty line with room for both.
    draft = next(d for d in game.legal()["drafts"]
                 if d["source"] > 0 and "wild" in view["factories"][d["source"] - 1] and d["line"] < 5
                 and room(d["line"]) > view["factories"][d["source"] - 1].count(d["colour"]))
    factory = view["factories"][draft["source"] - 1]
    taken = factory.count(draft["colour"])
    seat = view["to_move"]
    game.move(draft["move"])
    view = game.view
    line = view["seats"][seat]["lines"][draft["line"]]
    assert line == {"capacity": draft["line"] + 1, "colour": draft["colour"], "count": taken + 1,
                    "closed": line["closed"], "extra": ["wild"]}
    assert view["factories"][draft["source"] - 1] == []
    # The rest of the factory (its other wild tiles too) went to the centre.
    rest = [name for name in factory if name != draft["colour"]]
    rest.remove("wild")
    assert sorted(view["centre"]["tiles"]) == sorted(rest)
    assert state is not None and game.watch.state["last"]["move"] == draft["move"]
    check_view(view, server_of(client).tables[game.id].state)
    game.close()


def test_wild_deals_survive_a_restart(config, catalog):
    with serving(config, catalog) as client:
        game = Game(client, "wild-tiles", [{"name": "Ann"}, {"name": "Bob"}])
        rng = random.Random(3)
        # Into round 2: its deal is an event of the store, replayed on restart.
        while game.view["round"] < 2:
            legal = game.legal()
            game.move(rng.choice(legal["drafts"] + legal["columns"])["move"])
        for _ in range(3):
            game.move(game.legal()["drafts"][0]["move"])
        before = game.view
        game.close()
    with serving(config, catalog) as client:
        again = Socket(client, game.id, game.secrets[0])
        assert unplugged(again.state["view"]) == unplugged(before)
        assert any("wild" in tiles for tiles in [*before["factories"], before["centre"]["tiles"]])
        again.close()


def test_bots_play_wild_tiles_and_the_record_validates(client, tmp_path):
    game = Game(client, "wild-tiles", [{"bot": "greedy"}, {"bot": "random"}])
    while game.watch.state["view"]["phase"] != "over":
        game.watch.next_state()
    record = tmp_path / "wild.json"
    record.write_text(json.dumps(game.record(game.watch_secret)))
    result = subprocess.run([sys.executable, "-m", "azul_core.cli", "validate", "--variant",
                             str(FOLDER / "wild-tiles.yaml"), str(record)],
                            capture_output=True, text=True, env={**os.environ, "AZUL_VARIANTS_PATH": str(FOLDER)})
    assert result.returncode == 0, result.stdout + result.stderr
    game.close()


def test_join_draws_the_wild_tiles_with_their_look(client, monkeypatch):
    from rich.console import Console

    from azul_core.engine.notation import format_decision
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(FOLDER))
    game = Game(client, "wild-tiles", [{"name": "Ana"}, {"bot": "random"}])
    game.seats[0].close()
    rng = random.Random(4)
    session = None

    def read(prompt):
        return format_decision(rng.choice(session.state.legal_decisions()))

    session, _plain = join(client, game.created["seats"][0]["url"], read, "wild-tiles", FOLDER)
    output = io.StringIO()
    session.console = Console(file=output, width=100, force_terminal=True, color_system="truecolor")
    assert session.run() == 0
    text = output.getvalue()
    # J on gold (#d4af37 = 212, 175, 55), as the terminal draws it in a local game.
    assert "48;2;212;175;55mJ" in text
    assert "Final scores" in text
    game.close()
