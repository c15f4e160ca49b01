"""The newer hooks at their limits (issue 24): line capacities of 1 and 20 (and one past each),
a full line with no wall space left, where tiles past a full floor go, and the seat that
starts round 1 (the last seat, and one past it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.simulate  # noqa: F401  (registers the command)
from azul_core import hookimpl
from azul_core.cli.app import app
from azul_core.engine.plugins import PluginError
from azul_core.testing import floor_of, lines_of, new_game, play, scores, set_floor, set_table, set_wall, table_of

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def capacity_plugin(capacities: dict[int, int]):
    class Capacity:
        @hookimpl
        def azul_line_capacity(self, row):
            return capacities.get(row)
    return Capacity()


# ---------------------------------------------------------------- azul_line_capacity: 1 to 20


@pytest.mark.parametrize("capacity", [1, 20])
def test_a_line_capacity_at_either_limit_is_taken(capacity):
    game = new_game(plugins=[capacity_plugin({4: capacity})])
    assert game.rules.capacity == (1, 2, 3, 4, capacity)


@pytest.mark.parametrize("capacity", [0, 21, -1, 2.0, True])
def test_a_line_capacity_past_either_limit_is_refused(capacity):
    with pytest.raises(PluginError, match="expected a whole number from 1 to 20") as caught:
        new_game(plugins=[capacity_plugin({4: capacity})])
    assert caught.value.hook == "azul_line_capacity" and "pattern line 5" in str(caught.value)


def test_a_line_of_twenty_fills_and_tiles():
    game = new_game(plugins=[capacity_plugin({0: 20})])
    set_table(game, ["BBBB"] * 5)
    play(game, ["1B1", "2B-", "3B1", "4B-", "5B1"])  # seat 0: 12 of 20, the round ends
    assert game.players[0].line_count[0] == 12 and game.players[0].wall[0] == (None,) * 5


# ---------------------------------------------------------------- a full line with no wall space


class AcceptsAnything:
    """A pattern line takes a colour its wall row already holds: when it is full, the wall
    has no space for it, and the whole line falls to the floor."""

    @hookimpl
    def azul_line_accepts(self, line_colour, colour):
        return line_colour in (None, colour)


def full_line_falls(capacity: int, row: int, tiles: str) -> tuple:
    """Seat 0 fills pattern line ``row`` (of ``capacity`` tiles) with blue, a colour its wall
    row already has; the round ends. Its score (from 20), floor tiles and the lid."""
    game = new_game(plugins=[capacity_plugin({row: capacity}), AcceptsAnything()])
    wall = ["....."] * 5
    wall[row] = "x" + "." * 4 if row == 0 else "." * row + "x" + "." * (4 - row)  # blue's space
    set_wall(game, 0, wall)
    game.players[0].score = 20
    set_table(game, [tiles, "Y"])
    play(game, [f"1B{row + 1}", "2Y2"])
    return scores(game)[0], game.players[0].floor_tiles, table_of(game)["lid"], lines_of(game, 0)


def test_a_long_full_line_without_a_wall_space_drops_its_whole_capacity():
    # Line 1 holds 3 here: three tiles fall (-1 -1 -2), not the one of a standard line 1.
    assert full_line_falls(3, 0, "BBB") == (20 - 4, 3, "BBB", {})


def test_a_short_full_line_without_a_wall_space_drops_only_its_capacity():
    # Line 3 holds 1 here: one tile falls (-1), not the three of a standard line 3.
    assert full_line_falls(1, 2, "B") == (20 - 1, 1, "B", {})


# ---------------------------------------------------------------- tiles past a full floor


def discard_plugin(piles: dict[str, str]):
    class Piles:
        @hookimpl
        def azul_discard_pile(self, reason):
            return piles.get(reason)
    return Piles()


@pytest.mark.parametrize("pile", ["out", "bag", "lid"])
def test_tiles_past_a_full_floor_go_where_the_overflow_rule_says(pile):
    game = new_game(plugins=[discard_plugin({"overflow": pile})])
    set_floor(game, 0, "YYYYYY")          # six of seven spaces taken
    set_table(game, ["RRRR", "K"])
    bag_before = table_of(game)["bag"]
    play(game, ["1R-"])                   # four red to the floor: one fits, three overflow
    assert floor_of(game, 0) == "YYYYYYR"
    table = table_of(game)
    assert table["out"] == ("RRR" if pile == "out" else "")
    assert table["lid"] == ("RRR" if pile == "lid" else "")
    assert table["bag"].count("R") == bag_before.count("R") + (3 if pile == "bag" else 0)


def test_the_floor_rule_and_the_overflow_rule_are_apart():
    game = new_game(plugins=[discard_plugin({"overflow": "out", "floor": "bag"})])
    set_floor(game, 0, "YYYYYY")
    set_table(game, ["RRRR", "K"])
    bag_before = table_of(game)["bag"]
    play(game, ["1R-", "2K-"])            # the round ends: the floor goes to the bag
    table = table_of(game)
    assert table["out"] == "RRR" and table["lid"] == ""
    assert table["bag"].count("Y") == bag_before.count("Y") + 6
    assert table["bag"].count("R") == bag_before.count("R") + 1


# ---------------------------------------------------------------- azul_first_player: 0 to players - 1


def first_player_variant(folder: Path, answer: str) -> Path:
    (folder / "starter.py").write_text(f"def azul_first_player(players, rng):\n    return {answer}\n")
    path = folder / "starter.yaml"
    path.write_text("name: starter\nextends: standard\nplugins: [standard, colour_wall, starter.py]\n")
    return path


def simulate(variant: Path, players: int):
    return CliRunner().invoke(app, ["simulate", "--variant", str(variant), "--players", str(players),
                                    "--games", "2", "--seed", "3", "--bots", "random", "--json"], env=ENV)


@pytest.mark.parametrize("players", [2, 4])
def test_the_last_seat_may_start(tmp_path, players):
    result = simulate(first_player_variant(tmp_path, "players - 1"), players)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["start_player"]["seat"] == players - 1


@pytest.mark.parametrize("players", [2, 4])
def test_one_past_the_last_seat_is_refused(tmp_path, players):
    result = simulate(first_player_variant(tmp_path, "players"), players)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert f"expected a seat from 0 to {players - 1}" in result.output
    assert "plugin 'starter' returned" in result.output and "azul_first_player" in result.output


def test_a_negative_seat_is_refused():
    class Minus:
        @hookimpl
        def azul_first_player(self):
            return -1

    with pytest.raises(PluginError, match="expected a seat from 0 to 2"):
        new_game(players=3, plugins=[Minus()], first_player=None, seed=1)


def test_overflows_add_up_in_their_pile_and_in_the_floor_count():
    game = new_game(plugins=[discard_plugin({"overflow": "out"})])
    set_floor(game, 0, "YYYYYY")
    set_table(game, ["RRRR", "KKKK", "RRRR"])
    play(game, ["1R-", "2K-", "3R-"])   # seat 0: 1 + 3 overflowing, then 4 overflowing; seat 1: 4 fit
    assert table_of(game)["out"] == "RRRRRRR"
    assert game.players[0].floor_tiles == 8 and game.players[1].floor_tiles == 4
