"""The statistics of ``Simulation.summary`` and ``azul simulate``, checked against the games."""

from __future__ import annotations

import json
import statistics

import pytest
from typer.testing import CliRunner

from azul_core.cli.app import _register, app
from azul_core.cli.simulate import GameProgress
from azul_core.lab.simulate import simulate
from azul_core.lab.stats import wilson_interval
from azul_core.variants.loading import load_variant

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
OLD_FIELDS = {"variant", "players", "games", "seed", "bots", "mean_rounds", "min_rounds", "max_rounds",
              "shared_victories", "seats", "record_dir"}
OLD_SEAT_FIELDS = {"seat", "bot", "mean_score", "mean_placement_points", "mean_penalty_points",
                   "mean_bonus_points", "mean_floor_tiles", "wins", "win_share"}
DESCRIBED = {"mean", "median", "stdev", "q1", "q3", "min", "max"}

_register()  # every command, so that the app is a group (one command alone would be the app)


@pytest.fixture(scope="module")
def run():
    return simulate(load_variant("standard"), 3, 60, seed=11)


@pytest.fixture(scope="module")
def summary(run):
    return run.summary()


def test_the_old_fields_stay_and_the_new_ones_are_there(summary):
    assert OLD_FIELDS <= set(summary)
    assert {"confidence", "score", "rounds_per_game", "floor_tiles_per_round", "points",
            "start_player"} <= set(summary)
    for seat in summary["seats"]:
        assert OLD_SEAT_FIELDS <= set(seat)
        assert {"win_share_low", "win_share_high", "score", "floor_tiles_per_round", "points"} <= set(seat)
        assert set(seat["score"]) == DESCRIBED
    assert set(summary["score"]) == set(summary["rounds_per_game"]) == DESCRIBED
    assert summary["confidence"] == 0.95
    assert json.loads(json.dumps(summary)) == summary     # plain JSON data: nothing lost on the way


def test_scores_are_described_per_seat_and_overall(run, summary):
    for seat in summary["seats"]:
        scores = [r.scores[seat["seat"]] for r in run.results]
        described = seat["score"]
        assert described["mean"] == pytest.approx(statistics.fmean(scores), abs=1e-4) == seat["mean_score"]
        assert described["median"] == statistics.median(scores)
        assert described["stdev"] == pytest.approx(statistics.stdev(scores), abs=1e-4)
        q1, _q2, q3 = statistics.quantiles(scores, n=4, method="inclusive")
        assert (described["q1"], described["q3"]) == pytest.approx((q1, q3), abs=1e-4)
        assert (described["min"], described["max"]) == (min(scores), max(scores))
    every = [score for r in run.results for score in r.scores]
    assert summary["score"]["mean"] == pytest.approx(statistics.fmean(every), abs=1e-4)
    assert summary["score"]["stdev"] == pytest.approx(statistics.stdev(every), abs=1e-4)
    rounds = [r.rounds for r in run.results]
    assert summary["rounds_per_game"]["median"] == statistics.median(rounds)
    assert summary["rounds_per_game"]["mean"] == summary["mean_rounds"]
    assert (summary["rounds_per_game"]["min"], summary["rounds_per_game"]["max"]) == \
        (summary["min_rounds"], summary["max_rounds"])


def test_win_shares_come_with_their_wilson_interval(run, summary):
    for seat in summary["seats"]:
        share = sum(1 / len(r.winners) for r in run.results if seat["seat"] in r.winners)
        low, high = wilson_interval(share, len(run.results))
        assert (seat["win_share_low"], seat["win_share_high"]) == pytest.approx((low, high), abs=1e-4)
        assert seat["win_share_low"] < seat["win_share"] < seat["win_share_high"]


