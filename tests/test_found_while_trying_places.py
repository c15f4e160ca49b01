"""Faults found while writing rules that move tiles between places (issue 40), each fixed:
a line tiled after a move took tiles off it, a shift off a line with stand-ins, the supply of
a starved game with stand-ins, what a plugin sees during a wall placement, and walls that
differ from seat to seat."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console
from typer.testing import CliRunner

from azul_core import hookimpl
from azul_core.colours import BLUE, COLOURS, RED
from azul_core.engine.state import PLACE
from azul_core.engine.transfers import carry_out, shift_transfer
from azul_core.players.bots import GreedyBot, draft_gains, position_value, seen_by_mover, tried_gains
from azul_core.players.render import draw_board
from azul_core.players.search import MctsBot
from azul_core.testing import (
    lines_of,
    new_game,
    play,
    set_bag,
    set_lines,
    set_table,
    set_wall,
    wall_text,
)
from azul_core.web.views import build_view

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHIFT = EXAMPLES / "factory-one-shift" / "factory_one_shift.py"
WILD = EXAMPLES / "wild-tiles" / "wild-tiles.yaml"
WILD_PLUGIN = EXAMPLES / "wild-tiles" / "wild_tiles.py"
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}

# ---------------------------------------------------------------- 1. a line tiled at the turn's end


def test_over_duel_a_line_a_move_took_a_tile_off_is_not_tiled_at_the_turns_end():
    game = new_game("duel", plugins=[SHIFT])
    set_table(game, ["KKKR"], centre="BB")
    play(game, "1K3")                # KKK fills line 3, to be tiled when the turn ends
    play(game, "+shift:1")           # factory one's gift: one K to line 2 (counted from 0)
    assert lines_of(game, 0) == {2: "K", 3: "KK"}
    assert wall_text(game, 0).splitlines()[2] == ". . . . ."   # nothing tiled: line 3 is not full
    assert game.tile_counts() == [20] * 5


def write_variant(tmp_path: Path, name: str, base: str, plugins: list) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\ndescription: a combination of house rules\nextends: {base}\n"
                    f"plugins: [{', '.join(str(p) for p in plugins)}]\n")
    return path


@pytest.mark.parametrize("name, base, plugins", [
    ("shift-duel", "duel", ["standard", "colour_wall", "duel", SHIFT]),
    ("wild-shift", "standard", ["standard", "colour_wall", WILD_PLUGIN, SHIFT]),
])
def test_factory_one_shift_combined_plays_and_validates(tmp_path, name, base, plugins):
    variant = write_variant(tmp_path, name, base, plugins)
    runner = CliRunner(env=ENV)
    games = tmp_path / "games"
    result = runner.invoke(app(), ["simulate", "--variant", str(variant), "--games", "30", "--seed", "1",
                                   "--bots", "random", "--quiet", "--record-dir", str(games)])
    assert result.exit_code == 0, result.output
    texts = [path.read_text() for path in sorted(games.glob("*.json"))]
    assert any('"+shift:' in text for text in texts)
    result = runner.invoke(app(), ["validate", str(games), "--variant", str(variant), "--json"])
    assert result.exit_code == 0, result.output
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(reports) == 30 and all(r["valid"] and r["finished"] for r in reports)


def app():
    from azul_core.cli.app import _register, app
    _register()
    return app


# ---------------------------------------------------------------- 2. stand-ins on a line


def wild_game():
    return new_game(WILD, plugins=[SHIFT])


def test_the_game_view_shows_the_tiles_standing_in_on_each_line_and_what_each_line_takes():
    seen = []

    class Spy:
        @hookimpl
        def azul_game_over(self, game):
            seen.append((game.stand_ins, game.accepts, game.floor_spaces))

    game = new_game(WILD, plugins=[Spy()])
    set_wall(game, 1, "B....\n.....\n.....\n.....\n.....")
    set_lines(game, 0, {3: "RJ"})
    set_lines(game, 1, {2: "YY"})
    set_table(game, ["K"])
    play(game, "1K-")
    stand_ins, accepts, floor_spaces = seen[0]
    assert stand_ins == (((), (), (5,), (), ()), ((), (), (), (), ()))
    assert accepts[0][2] == {RED} and accepts[0][0] == set(COLOURS)
    assert accepts[1][0] == set(COLOURS) - {BLUE}      # the wall row has blue now
    assert floor_spaces == 7


def test_a_shift_moves_tiles_of_the_colour_and_leaves_one_with_the_stand_ins():
    game = wild_game()
    set_lines(game, 0, {4: "R"})
    set_table(game, ["RRJY"])
    play(game, "1R4")                # RR and the wild tile join line 4: R R R J
    assert lines_of(game, 0) == {4: "RRRJ"}
    play(game, "+shift:0")           # one red to line 1
    assert lines_of(game, 0)[4] == "RRJ"
    assert game.tile_counts() == [20] * 5 + [10]


def test_a_shift_that_would_leave_only_stand_ins_is_refused_and_not_offered():
    game = wild_game()
    set_table(game, ["RJYY"])
    play(game, "1R3")                # R and J on line 3
    assert lines_of(game, 0) == {3: "RJ"}
    # Factory one's gift sees the stand-in and offers only to keep the tiles.
    assert [move.notation for move in game.legal_decisions()] == ["+keep"]
    error = carry_out(game, shift_transfer(game, 0, (2, 0, 1)))
    assert error == "pattern line 3 of seat 0 holds 1 red and 1 standing in for it: at most 0 can move"


# ---------------------------------------------------------------- 3. a starved game and stand-ins

STARVED_WALL = ". Y . K W\nW . Y . K\nK W B Y .\n. K W . Y\nY . K W ."


def round_ended(variant, bag: str):
    """Every row of both walls misses red and blue but row 3, which misses red alone and
    whose line holds one red: no blue is left, and ``bag`` is all there is to draw."""
    game = new_game(variant)
    for seat in (0, 1):
        set_wall(game, seat, STARVED_WALL)
    set_lines(game, 0, {3: "R"})
    set_bag(game, bag=bag + "Y")
    set_table(game, ["Y"])
    play(game, "1Y-")                # the round's only draft
    return game


@pytest.mark.parametrize("variant, bag, over", [
    ("standard", "RYYKKWW", True),         # one red can't fill line 3: no row can be completed
    (WILD, "RJJJJJYYKKWW", False),         # a red draft brings a wild tile along: it can
    (WILD, "JJJJJYYKKWW", True),           # no red left to draft: no wild tile comes along
], ids=["standard", "wild with a red", "wild without red"])
def test_a_game_is_ended_as_starved_only_when_no_stand_in_could_complete_a_row(variant, bag, over):
    assert round_ended(variant, bag).over == over


# ---------------------------------------------------------------- 5. during a wall placement


class SecretWatcher:
    """Deals seat s the secret 10 * s + 7 and notes what each placement's score sees."""

    name = "watcher"

    def __init__(self):
        self.seen = []

    @hookimpl
    def azul_deal_secrets(self, players):
        return [10 * seat + 7 for seat in range(players)]

    @hookimpl
    def azul_placement_score(self, seat, secret, game):
        self.seen.append((seat, secret, len(game.factories), game.bag))


