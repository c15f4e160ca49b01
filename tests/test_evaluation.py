"""The whole-game position value (azul_core.players.evaluation): end bonuses read from the
variant's hooks, the rounds left, the chances of each wall space, once per round and wall."""

from __future__ import annotations

from pathlib import Path

import pytest

from azul_core.colours import BLACK, BLUE, WHITE, YELLOW
from azul_core.players.evaluation import SLOTS_PER_ROW, BonusModel, Outlooks, fixed_layout
from azul_core.testing import new_game, set_lines, set_wall
from azul_core.variants.loading import load_variant

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def rules_of(name: str):
    return load_variant(str(EXAMPLES / name) if "/" in name else name).rules


def slot(row: int, colour: int) -> int:
    return row * SLOTS_PER_ROW + colour


def test_the_standard_bonuses_are_found_as_fifteen_groups_on_the_printed_wall():
    model = BonusModel(rules_of("standard"))
    assert model.layout is not None and model.layout[slot(1, WHITE)] == 0  # row 2 starts with white
    assert model.fixed_groups is not None
    gains = sorted(gain for gain, _slots in model.fixed_groups)
    assert gains == [2.0] * 5 + [7.0] * 5 + [10.0] * 5
    assert all(len(slots) == 5 for _gain, slots in model.fixed_groups)


def test_a_house_rule_bonus_is_read_from_its_hook():
    model = BonusModel(rules_of("double-columns/double-columns.yaml"))
    assert model.fixed_groups is not None
    assert sorted(gain for gain, _slots in model.fixed_groups) == [2.0] * 5 + [10.0] * 5 + [14.0] * 5


def test_settings_that_change_a_bonus_change_the_groups():
    game = new_game("standard", settings={"row_bonus": 5})
    model = BonusModel(game.rules)
    assert model.fixed_groups is not None
    assert sorted(gain for gain, _slots in model.fixed_groups)[:5] == [5.0] * 5


def test_a_bonus_that_is_not_a_sum_of_these_groups_is_asked_of_the_hooks_per_wall():
    """Diagonals pay for cells of several rows and columns: not additive over the groups,
    so each wall's groups are worked out by asking the hook."""
    rules = rules_of("diagonals/diagonals.yaml")
    assert BonusModel(rules).fixed_groups is None
    game = new_game(EXAMPLES / "diagonals" / "diagonals.yaml")
    set_wall(game, 0, ["x....", ".x...", "..x..", "...x.", "....x"])
    outlook = Outlooks(game.rules).for_state(game)[0]
    assert outlook.now == 5 + 10  # the diagonal, and the blue set (the printed diagonal is blue)


def test_a_wall_whose_columns_are_chosen_has_no_fixed_layout():
    assert fixed_layout(rules_of("grey-wall")) is None
    game = new_game("grey-wall")
    outlooks = Outlooks(game.rules).for_state(game)
    assert outlooks[0].expected > 0 and outlooks[0].now == 0


def grey_groups(rows: list[str]) -> dict[tuple[int, ...], float]:
    """The groups a grey wall may still complete (its missing slots -> the bonus they add)."""
    game = new_game("grey-wall")
    set_wall(game, 0, rows)
    _now, groups, _possible = Outlooks(game.rules)._asked_groups_of(game.players[0].wall, 0, game)
    return {tuple(sorted(slots)): gain for gain, slots in groups}


def test_a_grey_row_is_hoped_for_when_its_first_free_space_would_block_the_last_colour():
    """Row 1 lacks black and white, with columns 4 and 5 free. Black fits both; white only
    column 4 (column 5 has a white). Black in column 4, the first space the wall offers,
    leaves white nowhere; black in column 5 completes the row: the row is still a hope."""
    groups = grey_groups(["BYR..", "....W", ".....", ".....", "....."])
    assert groups[(slot(0, BLACK), slot(0, WHITE))] == 2.0


def test_a_grey_column_is_hoped_for_when_its_first_colour_would_block_a_later_row():
    """Column 1 is free in rows 1 and 2. Row 1 may take blue or yellow there, row 2 only
    blue: blue in row 1, the first colour tried, leaves row 2 nothing; yellow does not.
    (Filling it completes row 2 as well: 7 for the column, 2 for the row.)"""
    groups = grey_groups([".RKW.", ".YRKW", "R....", "K....", "W...."])
    assert groups[(slot(0, YELLOW), slot(1, BLUE))] == 7.0 + 2.0


