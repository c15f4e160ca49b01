"""The board as data: a variant's colours (``azul_colours``) make its board, 4 to 8 colours on an
n x n wall with n pattern lines; examples/sixth-colour is the worked example. Everywhere a
variant works: the engine, notation and records, validation, the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recorded_games import play_recorded
from typer.testing import CliRunner

from azul_core.engine.notation import NotationError, format_decision, parse_decision
from azul_core.players.render import draw_board, render_text
from azul_core.records.game_record import replay_state
from azul_core.testing import lines_of, new_game, play, play_out, set_lines, set_table, set_wall, wall_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SIXTH = EXAMPLES / "sixth-colour" / "sixth-colour.yaml"
PINK = 5
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def with_colours(count: int, players: int = 2, seed: int = 1):
    return new_game("standard", players, settings={"colours": count}, seed=seed)


# ---------------------------------------------------------------- the example: a sixth colour


def test_pink_joins_the_five_on_a_six_by_six_wall():
    game = new_game(SIXTH)
    rules = game.rules
    assert rules.colour_letters == "BYRKWP" and rules.colour_names[PINK] == "pink"
    assert game.tile_counts() == [20] * 6 and sum(game.tile_counts()) == 120
    assert rules.capacity == (1, 2, 3, 4, 5, 6)
    assert len(game.players[0].wall) == 6 and all(len(row) == 6 for row in game.players[0].wall)
    assert game.table.factories == 6  # one more than the standard five for two players
    assert new_game(SIXTH, players=4).table.factories == 9  # never past nine


def test_a_pink_draft_fills_line_six_and_its_tile_goes_where_the_wall_prints_pink():
    game = new_game(SIXTH)
    set_lines(game, 0, {6: "PPPP"})
    set_table(game, ["PPBY"], centre="K")
    play(game, ["1P6"])
    assert lines_of(game, 0)[6] == "PPPPPP"
    play(game, ["CB1", "CY-", "CK-"])  # the table is empty: the round's tiling
    # The colour wall prints pink (colour 5) in row 6 at column (5 + 5) % 6 + 1 = 5.
    assert game.players[0].wall[5][4] == PINK
    assert game.players[0].placement_points == 1


def test_six_pinks_on_the_wall_earn_the_colour_bonus():
    game = new_game(SIXTH)
    pink_everywhere = "\n".join(" ".join("P" if column == (PINK + row) % 6 else "." for column in range(6))
                                for row in range(6))
    set_wall(game, 0, pink_everywhere)
    assert game.rules.end_bonuses(game.players[0].wall, 0, game) == [("rows", 0), ("columns", 0), ("colours", 10)]
    five_pinks = "\n".join(pink_everywhere.splitlines()[:5] + [". . . . . ."])
    set_wall(game, 1, five_pinks)
    assert dict(game.rules.end_bonuses(game.players[1].wall, 1, game))["colours"] == 0


def test_the_notation_names_the_sixth_line_and_colour():
    letters, names = "BYRKWP", ("blue", "yellow", "red", "black", "white", "pink")
    assert parse_decision("1P6", letters) == (1, PINK, 5)
    assert parse_decision("CP-", letters) == (0, PINK, 6)  # the floor: the line after the last
    assert parse_decision("w6:6", letters) == (5, 5)
    assert parse_decision("2 pink floor", letters, names) == (2, PINK, 6)
    assert format_decision((1, PINK, 6), letters) == "1P-" and format_decision((0, 0, 5), letters) == "CB6"
    for standard_only in ("1P1", "1B6", "w6:1"):
        with pytest.raises(NotationError):
            parse_decision(standard_only)  # the standard board has no pink, no line 6, no row 6


# ---------------------------------------------------------------- any size from 4 to 8


@pytest.mark.parametrize("colours", [4, 6, 7, 8])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_of_every_size_play_out_with_every_tile_accounted_for(colours, players):
    game = with_colours(colours, players, seed=colours * 10 + players)
    play_out(game, seed=players)
    assert game.over
    assert game.tile_counts() == [20] * colours
    assert all(len(board.wall) == colours for board in game.players)
    assert min(game.scores()) >= 0


@pytest.mark.parametrize("colours", [4, 8])
def test_a_record_of_any_size_replays_to_the_same_scores(colours):
    game = with_colours(colours)
    record = play_recorded(game, colours, "standard")
    assert replay_state(record, game.rules).scores() == game.scores()
    if colours == 8:
        assert any("P" in factory for entry in record.rounds for factory in entry.factories)


def test_simulated_records_of_the_sixth_colour_validate_and_a_changed_one_does_not(tmp_path):
    from azul_core.cli.app import _register, app
    _register()
    runner = CliRunner(env=ENV)
    result = runner.invoke(app, ["simulate", "--variant", str(SIXTH), "--games", "4", "--seed", "2",
                                 "--bots", "random", "--quiet", "--record-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    texts = [path.read_text() for path in sorted(tmp_path.glob("*.json"))]
    assert any("P6" in text for text in texts)
    result = runner.invoke(app, ["validate", str(tmp_path), "--variant", str(SIXTH), "--json"])
    assert result.exit_code == 0, result.output
    assert all(json.loads(line)["valid"] for line in result.stdout.splitlines())
    # Read as the standard game, the same record is refused: pink is no tile of it.
    record = json.loads(texts[0])
    record["variant"] = "standard"
    (tmp_path / "as-standard.json").write_text(json.dumps(record))
    result = runner.invoke(app, ["validate", str(tmp_path / "as-standard.json"), "--json"])
    assert result.exit_code == 1
    assert "P" in json.loads(result.stdout.splitlines()[0])["errors"][0]["message"]


def test_the_terminal_draws_six_lines_beside_a_six_by_six_wall():
    game = new_game(SIXTH)
    set_lines(game, 0, {6: "PPP"})
    text = render_text(draw_board(game, 0, "ana"))
    rows = [line for line in text.splitlines() if "|" in line]
    assert len(rows) == 6
    assert rows[5].split("|")[0].split() == ["6", ".", ".", ".", "P", "P", "P"]
    assert len(rows[0].split("|")[1].split()) == 6  # six wall spaces a row
    assert wall_text(game, 0).count("\n") == 5


def test_a_colour_declared_wrong_is_the_plugins_error_and_names_it(tmp_path):
    plugin = tmp_path / "bad_colour.py"
    plugin.write_text("from azul_core import hookimpl\nfrom azul_core.rules import Colour\nAZUL_API = 1\n\n"
                      "@hookimpl\ndef azul_colours(answer):\n    return (*answer, Colour('M', 'mauve', '#aa77aa'))\n")
    variant = tmp_path / "bad.yaml"
    variant.write_text("name: bad\nextends: standard\nplugins: [standard, colour_wall, bad_colour.py]\n")
    from azul_core.cli.app import _register, app
    _register()
    result = CliRunner(env=ENV).invoke(app, ["rules", str(variant)])
    assert result.exit_code == 1
    assert "bad_colour" in result.output and "azul_colours" in result.output and "not M" in result.output


def test_azul_play_says_a_refusal_in_the_variants_own_colour_names(tmp_path):
    # A plugin that renames the first colour: the refusal must not say "blue".
    (tmp_path / "azure.py").write_text(
        "from azul_core import hookimpl\nfrom azul_core.rules import Colour\nAZUL_API = 1\n\n"
        "@hookimpl\ndef azul_colours(answer):\n    return (Colour('A', 'azure', '#3aa0e0'), *answer[1:])\n")
    variant = tmp_path / "azure.yaml"
    variant.write_text("name: azure\nextends: standard\nplugins: [standard, colour_wall, azure.py]\n")
    from azul_core.cli.app import _register, app
    _register()
    result = CliRunner(env=ENV).invoke(app, ["play", "--variant", str(variant), "--players", "human,random",
                                             "--seed", "1", "--record", str(tmp_path / "game.json")],
                                       input="1A1\n2A1\nquit\n")
    assert "Factory 2 has no azure tiles. Type ? for the legal moves." in result.output
    assert "blue" not in result.output


def test_a_shift_on_a_bigger_board_reaches_line_six_and_its_floor_is_line_seven():
    from azul_core import hookimpl
    from azul_core.rules import Move, Outcome
    from azul_core.testing import floor_of

    class DropOne:
        @hookimpl
        def azul_declare_moves(self):
            return [Move("drop", label="Drop a tile of line 6 to the floor")]

        @hookimpl
        def azul_offer_moves(self, stage):
            return [Move("drop")] if stage == "after_draft" else []

        @hookimpl
        def azul_apply_move(self):
            return Outcome(shift=(5, 6, 1))  # line 6 (index 5) to the floor (index 6 on six lines)

    game = new_game("standard", settings={"colours": 6}, plugins=[DropOne()])
    set_table(game, ["OOOB"])
    play(game, ["1O6", "+drop"])
    assert lines_of(game, 0) == {6: "OO"} and floor_of(game, 0) == "O"
    standard = new_game("standard", plugins=[DropOne()])
    set_table(standard, ["RRRB"])
    with pytest.raises(Exception, match=r"shift must be \(from_line 0-4, to_line 0-5"):
        play(standard, ["1R5", "+drop"])


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_every_bot_plays_the_sixth_colour_and_its_record_replays(bot):
    from azul_core.players.bots import seen_by_mover
    from azul_core.players.registry import make_bot
    game = new_game(SIXTH)
    bots = [make_bot(bot, game.rules, seed=seat, playouts=8) for seat in range(2)]

    def every_tile_counted(state):
        assert state.tile_counts() == [20] * 6

    record = play_recorded(game, 6, str(SIXTH), lambda state: bots[state.to_move].choose(seen_by_mover(state)),
                           limit=60 if bot == "mcts" else None, each_step=every_tile_counted)
    assert replay_state(record, game.rules).scores() == game.scores()
    if bot != "mcts":
        assert game.over
