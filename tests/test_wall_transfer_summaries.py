"""A plugin's move may put a tile on a wall (a ``Transfer`` to ``wall(seat, row, column)``,
issue 40): the tiling did not lay it and it scored nothing, so a round's account, at the
terminal (``azul play``, ``azul play --join``) and at the online table, does not list it among
the tiles placed. The house rule here, written for the test: once a game, instead of
drafting, a player puts a blue tile from the bag on their wall's first space."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.play  # noqa: F401  (registers the command)
from azul_core.cli.app import app

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}

WALL_GIFT = '''"""Once a game, instead of drafting, a player may put a blue tile from the bag on their wall."""
from azul_core import hookimpl
from azul_core.rules import BAG, Move, Outcome, Transfer, wall

AZUL_API = 1
__version__ = "1.0"
GIFT = Move("gift", label="Put a blue tile from the bag on your wall")


@hookimpl
def azul_declare_moves():
    return [GIFT]


@hookimpl
def azul_initial_memory(players):
    return (False,) * players


@hookimpl
def azul_offer_moves(stage, seat, memory, game):
    return [GIFT] if stage == "turn" and not memory[seat] and game.bag[0] else None


@hookimpl
def azul_apply_move(seat, memory):
    return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:],
                   transfers=(Transfer(BAG, wall(seat, 0, 0), 0),))
'''
GIFTED = "line 1 blue to wall column 1"


@pytest.fixture
def wall_gift(tmp_path) -> Path:
    (tmp_path / "wall_gift.py").write_text(WALL_GIFT)
    variant = tmp_path / "wall-gift.yaml"
    variant.write_text("name: wall-gift\ndescription: a blue tile from the bag on the wall\nextends: standard\n"
                       "plugins: [standard, colour_wall, wall_gift.py]\n")
    return variant


def test_azul_play_does_not_count_a_tile_a_move_put_on_the_wall_as_placed(wall_gift, tmp_path):
    """Seed 5: 'random 1' takes the gift in round 1, then tiles black from its line 1."""
    result = CliRunner().invoke(app, ["play", "--variant", str(wall_gift), "--players", "random,random",
                                      "--seed", "5", "--record", str(tmp_path / "game.json")], env=ENV)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.index("random 1 plays +gift") < out.index("Round 1 scored:")
    told = re.search(r"Round 1 scored:\n\s+random 1 +(.*)", out).group(1)
    assert "line 1 black to wall column 4 +1" in told
    assert GIFTED not in told, told


def test_the_tables_round_account_lists_only_the_tiles_the_tiling_laid(wall_gift):
    """At the online table: every seat's tiles placed in a round add up to the points the
    tiling gave it, the gift (not scored) left out."""
    from azul_core.web.catalog import build_catalog
    from azul_core.web.store import SeatRow, TableRow
    from azul_core.web.table import Table

    class Accepting:
        def append(self, *args):
            return True

    offered = build_catalog([wall_gift.parent]).get("wall-gift")
    row = TableRow("T", "wall-gift", "seed", 0.0, 0.0, None, 0, "w", "a",
                   [SeatRow(i, f"P{i}", None, "h") for i in range(2)])
    table, _events = Table.new(row, offered)
    table.decide(0, table.version, "+gift", Accepting())
    rng = random.Random(1)
    gained = [0, 0]
    while table.state.round == 1:
        before = [board.placement_points for board in table.state.players]
        legal = json.loads(table.legal_json())
        table.decide(table.state.to_move, table.version, rng.choice(legal["columns"] or legal["drafts"])["move"],
                     Accepting())
        gained = [g + board.placement_points - b for g, b, board in zip(gained, before, table.state.players)]
    told = table.progress.last_round["seats"]
    assert [sum(tile["points"] for tile in seat["placed"]) for seat in told] == gained
    assert {"row": 0, "column": 0, "colour": "blue"} not in [
        {key: tile[key] for key in ("row", "column", "colour")} for tile in told[0]["placed"]]
    assert table.state.players[0].wall[0][0] == 0      # the gift is on the wall all the same