def test_a_wall_question_during_a_placement_sees_the_table_and_the_placing_seats_secret():
    import random
    watcher = SecretWatcher()
    game = new_game("grey-wall", players=3, plugins=[WILD_PLUGIN, watcher])
    game.deal_secrets(random.Random(1))
    set_lines(game, 1, {1: "B"})
    set_table(game, ["Y"])
    play(game, "1Y-")                # seat 0 drafts last; seat 1 places its blue
    assert game.phase == PLACE and game.to_move == 1 and game.current == 0
    seen = seen_by_mover(game)
    assert seen.secrets["watcher"] == (None, 17, None)
    play(game, "w1:3")
    seat, secret, factories, bag = watcher.seen[-1]
    assert (seat, secret) == (1, 17)
    assert factories == 7                       # the 3-player table's factories
    assert len(bag) == 6 and bag[5] == game.bag.count(5) > 0   # the wild tiles too


# ---------------------------------------------------------------- 6. walls that differ per seat


class MirroredForSeatOne:
    """The colour wall, but seat 1's is mirrored left to right."""

    @hookimpl
    def azul_wall_spaces(self, wall, row, colour, seat):
        column = (colour + row) % 5
        if seat == 1:
            column = 4 - column
        return (column,) if wall[row][column] is None else ()

    @hookimpl
    def azul_wall_choice(self):
        return False


