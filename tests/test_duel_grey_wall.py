"""A variant extending duel with the grey wall: a full line is tiled at the end of the turn that
filled it (duel) and its owner chooses the wall column (grey wall). The hooks allow the
combination; these tests play it, by hand-worked positions and whole games.

In such a turn the filling player drafts, then places the tile, and only then does the other
player move: a player never drafts twice in a row.
"""

from __future__ import annotations

import random

import pytest

from azul_core.engine.state import DEAL, DRAFT, OVER, PLACE, GameState
from azul_core.players.bots import GreedyBot, RandomBot
from azul_core.records.game_record import Recorder, validate_record
from azul_core.testing import (
    floor_of,
    lines_of,
    new_game,
    play,
    scores,
    set_table,
    set_wall,
    wall_text,
)
from azul_core.variants.loading import load_variant

VARIANT = """\
name: duel-grey
description: duel, on the grey wall
extends: duel
plugins: [standard, grey_wall, duel]
"""


@pytest.fixture(scope="module")
def variant_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("duel-grey") / "duel-grey.yaml"
    path.write_text(VARIANT)
    return path


def columns_offered(game):
    """The wall columns (1-based) offered for the tile being placed."""
    assert game.phase == PLACE
    return [column + 1 for _row, column in game.legal_decisions()]


def test_the_variant_takes_its_rules_from_both(variant_file):
    variant = load_variant(variant_file)
    rules, deciders = variant.rules, variant.rules.deciders
    assert variant.players == (2,)
    assert rules.tile_at_turn_end and rules.player_chooses_column and rules.misplaced_to_floor
    assert deciders["azul_wall_spaces"] == "grey_wall" and deciders["azul_wall_choice"] == "grey_wall"
    assert deciders["azul_tiling_time"] == "duel"
    assert rules.floor_spaces == 8


def test_the_filling_player_places_then_the_other_player_drafts(variant_file):
    game = new_game(variant_file)
    set_table(game, ["YYYY", "RRRR", "BBKW"])
    play(game, ["1Y1"])                         # seat 0 fills line 1: its tile is placed now
    assert game.phase == PLACE and game.to_move == 0
    assert columns_offered(game) == [1, 2, 3, 4, 5]         # an empty grey wall: any space
    assert floor_of(game, 0) == "YYY"
    play(game, ["w1:3"])
    assert wall_text(game, 0).splitlines()[0].split() == [".", ".", "Y", ".", "."]
    assert scores(game) == [1, 0]               # a lone tile: 1 (duel scoring)
    assert lines_of(game, 0) == {}
    assert game.phase == DRAFT and game.to_move == 1      # not seat 0 again
    play(game, ["2R2"])                         # seat 1 fills line 2: 2 red, 2 to the floor
    assert game.phase == PLACE and game.to_move == 1
    play(game, ["w2:5"])
    assert game.phase == DRAFT and game.to_move == 0
    assert scores(game) == [1, 1]


def test_the_columns_offered_are_the_grey_walls(variant_file):
    game = new_game(variant_file)
    # Yellow stands in row 1 column 2 and row 3 column 4; row 2 has blue in column 1.
    set_wall(game, 0, """\
        . Y . . .
        B . . . .
        . . . Y .
        . . . . .
        . . . . .""")
    set_table(game, ["YYYY", "RRRR"])
    play(game, ["1Y2"])                          # line 2 full of yellow
    # row 2: column 1 taken; columns 2 and 4 hold yellow already: 3 and 5 remain
    assert columns_offered(game) == [3, 5]
    play(game, ["w2:3"])
    # (2,3) has no neighbour: (1,3), (3,3), (2,2) and (2,4) are empty, so 1 point
    assert scores(game) == [1, 0]
    assert game.to_move == 1


def test_a_line_that_fits_nowhere_falls_and_the_turn_passes(variant_file):
    game = new_game(variant_file)
    # Row 1 has room only in column 1, and column 1 already holds red lower down.
    set_wall(game, 0, """\
        . B Y K W
        R . . . .
        . . . . .
        . . . . .
        . . . . .""")
    set_table(game, ["RRRR", "YYYY"])
    play(game, ["1R1"])
    assert game.phase == DRAFT and game.to_move == 1     # nothing to choose: no placement
    assert lines_of(game, 0) == {} and floor_of(game, 0) == "RRRR"   # 3 overflow + the line


