"""Tiles an outcome moves between places (``Transfer``): the rules of each place, all or
none, tiles never made or lost, errors that name the plugin; and examples/take-a-tile, a
move on another player's board, everywhere a variant works."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from azul_core import hookimpl
from azul_core.colours import BLACK, BLUE, RED, WHITE, YELLOW
from azul_core.engine.plugins import PluginError
from azul_core.players.registry import make_bot
from azul_core.rules import BAG, BOX, CENTRE, LID, Move, Outcome, Place, Transfer, factory, floor, line, wall
from azul_core.testing import (
    floor_of,
    lines_of,
    new_game,
    play,
    set_floor,
    set_lines,
    set_table,
    set_wall,
    snapshot,
    wall_text,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TAKE = EXAMPLES / "take-a-tile" / "take-a-tile.yaml"
WILD_PLUGIN = EXAMPLES / "wild-tiles" / "wild_tiles.py"
TAKE_PLUGIN = EXAMPLES / "take-a-tile" / "take_a_tile.py"
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
GO = Move("go", label="Move the tiles")


class Mover:
    """Offers +go at every turn; taking it answers ``outcome`` (an Outcome)."""

    name = "mover"

    def __init__(self, outcome):
        self.answer = outcome

    @hookimpl
    def azul_declare_moves(self):
        return [GO]

    @hookimpl
    def azul_offer_moves(self, stage):
        return [GO] if stage == "turn" else None

    @hookimpl
    def azul_apply_move(self):
        return self.answer


def moved(outcome, players: int = 2, variant="standard", extra=()):
    game = new_game(variant, players=players, plugins=[*extra, Mover(outcome)])
    set_table(game, ["BBYY", "RRKW"], centre="K")
    return game


# ---------------------------------------------------------------- every kind of place


def test_a_tile_goes_from_an_opponents_line_to_the_movers_line():
    game = moved(Outcome(transfers=(Transfer(line(1, 2), line(0, 2), RED),)))
    set_lines(game, 1, {3: "RR"})
    game.apply(GO)
    assert lines_of(game, 0) == {3: "R"} and lines_of(game, 1) == {3: "R"}
    assert game.to_move == 1 and game.tile_counts() == [20] * 5


@pytest.mark.parametrize("source, target", [
    (BAG, LID), (LID, BOX), (BOX, BAG), (factory(1), CENTRE), (CENTRE, factory(2)),
    (factory(2), line(1, 4)), (line(1, 4), floor(0)), (floor(0), BAG),
])
def test_tiles_go_between_any_two_places_and_none_is_made_or_lost(source, target):
    game = moved(Outcome(transfers=(Transfer(source, target, RED),)))
    set_table(game, ["RBYY", "RRKW"], centre="R")
    for _ in range(3):
        game.bag.remove(RED)
    game.lid[RED], game.removed[RED] = 2, 1      # two reds in the lid, one out of the game
    set_lines(game, 1, {5: "RR"})
    set_floor(game, 0, "R")
    game.apply(GO)
    assert game.tile_counts() == [20] * 5
    assert game.players[0].score == 0 and game.to_move == 1


def test_a_factory_or_the_centre_given_tiles_keeps_the_round_going():
    game = moved(Outcome(transfers=(Transfer(BAG, factory(3), WHITE, 2), Transfer(factory(1), CENTRE, BLUE, 2))))
    on_table = game.tiles_on_table
    game.apply(GO)
    assert game.sources[3][WHITE] == 2 and game.sources[0][BLUE] == 2 and game.sources[1][BLUE] == 0
    assert game.tiles_on_table == on_table + 2
    assert (3, WHITE, 0) in game.legal_decisions() and (0, BLUE, 0) in game.legal_decisions()
    # The count of sources holding each colour, which random drafts are drawn from, is kept.
    assert game.colour_sources == [sum(1 for source in game.sources if source[kind]) for kind in range(5)]


def test_a_wall_space_takes_a_tile_the_wall_allows_there_without_scoring_it():
    game = moved(Outcome(transfers=(Transfer(LID, wall(1, 0, 0), BLUE),)))
    game.lid[BLUE] = 1
    game.bag.remove(BLUE)
    game.apply(GO)
    assert wall_text(game, 1).splitlines()[0] == "B . . . ."
    assert game.players[1].score == 0
    assert (1, BLUE, 0) not in game.legal_decisions()     # seat 1's line 1 no longer takes blue


def test_a_wall_tile_can_be_taken_back_to_its_line():
    game = moved(Outcome(transfers=(Transfer(wall(0, 1, 2), line(0, 1), YELLOW),)))
    set_wall(game, 0, ".....\n..Y..\n.....\n.....\n.....")
    game.apply(GO)
    assert wall_text(game, 0).splitlines()[1] == ". . . . ." and lines_of(game, 0) == {2: "Y"}


def test_points_go_to_any_seat_and_never_below_zero():
    game = moved(Outcome(points=3, scores=((1, 4), (0, -1))), players=3)
    game.players[1].score = 1
    game.apply(GO)
    assert [board.score for board in game.players] == [2, 5, 0]


# ---------------------------------------------------------------- refused: all or none, named


@pytest.mark.parametrize("transfers, why", [
    ((Transfer(line(1, 2), line(0, 2), RED),), "pattern line 3 of seat 1 is empty"),
    ((Transfer(LID, floor(0), RED),), "the lid holds 0 red"),
    ((Transfer(factory(1), line(0, 0), RED),), "factory 1 holds 0 red"),
    ((Transfer(factory(1), line(0, 2), BLUE, 2), Transfer(CENTRE, line(0, 2), BLACK)),
     "pattern line 3 of seat 0 holds blue"),
    ((Transfer(factory(1), line(0, 0), BLUE, 2),), "pattern line 1 of seat 0 has room for 1"),
    ((Transfer(factory(1), line(5, 0), BLUE),), "there is no seat 5"),
    ((Transfer(factory(9), CENTRE, BLUE),), "there is no factory 9"),
    ((Transfer(factory(1), wall(0, 0, 1), BLUE),), "the wall of seat 0 takes no blue tile at (1, 2)"),
    ((Transfer(factory(1), wall(0, 0, 0), BLUE, 2),), "wall space (1, 1) of seat 0 takes one tile of a colour"),
    ((Transfer(factory(1), CENTRE, 7),), "there is no kind of tile 7"),
])
def test_a_transfer_the_rules_refuse_changes_nothing_and_names_the_plugin(transfers, why):
    game = moved(Outcome(points=5, transfers=transfers))
    before = snapshot(game)
    with pytest.raises(PluginError) as refused:
        game.apply(GO)
    assert str(refused.value).startswith("plugin 'mover' answered +go with a transfer (")
    assert str(refused.value).endswith(f"(azul_apply_move at {refused.value.location}): {why}")
    assert refused.value.location.startswith(f"{__file__}:")
    assert snapshot(game) == before and game.players[0].score == 0


@pytest.mark.parametrize("outcome, why", [
    (Outcome(transfers=[Transfer(BAG, LID, RED)]), "transfers must be a tuple"),
    (Outcome(transfers=(Transfer(BAG, BAG, RED),)), "the bag is both the source and the target"),
    (Outcome(transfers=(Transfer(BAG, LID, RED, 0),)), "count must be from 1 to 200"),
    (Outcome(transfers=(Transfer(Place("pocket"), LID, RED),)), "is not a Place"),
    (Outcome(transfers=((BAG, LID, RED),)), "expected a Transfer"),
    (Outcome(scores=((0, 2.5),)), "scores must be a tuple of (seat, points) pairs"),
    (Outcome(scores=((9, 1),)), "there is no seat 9"),
])
def test_a_malformed_outcome_is_the_plugins_error(outcome, why):
    game = moved(outcome)
    with pytest.raises(PluginError, match=why.replace("(", r"\(").replace(")", r"\)")):
        game.apply(GO)


def test_a_stand_in_moves_only_where_it_may_stand_in_and_never_alone():
    game = moved(Outcome(transfers=(Transfer(line(1, 2), line(0, 2), 5),)), variant=EXAMPLES / "wild-tiles" / "wild-tiles.yaml")
    set_lines(game, 1, {3: "RJ"})
    with pytest.raises(PluginError, match="wild tiles can't stand in on pattern line 3 of seat 0"):
        game.apply(GO)                  # seat 0's line 3 holds no red to stand in for
    set_lines(game, 0, {3: "R"})
    game.apply(GO)
    assert lines_of(game, 0) == {3: "RJ"} and lines_of(game, 1) == {3: "R"}


def test_over_duel_a_line_a_transfer_fills_is_tiled_at_the_turns_end():
    game = moved(Outcome(transfers=(Transfer(line(1, 1), line(0, 1), RED),)), variant="duel")
    set_lines(game, 0, {2: "R"})
    set_lines(game, 1, {2: "R"})
    game.apply(GO)
    assert wall_text(game, 0).splitlines()[1] == ". . . R ."
    assert lines_of(game, 0) == {} and game.players[0].score == 1


# ---------------------------------------------------------------- examples/take-a-tile


def take_game(players: int = 2):
    game = new_game(TAKE, players=players)
    set_table(game, ["BBYY", "RRKW"], centre="K")
    return game


def test_take_a_tile_moves_the_top_tile_of_an_opponents_line_to_the_same_line():
    game = take_game()
    set_lines(game, 1, {4: "RRR"})
    play(game, "+take:1:3")
    assert lines_of(game, 0) == {4: "R"} and lines_of(game, 1) == {4: "RR"}
    assert game.memory["take_a_tile"] == (True, False) and game.to_move == 1
    assert game.tile_counts() == [20] * 5


def test_take_a_tile_goes_to_the_floor_when_the_own_line_does_not_take_it():
    game = take_game()
    set_lines(game, 1, {2: "K"})
    set_lines(game, 0, {2: "B"})
    play(game, "+take:1:1")
    assert floor_of(game, 0) == "K" and lines_of(game, 0) == {2: "B"} and lines_of(game, 1) == {}


def test_take_a_tile_is_offered_once_a_game_for_unfinished_lines_only():
    game = take_game(players=3)
    set_lines(game, 1, {1: "B", 3: "YY"})   # line 1 is full: finished
    set_lines(game, 2, {5: "W"})
    offered = [move.notation for move in game.legal_decisions() if isinstance(move, Move)]
    assert offered == ["+take:1:2", "+take:2:4"]
    play(game, "+take:2:4")
    play(game, "1Y2 2R3")               # seats 1 and 2 draft
    assert not [move for move in game.legal_decisions() if isinstance(move, Move)]


def test_take_a_tile_is_not_offered_from_a_line_whose_only_tile_of_its_colour_holds_a_stand_in():
    game = new_game(TAKE, plugins=[WILD_PLUGIN])
    set_table(game, ["BBYY"])
    set_lines(game, 1, {3: "RJ", 4: "KKJ"})
    assert [move.notation for move in game.legal_decisions() if isinstance(move, Move)] == ["+take:1:3"]


def test_standard_azul_has_no_take():
    game = new_game()
    set_table(game, ["BBYY"])
    with pytest.raises(Exception, match="not a move of this variant"):
        play(game, "+take:1:1")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_take_a_tile_is_played_by_every_bot_and_keeps_every_tile(players, bot):
    game = new_game(TAKE, players=players)
    bots = [make_bot(bot, game.rules, seed=seat, playouts=20) for seat in range(players)]
    rng = random.Random(players)
    while not game.over:
        if game.phase == "deal":
            game.deal(rng)
        else:
            game.apply(bots[game.to_move].choose(game))
        assert game.tile_counts() == [20] * 5
    assert game.round <= 50


def app():
    from azul_core.cli.app import _register, app
    _register()
    return app


@pytest.mark.parametrize("extends, plugins", [
    ("standard", None), ("duel", "[standard, colour_wall, duel, take_a_tile.py]"),
])
def test_take_a_tile_records_validate_alone_and_over_duel(tmp_path, extends, plugins):
    variant = TAKE
    if plugins:
        variant = tmp_path / "take-duel.yaml"
        variant.write_text(f"name: take-duel\ndescription: duel with take-a-tile\nextends: {extends}\n"
                           f"plugins: {plugins.replace('take_a_tile.py', str(TAKE_PLUGIN))}\n")
    runner = CliRunner(env=ENV)
    games = tmp_path / "games"
    result = runner.invoke(app(), ["simulate", "--variant", str(variant), "--games", "12", "--seed", "5",
                                   "--bots", "greedy,random", "--quiet", "--record-dir", str(games)])
    assert result.exit_code == 0, result.output
    assert any('"+take:' in path.read_text() for path in games.glob("*.json"))
    result = runner.invoke(app(), ["validate", str(games), "--variant", str(variant), "--json"])
    assert result.exit_code == 0, result.output
    reports = [json.loads(text) for text in result.stdout.splitlines()]
    assert len(reports) == 12 and all(r["valid"] and r["finished"] for r in reports)