def mirrored_game():
    return new_game(plugins=[MirroredForSeatOne()], decide={"wall": "MirroredForSeatOne"})


def test_set_wall_asks_the_wall_of_the_seat_it_sets():
    game = mirrored_game()
    set_wall(game, 1, "....B\n.....\n.....\n.....\n.....")
    with pytest.raises(ValueError, match="the rules put no blue tile there"):
        set_wall(game, 0, "....B\n.....\n.....\n.....\n.....")


def test_the_terminal_and_the_web_page_draw_each_seats_printed_wall():
    game = mirrored_game()
    set_table(game, ["BBYY"])
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(draw_board(game, 0, "zero"))
    console.print(draw_board(game, 1, "one"))
    text = console.file.getvalue()
    assert "b y r k w" in text and "w k r y b" in text
    seats = [SimpleNamespace(name=name, bot=None) for name in ("zero", "one")]
    offered = SimpleNamespace(variant=SimpleNamespace(description="seat 1's wall mirrored"))
    view = build_view(game, offered, seats, [True, True], None, "mirrored")
    first_rows = [[cell.get("pattern") for cell in board["wall"][0]] for board in view["seats"]]
    assert first_rows[0] != first_rows[1] and first_rows[1] == list(reversed(first_rows[0]))


def test_greedy_values_a_line_on_its_own_seats_wall():
    game = mirrored_game()
    set_wall(game, 1, "...Y.\n.....\n.....\n.....\n.....")    # seat 1's yellow, mirrored
    set_lines(game, 1, {1: "B"})     # its blue goes beside the yellow: 2 points
    assert position_value(game, 1, whole_game=False) == 2
    set_table(game, ["KKRR"])
    play(game, "1K-")
    play(game, "CR-")                # the round ends: seat 1's blue is tiled
    assert game.players[1].placement_points == 2


@pytest.mark.parametrize("bot", [GreedyBot(seed=1), MctsBot(seed=1, iterations=30)], ids=["greedy", "mcts"])
def test_every_bot_plays_a_variant_whose_seats_walls_differ(bot):
    import random
    game = mirrored_game()
    rng = random.Random(3)
    while not game.over:
        if game.phase == "deal":
            game.deal(rng)
        else:
            game.apply(bot.choose(game))
    assert sum(game.tile_counts()) == 100
    assert any(cell is not None for row in game.players[1].wall for cell in row)


def test_the_greedy_bot_judges_seat_ones_draft_on_seat_ones_wall():
    game = mirrored_game()
    set_wall(game, 1, "...Y.\n.....\n.....\n.....\n.....")
    set_table(game, ["BKKR", "RRWW"])
    play(game, "2W-")               # seat 0 moves; seat 1 now chooses
    # A blue on line 1 scores 2 beside seat 1's yellow (on the mirrored wall), not 1: worked
    # out from the line, and tried on a clone, alike.
    assert draft_gains(game, [(1, BLUE, 0)], whole_game=False) == [2]
    assert tried_gains(game, [(1, BLUE, 0)], whole_game=False) == [(2, (1, BLUE, 0))]


# ---------------------------------------------------------------- secrets laid by a test


@pytest.mark.parametrize("values, why", [
    ((0, [4]), "a list is not a plain immutable value"),
    ((0.5, 4), "a float is not a plain immutable value"),
    ((0, "x" * 201), "a string longer than 200 characters"),
])
def test_secrets_a_test_lays_are_checked_as_a_plugin_s_would_be(values, why):
    from azul_core.engine.state import IllegalDecision
    game = new_game(EXAMPLES / "secret-goal" / "secret-goal.yaml")
    with pytest.raises(IllegalDecision, match=f"the secrets of plugin 'secret_goal' hold {why}"):
        game.set_secrets({"secret_goal": values})
    game.set_secrets({"secret_goal": (0, 4)})
    assert game.for_seat(1).secrets == {"secret_goal": (None, 4)}
