"""Stacking with ``answer``: a modifying plugin builds on the plugins below it, and its own
answer is judged like any other (issue 24).

A modifier returning ``None`` leaves the answer below it unchanged, in a situation hook, in a
setup hook and in a collected hook; what a modifier returns is checked by the same rule as a
plain answer, in the game and through ``azul validate``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.validate  # noqa: F401  (registers the command)
from azul_core import hookimpl
from azul_core.cli.app import app
from azul_core.engine.plugins import PluginError
from azul_core.testing import new_game, play, set_table

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}

# Seat 0 fills line 1 (blue) and line 2 (red), 1 point each; seat 1 fills line 1 (yellow),
# 1 point. The round then ends and the lines are tiled.
TABLE = ["BYRR", "K"]
MOVES = ["1B1", "CY1", "CR2", "2K-"]


def placement_points(*plugins) -> list[int]:
    game = new_game(plugins=list(plugins))
    set_table(game, TABLE)
    play(game, MOVES)
    return [board.placement_points for board in game.players]


class DoubleRowOne:
    """Doubles what a tile in wall row 1 scores; no opinion (``None``) elsewhere."""

    @hookimpl
    def azul_placement_score(self, row, answer):
        return answer * 2 if row == 0 else None


class KeepsQuiet:
    """A modifier that never changes anything."""

    @hookimpl
    def azul_placement_score(self, answer):
        return None


class PlusOne:
    @hookimpl
    def azul_placement_score(self, answer):
        return answer + 1


def test_a_modifier_returning_none_keeps_the_answer_below_it_in_a_situation_hook():
    standard = placement_points()
    assert standard == [2, 1]
    assert placement_points(KeepsQuiet()) == standard
    # Row 1 doubled, row 2 (None) kept as standard: seat 0 scores 1*2 + 1, seat 1 1*2.
    assert placement_points(DoubleRowOne()) == [3, 2]
    # Below another modifier, a None still passes on the answer built so far.
    assert placement_points(PlusOne(), KeepsQuiet()) == [4, 2]
    assert placement_points(KeepsQuiet(), PlusOne()) == [4, 2]


def test_a_modifier_returning_none_keeps_the_answer_below_it_in_a_setup_hook():
    class QuietFloor:
        @hookimpl
        def azul_floor_spaces(self, answer):
            return None

    class QuietCapacity:
        @hookimpl
        def azul_line_capacity(self, row, answer):
            return answer + 2 if row == 4 else None

    rules = new_game(plugins=[QuietFloor()]).rules
    assert rules.floor_spaces == 7 and rules.deciders["azul_floor_spaces"] == "standard"
    assert new_game(plugins=[QuietCapacity()]).rules.capacity == (1, 2, 3, 4, 7)


def test_a_modifier_returning_none_keeps_the_answer_in_a_collected_hook():
    class QuietBonuses:
        @hookimpl
        def azul_end_bonuses(self, answer):
            return None

    full = [[(column - row) % 5 for column in range(5)] for row in range(5)]
    plain = new_game().rules.end_bonuses(full)
    assert new_game(plugins=[QuietBonuses()]).rules.end_bonuses(full) == plain
    assert [label for label, _ in plain] == ["rows", "columns", "colours"]


@pytest.mark.parametrize("value, why", [(-1, "a placement can't cost points"),
                                        ("1", "expected a whole number of points"),
                                        (1.0, "expected a whole number of points"),
                                        (10**6 + 1, "more than 1000000 points for one placement")])
def test_a_modifiers_own_answer_is_checked_in_a_situation_hook(value, why):
    class Broken:
        @hookimpl
        def azul_placement_score(self, answer):
            return value

    with pytest.raises(PluginError, match=why) as caught:
        placement_points(Broken())
    assert caught.value.plugin == "Broken" and caught.value.hook == "azul_placement_score"


def test_a_modifiers_answer_at_the_limit_is_taken():
    class Generous:
        @hookimpl
        def azul_placement_score(self, answer):
            return 10**6

    assert placement_points(Generous()) == [2 * 10**6, 10**6]


@pytest.mark.parametrize("hook, value, why", [
    ("azul_floor_spaces", "7", "expected int"),
    ("azul_floor_spaces", True, "expected int"),
    ("azul_tiling_time", "never", "expected round or turn"),
])
def test_a_modifiers_own_answer_is_checked_in_a_setup_hook(hook, value, why):
    def answering(self, answer):
        return value

    plugin = type("Broken", (), {hook: hookimpl(answering)})()
    with pytest.raises(PluginError, match=why):
        new_game(plugins=[plugin])


def test_validate_names_a_modifier_whose_answer_is_refused(tmp_path: Path):
    (tmp_path / "costly.py").write_text("def azul_placement_score(answer):\n    return answer - 5\n")
    variant = tmp_path / "costly.yaml"
    variant.write_text("name: costly\nextends: standard\nplugins: [standard, colour_wall, costly.py]\n")
    result = CliRunner().invoke(app, ["validate", str(variant), "--games", "2"], env=ENV)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "plugin 'costly' returned" in result.output and "from azul_placement_score" in result.output
    assert "a placement can't cost points" in result.output