def test_a_grey_group_that_can_not_be_completed_is_not_hoped_for():
    """Both rows 1 and 2 lack only blue, and only column 1 is free in either: one column
    can not hold two blues, so column 1 pays nothing, while each row on its own still can."""
    groups = grey_groups([".RKWY", ".YRKW", "R....", "K....", "W...."])
    assert not any(slot(0, BLUE) in slots and slot(1, BLUE) in slots for slots in groups)
    assert groups[(slot(0, BLUE),)] == 2.0 and groups[(slot(1, BLUE),)] == 2.0


def test_the_rounds_left_come_from_the_variants_game_end():
    game = new_game("standard")
    outlooks = Outlooks(game.rules)
    walls = tuple(board.wall for board in game.players)
    assert outlooks.rounds_left(game, walls) == 5  # a row takes a tile a round
    set_wall(game, 1, ["xxx..", ".....", ".....", ".....", "....."])
    walls = tuple(board.wall for board in game.players)
    assert outlooks.rounds_left(game, walls) == 2
    five = new_game(EXAMPLES / "five-rounds" / "five-rounds.yaml")
    five.round = 4
    walls = tuple(board.wall for board in five.players)
    assert Outlooks(five.rules).rounds_left(five, walls) == 2  # rounds 4 and 5


def test_in_the_last_round_only_the_lines_can_bring_a_bonus():
    game = new_game("standard")
    set_wall(game, 0, ["BYRK.", ".....", ".....", ".....", "....."])
    outlook = Outlooks(game.rules).for_state(game)[0]
    assert outlook.expected == outlook.now == 0
    assert outlook.slot_bonus[slot(0, WHITE)] == 2  # the row's bonus, if line 1 gets its white
    assert outlook.slot_bonus[slot(1, BLUE)] == 0   # nothing else completes this round


def test_a_line_adds_its_share_of_the_slot_bonus():
    game = new_game("standard")
    set_wall(game, 0, ["xxx..", ".....", ".....", ".....", "....."])
    set_lines(game, 0, {4: "YY"})
    outlooks = Outlooks(game.rules)
    outlook = outlooks.for_state(game)[0]
    expected = outlook.expected + outlook.slot_bonus[slot(3, YELLOW)] * 2 / 4
    assert outlooks.value(game, 0) == pytest.approx(expected)
    assert outlook.slot_bonus[slot(3, YELLOW)] > 0


def test_progress_towards_a_group_raises_the_expected_bonus():
    game = new_game("standard")
    outlooks = Outlooks(game.rules)
    empty = game.players[0].wall
    set_wall(game, 0, ["B....", "W....", "K....", ".....", "....."])
    started = game.players[0].wall
    rounds, off_walls = 4, [20] * 5  # the same rounds left and tiles for both walls
    before = outlooks._outlook(empty, 0, game, rounds, off_walls)
    after = outlooks._outlook(started, 0, game, rounds, off_walls)
    assert after.expected > before.expected
    # the red of row 4 finishes column 1 sooner: worth more once the others are there
    assert after.slot_bonus[slot(3, 2)] > before.slot_bonus[slot(3, 2)]


def test_more_tiles_on_a_wall_mean_fewer_rounds_left():
    """A row takes one tile a round: a wall with a tile in every row ends the game sooner."""
    game = new_game("standard")
    outlooks = Outlooks(game.rules)
    assert outlooks.rounds_left(game, tuple(board.wall for board in game.players)) == 5
    set_wall(game, 0, ["B....", "W....", "K....", ".....", "....."])
    assert outlooks.rounds_left(game, tuple(board.wall for board in game.players)) == 4


def test_a_colour_short_of_tiles_can_not_be_hoped_for():
    """A slot needs its line's worth of tiles of its colour off the walls."""
    game = new_game("standard")
    outlooks = Outlooks(game.rules)
    plenty = outlooks.for_state(game)[0].slot_bonus[slot(4, BLUE)]
    short = outlooks._outlook(game.players[0].wall, 0, game, 5, [2, 20, 20, 20, 20])
    assert short.slot_bonus[slot(4, BLUE)] < plenty


