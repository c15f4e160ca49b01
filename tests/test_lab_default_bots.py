"""``azul simulate`` and ``azul compare`` play greedy bots unless told otherwise, and say in their
text and their ``--json`` which bot sat at each seat (issue 43): random bots score about 3 points
a game, which tells a designer nothing about a rule."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from azul_core.cli.app import _register, app

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}

_register()  # every command, so that the app is a group


def azul(*args: str):
    result = CliRunner().invoke(app, list(args), env=ENV)
    assert result.exit_code == 0, result.output
    return result


def test_simulate_plays_greedy_bots_by_default_and_names_them_in_its_text():
    result = azul("simulate", "-n", "3", "--seed", "4", "-q")
    seat_rows = [line for line in result.stdout.splitlines() if re.match(r"\s+[12]\s+\S+\s+\d", line)][:2]
    assert [row.split()[1] for row in seat_rows] == ["greedy", "greedy"], result.stdout


def test_simulate_json_names_each_seats_bot_and_the_default_is_greedys_games():
    default = json.loads(azul("simulate", "-n", "3", "--seed", "4", "--json").stdout)
    assert default["bots"] == ["greedy", "greedy"]
    assert [seat["bot"] for seat in default["seats"]] == ["greedy", "greedy"]
    assert default == json.loads(azul("simulate", "-n", "3", "--seed", "4", "--bots", "greedy", "--json").stdout)


def test_simulate_still_plays_random_bots_when_asked():
    summary = json.loads(azul("simulate", "-n", "3", "--seed", "4", "--bots", "random", "--json").stdout)
    assert summary["bots"] == ["random", "random"]
    assert [seat["bot"] for seat in summary["seats"]] == ["random", "random"]
    assert summary != json.loads(azul("simulate", "-n", "3", "--seed", "4", "--json").stdout)


def test_compare_plays_greedy_bots_by_default_and_says_so():
    text = azul("compare", "standard", "duel", "-n", "3", "--seed", "4", "-q").stdout
    assert text.startswith("3 games per variant, 2 players, bots greedy, seed 4"), text
    data = json.loads(azul("compare", "standard", "duel", "-n", "3", "--seed", "4", "--json").stdout)
    assert data["bots"] == ["greedy", "greedy"]
    assert all(entry["summary"]["bots"] == ["greedy", "greedy"] for entry in data["variants"])


def test_compare_names_each_seats_bot_when_they_differ(tmp_path):
    page = tmp_path / "report.html"
    text = azul("compare", "standard", "duel", "-n", "3", "--seed", "4", "--bots", "random,greedy", "-q",
                "--html", str(page)).stdout
    assert text.startswith("3 games per variant, 2 players, bots random, greedy, seed 4"), text
    assert re.search(r"bots\s+random, greedy", page.read_text())


@pytest.mark.parametrize("command", [["simulate"], ["compare", "standard"]])
def test_help_gives_the_default_bot_and_why(command):
    help_text = " ".join(azul(*command, "--help").stdout.replace("│", " ").split())  # the box's sides too
    assert "[default: greedy]" in help_text
    assert "random bots score about 3 points a game" in help_text
