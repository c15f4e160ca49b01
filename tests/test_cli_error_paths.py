"""The command line's error paths no other test runs: ``validate --games 0``, a folder without
records, the variant checker failing, ``replay`` when the variant does not load or a plugin
fails on the way, and the ``--debug`` flag that lets a traceback through."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from azul_core.cli import app as app_module
from azul_core.cli.app import _register, app
from azul_core.records.game_record import FORMAT, RecordError

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1", "AZUL_DEBUG": ""}
# One round of the standard game: every factory emptied by one draft, then the round is tiled.
ONE_ROUND = {"rounds": [{"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                         "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"]}]}

_register()


def azul(*args, input: str | None = None, debug: bool = False):
    env = {**ENV, "AZUL_DEBUG": "1" if debug else ""}
    return CliRunner().invoke(app, [str(a) for a in args], input=input, env=env)


def write_record(folder, variant: str, name: str = "game.json"):
    path = folder / name
    path.write_text(json.dumps({"format": FORMAT, "variant": variant, "players": ["ana", "bo"], **ONE_ROUND}))
    return path


def house_variant(folder, plugin_source: str, name: str = "house") -> str:
    (folder / f"{name}_rule.py").write_text(textwrap.dedent(plugin_source))
    (folder / f"{name}.yaml").write_text(f"name: {name}\nextends: standard\n"
                                         f"plugins: [standard, colour_wall, {name}_rule.py]\n")
    return f"{name}.yaml"


# ------------------------------------------------------------------ validate


def test_validate_refuses_zero_games(tmp_path):
    record = write_record(tmp_path, "standard")
    result = azul("validate", "--games", "0", record)
    assert result.exit_code == 2  # a wrong option: usage (issue 42)
    assert result.stderr.strip() == "azul: --games must be 1 or more, not 0"
    assert result.stdout == ""                              # nothing was checked


def test_validate_reports_a_folder_with_no_records(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a record")
    result = azul("validate", empty)
    assert result.exit_code == 1
    assert result.stderr.strip() == f"azul: {empty}: a folder with no .json records"
    result = azul("validate", "--json", empty)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (report["path"], report["kind"], report["valid"]) == (str(empty), None, False)
    assert [error["message"] for error in report["errors"]] == ["a folder with no .json records"]


def test_validate_with_a_folder_of_records_checks_each(tmp_path):
    write_record(tmp_path, "standard", "a.json")
    write_record(tmp_path, "standard", "b.json")
    result = azul("validate", "--json", tmp_path)
    assert result.exit_code == 0, result.output
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["path"] for r in reports] == [str(tmp_path / "a.json"), str(tmp_path / "b.json")]
    assert all(r["valid"] and r["scores"] == [0, 1] for r in reports)


@pytest.fixture()
def failing_checker(monkeypatch):
    import azul_core.variants.check as check

    def broken(path, play=True, games=200):
        raise RuntimeError("the checker's own bug\nsecond line")
    monkeypatch.setattr(check, "check_variant_file", broken)


def test_a_failing_variant_checker_is_one_line_not_a_traceback(tmp_path, failing_checker):
    variant = tmp_path / "house.yaml"
    variant.write_text("name: house\nextends: standard\n")
    result = azul("validate", variant)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{variant}: invalid variant",
        "  the variant check failed: RuntimeError: the checker's own bug second line"]
    assert result.exception is None or isinstance(result.exception, SystemExit)
    result = azul("validate", "--json", variant)
    (error,) = json.loads(result.stdout)["errors"]
    assert error["message"] == "the variant check failed: RuntimeError: the checker's own bug second line"


def test_a_failing_variant_checker_raises_with_debug(tmp_path, failing_checker):
    variant = tmp_path / "house.yaml"
    variant.write_text("name: house\nextends: standard\n")
    result = azul("validate", variant, debug=True)
    assert isinstance(result.exception, RuntimeError)
    assert "the checker's own bug" in str(result.exception)


# ------------------------------------------------------------------ replay


def test_replay_when_the_variant_is_unknown(tmp_path):
    record = write_record(tmp_path, "no-such-variant")
    result = azul("replay", record, "--final")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"azul: {record}: variant ")
    assert "unknown variant 'no-such-variant'" in result.stderr
    assert result.stdout == ""


def test_replay_when_the_variant_file_does_not_load(tmp_path):
    name = house_variant(tmp_path, """\
        raise ImportError("this rule needs a library that is not installed")
        """)
    record = write_record(tmp_path, name)
    result = azul("replay", record, "--final", "--trust")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith(f"azul: {record}: variant ") for line in lines)
    assert "this rule needs a library that is not installed" in result.stderr
    assert "Traceback" not in result.output


BOOM = """\
    from azul_core import hookimpl

    @hookimpl
    def azul_placement_score(wall, row, column):
        raise ValueError("boom at tiling")
    """


def test_replay_when_a_plugin_fails_mid_replay_shows_what_came_before(tmp_path):
    record = write_record(tmp_path, house_variant(tmp_path, BOOM))
    result = azul("replay", record, "--final", "--trust")
    assert result.exit_code == 1
    assert "[1:4]" in result.stdout                         # the last position before the tiling
    assert result.stderr.startswith(f"azul: {record}: a rule plugin failed while replaying: ")
    assert "boom at tiling" in result.stderr and len(result.stderr.splitlines()) == 1
    # stepping through: the steps before the failure can be viewed
    result = azul("replay", record, "--trust", input="end\nq\n")
    assert result.exit_code == 0, result.output
    assert "a rule plugin failed while replaying" in result.stderr
    assert "the steps before it can be viewed" in result.stderr
    assert "[1:4]" in result.stdout and "[1:5]" not in result.stdout


def test_replay_when_a_plugin_fails_as_the_variant_is_loaded(tmp_path):
    record = write_record(tmp_path, house_variant(tmp_path, """\
        from azul_core import hookimpl

        @hookimpl
        def azul_game_setup(players):
            raise ValueError("no table today")
        """))
    result = azul("replay", record, "--trust")  # its plugin file runs: the user allows it
    assert result.exit_code == 1 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 3                   # the table of each player count: 2, 3 and 4
    for players, line in zip((2, 3, 4), lines):
        assert line.startswith(f"azul: {record}: variant ")
        assert f"{players} players: plugin 'house_rule' raised ValueError in azul_game_setup" in line
        assert line.endswith("no table today")


# ------------------------------------------------------------------ --debug


def test_the_debug_flag_is_taken_out_of_the_arguments_and_lets_the_error_through(tmp_path, monkeypatch):
    missing = tmp_path / "none.json"
    monkeypatch.setenv("AZUL_DEBUG", "")      # and whatever run() sets is undone afterwards
    monkeypatch.setattr(sys, "argv", ["azul", "replay", "--debug", str(missing)])
    with pytest.raises(RecordError, match="no such file|can't read"):
        app_module.run()
    assert os.environ.get("AZUL_DEBUG") == "1" and "--debug" not in sys.argv
    # without it: one line and exit 1
    monkeypatch.setenv("AZUL_DEBUG", "")
    monkeypatch.setattr(sys, "argv", ["azul", "replay", str(missing)])
    with pytest.raises(SystemExit) as exited:
        app_module.run()
    assert exited.value.code == 1 and os.environ["AZUL_DEBUG"] == ""


def test_the_debug_flag_from_a_real_command_line(tmp_path, outside_the_tree):
    record = write_record(tmp_path, "no-such-variant")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    env.pop("AZUL_DEBUG", None)
    command = [sys.executable, "-m", "azul_core.cli"]
    plain = subprocess.run([*command, "replay", str(record), "--final"],
                           capture_output=True, text=True, env=env, cwd=outside_the_tree, timeout=120)
    assert plain.returncode == 1 and "Traceback" not in plain.stderr
    assert plain.stderr.startswith(f"azul: {record}: variant ")
    debug = subprocess.run([*command, "--debug", "replay", str(record), "--final"],
                           capture_output=True, text=True, env=env, cwd=outside_the_tree, timeout=120)
    assert debug.returncode == 1
    assert "Traceback" in debug.stderr and "VariantError" in debug.stderr
    assert "unknown variant 'no-such-variant'" in debug.stderr
