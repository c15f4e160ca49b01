"""``azul validate VARIANT`` reports every mistake of a variant file at once (issue 23): a player
count whose table the settings can't make was told only once the file's other mistakes were
fixed, because the tables were judged only when every setting was accepted. They are now judged
from the accepted settings too, except a table that reads a refused setting (its problem could
be the default's, not the file's).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.validate  # noqa: F401  (registers the command)
from azul_core.cli.app import app
from azul_core.variants import VariantError, load_variant

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
TABLE_5 = "5 players: the factories table covers 2, 3, 4 players, not 5"
FLOOR = "setting 'floor_penalties' must be a list of whole numbers, not str 'nope'"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def variant(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mistakes.yaml"
    path.write_text("name: mistakes\nextends: standard\n" + text)
    return path


def messages(path: Path) -> list[str]:
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    return [problem.message for problem in caught.value.problems]


def test_a_player_count_without_a_table_is_told_with_a_refused_setting(tmp_path):
    path = variant(tmp_path, "players: [2, 3, 4, 5]\nsettings:\n  floor_penalties: nope\n")
    assert sorted(messages(path)) == sorted([TABLE_5, FLOOR])
    result = run("validate", "--no-play", path)
    assert result.exit_code == 1
    assert "invalid variant: 2 problems" in result.output
    assert f"mistakes.yaml:3:20: {TABLE_5}" in result.output
    assert f"mistakes.yaml:5:20: {FLOOR}" in result.output
    # --json lists them all.
    report = json.loads(run("validate", "--no-play", "--json", path).output)
    assert report["valid"] is False
    assert sorted(error["message"] for error in report["errors"]) == sorted([TABLE_5, FLOOR])


def test_too_few_tiles_is_told_with_an_unknown_setting_and_a_bad_decide(tmp_path):
    path = variant(tmp_path, "settings:\n  tiles_per_colour: 5\n  tiles_per_colur: 20\n"
                             "decide:\n  no_such_rule: standard\n")
    found = messages(path)
    assert "3 players: 7 factories of 4 tiles need 28 tiles, but there are only 25 (5 of each colour)" in found
    assert "4 players: 9 factories of 4 tiles need 36 tiles, but there are only 25 (5 of each colour)" in found
    assert any(message.startswith("unknown setting 'tiles_per_colur'") for message in found)
    assert any(message.startswith("'no_such_rule' is not a rule that 'decide' chooses") for message in found)
    assert len(found) == 4
    assert run("validate", "--no-play", path).exit_code == 1


def test_a_table_made_from_a_refused_setting_is_not_judged_from_its_default(tmp_path):
    # The file's factories are refused: the default table covers 2-4 players only, but that is
    # not the file's mistake (its own table may cover 5): only the refusal is told.
    path = variant(tmp_path, "players: [2, 3, 4, 5]\nsettings:\n  factories: {2: 5, 3: 7, 4: 9, 5: 12}\n")
    assert messages(path) == ["setting 'factories': 12 is above the maximum 9"]
    # Fixed, the file is valid: nothing was hidden.
    path = variant(tmp_path, "players: [2, 3, 4, 5]\nsettings:\n  factories: {2: 5, 3: 7, 4: 9, 5: 9}\n"
                             "  tiles_per_colour: 40\n")
    assert load_variant(path).players == (2, 3, 4, 5)


def test_a_file_with_only_a_table_mistake_is_told_as_before(tmp_path):
    path = variant(tmp_path, "players: [2, 3, 4, 5]\n")
    assert messages(path) == [TABLE_5]