def test_answers_do_not_depend_on_what_was_asked_before():
    game = new_game("standard")
    set_wall(game, 0, ["xx...", "x....", ".....", ".....", "....."])
    fresh = Outlooks(game.rules).for_state(game)
    used = Outlooks(game.rules)
    other = new_game("standard")
    used.for_state(other)
    again = used.for_state(game)
    assert [(o.now, o.expected, o.slot_bonus) for o in fresh] == [(o.now, o.expected, o.slot_bonus) for o in again]


def test_a_bonus_that_reads_a_secret_is_asked_with_the_seats_own_view():
    game = new_game(EXAMPLES / "secret-goal" / "secret-goal.yaml")
    game.secrets = {"secret_goal": (BLUE, WHITE)}
    set_wall(game, 0, ["B....", ".B...", ".....", ".....", "....."])
    outlooks = Outlooks(game.rules)
    assert outlooks.for_state(game)[0].now == 2 * 2  # two blue tiles, 2 points each
    assert outlooks.for_state(game.for_seat(1))[0].now == 0  # seat 1 can't see seat 0's goal


class RefusesEachRowsLastSpace:
    """A house rule's wall hook that allows any empty space but the last one of a row: no
    row can ever be completed, and every order of a row's tiles fails only at its end."""

    def __init__(self):
        self.questions = 0

    def wall_spaces(self, wall, row, colour, seat=None, game=None):
        self.questions += 1
        free = tuple(column for column, cell in enumerate(wall[row]) if cell is None)
        return free if len(free) > 1 else ()


def test_the_search_for_a_groups_fill_asks_the_wall_hook_a_bounded_number_of_times(monkeypatch):
    from azul_core.players import evaluation

    empty = ((None,) * 5,) * 5
    rules = RefusesEachRowsLastSpace()
    assert evaluation._fill_row(rules, empty, 0, 0, None) is None
    assert rules.questions <= evaluation.FILL_TRIES
    monkeypatch.setattr(evaluation, "FILL_TRIES", 10**6)
    unbounded = RefusesEachRowsLastSpace()
    assert evaluation._fill_row(unbounded, empty, 0, 0, None) is None
    assert unbounded.questions == 1 + 5 + 5 * 4 + 5 * 4 * 3 + 5 * 4 * 3 * 2  # every order tried


def test_a_wall_a_round_later_adds_the_slot_bonus_of_each_new_tile():
    """``after_round``: the outlook of a wall carried to the same wall with more tiles, to
    first order (what a search uses where a new wall's outlook costs tens of hook calls)."""
    game = new_game("grey-wall")
    set_wall(game, 0, ["BY...", "K....", ".....", ".....", "....."])
    start = game.players[0].wall
    outlook = Outlooks(game.rules).for_state(game)[0]
    assert outlook.after_round(start, start).expected == outlook.expected
    set_wall(game, 0, ["BYR..", "K....", "W....", ".....", "....."])
    later = outlook.after_round(start, game.players[0].wall)
    gained = outlook.slot_bonus[slot(0, 2)] + outlook.slot_bonus[slot(2, WHITE)]
    assert gained > 0
    assert later.expected == pytest.approx(outlook.expected + gained)
    assert later.slot_bonus == outlook.slot_bonus


def test_one_tile_a_round_later_is_carried_exactly():
    """The expectation is linear in each slot's chance, so one new tile carried by
    ``after_round`` gives what a fresh outlook of the new wall gives for the same rounds left
    and tiles off the walls: the row it finishes pays its whole 2 points, the column and
    colour set it joins come nearer."""
    game = new_game("standard")
    set_wall(game, 0, ["xxxx.", ".....", ".....", ".....", "....."])
    start = game.players[0].wall
    outlooks = Outlooks(game.rules)
    rounds, off_walls = 3, [20] * 5
    outlook = outlooks._outlook(start, 0, game, rounds, off_walls)
    set_wall(game, 0, ["xxxxx", ".....", ".....", ".....", "....."])
    fresh = outlooks._outlook(game.players[0].wall, 0, game, rounds, off_walls)
    carried = outlook.after_round(start, game.players[0].wall)
    assert fresh.now == 2 and fresh.expected > outlook.expected + 0.2
    assert carried.expected == pytest.approx(fresh.expected, rel=1e-12)