def test_a_line_filled_by_the_last_draft_is_placed_before_the_round_ends(variant_file):
    game = new_game(variant_file)
    set_table(game, ["KK"])
    play(game, ["1K2"])                          # the last tiles on the table fill line 2
    assert game.phase == PLACE and game.to_move == 0 and game.round == 1
    play(game, ["w2:4"])
    assert game.phase == DEAL and game.round == 2
    assert wall_text(game, 0).splitlines()[1].split() == [".", ".", ".", "K", "."]


def _turns_alternate(game: GameState, rng: random.Random, bots) -> list[tuple]:
    """Play to the end; check after each decision who moves next. The decisions taken."""
    taken = []
    while game.phase != OVER:
        if game.phase == DEAL:
            game.deal(rng)
            continue
        mover, phase, round_number = game.to_move, game.phase, game.round
        decision = bots[mover].choose(game)
        tiles_before = game.tiles_on_table
        game.apply(decision)
        taken.append((round_number, phase, mover, decision))
        assert game.tile_counts() == [20] * 5
        if game.phase == PLACE:                  # only the player who just drafted or placed
            assert game.to_move == mover
        elif game.phase == DRAFT:
            # the round goes on: the other player drafts next (a placement ends its drafter's turn)
            assert game.to_move == 1 - mover, taken[-3:]
            assert phase == PLACE or game.tiles_on_table < tiles_before
    return taken


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_alternate_turns_and_replay_from_their_record(variant_file, seed):
    game = new_game(variant_file)
    rng = random.Random(seed)
    bots = [GreedyBot(seed=seed), RandomBot(seed=seed)]
    recorder = Recorder(variant_file.name, ["greedy", "random"], seed=seed)
    taken, drafted_by = [], []
    while game.phase != OVER:
        if game.phase == DEAL:
            game.deal(rng)
            recorder.dealt(game)
            continue
        mover, phase = game.to_move, game.phase
        decision = bots[mover].choose(game)
        game.apply(decision)
        recorder.decided(decision, game)
        taken.append((phase, mover))
        if phase == DRAFT:
            drafted_by.append((game.round, mover))
        if game.phase == PLACE:
            assert game.to_move == mover
        elif game.phase == DRAFT:
            assert game.to_move == 1 - mover
        assert game.tile_counts() == [20] * 5
    placements = [mover for phase, mover in taken if phase == PLACE]
    assert placements, "a game without a placement tested nothing"
    # each placement comes right after its own player's draft or placement
    for before, after in zip(taken, taken[1:]):
        if after[0] == PLACE:
            assert before[1] == after[1]
    for board in game.players:                   # the grey wall: no colour twice in a row or column
        for row in board.wall:
            tiles = [c for c in row if c is not None]
            assert len(tiles) == len(set(tiles))
        for column in zip(*board.wall):
            tiles = [c for c in column if c is not None]
            assert len(tiles) == len(set(tiles))
    # the record of the game replays to the same end
    path = variant_file.parent / f"game-{seed}.json"
    recorder.save(path, game, durable=False)
    report = validate_record(path)
    assert report["valid"] and report["finished"], report["errors"]
    assert report["scores"] == game.scores() and report["winners"] == game.winners


def test_random_games_never_let_a_player_draft_twice_running(variant_file):
    rules = load_variant(variant_file).rules
    for seed in range(6):
        game = GameState(rules, 2, first_player=seed % 2)
        rng = random.Random(seed)
        seats = [RandomBot(seed=seed), RandomBot(seed=seed + 100)]
        taken = _turns_alternate(game, rng, seats)
        assert any(phase == PLACE for _round, phase, _mover, _decision in taken)
        drafts = [(rnd, mover) for rnd, phase, mover, _decision in taken if phase == DRAFT]
        for (round_a, seat_a), (round_b, seat_b) in zip(drafts, drafts[1:]):
            if round_a == round_b:
                assert seat_a != seat_b
        assert game.winners
