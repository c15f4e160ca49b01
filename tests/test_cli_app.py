"""The ``azul`` command itself: --version, -h, shell completion, --debug in the help, the
usage lines' metavars, and ``azul rules --json``."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from azul_core import __version__
from azul_core.cli.app import _register, app
from azul_core.engine.compiled import engine_kind

_register()
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def run(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"azul-variants {__version__} (hook API 1)", f"engine: {engine_kind()}"]


def test_short_help_and_the_global_options_are_listed():
    result = run("-h")
    assert result.exit_code == 0
    for option in ("--version", "--debug", "--install-completion", "--show-completion", "--help"):
        assert option in result.stdout
    assert re.search(r"--help\s+-h|-h, --help", result.stdout)
    assert run("rules", "-h").exit_code == 0


def test_debug_works_before_or_after_the_command(tmp_path):
    for args in (["--debug", "rules", "nope"], ["rules", "nope", "--debug"]):
        done = subprocess.run([sys.executable, "-m", "azul_core.cli", *args], capture_output=True,
                              text=True, env={"PATH": "", "HOME": str(tmp_path), **ENV})
        assert done.returncode == 1 and "nope" in done.stderr


@pytest.mark.parametrize("command, usage", [
    (["compare"], "azul compare [OPTIONS] {VARIANT_OR_FILE...}"),
    (["validate"], "azul validate [OPTIONS] {FILE...}"),
    (["rules"], "azul rules [OPTIONS] {VARIANT_OR_FILE}"),
    (["variants", "show"], "azul variants show [OPTIONS] {VARIANT_OR_FILE}"),
])
def test_usage_lines_name_what_a_command_takes_in_one_style(command, usage):
    assert f"Usage: {usage}" in run(*command, "--help").stdout


def test_every_option_naming_a_variant_uses_the_same_metavar():
    for command in (["play"], ["simulate"], ["plugins"]):
        text = run(*command, "--help").stdout
        assert re.search(r"--variant\s+VARIANT_OR_FILE", text), text
        assert "NAME_OR_FILE" not in text


def test_rules_json():
    result = run("rules", "duel", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["name"] == "duel" and document["builtin"] is True
    assert document["plugins"] == ["standard", "colour_wall", "duel"]
    tiling = next(d for d in document["differences"] if d["rule"] == "tiling")
    assert "takes no tiles again until the next round" in tiling["variant"]
    reopen = next(s for s in document["settings"] if s["name"] == "tiled_line_reopens")
    assert reopen == {"name": "tiled_line_reopens", "value": "next_round", "standard": None,
                      "plugin": "duel", "only_here": True, "help": reopen["help"]}
    standard = json.loads(run("rules", "standard", "--json").stdout)
    assert standard["differences"] == [] and standard["settings"] == []
    assert re.match(r"^\{\n", result.stdout)


def test_the_variant_listing_wraps_its_descriptions_between_words():
    from azul_core.cli.variants import listing_lines
    rows = [("name", "players", "description"),
            ("duel", "2", "Two players on the colour wall: a full line is tiled at the end of the "
                          "turn, the marker kept aside, an 8-space floor, neighbour scoring.")]
    lines = listing_lines(rows, 60)
    assert all(len(line) <= 60 for line in lines) and len(lines) > 2
    assert lines[1].startswith("duel  2        Two players")
    assert all(line.startswith(" " * 15) for line in lines[2:])
    words = " ".join(line[15:].strip() for line in lines[1:]).split()
    assert words == rows[1][2].split()            # no word cut in two
    assert listing_lines(rows) == ["name  players  description", "duel  2        " + rows[1][2]]


def test_a_terminal_console_wraps_between_words_and_a_pipe_keeps_lines_whole():
    import io

    from azul_core.cli.common import text_console
    sentence = "* differs clearly from standard (two-sided, 95%): Welch's t-test on per-game means"
    terminal = text_console(file=io.StringIO(), force_terminal=True, width=30)
    terminal.print(sentence)
    lines = terminal.file.getvalue().splitlines()
    assert len(lines) > 1 and " ".join(line.strip() for line in lines) == sentence
    piped = text_console(file=io.StringIO(), force_terminal=False, width=30)
    piped.print(sentence)
    assert piped.file.getvalue() == sentence + "\n"
