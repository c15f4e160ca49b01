"""``azul tune --goal net=LABEL+LABEL``: the end bonuses so labelled bring as many points as they
cost, on a rule whose balancing value is known by construction (tests/tune/column_price.py:
every wall tile brings ``price`` points, every tile in the first column costs 5; random bots
play alike whatever the price and fill each column alike, so price 1 balances them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("optuna")

from azul_core.cli.app import _register, app  # noqa: E402
from azul_core.lab.simulate import simulate  # noqa: E402
from azul_core.lab.tune import parse_goal  # noqa: E402
from azul_core.variants.loading import load_variant  # noqa: E402

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
COLUMN_PRICE = str(Path(__file__).resolve().parent / "tune" / "column-price.yaml")
NET = "net=wall tiles+first column"
#: Every price 0 to 4, 300 games each in stages of 100, random bots: a few seconds.
SEARCH = ["--vary", "price=0..4", "--bots", "random", "--games", "300", "--stage", "100", "--seed", "1",
          "--budget", "1500", "--quiet"]

_register()


def azul(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


@pytest.fixture(scope="module")
def study():
    result = azul("tune", COLUMN_PRICE, *SEARCH, "--goal", NET, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def net(candidate: dict) -> dict:
    return candidate["goals"][0]["figures"][0]


def by_price(study: dict) -> dict[int, dict]:
    return {c["settings"]["price"]: c for c in study["candidates"]}


def test_the_price_that_balances_the_labels_is_found_within_its_interval(study):
    best = study["best"]
    assert best["settings"] == {"price": 1}
    figure = net(best)
    assert figure["target"] == 0 and figure["low"] <= 0 <= figure["high"] and figure["met"]
    assert best["goals"][0]["goal"] == "net wall tiles+first column"
    # Not an interval wide enough to hold anything: one point more or less per tile is clearly off.
    candidates = by_price(study)
    assert net(candidates[0])["high"] < 0 < net(candidates[2])["low"]
    assert study["clearly_best"]


def test_the_net_figure_is_the_labels_points_that_simulate_counts(study, tmp_path):
    """Per player and game, on the games every candidate plays (the run's seed, games 1 to N)."""
    best = study["best"]
    path = tmp_path / "price-1.yaml"
    path.write_text(f"name: p1\nextends: {COLUMN_PRICE}\nsettings: {{price: 1}}\n")
    points = simulate(load_variant(path), 2, best["games"], 1, "random").summary()["points"]["bonuses_by_label"]
    assert net(best)["estimate"] == pytest.approx(points["wall tiles"] + points["first column"], abs=1e-3)
    # Each label alone is far from balanced: the goal adds them.
    assert points["wall tiles"] > 5 and points["first column"] < -5


def test_text_answer_gives_the_net_with_its_interval():
    result = azul("tune", COLUMN_PRICE, *SEARCH, "--goal", NET)
    assert result.exit_code == 0, result.output
    assert "best: price=1" in result.stdout
    line = next(line for line in result.stdout.splitlines() if "net points of wall tiles+first column" in line)
    # A negative bound reads "-0.30 to 0.42", not "-0.30-0.42".
    assert re.search(r"95% interval -\d+\.\d\d to -?\d+\.\d\d \(target 0\.00: met\)", line), line


def test_a_net_goal_from_a_goal_file(tmp_path):
    goals = tmp_path / "goals.yaml"
    goals.write_text('- {goal: net, target: "wall tiles + first column", weight: 2}\n')
    result = azul("tune", COLUMN_PRICE, *SEARCH, "--budget", "600", "--goal-file", str(goals), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["goals"] == [{"goal": "net wall tiles+first column", "kind": "net", "target": 0.0, "weight": 2.0,
                              "reference": "wall tiles+first column"}]


def test_a_label_no_bonus_bears_is_one_line_naming_the_labels_met():
    result = azul("tune", COLUMN_PRICE, *SEARCH, "--goal", "net=wall tile+first colum")
    assert result.exit_code == 1, result.output
    assert "--goal net=wall tile+first colum: no end bonus of these games is labelled so" in result.stderr
    assert "first column" in result.stderr and "wall tiles" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("text", ["net", "net=", "net=wall tiles+"])
def test_a_net_goal_without_labels_is_refused(text):
    result = azul("tune", COLUMN_PRICE, "--vary", "price", "--goal", text)
    assert result.exit_code == 2, result.output
    assert "name the end bonuses whose points must balance" in result.stderr


def test_net_goals_parse_with_a_weight():
    goal = parse_goal("net=pillar toll+pillar bonus*0.5")
    assert (goal.kind, goal.reference, goal.target, goal.weight) == ("net", "pillar toll+pillar bonus", 0.0, 0.5)
