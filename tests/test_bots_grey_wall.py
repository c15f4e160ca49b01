"""Greedy on a grey wall plays for the end bonuses (issue 43): the player chooses each tile's
column, so the whole-game value knows a column is filled by any colour that may stand in
its spaces, and a placement is judged on the wall it makes, not on its points alone."""

from __future__ import annotations

import pytest

from azul_core.colours import BLACK, BLUE, WHITE, YELLOW
from azul_core.engine.state import PLACE
from azul_core.players.bots import GreedyBot, wall_potential
from azul_core.players.evaluation import SLOTS_PER_ROW, Outlooks, for_rules
from azul_core.players.render import placement_points
from azul_core.testing import new_game, set_lines, set_table, set_wall


def slot(row: int, colour: int) -> int:
    return row * SLOTS_PER_ROW + colour


def test_a_grey_columns_space_is_shared_by_every_colour_that_may_fill_it():
    """Column 1 lacks rows 1 and 5; black or white may stand in either space, and the rest of
    the wall treats black and white alike: each brings the column's share. (One way of
    filling the column, black above and white below, is not the only one.)"""
    game = new_game("grey-wall")
    set_wall(game, 0, [".....", "Y....", "B....", "R....", "....."])
    outlook = Outlooks(game.rules).for_state(game)[0]
    for row in (0, 4):
        assert outlook.slot_bonus[slot(row, BLACK)] > 0
        assert outlook.slot_bonus[slot(row, BLACK)] == outlook.slot_bonus[slot(row, WHITE)]
    # Yellow can't stand in column 1 (it holds one): row 1's yellow brings less than its black.
    assert outlook.slot_bonus[slot(0, YELLOW)] < outlook.slot_bonus[slot(0, BLACK)]


def column_choice():
    """Seat 0 places its line 1's blue tile at the round's end. Columns 1 and 5 score 2 points
    (a tile below), columns 2 and 4 score 1. Column 4 can never be completed (row 2 lacks
    black and white, and column 4 holds both); column 2 lacks only rows 1 and 2 (a black fits
    row 2), and a tile in row 1 adds to what row 2's space there will score."""
    game = new_game("grey-wall")
    set_wall(game, 0, [".....", "Y.B.R", ".R.K.", ".Y.W.", ".W.R."])
    set_lines(game, 0, {1: "B"})
    set_table(game, ["W"], marker_in_centre=False)
    game.apply((1, WHITE, 5))  # the last tile, to the floor: the round ends, seat 0 places
    assert game.phase == PLACE and game.players[0].line_colour[0] == BLUE
    return game


def test_greedy_puts_a_tile_in_the_column_it_may_complete_for_a_point_less_now():
    game = column_choice()
    points = {decision: placement_points(game, decision) for decision in game.legal_decisions()}
    assert points == {(0, 0): 2, (0, 1): 1, (0, 3): 1, (0, 4): 2}
    assert {GreedyBot(seed=seed).choose(game) for seed in range(10)} == {(0, 1)}


def test_greedy_judging_the_round_alone_still_takes_the_most_points_now():
    game = column_choice()
    chosen = {GreedyBot(seed=seed, whole_game=False).choose(game) for seed in range(20)}
    assert chosen == {(0, 0), (0, 4)}


def test_a_column_that_can_not_be_completed_brings_a_placement_no_share():
    game = column_choice()
    space_bonus, _rounds = for_rules(game.rules).space_bonus(game, 0)
    assert space_bonus[0 * 5 + 3] == 0  # column 4: row 2 has nothing that may stand there
    assert space_bonus[0 * 5 + 1] > 0   # column 2: a black may fill row 2's space


def test_the_free_spaces_points_count_by_the_chance_their_row_gets_there():
    """One tile in the middle of a grey wall: its four neighbours would score 2, the other
    twenty spaces 1. With five rounds to come every space counts whole; with one, a row
    reaches one of its free spaces (1/5 of each, 1/4 in the middle row)."""
    game = new_game("grey-wall")
    set_wall(game, 0, [".....", ".....", "..R..", ".....", "....."])
    wall = game.players[0].wall
    assert wall_potential(game.rules, wall, 5) == 4 * 2 + 20 * 1
    assert wall_potential(game.rules, wall, 1) == pytest.approx((2 + 2 + 1 + 1) / 4 + 2 * (2 + 4) / 5 + 2 * 5 / 5)
    assert wall_potential(game.rules, wall, 0) == 0
