"""The drawing: what a player reads on the board, with or without colour, in 80 columns."""

from __future__ import annotations

import io
import random
import re
from types import SimpleNamespace

import pytest
from rich.console import Console

from azul_core.colours import BLACK, BLUE, COLOUR_OF_LETTER, LETTERS, RED, WHITE, YELLOW
from azul_core.engine.notation import format_decision
from azul_core.engine.state import DEAL, FLOOR, GameState
from azul_core.players.bots import GreedyBot
from azul_core.players.render import (
    LegalFilterError,
    describe_decision,
    draw_board,
    draw_boards,
    draw_game,
    draw_legal,
    draw_result,
    draw_round_summary,
    floor_costs,
    legal_filter,
    new_placements,
    printed_wall,
    render_text,
    short_effect,
    winner_line,
)
from azul_core.testing import new_game, play, set_table
from azul_core.variants.loading import load_variant


@pytest.fixture(scope="module")
def variants():
    return {name: load_variant(name) for name in ("standard", "grey-wall", "duel")}


def counts(letters: str) -> list[int]:
    found = [0] * 5
    for letter in letters:
        found[COLOUR_OF_LETTER[letter]] += 1
    return found


def dealt(variant, factories, players=2) -> GameState:
    state = GameState(variant.rules, players)
    state.deal_tiles([counts(f) for f in factories])
    return state


def played(variant, players: int, drafts: int, seed: int = 1) -> GameState:
    """A game some way in: greedy bots, a fixed deal."""
    state = GameState(variant.rules, players)
    bot, deal = GreedyBot(seed=seed), random.Random(seed)
    done = 0
    while not state.over and done < drafts:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        state.apply(bot.choose(state))
        done += 1
    return state


def names(players: int) -> list[str]:
    return ["you", "greedy", "ana", "bo"][:players]


def test_the_colour_wall_prints_each_colour_where_the_wall_hook_puts_it(variants):
    printed = printed_wall(variants["standard"].rules)
    assert printed[0] == (0, 1, 2, 3, 4)        # blue yellow red black white
    assert printed[1][0] == WHITE               # (2,1) is white: each row shifts right
    assert printed[4][0] == YELLOW
    assert printed_wall(variants["grey-wall"].rules) == ((None,) * 5,) * 5


