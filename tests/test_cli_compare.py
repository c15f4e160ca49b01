"""``azul compare``: the same seeds under several variants, side by side, with tests."""

from __future__ import annotations

import base64
import json
import math
import re
import statistics
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from azul_core.cli.app import _register, app
from azul_core.lab.simulate import simulate

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FIVE_ROUNDS = str(EXAMPLES / "five-rounds" / "five-rounds.yaml")
FAMILY_FLOOR = str(EXAMPLES / "family-floor" / "family-floor.yaml")
SHARED_TIES = str(EXAMPLES / "shared-ties" / "shared-ties.yaml")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_register()  # every command, so that the app is a group


def azul(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


@pytest.fixture(scope="module")
def comparison():
    result = azul("compare", "standard", FIVE_ROUNDS, FAMILY_FLOOR, "--games", "150", "--seed", "3",
                  "--bots", "random", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_has_each_variant_summary_from_the_same_seeds(comparison):
    assert (comparison["games"], comparison["players"], comparison["seed"]) == (150, 2, 3)
    assert comparison["baseline"] == "standard" and comparison["confidence"] == 0.95
    assert [v["label"] for v in comparison["variants"]] == ["standard", "five-rounds", "family-floor"]
    assert comparison["variants"][1]["variant_ref"] == FIVE_ROUNDS
    for entry in comparison["variants"]:
        assert entry["values"]["score"] == pytest.approx(entry["summary"]["score"]["mean"], abs=1e-3)
        assert entry["values"]["rounds"] == entry["summary"]["mean_rounds"]
        assert entry["values"]["start_player_win_share"] == entry["summary"]["start_player"]["win_share"]
        assert entry["values"]["floor_tiles_per_round"] == entry["summary"]["floor_tiles_per_round"]
    assert comparison["variants"][0]["differences"] is None


def per_game(ref: str) -> dict[str, list[float]]:
    """The games of the comparison's seeds, as numbers worked out here from each game."""
    games = simulate(ref, 2, 150, seed=3).results
    return {"score": [sum(g.scores) / 2 for g in games], "rounds": [g.rounds for g in games],
            "shared": [1.0 if len(g.winners) > 1 else 0.0 for g in games],
            "seat_0_wins": [1.0 if g.winners == [0] else 0.5 if 0 in g.winners else 0.0 for g in games]}


def test_the_figures_agree_with_the_games_worked_by_hand(comparison):
    standard, family = per_game("standard"), per_game(FAMILY_FLOOR)
    base, entry = comparison["variants"][0], comparison["variants"][2]
    for games, shown in ((standard, base), (family, entry)):
        assert shown["values"]["score"] == pytest.approx(statistics.fmean(games["score"]), abs=1e-4)
        assert shown["values"]["rounds"] == pytest.approx(statistics.fmean(games["rounds"]), abs=1e-4)
        assert shown["values"]["shared_victories"] == pytest.approx(statistics.fmean(games["shared"]), abs=1e-4)
        # every game starts with seat 0, so the start player's share is seat 0's
        assert shown["values"]["start_player_win_share"] == \
            pytest.approx(statistics.fmean(games["seat_0_wins"]), abs=1e-4)
    # Welch's t on the per-game mean scores, by the textbook formula
    m1, m2 = statistics.fmean(standard["score"]), statistics.fmean(family["score"])
    e1, e2 = statistics.variance(standard["score"]) / 150, statistics.variance(family["score"]) / 150
    score = entry["differences"]["score"]
    assert score["difference"] == pytest.approx(m2 - m1, abs=1e-4)
    assert score["statistic"] == pytest.approx((m2 - m1) / math.sqrt(e1 + e2), abs=1e-3)
    assert score["df"] == pytest.approx((e1 + e2) ** 2 / (e1 ** 2 / 149 + e2 ** 2 / 149), abs=0.01)
    # the two-proportion z-test on the shares of shared victories (pooled error, normal p)
    x1, x2 = sum(standard["shared"]), sum(family["shared"])
    pooled = (x1 + x2) / 300
    z = (x2 - x1) / 150 / math.sqrt(pooled * (1 - pooled) * 2 / 150)
    shared = entry["differences"]["shared_victories"]
    assert shared["statistic"] == pytest.approx(z, abs=1e-3)
    assert shared["p_value"] == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-3)


def test_each_metric_names_its_test_and_the_tests_are_described(comparison):
    assert set(comparison["tests"]) == {"welch", "two-proportion"}
    assert "Welch" in comparison["tests"]["welch"]
    assert comparison["metrics"]["score"]["test"] == "welch"
    assert comparison["metrics"]["start_player_win_share"]["test"] == "two-proportion"
    for entry in comparison["variants"][1:]:
        assert set(entry["differences"]) == set(comparison["metrics"])
        for key, difference in entry["differences"].items():
            assert difference["test"] == comparison["metrics"][key]["test"]
            assert difference["clear"] == (difference["p_value"] < 0.05)
            assert (difference["df"] is None) == (difference["test"] == "two-proportion")


def test_the_house_rules_effects_are_clear_and_the_rest_is_not(comparison):
    five, family = (entry["differences"] for entry in comparison["variants"][1:])
    assert five["rounds"]["clear"] and five["rounds"]["difference"] < 0  # never more than 5 rounds
    assert five["shared_victories"]["clear"]  # most games end 0 to 0
    assert family["penalties"]["clear"] and family["penalties"]["difference"] > 0  # a cheaper floor
    assert family["score"]["clear"]
    # the family floor changes no move of a random bot: same games, same rounds
    assert family["rounds"]["difference"] == 0 and not family["rounds"]["clear"]
    assert family["placements"]["p_value"] == 1.0


def test_identical_games_show_no_difference():
    result = azul("compare", "standard", "standard", "--games", "40", "--seed", "1", "--bots", "random", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [v["label"] for v in data["variants"]] == ["standard #1", "standard #2"]
    assert not any(d["clear"] for d in data["variants"][1]["differences"].values())


def test_text_output_marks_clear_differences_and_names_the_tests():
    result = azul("compare", "standard", FIVE_ROUNDS, "--games", "100", "--seed", "2", "--bots", "random", "--quiet")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "100 games per variant, 2 players, bots random, seed 2 (the same seeds for every variant)" in out
    assert re.search(r"standard\s+five-rounds", out)
    rounds_row = next(line for line in out.splitlines() if line.startswith("rounds per game"))
    assert rounds_row.rstrip().endswith("5.00 *")
    start_row = next(line for line in out.splitlines() if line.startswith("start player wins"))
    assert "*" not in start_row
    assert "* differs clearly from standard (two-sided, 95%): Welch's t-test" in out
    assert "two-proportion z-test" in out
    assert result.stderr == ""  # no progress bar off a terminal


def test_results_do_not_depend_on_workers():
    one = azul("compare", "standard", "duel", "--games", "24", "--seed", "8", "--bots", "random", "--json")
    two = azul("compare", "standard", "duel", "--games", "24", "--seed", "8", "--bots", "random", "--json",
               "--workers", "2")
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)


@pytest.mark.parametrize("args, code, words", [
    (["standard", "duel", "-p", "3", "-n", "4"], 1, "can't compare with 3 players: variant 'duel' is played by 2 players"),
    (["standard", "no-such-variant", "-n", "4"], 1, "no-such-variant"),
    (["standard", "grey-wall", "-n", "1"], 2, "--games must be 2 or more"),
    (["standard", "grey-wall", "-n", "4", "--workers", "-1"], 2, "--workers must be 0"),
    (["standard", "grey-wall", "-n", "4", "--bots", "nobody"], 1, "standard: unknown bot 'nobody'"),
    (["-n", "4"], 2, "Missing argument"),
])
def test_bad_input_is_one_clear_line(args, code, words):
    result = azul("compare", *args)
    assert result.exit_code == code, result.output
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_plot_without_matplotlib_is_refused_before_playing(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    picture = tmp_path / "compare.png"
    result = azul("compare", "standard", "grey-wall", "--games", "1000000", "--plot", str(picture))
    assert result.exit_code == 1
    assert result.stderr.strip() == ("azul: --plot needs matplotlib, which is not installed "
                                     "(pip install matplotlib, or pip install \".[plot]\" in the project folder)")
    assert not picture.exists()


def test_html_without_matplotlib_is_the_table_alone(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    page = tmp_path / "report.html"
    result = azul("compare", "standard", "duel", "--games", "20", "--seed", "1", "--bots", "random",
                  "--html", str(page))
    assert result.exit_code == 0, result.output
    assert "the report has no pictures" in result.stderr
    text = page.read_text()
    assert "<table>" in text and "<th>duel</th>" in text and "<img" not in text
    assert "No pictures" in text


@pytest.mark.parametrize("option, name", [("--plot", "compare.png"), ("--html", "report.html")])
def test_an_output_in_a_missing_folder_is_refused_before_playing(tmp_path, option, name):
    target = tmp_path / "missing-folder" / name
    result = azul("compare", "standard", "duel", "--games", "1000000", option, str(target))
    assert result.exit_code == 1
    assert result.stderr.strip() == f"azul: can't write {target}: no folder {target.parent}"


def test_an_output_that_cannot_be_written_is_one_line(tmp_path):
    target = tmp_path / "report.html"
    target.mkdir()  # a folder where the file should go
    result = azul("compare", "standard", "duel", "--games", "4", "--seed", "1", "--bots", "random",
                  "--html", str(target))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"azul: can't write {target}: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_plot_and_html_report_with_matplotlib(tmp_path):
    pytest.importorskip("matplotlib", reason="--plot draws with matplotlib (the 'plot' extra)")
    picture, page = tmp_path / "compare.png", tmp_path / "report.html"
    result = azul("compare", "standard", "duel", SHARED_TIES, "--games", "60", "--seed", "1", "--bots", "random",
                  "--plot", str(picture), "--html", str(page))
    assert result.exit_code == 0, result.output
    assert f"wrote {picture}" in result.stdout and f"wrote {page}" in result.stdout
    png = picture.read_bytes()
    assert png.startswith(PNG_MAGIC) and len(png) > 10_000
    text = page.read_text()
    assert "<table>" in text and "<th>shared-ties</th>" in text and "Welch" in text
    embedded = re.search(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert embedded and base64.b64decode(embedded.group(1)) == png  # the page stands alone
    assert 'class="clear"' in text  # duel's rounds differ clearly
