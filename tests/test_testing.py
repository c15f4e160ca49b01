"""The testing helpers themselves: their documented examples hold, and plugins and settings
can be added the ways plugin authors need."""

from __future__ import annotations

import doctest
import types

import pytest

import azul_core.testing as testing
from azul_core import hookimpl
from azul_core.engine.state import DEAL, IllegalDecision
from azul_core.testing import (
    MoveRefused,
    deal,
    floor_of,
    lines_of,
    new_game,
    play,
    scores,
    set_floor,
    set_lines,
    set_table,
    set_wall,
    wall_from,
)


def test_the_examples_in_the_docstrings_hold():
    result = doctest.testmod(testing)
    assert result.attempted > 5 and result.failed == 0


def test_a_plugin_given_as_a_module_object_is_asked_before_the_variants_own():
    family = types.ModuleType("family_floor")

    @hookimpl
    def azul_floor_penalty(floor):
        return -min(len(floor), 3)

    family.azul_floor_penalty = azul_floor_penalty
    game = new_game(plugins=[family])
    assert game.rules.deciders["azul_floor_penalty"] == "family_floor > standard"
    game.players[0].score = 10
    set_floor(game, 0, "BBBBBB")
    set_table(game, ["W"])
    play(game, ["1W5"])
    assert scores(game)[0] == 7


def test_a_plugin_given_as_an_object_with_hook_methods_works():
    class CancelRowBonus:
        def azul_end_bonuses(self, wall):
            return [("rows", -2)] if any(None not in row for row in wall) else []

    game = new_game(plugins=[CancelRowBonus()])
    set_wall(game, 0, "xxxxx\n.....\n.....\n.....\n.....")
    set_table(game, ["W"])
    play(game, ["1W5"])
    assert game.phase == "over" and scores(game)[0] == 0


def test_settings_are_overridden_and_checked():
    assert new_game(settings={"row_bonus": 5}).rules.settings.row_bonus == 5
    with pytest.raises(ValueError, match="unknown setting 'rowbonus'"):
        new_game(settings={"rowbonus": 5})
    with pytest.raises(ValueError, match="below the minimum"):
        new_game(settings={"row_bonus": -1})


def test_board_setters_keep_the_100_tiles_and_refuse_impossible_boards():
    game = new_game()
    set_wall(game, 0, "x....\nx....\n.....\n.....\n.....")
    set_lines(game, 0, {2: "BB", 4: "R"})
    set_lines(game, 0, {4: ""})
    set_floor(game, 1, "MKK")
    assert game.tile_counts() == [20] * 5
    assert lines_of(game, 0) == {2: "BB"} and floor_of(game, 1) == "MKK"
    assert game.marker_holder == 1 and not game.marker_in_centre
    with pytest.raises(ValueError, match="wall row 1 already has blue"):
        set_lines(game, 0, {1: "B"})
    with pytest.raises(ValueError, match="holds 1 tiles"):
        set_lines(game, 0, {1: "YY"})
    with pytest.raises(ValueError, match="one colour"):
        set_lines(game, 0, {3: "YR"})
    with pytest.raises(ValueError, match="not a tile letter"):
        wall_from("Q....\n.....\n.....\n.....\n.....")
    with pytest.raises(ValueError, match="5 lines of 5"):
        wall_from("B....")


def test_deal_pads_missing_factories_and_the_engine_checks_the_fill():
    game = new_game()
    with pytest.raises(IllegalDecision):
        deal(game, ["BBBB"])                        # 20 tiles must be drawn
    assert game.phase == DEAL
    deal(game, ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    assert len(game.bag) == 80


def test_play_reports_the_move_the_seat_and_the_rule():
    game = new_game()
    with pytest.raises(MoveRefused, match="must be filled first"):
        play(game, ["1B1"])
    set_table(game, ["BBYY"])
    with pytest.raises(MoveRefused, match="'xyz' by seat 0: 'xyz' is not a move"):
        play(game, "xyz")