def test_the_start_players_advantage_is_seat_0s_share_over_a_fair_one(summary):
    start, seat0 = summary["start_player"], summary["seats"][0]
    assert start["seat"] == 0
    assert start["fair_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert (start["win_share"], start["win_share_low"], start["win_share_high"]) == \
        (seat0["win_share"], seat0["win_share_low"], seat0["win_share_high"])
    assert start["advantage"] == pytest.approx(seat0["win_share"] - 1 / 3, abs=1e-4)
    assert start["advantage_low"] == pytest.approx(seat0["win_share_low"] - 1 / 3, abs=1e-4)
    assert start["advantage_high"] == pytest.approx(seat0["win_share_high"] - 1 / 3, abs=1e-4)


def test_the_parts_of_a_score_add_up_to_it(run, summary):
    for seat in summary["seats"]:
        parts = seat["points"]
        assert parts["placements"] == seat["mean_placement_points"]
        assert parts["penalties"] == seat["mean_penalty_points"]
        assert parts["bonuses"] == seat["mean_bonus_points"]
        assert list(parts["bonuses_by_label"]) == ["rows", "columns", "colours"]
        assert sum(parts["bonuses_by_label"].values()) == pytest.approx(parts["bonuses"], abs=1e-3)
        # random bots drop far more than they score, and a score never goes below 0
        assert parts["penalties_waived"] > 0
        total = parts["placements"] + parts["penalties"] + parts["bonuses"] + parts["penalties_waived"]
        assert total == pytest.approx(seat["mean_score"], abs=1e-3)
    overall = summary["points"]
    assert overall["placements"] == pytest.approx(
        statistics.fmean(s["mean_placement_points"] for s in summary["seats"]), abs=1e-3)


def test_floor_tiles_per_round_per_seat_and_overall(run, summary):
    for seat in summary["seats"]:
        expected = statistics.fmean(r.seats[seat["seat"]].floor_tiles / r.rounds for r in run.results)
        assert seat["floor_tiles_per_round"] == pytest.approx(expected, abs=1e-4)
    overall = statistics.fmean(sum(s.floor_tiles for s in r.seats) / (3 * r.rounds) for r in run.results)
    assert summary["floor_tiles_per_round"] == pytest.approx(overall, abs=1e-4)


def test_a_variant_without_bonuses_of_some_label_still_adds_up():
    summary = simulate("duel", 2, 20, seed=3).summary()
    parts = summary["points"]
    assert sum(parts["bonuses_by_label"].values()) == pytest.approx(parts["bonuses"], abs=1e-3)


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_reported_up_to_every_game(workers):
    calls = []
    run = simulate("standard", 2, 30, seed=4, workers=workers, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (30, 30)
    done = [d for d, _total in calls]
    assert done == sorted(done) and all(total == 30 for _d, total in calls)
    assert run.summary() == simulate("standard", 2, 30, seed=4).summary()


def test_no_progress_bar_when_quiet_or_not_on_a_terminal():
    assert GameProgress(quiet=True).track("standard", 10) is None
    with GameProgress() as bar:  # pytest captures stderr: not a terminal
        assert bar.track("standard", 10) is None


def run_cli(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


def test_simulate_prints_the_new_statistics():
    result = run_cli("simulate", "--games", "40", "--seed", "2", "--bots", "random", "--quiet")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for words in ("median", "quartiles", "win share (95%)", "points per game", "spared",
                  "start player (seat 1): win share", "advantage over a fair 50.0%",
                  "floor tiles per round, per player", "bonuses", "rows", "columns", "colours",
                  "rounds per game: mean"):
        assert words in out, words
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


def test_simulate_json_holds_the_summary_and_nothing_timed(tmp_path):
    first = run_cli("simulate", "--games", "12", "--seed", "5", "--bots", "random", "--json", "--record-dir", str(tmp_path / "a"))
    again = run_cli("simulate", "--games", "12", "--seed", "5", "--bots", "random", "--json", "--quiet",
                    "--record-dir", str(tmp_path / "a"))
    assert first.exit_code == again.exit_code == 0
    data = json.loads(first.stdout)
    assert data == json.loads(again.stdout)           # nothing timed: the same run, the same text
    # a few figures worked out here from the games' records
    results = [json.loads((tmp_path / "a" / f"game-{i:05d}.json").read_text()) for i in range(1, 13)]
    scores = [r["result"]["scores"] for r in results]
    rounds = [len(r["rounds"]) for r in results]
    assert (data["variant"], data["games"], data["seed"], data["variant_ref"]) == ("standard", 12, 5, "standard")
    assert (data["min_rounds"], data["max_rounds"]) == (min(rounds), max(rounds))
    assert data["mean_rounds"] == pytest.approx(statistics.fmean(rounds), abs=1e-4)
    assert data["shared_victories"] == sum(len(r["result"]["winners"]) > 1 for r in results)
    for seat in (0, 1):
        shown = data["seats"][seat]
        assert shown["mean_score"] == pytest.approx(statistics.fmean(s[seat] for s in scores), abs=1e-4)
        assert shown["wins"] == sum(seat in r["result"]["winners"] for r in results)
        assert (shown["score"]["min"], shown["score"]["max"]) == \
            (min(s[seat] for s in scores), max(s[seat] for s in scores))
    assert data["score"]["median"] == statistics.median(score for s in scores for score in s)
