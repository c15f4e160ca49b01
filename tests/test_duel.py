"""Every rule of docs/rules/duel.md with its worked examples, the scoring setting, and misplaced drafts
(refused in standard with the rule in words, sent to the floor in duel)."""

from __future__ import annotations

import textwrap

import pytest

from azul_core.colours import BLACK, BLUE, RED, YELLOW
from azul_core.engine.state import DRAFT, FLOOR, OVER, GameState, IllegalDecision
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
    wall_text,
)
from azul_core.variants.loading import load_variant


@pytest.fixture(scope="module")
def duel():
    return load_variant("duel")


def standard_scoring_duel(tmp_path):
    """A file extending duel with one line changed: the duel rules read the standard way."""
    path = tmp_path / "duel-standard-scoring.yaml"
    path.write_text(textwrap.dedent("""\
        extends: duel
        settings:
          scoring: standard
        """), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the table


def test_duel_is_for_exactly_two_players(duel):
    assert duel.players == (2,)
    with pytest.raises(ValueError, match="for 2 players, not 3"):
        GameState(duel.rules, 3)


def test_five_factories_of_four_tiles(duel):
    game = GameState(duel.rules, 2)
    assert len(game.sources) - 1 == 5 and game.table.tiles_per_factory == 4
    import random
    game.deal(random.Random(1))
    assert sum(map(sum, game.sources)) == 20


def test_the_duel_rules_come_from_the_duel_plugin(duel):
    deciders = duel.rules.deciders
    for hook in ("azul_tiling_time", "azul_misplaced_draft"):
        assert deciders[hook] == "duel"
    # where the marker lies is duel's; the rest of the marker rule stays standard's
    assert deciders["azul_marker_rule"] == "placement: duel, full_floor: standard, unclaimed: standard"
    assert deciders["azul_placement_score"] == "duel > standard"
    assert deciders["azul_wall_spaces"] == "colour_wall"


# ------------------------------------------------------------------ the start marker


def test_the_marker_is_kept_aside_costs_nothing_and_its_holder_starts_next_round():
    game = new_game("duel")
    set_table(game, ["BBBB"], centre="R")
    play(game, ["1B4"])                        # seat 0: line 4 full, tiled now: +1
    assert scores(game) == [1, 0]
    play(game, ["CR2"])                        # seat 1 takes from the centre first: the marker
    assert floor_of(game, 1) == ""             # no floor space
    assert game.marker_holder == 1
    # The round is over: seat 1 lost nothing, and starts round 2.
    assert scores(game) == [1, 0] and game.players[1].penalty_points == 0
    assert game.round == 2 and game.first_player == 1


def test_the_marker_holder_with_an_empty_floor_loses_nothing():
    game = new_game("duel")
    game.players[0].score = 5
    set_table(game, ["Y"], centre="B")
    play(game, ["CB3", "1Y2"])
    assert scores(game)[0] == 5 and floor_of(game, 0) == ""


# ------------------------------------------------------------------ tiling at the end of the turn


def test_worked_example_line_1_completed_scores_1_at_the_end_of_that_turn():
    game = new_game("duel")
    set_table(game, ["B", "YYYY"])
    play(game, ["1B1"])
    assert game.phase == DRAFT                 # the round goes on
    assert scores(game) == [1, 0]
    assert wall_text(game, 0).splitlines()[0] == "B . . . ."
    assert lines_of(game, 0) == {}


def test_the_other_tiles_go_to_the_lid_and_the_line_is_closed_until_the_next_round():
    game = new_game("duel")
    set_lines(game, 0, {3: "RR"})
    set_table(game, ["R", "KKKK", "YYY", "WW"])
    lid_red = game.lid[RED]
    play(game, ["1R3"])                        # line 3 full: one red to (3,5), two to the lid
    assert game.lid[RED] == lid_red + 2
    assert lines_of(game, 0) == {} and scores(game)[0] == 1
    play(game, ["2K-"])
    assert game.is_misplaced((3, YELLOW, 2))   # line 3 was tiled this round: closed
    assert not [d for d in game.legal_decisions() if d[2] == 2]  # bots are not offered it
    assert game.why_not(0, YELLOW, 2) == \
        "pattern line 3 was tiled this round and takes tiles again next round"
    play(game, ["3Y3"])                        # a misplaced draft: the yellows fall
    assert floor_of(game, 0) == "YYY" and lines_of(game, 0) == {}
    assert wall_text(game, 0).splitlines()[2] == ". . . . R"
    assert game.tile_counts() == [20] * 5


def test_a_closed_line_takes_tiles_again_in_the_next_round():
    game = new_game("duel")
    set_table(game, ["B", "KKKK"])
    play(game, ["1B1"])                        # line 1 tiled in round 1: closed
    assert "tiled this round" in game.why_not(0, BLACK, 0)
    play(game, ["2K-"])                        # seat 1 ends the round
    assert game.round == 2
    set_table(game, ["Y", "RRRR"])
    assert not game.is_misplaced((1, YELLOW, 0))
    play(game, ["1Y1"])                        # open again: tiled beside the blue
    assert wall_text(game, 0).splitlines()[0] == "B Y . . ."


def test_with_tiled_line_reopens_at_once_the_line_takes_tiles_in_the_same_round(tmp_path):
    path = tmp_path / "duel-reopen.yaml"
    path.write_text("extends: duel\nsettings:\n  tiled_line_reopens: at_once\n", encoding="utf-8")
    game = new_game(path)
    set_lines(game, 0, {3: "RR"})
    set_table(game, ["R", "KKKK", "YYY"])
    play(game, ["1R3", "2K-", "3Y3"])          # line 3 again, yellow: tiled to (3,4) beside red
    assert wall_text(game, 0).splitlines()[2] == ". . . Y R"
    assert scores(game)[0] == 1 + 2            # h = 2, v = 1: 2 + 1 - 1


def test_the_reopening_choice_is_a_setting_of_the_duel_plugin(duel, tmp_path):
    assert duel.settings.tiled_line_reopens == "next_round"
    assert duel.rules.tiled_line_waits and duel.rules.deciders["azul_tiled_line_reopens"] == "duel"
    assert not load_variant("standard").rules.tiled_line_waits
    path = tmp_path / "bad.yaml"
    path.write_text("extends: duel\nsettings:\n  tiled_line_reopens: never\n", encoding="utf-8")
    with pytest.raises(Exception, match="'next_round', 'at_once'"):
        load_variant(path)


@pytest.mark.parametrize("bots", [("greedy", "greedy"), ("random", "greedy")])
def test_duel_games_never_end_before_round_5(duel, bots):
    """Each line reaches the wall at most once a round, so no wall row fills before round 5.
    (Read the other way, greedy games ended after 1 to 3 rounds.)"""
    import random

    from azul_core.players.registry import make_bot
    for seed in range(40):
        game = GameState(duel.rules, 2)
        players = [make_bot(name, duel.rules, seed=seed * 2 + seat) for seat, name in enumerate(bots)]
        rng = random.Random(seed)
        while game.phase != OVER:
            if game.phase == "deal":
                game.deal(rng)
            else:
                game.apply(players[game.to_move].choose(game))
        assert game.round >= 5, (seed, game.round)


def test_a_colour_tiled_this_round_can_not_go_on_its_line_again():
    game = new_game("duel")
    set_table(game, ["B", "BBYY"])
    play(game, ["1B1", "2Y-"])                 # seat 1's blue tiles go to the centre
    assert game.is_misplaced((0, BLUE, 0))     # seat 0's wall row 1 has blue now
    assert (0, BLUE, 0) not in game.legal_decisions()


# ------------------------------------------------------------------ scoring


def test_worked_example_a_run_of_three_across_scores_3():
    game = new_game("duel")
    set_wall(game, 0, """
        B Y . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""")
    set_table(game, ["R", "KKKK"])
    assert game.is_misplaced((1, YELLOW, 0))   # line 1 can't take yellow: row 1 has it
    play(game, ["1R1"])
    assert scores(game)[0] == 3                # 1 + 2


WORKED_3 = """
    . Y R . .
    W . . . .
    . . . . .
    . . . . .
    . . . . ."""


def test_worked_example_across_3_and_down_2_scores_4():
    game = new_game("duel")
    set_wall(game, 0, WORKED_3)
    set_table(game, ["B", "KKKK"])
    play(game, ["1B1"])
    assert scores(game)[0] == 4                # 1 + 2 + 1


def test_with_scoring_standard_the_same_tile_scores_5(tmp_path):
    game = new_game(standard_scoring_duel(tmp_path))
    set_wall(game, 0, WORKED_3)
    set_table(game, ["B", "KKKK"])
    play(game, ["1B1"])
    assert scores(game)[0] == 5                # 3 across + 2 down, as in standard.md


def test_the_scoring_setting_changes_nothing_else(tmp_path):
    variant = load_variant(standard_scoring_duel(tmp_path))
    duel = load_variant("duel")
    assert variant.settings.scoring == "standard"
    assert {k: v for k, v in variant.settings.items() if k != "scoring"} == \
        {k: v for k, v in duel.settings.items() if k != "scoring"}
    assert variant.rules.deciders["azul_placement_score"] == "duel > standard"


@pytest.mark.parametrize("cells, points", [
    ([(2, 2)], 1),                                        # alone
    ([(2, 1), (2, 2), (2, 3)], 3),                        # h = 3
    ([(1, 2), (2, 2), (3, 2)], 3),                        # v = 3
    ([(2, 1), (2, 2), (2, 3), (1, 2)], 4),                # h = 3, v = 2
    ([(2, c) for c in range(5)] + [(r, 2) for r in (0, 1, 3, 4)], 9),  # h = 5, v = 5
])
def test_a_placed_tile_scores_h_plus_v_minus_1(duel, cells, points):
    wall = [[None] * 5 for _ in range(5)]
    for row, column in cells:
        wall[row][column] = (column - row) % 5
    assert duel.rules.placement_score(wall, 2, 2) == points


# ------------------------------------------------------------------ the floor


def test_the_floor_has_8_spaces_costing_1_2_4_6_9_12_16_20(duel):
    assert duel.rules.floor_spaces == 8
    totals = [-duel.rules.floor_penalty([BLUE] * n) for n in range(1, 9)]
    assert totals == [1, 2, 4, 6, 9, 12, 16, 20]


def test_worked_example_a_floor_of_5_tiles_costs_9_at_the_end_of_the_round():
    game = new_game("duel")
    game.players[0].score = 12
    set_floor(game, 0, "BBYY")
    set_table(game, ["K", "R"])
    play(game, ["1K-"])                        # the 5th floor tile: not charged yet
    assert scores(game)[0] == 12
    play(game, ["2R5"])                        # seat 1 ends the round
    assert scores(game)[0] == 12 - 9


def test_tiles_past_the_eighth_floor_space_go_to_the_lid():
    game = new_game("duel")
    set_floor(game, 0, "BBBBBBB")
    set_table(game, ["YYY", "R"])
    lid_yellow = game.lid[YELLOW]
    play(game, ["1Y-"])
    assert floor_of(game, 0) == "BBBBBBBY"
    assert game.lid[YELLOW] == lid_yellow + 2


# ------------------------------------------------------------------ misplaced drafts

MISPLACED = [
    # (wall row 1, lines, draft, the rule standard names)
    ("B . . . .", {}, "1B1", "wall row 1 already has blue"),
    (". . . . .", {2: "R"}, "1B2", "pattern line 2 holds red"),
    (". . . . .", {1: "Y"}, "1B1", "pattern line 1 is full"),
]


def _misplaced_game(variant, wall_row, lines):
    game = new_game(variant)
    set_wall(game, 0, "\n".join([wall_row] + [". . . . ."] * 4))
    set_lines(game, 0, lines)
    set_table(game, ["BBYY", "KKKK"])
    return game


@pytest.mark.parametrize("wall_row, lines, draft, rule", MISPLACED)
def test_standard_refuses_a_draft_onto_a_line_that_can_not_take_it(wall_row, lines, draft, rule):
    game = _misplaced_game("standard", wall_row, lines)
    before = (lines_of(game, 0), floor_of(game, 0), [s[:] for s in game.sources])
    with pytest.raises(MoveRefused, match=rule):
        play(game, [draft])
    assert (lines_of(game, 0), floor_of(game, 0), [s[:] for s in game.sources]) == before
    with pytest.raises(IllegalDecision, match=rule):
        game.apply((1, BLUE, int(draft[-1]) - 1))


@pytest.mark.parametrize("wall_row, lines, draft, rule", MISPLACED)
def test_duel_sends_a_misplaced_draft_to_the_floor(wall_row, lines, draft, rule):
    game = _misplaced_game("duel", wall_row, lines)
    decision = (1, BLUE, int(draft[-1]) - 1)
    assert game.is_misplaced(decision)         # what a front end uses to say so
    assert decision not in game.legal_decisions()  # bots are never offered it
    play(game, [draft])
    assert floor_of(game, 0) == "BB"           # every tile taken
    assert lines_of(game, 0) == lines          # the line is untouched
    assert game.sources[0][YELLOW] == 2        # the rest of the factory went to the centre
    assert game.tile_counts() == [20] * 5


def test_a_draft_to_the_floor_is_not_misplaced():
    game = _misplaced_game("duel", ". . . . .", {})
    assert not game.is_misplaced((1, BLUE, FLOOR))


# ------------------------------------------------------------------ end of the game


def test_a_row_completed_mid_round_ends_the_game_after_the_round():
    game = new_game("duel")
    set_wall(game, 0, """
        B Y R K .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""")
    set_table(game, ["W", "KKKK"])
    play(game, ["1W1"])                        # row 1 complete now...
    assert game.phase == DRAFT                 # ...and the round is still played out
    assert scores(game)[0] == 5
    play(game, ["2K-"])
    assert game.phase == OVER
    assert dict(game.players[0].bonuses) == {"rows": 2, "columns": 0, "colours": 0}
    assert scores(game)[0] == 5 + 2
    assert game.winners == [0]


def test_bonuses_and_tie_break_are_the_standard_ones(duel):
    full = [[(column - row) % 5 for column in range(5)] for row in range(5)]
    one_row = [list(full[0])] + [[None] * 5 for _ in range(4)]
    empty = [[None] * 5 for _ in range(5)]
    assert dict(duel.rules.end_bonuses(full)) == {"rows": 10, "columns": 35, "colours": 50}
    assert duel.rules.winners([30, 30], [empty, one_row]) == [1]
    assert duel.rules.winners([30, 30], [empty, empty]) == [0, 1]


def test_random_duel_games_keep_the_invariants(duel):
    for seed in range(60):
        game = GameState(duel.rules, 2)
        play_out(game, seed)
        assert game.phase == OVER
        assert game.tile_counts() == [20] * 5
        assert all(score >= 0 for score in game.scores())
        assert all(len(board.floor) == 0 for board in game.players)


def test_who_starts_when_nobody_took_the_marker_is_still_the_standard_setting(tmp_path):
    from azul_core.variants.loading import load_variant
    path = tmp_path / "duel-next.yaml"
    path.write_text("extends: duel\nsettings: {start_without_marker: next}\n")
    assert load_variant(path).rules.marker.unclaimed == "next"
    assert load_variant("duel").rules.marker.unclaimed == "same"
