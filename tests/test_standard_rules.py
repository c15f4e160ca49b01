"""One test (or more) for every rule of docs/rules/standard.md, using its examples where it gives them.

Positions are built with azul_core.testing; section headings follow standard.md.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from azul_core.colours import BLACK, BLUE, COLOURS, RED, WHITE, YELLOW
from azul_core.engine.notation import format_decision
from azul_core.engine.state import CENTRE, DEAL, DRAFT, FLOOR, OVER, GameState, IllegalDecision
from azul_core.rules import PATTERN_LINES
from azul_core.testing import (
    MoveRefused,
    counts_of,
    deal,
    floor_of,
    lines_of,
    new_game,
    play,
    play_out,
    run_round,
    scores,
    set_bag,
    set_floor,
    set_lines,
    set_table,
    set_wall,
    snapshot,
    wall_text,
)

EMPTY_WALL = ". . . . .\n" * 5


def close_round(game: GameState, move: str = "1W5") -> None:
    """End the drafting with one harmless draft: a lone white tile onto line 5 by the player to move."""
    set_table(game, ["W"])
    play(game, [move])


# ------------------------------------------------------------------ components and setup


def test_a_game_has_100_tiles_20_of_each_colour_all_in_the_bag():
    game = new_game()
    assert len(game.bag) == 100
    assert Counter(game.bag) == {colour: 20 for colour in COLOURS}
    assert game.tile_counts() == [20] * 5


@pytest.mark.parametrize("players, factories", [(2, 5), (3, 7), (4, 9)])
def test_factories_per_player_count_each_get_four_tiles(players, factories):
    game = new_game(players=players)
    game.deal(random.Random(1))
    assert len(game.sources) - 1 == factories
    assert [sum(f) for f in game.sources[1:]] == [4] * factories
    assert sum(game.sources[CENTRE]) == 0
    assert len(game.bag) == 100 - 4 * factories


def test_each_player_has_five_pattern_lines_line_n_holding_n_a_wall_a_seven_space_floor_and_no_points():
    game = new_game()
    assert game.rules.floor_spaces == 7
    for board in game.players:
        assert len(board.line_count) == PATTERN_LINES == 5
        assert len(board.wall) == 5 and all(len(row) == 5 for row in board.wall)
        assert board.score == 0 and board.floor == []
    set_table(game, ["RRRR", "YYYY"])
    play(game, ["1R3"])                     # line 3 holds 3: the fourth red falls
    assert lines_of(game, 0) == {3: "RRR"} and floor_of(game, 0) == "R"


def test_the_start_marker_lies_in_the_centre_at_the_start_of_every_round():
    game = new_game()
    rng = random.Random(7)
    for _ in range(3):
        game.deal(rng)
        assert game.marker_in_centre and game.marker_holder is None
        run_round(game, seed=game.round)
        assert game.phase == DEAL


COLOUR_WALL = """
B Y R K W
W B Y R K
K W B Y R
R K W B Y
Y R K W B
"""


def test_the_colour_wall_layout_each_row_shifted_right_cell_2_1_white():
    game = new_game()
    set_wall(game, 0, "\n".join(["x x x x x"] * 5))
    assert wall_text(game, 0) == COLOUR_WALL.strip()
    assert game.players[0].wall[1][0] == WHITE
    empty = [[None] * 5 for _ in range(5)]
    for row, letters in enumerate(COLOUR_WALL.split()[i:i + 5] for i in range(0, 25, 5)):
        for column, letter in enumerate(letters):
            assert game.rules.wall_spaces(empty, row, "BYRKW".index(letter)) == (column,)


def test_a_tile_is_refused_where_the_colour_wall_does_not_print_its_colour():
    game = new_game()
    with pytest.raises(ValueError, match="no yellow tile"):
        set_wall(game, 0, "B . . . .\nY . . . .\n. . . . .\n. . . . .\n. . . . .")


# ------------------------------------------------------------------ filling factories


def test_factories_fill_in_order_and_stay_partly_filled_or_empty_when_bag_and_lid_are_empty():
    game = new_game()
    set_bag(game, bag="BBBBYYYYRR")
    game.deal(random.Random(3))
    assert [sum(f) for f in game.sources[1:]] == [4, 4, 2, 0, 0]
    assert game.phase == DRAFT                      # the round is played as usual
    assert {draft[0] for draft in game.legal_decisions()} == {1, 2, 3}


def test_when_the_bag_runs_out_mid_fill_the_whole_lid_is_poured_in():
    game = new_game()
    set_bag(game, bag="BBBBBB", lid="Y" * 14 + "R" * 10)
    game.deal(random.Random(5))
    assert game.sources[1] == [4, 0, 0, 0, 0]       # the bag's six blues come first
    assert game.sources[2][BLUE] == 2 and sum(game.sources[2]) == 4
    assert [sum(f) for f in game.sources[1:]] == [4] * 5
    assert game.lid == [0] * 5 and len(game.bag) == 30 - 20


def test_bag_and_lid_both_running_dry_leaves_the_later_factories_empty():
    game = new_game()
    set_bag(game, bag="BBBBBB", lid="YYY")
    game.deal(random.Random(5))
    assert [sum(f) for f in game.sources[1:]] == [4, 4, 1, 0, 0]
    assert game.bag == [] and game.lid == [0] * 5


def test_a_replayed_fill_must_follow_factory_order():
    game = new_game()
    set_bag(game, bag="BBBBYYYY")
    with pytest.raises(IllegalDecision, match="in order"):
        deal(game, ["BBBB", "", "YYYY"])
    deal(game, ["BBBB", "YYYY"])
    assert game.phase == DRAFT


# ------------------------------------------------------------------ drafting


def test_players_draft_from_the_first_player_on_in_seat_order():
    game = new_game(players=3, first_player=2)
    set_table(game, ["BBBB", "YYYY", "RRRR", "KKKK"])
    seats = []
    for move in ["1B-", "2Y-", "3R-", "4K-"]:
        seats.append(game.to_move)
        play(game, [move])
    assert seats == [2, 0, 1, 2]


def test_drafting_from_a_factory_takes_one_colour_and_sends_the_rest_to_the_centre():
    game = new_game()
    set_table(game, ["BBYR", "KKKK"])
    play(game, ["1B2"])
    assert lines_of(game, 0) == {2: "BB"}
    assert game.sources[1] == [0] * 5
    assert game.sources[CENTRE] == counts_of("YR")
    assert game.marker_in_centre                      # taking from a factory leaves the marker


def test_the_first_to_take_from_the_centre_takes_the_marker_onto_the_leftmost_free_floor_space_first():
    game = new_game()
    set_table(game, ["BBBB"], centre="KKKW")
    set_floor(game, 0, "RR")
    play(game, ["CK1"])
    assert floor_of(game, 0) == "RRMKK"               # marker before the overflowing blacks
    assert lines_of(game, 0) == {1: "K"}
    assert game.marker_holder == 0 and not game.marker_in_centre
    play(game, ["CW-"])                               # the second taker gets no marker
    assert floor_of(game, 1) == "W"


def test_the_marker_takes_the_last_free_space_and_the_tiles_taken_with_it_go_to_the_lid():
    game = new_game()
    set_table(game, ["BBBB"], centre="KK")
    set_floor(game, 0, "RRRRRR")
    lid = game.lid[:]
    play(game, ["CK-"])
    assert floor_of(game, 0) == "RRRRRRM"
    assert game.lid[BLACK] == lid[BLACK] + 2
    assert game.tile_counts() == [20] * 5


def test_a_pattern_line_holds_one_colour():
    game = new_game()
    set_table(game, ["YYBB", "BKKK"])
    set_lines(game, 0, {3: "B"})
    with pytest.raises(IllegalDecision, match="pattern line 3 holds blue"):
        game.apply((1, YELLOW, 2))
    assert (1, YELLOW, 2) not in game.legal_decisions()
    play(game, ["1B3"])                               # the same colour is welcome
    assert lines_of(game, 0) == {3: "BBB"}


def test_a_colour_may_not_go_onto_line_n_when_wall_row_n_has_it():
    game = new_game()
    set_wall(game, 0, ". . . . .\n. . . . .\n. . B . .\n. . . . .\n. . . . .")
    set_table(game, ["BBYY"])
    assert (1, BLUE, 2) not in game.legal_decisions()
    with pytest.raises(IllegalDecision, match="wall row 3 already has blue"):
        game.apply((1, BLUE, 2))
    play(game, ["1B4"])
    assert lines_of(game, 0) == {4: "BB"}


def test_a_full_line_takes_nothing_more_and_is_not_offered():
    game = new_game()
    set_lines(game, 0, {2: "RR"})
    set_table(game, ["RRYY"])
    assert not [d for d in game.legal_decisions() if d[2] == 1]
    with pytest.raises(IllegalDecision, match="pattern line 2 is full"):
        game.apply((1, RED, 1))


def test_tiles_that_do_not_fit_fall_onto_the_floor_left_to_right():
    game = new_game()
    set_floor(game, 0, "Y")
    set_lines(game, 0, {3: "B"})
    set_table(game, ["BBBB", "YYYY"])
    play(game, ["1B3"])
    assert lines_of(game, 0) == {3: "BBB"}
    assert floor_of(game, 0) == "YBB"


def test_a_player_may_send_all_the_tiles_straight_to_the_floor_even_where_a_line_would_take_them():
    game = new_game()
    set_table(game, ["BBBY"])
    assert (1, BLUE, 0) in game.legal_decisions() and (1, BLUE, FLOOR) in game.legal_decisions()
    play(game, ["1B-"])
    assert floor_of(game, 0) == "BBB" and lines_of(game, 0) == {}


def test_once_the_floor_is_full_further_tiles_go_to_the_lid():
    game = new_game()
    set_floor(game, 0, "RRRRR")
    set_table(game, ["BBBB", "YYYY"])
    lid = game.lid[:]
    play(game, ["1B-"])
    assert floor_of(game, 0) == "RRRRRBB"
    assert game.lid[BLUE] == lid[BLUE] + 2
    assert game.tile_counts() == [20] * 5


def test_marker_taken_on_a_full_floor_is_still_taken_starts_the_next_round_and_costs_nothing_more():
    game = new_game()
    game.players[0].score = 20
    set_floor(game, 0, "RRRRRRR")
    set_table(game, ["BBBB"], centre="K")
    play(game, ["CK-", "1B-"])                      # seat 0 takes the marker; seat 1 ends the round
    assert game.phase == DEAL
    assert game.players[0].score == 20 - 14         # 7 spaces scored, nothing for the marker
    assert game.first_player == 0
    game.deal(random.Random(1))
    assert game.to_move == 0
    assert game.tile_counts() == [20] * 5


def test_marker_on_a_full_floor_with_the_bump_setting_takes_the_last_space_and_bumps_its_tile_to_the_lid():
    game = new_game(settings={"marker_on_full_floor": "bump"})
    set_floor(game, 0, "RRRRRRY")
    set_table(game, ["BBBB"], centre="K")
    lid = game.lid[:]
    play(game, ["CK-"])
    assert floor_of(game, 0) == "RRRRRRM"
    assert game.lid[YELLOW] == lid[YELLOW] + 1 and game.lid[BLACK] == lid[BLACK] + 1
    assert game.tile_counts() == [20] * 5


def test_drafting_goes_on_until_the_factories_and_the_centre_are_all_empty():
    game = new_game()
    set_table(game, ["BBYY"])
    play(game, ["1B-"])
    assert game.phase == DRAFT and game.to_move == 1  # the yellows wait in the centre
    play(game, ["CY-"])
    assert game.phase == DEAL


@pytest.mark.parametrize("setting, next_first", [("same", 1), ("next", 0)])
def test_when_nobody_took_from_the_centre_the_start_player_follows_the_setting(setting, next_first):
    game = new_game(first_player=1, settings={"start_without_marker": setting})
    set_table(game, ["BBBB", "YYYY"])
    play(game, ["1B4", "2Y4"])
    assert game.marker_holder is None and game.phase == DEAL
    assert game.first_player == next_first
    game.deal(random.Random(2))
    assert game.to_move == next_first


def test_the_default_when_nobody_took_from_the_centre_is_the_same_player():
    assert new_game().rules.marker.unclaimed == "same"


# ------------------------------------------------------------------ wall tiling


def test_tiling_goes_top_to_bottom_so_line_1s_tile_counts_for_line_2s():
    game = new_game()
    set_wall(game, 0, ". Y . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    set_lines(game, 0, {1: "B", 2: "WW"})
    close_round(game)
    # line 1: blue at (1,1) next to yellow: 2; line 2: white at (2,1) under it: 2.
    # (Bottom-to-top would give 1 + 4 = 5.)
    assert game.players[0].placement_points == 4
    assert game.players[0].score == 4
    assert wall_text(game, 0).splitlines()[:2] == ["B Y . . .", "W . . . ."]


def test_a_lone_tile_scores_1():
    game = new_game()
    set_lines(game, 0, {3: "RRR"})
    close_round(game)
    assert game.players[0].wall[2][4] == RED and scores(game)[0] == 1


def test_a_run_of_4_across_and_3_down_through_the_new_tile_scores_7():
    game = new_game()
    set_wall(game, 0, """
        . . . . .
        . . x . .
        x x . x .
        . . x . .
        . . . . .""")
    set_lines(game, 0, {3: "BBB"})
    lid = game.lid[:]
    close_round(game)
    assert game.players[0].wall[2][2] == BLUE
    assert game.players[0].placement_points == 7
    assert game.lid[BLUE] == lid[BLUE] + 2          # the line's other tiles go to the lid


@pytest.mark.parametrize("picture, line, points", [
    ("x x . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .", {1: "R"}, 3),      # across only
    (". . . . .\n. . . . .\n. . . . .\n. . . . x\n. . . . x", {3: "RRR"}, 3),    # down only
    ("x . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .", {3: "BBB"}, 1),    # no neighbour
])
def test_a_single_run_scores_its_length(picture, line, points):
    game = new_game()
    set_wall(game, 0, picture)
    set_lines(game, 0, line)
    close_round(game)
    assert game.players[0].placement_points == points


def test_lines_that_are_not_full_keep_their_tiles_for_the_next_round():
    game = new_game()
    set_lines(game, 0, {3: "RR", 4: "K"})
    close_round(game)
    assert lines_of(game, 0) == {3: "RR", 4: "K", 5: "W"}
    assert game.players[0].placement_points == 0


@pytest.mark.parametrize("tiles, penalty", [(1, 1), (2, 2), (3, 4), (4, 6), (5, 8), (6, 11), (7, 14)])
def test_floor_penalties_for_1_to_7_tiles(tiles, penalty):
    game = new_game()
    game.players[0].score = 30
    set_floor(game, 0, "B" * tiles)
    close_round(game)
    assert game.players[0].score == 30 - penalty
    assert game.players[0].penalty_points == -penalty


def test_an_eighth_floor_tile_goes_to_the_lid_and_costs_nothing():
    game = new_game()
    game.players[0].score = 30
    set_floor(game, 0, "BBBBBBB")
    set_table(game, ["Y", "W"])
    lid = game.lid[:]
    play(game, ["1Y-"])
    assert floor_of(game, 0) == "BBBBBBB" and game.lid[YELLOW] == lid[YELLOW] + 1
    play(game, ["2W5"])
    assert game.players[0].score == 30 - 14


def test_the_marker_counts_as_a_floor_tile():
    game = new_game()
    game.players[0].score = 10
    set_table(game, ["W"], centre="BB")
    play(game, ["CB-", "1W5"])                      # seat 0's floor: marker, blue, blue
    assert game.players[0].score == 10 - 4


def test_a_score_is_clamped_at_0_after_the_rounds_penalties_and_no_debt_carries_over():
    game = new_game()
    game.players[0].score = 1
    set_lines(game, 0, {1: "B"})
    set_floor(game, 0, "RRRRR")
    close_round(game)                               # 1 + 1 (lone tile) - 8
    assert game.players[0].score == 0
    assert game.round_scores[-1][0] == 0
    set_lines(game, 0, {1: "Y"})
    close_round(game, move="1W4")
    assert game.players[0].score == 2               # the new tile touches the blue: 2, no debt


def test_floor_tiles_go_to_the_lid_and_the_marker_to_its_owner_who_starts_the_next_round():
    game = new_game()
    set_table(game, ["RRRR"], centre="BB")
    lid = game.lid[:]
    play(game, ["1R-", "CB-"])                      # seat 1 takes the marker
    assert game.phase == DEAL
    assert floor_of(game, 0) == "" and floor_of(game, 1) == ""
    assert game.lid[RED] == lid[RED] + 4 and game.lid[BLUE] == lid[BLUE] + 2
    assert game.first_player == 1
    game.deal(random.Random(4))
    assert game.to_move == 1 and game.marker_in_centre
    assert game.tile_counts() == [20] * 5


# ------------------------------------------------------------------ end of game


def test_the_game_ends_after_the_round_in_which_a_row_is_completed_and_line_tiles_score_nothing():
    game = new_game()
    set_wall(game, 0, "x x x x .\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    set_lines(game, 0, {1: "W", 4: "YYY"})
    close_round(game)
    assert game.phase == OVER and game.round == 1
    board = game.players[0]
    assert board.placement_points == 5
    assert board.score == 5 + 2                       # the row bonus; the yellows score nothing
    assert lines_of(game, 0)[4] == "YYY"
    with pytest.raises(IllegalDecision, match="game is over"):
        game.apply((1, BLUE, FLOOR))


def test_the_game_goes_on_while_no_row_is_complete():
    game = new_game()
    set_wall(game, 0, "x x x . .\nx x x x .\n. . . . .\n. . . . .\n. . . . .")
    close_round(game)
    assert game.phase == DEAL and game.round == 2


def test_end_bonuses_2_per_row_7_per_column_10_per_colour():
    game = new_game()
    set_wall(game, 0, """
        x x x x x
        x x . . .
        x . x . .
        x . . x .
        x . . . x""")
    close_round(game, move="1W4")
    board = game.players[0]
    assert game.phase == OVER
    assert dict(board.bonuses) == {"rows": 2, "columns": 7, "colours": 10}
    assert board.score == 19


def test_the_highest_score_wins():
    game = new_game()
    game.players[1].score = 3
    set_wall(game, 0, "x x x x x\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    close_round(game)
    assert scores(game) == [2, 3] and game.winners == [1]


def test_a_tie_goes_to_the_player_with_more_complete_rows():
    game = new_game()
    game.players[0].score, game.players[1].score = 12, 10
    set_wall(game, 0, "x x x x x\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    set_wall(game, 1, "x x x x x\nx x x x x\n. . . . .\n. . . . .\n. . . . .")
    close_round(game)
    assert scores(game) == [14, 14] and game.winners == [1]


def test_still_tied_players_share_the_victory():
    game = new_game(players=3)
    game.players[0].score = game.players[2].score = 5
    for seat in (0, 2):
        set_wall(game, seat, "x x x x x\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    close_round(game)
    assert scores(game) == [7, 0, 7] and game.winners == [0, 2]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_random_game_ends(players):
    for seed in range(10):
        game = play_out(new_game(players=players), seed=seed, max_decisions=2000)
        assert game.phase == OVER and game.winners
        assert game.tile_counts() == [20] * 5


# ------------------------------------------------------------------ the engine keeps to the rules


def every_draft(game: GameState):
    return [(source, colour, line) for source in range(len(game.sources))
            for colour in COLOURS for line in list(range(PATTERN_LINES)) + [FLOOR]]


def constructed_position() -> GameState:
    game = new_game()
    set_wall(game, 0, "B . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
    set_lines(game, 0, {2: "Y", 3: "RRR"})
    set_table(game, ["BBYR"], centre="K")
    return game


def test_the_legal_drafts_listed_are_exactly_those_the_rules_allow():
    game = constructed_position()
    legal = game.legal_decisions()
    # blue: lines 4, 5, floor; yellow: 1, 2, 4, 5, floor; red and black: 1, 4, 5, floor
    assert len(legal) == 3 + 5 + 4 + 4 == 16
    assert len(set(legal)) == len(legal)
    accepted = set()
    for draft in every_draft(game):
        trial = game.clone()
        try:
            trial.apply(draft)
        except IllegalDecision:
            continue
        accepted.add(draft)
    assert accepted == set(legal)


@pytest.mark.parametrize("draft, reason", [
    ((1, BLACK, 3), "factory 1 has no black tiles"),
    ((CENTRE, BLUE, 3), "the centre has no blue tiles"),
    ((6, BLUE, 3), "there is no factory 6"),
    ((1, BLUE, 0), "wall row 1 already has blue"),
    ((1, RED, 1), "pattern line 2 holds yellow"),
    ((1, RED, 2), "pattern line 3 is full"),
    ((1, BLUE, 7), "there is no pattern line 8"),
])
def test_an_illegal_draft_raises_with_the_rule_in_words_and_changes_nothing(draft, reason):
    game = constructed_position()
    before = snapshot(game)
    with pytest.raises(IllegalDecision, match=reason):
        game.apply(draft)
    assert snapshot(game) == before


def test_play_names_the_refused_move_and_its_rule():
    game = constructed_position()
    with pytest.raises(MoveRefused, match="move 2 '1R3' by seat 1: factory 1 has no red tiles"):
        play(game, ["1R4", "1R3"])


def test_a_clone_is_independent_of_its_original():
    game = constructed_position()
    before = snapshot(game)
    twin = game.clone()
    assert snapshot(twin) == before
    play(twin, ["1Y2", "CK1", "CB-"])
    assert snapshot(game) == before
    play(game, ["CK-"])
    assert lines_of(twin, 0) == {2: "YY", 3: "RRR"} and floor_of(twin, 0) == "BB"
    assert lines_of(twin, 1) == {1: "K"} and floor_of(twin, 1) == "M"
    assert floor_of(game, 0) == "MK" and lines_of(game, 0) == {2: "Y", 3: "RRR"}


def test_random_decisions_are_legal_and_every_legal_decision_comes_up():
    game = constructed_position()
    legal = game.legal_decisions()
    rng = random.Random(11)
    draws = Counter(game.random_decision(rng.random) for _ in range(3200))
    assert set(draws) == set(legal)
    assert min(draws.values()) > 3200 / len(legal) / 2   # roughly uniform, fixed seed


def test_random_decisions_over_whole_games_are_always_legal():
    rng = random.Random(5)
    for players in (2, 3, 4):
        game = new_game(players=players)
        while game.phase != OVER:
            if game.phase == DEAL:
                game.deal(rng)
                continue
            decision = game.random_decision(rng.random)
            assert decision in game.legal_decisions(), format_decision(decision)
            game.apply(decision)


# ------------------------------------------------------------------ a starved game (our decision)

RED_ON_EVERY_LINE = {2: "R", 3: "RR", 4: "RRR", 5: "RRRR"}


def starve_of_red(game: GameState) -> None:
    """All 20 red tiles on both players' lines 2-5, each line waiting for red that can't come."""
    for seat in (0, 1):
        set_lines(game, seat, RED_ON_EVERY_LINE)
    assert game.bag.count(RED) == 0 and game.lid[RED] == 0


def test_a_game_in_which_no_row_can_get_its_tiles_ends_after_the_round():
    game = new_game("standard")
    starve_of_red(game)
    close_round(game, "1W1")
    assert game.phase == OVER and game.round == 1
    assert game.winners == [0]  # the white tile on seat 0's wall: 1 point
    assert game.tile_counts() == [20] * 5


def test_one_red_tile_left_in_play_keeps_the_game_going():
    game = new_game("standard")
    starve_of_red(game)
    game.players[1].line_count[1] = 0  # line 2's red goes back to the lid: it can feed line 2
    game.players[1].refresh_accept(game.rules, 1)
    game.lid[RED] += 1
    close_round(game, "1W1")
    assert game.phase == DEAL


def test_the_starved_end_is_a_setting():
    game = new_game("standard", settings={"end_when_starved": False})
    starve_of_red(game)
    close_round(game, "1W1")
    assert game.phase == DEAL


def test_a_round_in_which_not_one_tile_can_be_dealt_ends_the_game():
    game = new_game("standard")
    set_bag(game, "", "")  # every tile gone from bag and lid
    game.deal(random.Random(1))
    assert game.phase == OVER and game.winners == [0, 1]
    assert [board.bonuses for board in game.players] == [[("rows", 0), ("columns", 0), ("colours", 0)]] * 2


# ------------------------------------------------------------------ the round limit (issue 41)


def test_a_game_in_which_every_draft_goes_to_the_floor_ends_after_round_50(load_bench, tmp_path):
    """Drafting only to the floor is legal and no tile then reaches a wall: without the round
    limit the game never ends. It ends after round 50, the bonuses counted, and its record
    validates."""
    from typer.testing import CliRunner

    import azul_core.cli.validate  # noqa: F401  (registers the command)
    from azul_core.cli.app import app

    endless = load_bench("endless_game")
    path = endless.write_endless(tmp_path, None)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["rounds"]) == 50 and data["result"]["scores"] == [0, 0]
    assert all(action.endswith("-") for entry in data["rounds"] for action in entry["actions"])
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "valid record" in result.output


def floor_round(game: GameState, seed: int = 0) -> None:
    """Deal at random, then draft every tile to the floor until the round is over."""
    game.deal(random.Random(seed))
    while game.phase == DRAFT:
        play(game, [next(format_decision(d) for d in game.legal_decisions() if d[2] == FLOOR)])


def test_the_round_limit_ends_the_game_after_that_round_whatever_the_walls_hold():
    game = new_game("standard", settings={"max_rounds": 3})
    run_round(game)  # tiles may reach the walls: the limit counts rounds, not empty ones
    floor_round(game)
    assert game.phase == DEAL
    floor_round(game)
    assert game.phase == OVER and game.round == 3
    assert all(label_points[0] == ("rows", 0) for label_points in (b.bonuses for b in game.players))


def test_the_round_limit_is_a_setting_shown_with_the_others():
    from typer.testing import CliRunner

    import azul_core.cli.variants  # noqa: F401  (registers the commands)
    from azul_core.cli.app import app

    shown = CliRunner().invoke(app, ["variants", "show", "standard"])
    assert "  max_rounds: 50" in shown.output.splitlines()
    game = new_game("standard", settings={"max_rounds": 60})
    for number in range(1, 61):
        assert game.phase == DEAL and game.round == number
        floor_round(game, number)
    assert game.phase == OVER and game.round == 60


def test_azul_rules_tells_a_variant_that_moves_the_round_limit(tmp_path):
    from typer.testing import CliRunner

    import azul_core.cli.variants  # noqa: F401  (registers the commands)
    from azul_core.cli.app import app

    path = tmp_path / "longer.yaml"
    path.write_text("extends: standard\nsettings: {max_rounds: 60}\n", encoding="utf-8")
    lines = CliRunner().invoke(app, ["rules", str(path)]).output.splitlines()
    assert "- end of the game with no complete row, after round 50: the game goes on " \
           "(standard: the game ends)" in lines
    assert "- max_rounds = 60 (standard: 50)" in lines