def test_an_empty_colour_wall_shows_lower_case_letters_and_tiles_upper_case(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    text = render_text(draw_board(state, 0, "you"))
    assert " 1         . | b y r k w" in text
    assert " 2       . . | w b y r k" in text
    state.apply((2, YELLOW, 1))   # 2 yellow: line 2 full
    text = render_text(draw_board(state, 0, "you"))
    assert " 2       Y Y | w b y r k" in text


def test_the_grey_wall_shows_dots(variants):
    state = dealt(variants["grey-wall"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    assert " 1         . | . . . . ." in render_text(draw_board(state, 0, "you"))


def test_the_floor_shows_what_each_space_costs(variants):
    assert floor_costs(variants["standard"].rules) == [-1, -1, -2, -2, -2, -3, -3]
    assert floor_costs(variants["duel"].rules) == [-1, -1, -2, -2, -3, -3, -4, -4]
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    state.apply((1, BLUE, 0))            # one to line 1, three to the floor
    text = render_text(draw_board(state, 0, "you"))
    assert " floor  B  B  B  .  .  .  .  -4" in text
    assert "-1 -1 -2 -2 -2 -3 -3" in text


def test_the_start_marker_is_in_the_centre_then_on_the_floor(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    assert "Centre    1 (start marker)" in render_text(draw_game(state, names(2)))
    state.apply((2, YELLOW, 1))          # red goes to the centre
    state.apply((0, RED, 2))             # the other player takes it, and the marker
    text = render_text(draw_game(state, names(2)))
    assert "(start marker)" not in text
    assert " floor  1  .  ." in text


def test_in_duel_the_marker_is_kept_beside_its_holder(variants):
    state = dealt(variants["duel"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    state.apply((2, YELLOW, 1))
    state.apply((0, RED, 2))
    assert "greedy  score 0  1 start marker" in render_text(draw_game(state, names(2)))


@pytest.mark.parametrize("variant_name,players", [("standard", 2), ("standard", 3), ("standard", 4),
                                                  ("grey-wall", 4), ("duel", 2)])
def test_a_game_fits_80_columns(variants, variant_name, players):
    state = played(variants[variant_name], players, drafts=12)
    text = render_text(draw_game(state, names(players), last="x" * 70), width=200)
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    for seat in range(players):
        assert names(players)[seat] in text


def test_the_drawing_is_readable_with_no_color(monkeypatch, variants):
    monkeypatch.setenv("NO_COLOR", "1")
    state = played(variants["standard"], 2, drafts=6)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80)
    console.print(draw_game(state, names(2)))
    drawn = out.getvalue()
    assert "\x1b[3" not in drawn and "\x1b[4" not in drawn and ";5;" not in drawn  # no colours
    # Without colour every tile is its letter: the centre, each pattern line, and beside it the
    # wall row with its printed colours in lower case (standard.md's wall, row by row).
    plain = re.sub(r"\x1b\[[0-9;]*m", "", drawn)
    centre = " ".join(LETTERS[colour] * count for colour, count in enumerate(state.sources[0]) if count)
    assert f"Centre    {centre}" in plain
    printed = ["b y r k w", "w b y r k", "k w b y r", "r k w b y", "y r k w b"]
    board = state.players[0]
    assert any(board.line_count)                      # something to read on the lines
    for row in range(5):
        count = board.line_count[row]
        cells = ["."] * (row + 1 - count) + [LETTERS[board.line_colour[row]]] * count
        assert f"{' '.join(cells)} | {printed[row]}" in plain, row


def test_with_colour_tiles_carry_their_colour(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="truecolor", width=80).print(
        draw_game(state, names(2)))
    assert "\x1b[" in out.getvalue()


def test_decisions_are_described_with_where_the_tiles_go(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    assert describe_decision(state, (1, BLUE, 0), names(2)) == \
        "you take 4 blue from factory 1 to line 1 (complete), 3 to the floor"
    assert short_effect(state, (1, BLUE, 0)) == "4 blue to line 1 full, 3 floor"
    assert short_effect(state, (1, BLUE, FLOOR)) == "4 blue to floor"
    state.apply((2, YELLOW, 4))
    assert describe_decision(state, (0, RED, 2), names(2)) == \
        "greedy takes 2 red from the centre to line 3, and the start marker"
    assert short_effect(state, (0, RED, 2)) == "2 red to line 3, marker"


def test_a_misplaced_duel_draft_is_described_as_falling(variants):
    state = dealt(variants["duel"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    state.apply((4, BLUE, 4))        # line 5 holds blue
    state.apply((3, WHITE, 4))
    assert state.is_misplaced((2, YELLOW, 4))
    assert describe_decision(state, (2, YELLOW, 4), names(2)) == \
        "you take 2 yellow from factory 2 for line 5, but line 5 already holds blue: all to the floor"


ENTRY = re.compile(r"([C1-9][BYRKW]) \d+ [a-z]+: ((?:[1-5-][*+\d]*(?:, )?)+)")


def listed(text: str) -> set[str]:
    """The moves a compact legal-move listing offers, in record notation."""
    return {code + target[0] for code, targets in ENTRY.findall(text) for target in targets.split(", ")}


def test_the_legal_moves_list_names_every_decision_grouped_by_source_and_colour(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    text = render_text(draw_legal(state))
    assert listed(text) == {format_decision(d) for d in state.legal_decisions()}
    assert "1B 4 blue: 1*+3, 2*+2, 3*+1, 4*, 5, -" in text
    assert len(text.splitlines()) <= 12        # two columns: the board stays on an 80x30 screen
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("query, wanted", [
    ("3", lambda d: d[0] == 3), ("C", lambda d: d[0] == 0), ("centre", lambda d: d[0] == 0),
    ("red", lambda d: d[1] == RED), ("r", lambda d: d[1] == RED),
    ("3 black", lambda d: d[0] == 3 and d[1] == BLACK)])
def test_the_legal_moves_can_be_filtered_by_source_or_colour(variants, query, wanted):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    state.apply((2, YELLOW, 1))                # the centre now holds red and the marker
    text = render_text(draw_legal(state, *legal_filter(query)))
    assert listed(text) == {format_decision(d) for d in state.legal_decisions() if wanted(d)}
    assert listed(text)


def test_a_filter_that_names_nothing_says_what_it_takes():
    with pytest.raises(LegalFilterError, match="a factory number, C for the centre, or a colour"):
        legal_filter("purple")


def test_lines_closed_this_round_are_shown_on_the_board_and_in_the_list(variants):
    state = dealt(variants["duel"], ["BYRK", "YYRR", "KKWW", "BYRK", "WWWB"])
    state.apply((1, BLUE, 0))                  # line 1 full: tiled at once, closed this round
    state.apply((2, YELLOW, FLOOR))
    text = render_text(draw_legal(state))
    assert "Pattern line 1 tiled this round: closed until the next round." in text
    assert not any(code.endswith("1") for code in listed(text))
    assert " 1         x | B y r k w" in render_text(draw_board(state, 0, "you"))


def test_a_grey_wall_numbers_its_columns(variants):
    state = dealt(variants["grey-wall"], ["BYRK", "YYRR", "KKWW", "BYRK", "WWWB"])
    lines = render_text(draw_board(state, 0, "you")).splitlines()
    assert lines[1].rstrip() == " " * 15 + "1 2 3 4 5"
    assert lines[2].index("|") + 2 == lines[1].index("1")
    standard = dealt(variants["standard"], ["BYRK"] * 5)
    assert "1 2 3 4 5" not in render_text(draw_board(standard, 0, "you"))


def test_the_right_board_does_not_shift_when_a_floor_cost_appears(variants):
    state = dealt(variants["duel"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    before = render_text(draw_boards(state, names(2)))
    state.apply((1, BLUE, FLOOR))              # seat 0's floor: -1 -1 -2 -2 = -6
    after = render_text(draw_boards(state, names(2)))
    assert "-6" in after
    column = [line.index("greedy") for line in before.splitlines() if "greedy" in line]
    assert column == [line.index("greedy") for line in after.splitlines() if "greedy" in line]
    assert [line.find("|", 20) for line in before.splitlines()] == \
        [line.find("|", 20) for line in after.splitlines()]


def test_the_grey_wall_heading_says_you_place():
    game = new_game("grey-wall")
    set_table(game, ["B", "Y"])
    play(game, ["1B1", "2Y1"])                 # the round ends: seat 0 chooses a column
    assert game.phase == "place"
    assert "wall tiling: you place a tile" in render_text(draw_game(game, ["you", "greedy"]))
    assert "wall tiling: ana places a tile" in render_text(draw_game(game, ["ana", "greedy"]))


def test_the_result_shows_the_bonuses_and_the_winner(variants):
    state = played(variants["standard"], 2, drafts=10 ** 6, seed=3)
    assert state.over
    text = render_text(draw_result(state, names(2)))
    for label, points in state.players[0].bonuses:
        assert f"+{label}" in text
    # each player's row: tiles, floor, the bonuses, full rows, total, as the game counted them
    for seat, name in enumerate(names(2)):
        board = state.players[seat]
        row = [line.split() for line in text.splitlines()
               if line.split()[:1] == [name] and not line.endswith("points.")]
        expected = [name, str(board.placement_points), str(board.penalty_points),
                    *(f"+{points}" for _label, points in board.bonuses),
                    str(sum(None not in r for r in board.wall)), str(board.score)]
        assert row == [expected]
    # seed 3: a clear win, no tie
    (winner,) = state.winners
    assert max(s for seat, s in enumerate(state.scores()) if seat != winner) < state.scores()[winner]
    verb = "win" if names(2)[winner] == "you" else "wins"
    assert f"{names(2)[winner]} {verb} with {state.scores()[winner]} points." in text


def _tied(scores, rows, winners):
    boards = [SimpleNamespace(complete_rows=lambda r=r: r) for r in rows]
    return SimpleNamespace(winners=winners, scores=lambda: scores, players=boards)


def test_a_tie_says_why():
    who = ["ana", "bo", "cy"]
    assert winner_line(_tied([40, 30, 20], [1, 0, 0], [0]), who) == "ana wins with 40 points."
    assert winner_line(_tied([40, 40, 20], [2, 1, 0], [0]), who) == \
        "ana wins: tied on 40 points with bo, won on complete rows (ana 2, bo 1)."
    assert winner_line(_tied([40, 40, 20], [1, 1, 0], [0, 1]), who) == \
        "ana and bo share the victory: tied on 40 points and on complete rows (ana 1, bo 1)."


def test_a_rounds_account_lists_each_placed_tile_with_its_points():
    game = new_game("standard")
    set_table(game, ["B", "YY"])
    before = game.clone()
    start = [(board.score, board.penalty_points) for board in game.players]
    play(game, ["1B1", "2Y1"])                 # the round ends: each line 1 is tiled, a yellow falls
    placed = new_placements(before, game)
    assert placed == [(0, 0, 0, BLUE, 1), (1, 0, 1, YELLOW, 1)]
    text = render_text(draw_round_summary(1, placed, start, game, ["you", "greedy"]), width=200)
    assert [line.rstrip() for line in text.splitlines()] == [
        "Round 1 scored:",
        "  you     line 1 blue to wall column 1 +1; floor 0; score 0 -> 1",
        "  greedy  line 1 yellow to wall column 2 +1; floor -1; score 0 -> 0",
    ]


def test_the_legal_moves_legend_is_one_line(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    state.apply((2, YELLOW, 1))                # the centre holds red and the marker
    text = render_text(draw_legal(state))
    assert text.splitlines()[0] == "Type e.g. CR1: source, colour, line (- floor); *: fills the line; +n: n to floor"


def test_a_long_account_wraps_under_itself():
    game = new_game("standard")
    set_table(game, ["B", "YY"])
    before = game.clone()
    play(game, ["1B1", "2Y1"])
    placed = new_placements(before, game) * 4
    lines = render_text(draw_round_summary(1, placed, [(0, 0), (0, 0)], game, ["you", "greedy"]),
                        width=60).splitlines()
    assert lines[1].startswith("  you     line 1 blue to wall column 1 +1;")
    assert lines[2].startswith("          ") and lines[2].strip()  # the next line goes on under it
    assert all(len(line) <= 60 for line in lines)
