"""Every rule of docs/rules/grey-wall.md, with its worked example, and the end when walls are blocked."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azul_core.colours import BLUE, RED
from azul_core.engine.state import OVER, PLACE
from azul_core.testing import (
    MoveRefused,
    floor_of,
    lines_of,
    new_game,
    play,
    play_out,
    scores,
    set_floor,
    set_lines,
    set_table,
    set_wall,
    wall_from,
    wall_text,
)
from azul_core.variants.loading import load_variant
from azul_core.walls import circulation, row_can_be_filled, unrepeated_spaces
from azul_plugins.grey_wall import blocked

EMPTY = "\n".join([". . . . ."] * 5)


def placements(game):
    """The columns (1-based) offered for the tile being placed."""
    assert game.phase == PLACE
    return [column + 1 for _row, column in game.legal_decisions()]


def test_the_variant_is_the_standard_game_with_the_grey_wall_instead_of_the_colour_wall():
    variant = load_variant("grey-wall")
    assert [p.name for p in variant.plugins] == ["standard", "grey_wall"]
    assert variant.players == (2, 3, 4)
    deciders = variant.rules.deciders
    assert deciders["azul_wall_spaces"] == "grey_wall" and deciders["azul_wall_choice"] == "grey_wall"
    assert deciders["azul_placement_score"] == "standard"
    assert deciders["azul_end_bonuses"] == "standard"
    assert variant.rules.player_chooses_column is True


def test_the_wall_has_no_printed_colours_any_empty_space_of_the_row():
    game = new_game("grey-wall")
    set_table(game, ["YYYY", "RRRR"])
    play(game, ["1Y1", "2R-"])                 # seat 0 fills line 1 with yellow; the round ends
    assert game.phase == PLACE and game.to_move == 0
    assert placements(game) == [1, 2, 3, 4, 5]
    play(game, ["w1:4"])
    assert wall_text(game, 0).splitlines()[0] == ". . . Y ."


def test_no_colour_twice_in_a_row_or_a_column():
    wall = wall_from("""
        B . . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""")
    assert unrepeated_spaces(wall, 1, BLUE) == (1, 2, 3, 4)      # column 1 already has blue
    assert unrepeated_spaces(wall, 0, BLUE) == ()                # row 1 already has blue
    assert unrepeated_spaces(wall, 0, RED) == (1, 2, 3, 4)       # the free spaces of row 1


def test_a_column_chosen_for_line_1_constrains_line_2_in_the_same_tiling():
    game = new_game("grey-wall")
    set_lines(game, 0, {1: "R", 2: "R"})
    set_table(game, ["R"])
    play(game, ["1R2"])                        # line 2 full too; the table is empty: tiling
    assert placements(game) == [1, 2, 3, 4, 5]  # line 1 first
    play(game, ["w1:3"])
    assert placements(game) == [1, 2, 4, 5]    # red is now in column 3
    play(game, ["w2:1"])
    assert game.phase != PLACE
    assert wall_text(game, 0).splitlines()[:2] == [". . R . .", "R . . . ."]


def test_tiling_goes_seat_by_seat_and_line_by_line():
    game = new_game("grey-wall")
    set_lines(game, 1, {1: "K"})
    set_table(game, ["BBBB", "YYYY"])
    play(game, ["1B2", "2Y5"])                 # seat 0: line 2 full (+2 to floor); seat 1: yellow
    # seat 0's line 2, then seat 1's line 1: seat 1 must wait
    assert game.to_move == 0 and game.placing[1] == 1
    play(game, ["w2:5"])
    assert game.to_move == 1 and game.placing[1] == 0
    play(game, ["w1:5"])                       # black may go under nothing: column 5 is free of black
    assert game.phase != PLACE


def test_worked_example_no_legal_space_drops_the_whole_line_to_the_floor():
    game = new_game("grey-wall")
    set_wall(game, 0, """
        . . . . R
        . . . . .
        . . . . .
        . . . . .
        B Y K W .""")
    set_lines(game, 0, {5: "RRRR"})
    set_table(game, ["R"])
    game.players[0].score = 20
    play(game, ["1R5"])                        # seat 0 completes line 5 red; the round ends
    # No legal space: all 5 red tiles go to the floor, and cost 1+1+2+2+2 = 8.
    assert game.phase != PLACE
    assert lines_of(game, 0) == {}
    assert wall_text(game, 0).splitlines()[4] == "B Y K W ."
    assert scores(game)[0] == 20 - 8
    assert game.tile_counts() == [20] * 5      # the floor's tiles went to the lid


def test_a_falling_line_fills_the_floor_left_to_right_and_the_overflow_goes_to_the_lid():
    game = new_game("grey-wall")
    set_wall(game, 0, """
        . . . . R
        . . . . .
        . . . . .
        . . . . .
        B Y K W .""")
    set_lines(game, 0, {5: "RRRR"})
    set_table(game, ["R", "B"])
    set_floor(game, 0, "KKK")
    play(game, ["1R5"])                        # line 5 full, round not over: nothing falls yet
    assert floor_of(game, 0) == "KKK"
    lid_before = list(game.lid)
    play(game, ["2B-"])                        # seat 1 ends the round
    # The floor (7 spaces) took 4 reds after the 3 black; the 5th red went to the lid, and
    # after the penalties the floor was cleared into the lid as usual.
    assert game.players[0].floor_tiles == 5
    assert game.players[0].penalty_points == -14
    assert game.lid[RED] - lid_before[RED] == 5
    assert game.tile_counts() == [20] * 5


def test_the_drafting_restriction_still_holds():
    game = new_game("grey-wall")
    set_wall(game, 0, """
        . . . . .
        . . B . .
        . . . . .
        . . . . .
        . . . . .""")
    set_table(game, ["BBYY"])
    with pytest.raises(MoveRefused, match="wall row 2 already has blue"):
        play(game, ["1B2"])


def test_exactly_one_legal_space_is_still_a_placement_with_one_choice():
    # The record writes every grey-wall placement (spec/game-record.md); a front end takes
    # the only legal space without asking.
    game = new_game("grey-wall")
    set_wall(game, 0, """
        Y R K W .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""")
    set_table(game, ["B"])
    play(game, ["1B1"])
    assert placements(game) == [5]
    with pytest.raises(MoveRefused, match=r"wall column 2 is not legal .* \(legal: 5\)"):
        play(game, ["w1:2"])
    play(game, ["w1:5"])
    assert wall_text(game, 0).splitlines()[0] == "Y R K W B"


def test_placed_tiles_score_as_in_the_standard_game():
    game = new_game("grey-wall")
    set_wall(game, 0, """
        . . . . .
        . . . . .
        . B . . .
        . . Y . .
        . . . . .""")
    set_lines(game, 0, {3: "RR"})
    set_table(game, ["R"])
    play(game, ["1R3", "w3:3"])                # (3,3): 2 across, 2 down -> 4
    assert scores(game)[0] == 4


def test_end_bonuses_are_the_standard_ones():
    game = new_game("grey-wall")
    set_wall(game, 0, """
        Y B R K .
        B R K W Y
        R K W Y B
        K W Y B R
        W Y B R K""")
    set_lines(game, 0, {1: "W"})              # line 1 is full
    set_table(game, ["K"])
    play(game, ["1K-", "w1:5"])
    # the wall is full: 5 rows (+10), 5 columns (+35), 5 colours (+50)
    assert game.phase == OVER
    labels = dict(game.players[0].bonuses)
    assert labels == {"rows": 10, "columns": 35, "colours": 50}


def test_no_placement_is_asked_when_no_line_is_full():
    game = new_game("grey-wall")
    set_lines(game, 0, {3: "K"})
    set_table(game, ["KKYY"])
    play(game, ["1K4", "CY-"])                 # line 4 holds 2 of 4: nothing to tile
    assert game.phase == "deal" and game.round == 2


# ------------------------------------------------------------------ blocked walls (our decision)

BLOCKED = """
    B Y W . R
    R K Y B .
    . R K Y W
    Y W R K .
    . . . W B"""


def test_a_row_whose_missing_colours_sit_in_its_free_columns_can_never_be_completed():
    wall = wall_from(BLOCKED)
    assert [row_can_be_filled(wall, row) for row in range(5)] == [False] * 5
    assert blocked([wall, wall])
    assert not blocked([wall, wall_from(EMPTY)])


def test_lines_waiting_for_a_colour_with_no_tile_left_never_complete():
    # Blue: none in bag or lid. A line waiting for blue is stuck, and a row missing blue too.
    lines = [((None, 0),) * 4 + ((BLUE, 4),)]
    available, stuck = circulation(lines, [0, 5, 5, 5, 5])
    assert stuck == {(0, 4)} and available[BLUE] == 0
    # One blue left: the line completes and 3 of its 4 tiles... all but the one on the wall return.
    available, stuck = circulation(lines, [1, 5, 5, 5, 5])
    assert stuck == set() and available[BLUE] == 1 + 4 - 1


def test_a_wall_needing_only_an_extinct_colour_is_blocked():
    wall = wall_from("""
        . Y R K W
        . . . . .
        . . . . .
        . . . . .
        . . . . .""")
    lines = [((None, 0),) * 5]
    assert not blocked([wall], lines, [5, 0, 0, 0, 0])  # row 1 can still get blue
    # Blue gone from play, and every row needs it (rows 2 to 5 need every colour)
    assert blocked([wall], lines, [0, 20, 20, 20, 20])


def test_the_game_ends_when_no_row_of_any_wall_can_be_completed():
    game = new_game("grey-wall")
    for seat in (0, 1):
        set_wall(game, seat, BLOCKED)
    set_table(game, ["RRRR"])
    play(game, ["1R-"])
    assert game.phase == OVER
    assert game.round_scores and len(game.round_scores) == 1


def test_the_blocked_end_is_a_setting():
    game = new_game("grey-wall", settings={"end_when_blocked": False})
    for seat in (0, 1):
        set_wall(game, seat, BLOCKED)
    set_table(game, ["RRRR"])
    play(game, ["1R-"])
    assert game.phase != OVER


def test_random_games_end_and_keep_every_tile():
    rules = load_variant("grey-wall").rules
    from azul_core.engine.state import GameState
    for players in (2, 3, 4):
        for seed in range(40):
            game = GameState(rules, players)
            play_out(game, seed)
            assert game.phase == OVER and game.round < 50
            assert game.tile_counts() == [20] * 5
            assert all(score >= 0 for score in game.scores())
            for board in game.players:
                for row in board.wall:
                    tiles = [c for c in row if c is not None]
                    assert len(tiles) == len(set(tiles))
                for column in range(5):
                    tiles = [row[column] for row in board.wall if row[column] is not None]
                    assert len(tiles) == len(set(tiles))


@pytest.mark.parametrize("picture, line, expected", [
    # row 3's free spaces are 2, 3 and 4; yellow stands in columns 2 and 4: only 3
    ("""
        . Y . . .
        . . . . .
        R . . . K
        . . . Y .
        . . . . .""", "YYY", [3]),
    ("""
        . Y . . .
        . . . . .
        . . . . .
        . . . Y .
        . . . . .""", "YYY", [1, 3, 5]),        # an empty row 3: all but columns 2 and 4
    # black stands in every column but 5; row 5 is empty: only column 5
    ("""
        K . . . .
        . K . . .
        . . K . .
        . . . K .
        . . . . .""", "KKKKK", [5]),
], ids=["row-and-columns", "columns", "one-column-left"])
def test_the_columns_offered_in_worked_positions(picture, line, expected):
    game = new_game("grey-wall")
    set_wall(game, 0, picture)
    row = len(line)
    set_lines(game, 0, {row: line[:-1]} if row > 1 else {})
    set_table(game, [line[-1]])
    play(game, [f"1{line[-1]}{row}"])
    assert placements(game) == expected


def test_random_placements_respect_the_wall():
    """Every placement offered in random games is, by the rule itself, an empty space of the
    row whose colour stands neither in that row nor in that column; and every such space is
    offered."""
    rules = load_variant("grey-wall").rules
    from azul_core.engine.state import GameState
    game = GameState(rules, 2)
    rng = random.Random(3)
    choices = 0
    while game.phase != OVER:
        if game.phase == "deal":
            game.deal(rng)
            continue
        if game.phase == PLACE:
            seat, row, columns = game.placing
            wall, colour = game.players[seat].wall, game.players[seat].line_colour[row]
            allowed = [column for column in range(5)
                       if wall[row][column] is None and colour not in wall[row]
                       and all(wall[other][column] != colour for other in range(5))]
            assert list(columns) == allowed
            choices += len(columns) > 1
        game.apply(game.random_decision(rng.random))
    assert choices >= 5


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 24))
def test_row_can_be_filled_says_whether_some_order_of_its_missing_colours_fits(seed, tiles):
    # A wall grown by legal grey-wall placements, then every row judged against every order.
    rng = random.Random(seed)
    wall = wall_from(EMPTY)
    for _ in range(tiles):
        row, colour = rng.randrange(5), rng.randrange(5)
        spaces = unrepeated_spaces(wall, row, colour)
        if spaces:
            column = rng.choice(spaces)
            wall = tuple(tuple(colour if (r, c) == (row, column) else cell for c, cell in enumerate(cells))
                         for r, cells in enumerate(wall))
    for row, cells in enumerate(wall):
        free = [column for column, cell in enumerate(cells) if cell is None]
        missing = [colour for colour in range(5) if colour not in cells]
        fits = any(all(all(other[column] != colour for other in wall) for colour, column in zip(missing, order))
                   for order in permutations(free))
        assert row_can_be_filled(wall, row) == fits, (wall, row)
