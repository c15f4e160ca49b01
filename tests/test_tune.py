"""``azul tune``: the search for the settings that meet a goal, on a rule whose fair value is
known by construction (tests/tune/compensation.py: the first seat gets 5 points at the end,
every other seat ``compensation``; random bots play both seats alike, so compensation 5 levels
the seats)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("optuna")

from azul_core.cli.app import _register, app  # noqa: E402
from azul_core.lab import tune as tune_module  # noqa: E402
from azul_core.lab.simulate import simulate  # noqa: E402
from azul_core.lab.tune import TuneError, parse_goal, parse_vary  # noqa: E402
from azul_core.variants.loading import load_variant  # noqa: E402

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
COMPENSATION = str(Path(__file__).resolve().parent / "tune" / "compensation.yaml")
#: A small, fast search: random bots, 11 values, 300 games a candidate in stages of 100.
SEARCH = ["--vary", "compensation=0..10", "--bots", "random", "--games", "300", "--stage", "100",
          "--seed", "1", "--json", "--quiet"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

_register()


def azul(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


def tuned(*args: str) -> dict:
    result = azul("tune", COMPENSATION, *SEARCH, *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def study():
    return tuned("--budget", "1500")


def first_seat(candidate: dict) -> dict:
    return candidate["goals"][0]["figures"][0]


def test_the_fair_compensation_is_found_within_its_interval(study):
    best = study["best"]
    figure = first_seat(best)
    assert figure["low"] <= 0.5 <= figure["high"]
    assert figure["met"] and best["goals"][0]["met"]
    # Not an interval that holds every value: far from 5 the seats are clearly unequal.
    for compensation in (0, 10):
        variant = load_variant(_candidate_file(compensation))
        run = simulate(variant, 2, 300, 1, "random")
        share = run.summary()["start_player"]
        assert not share["win_share_low"] <= 0.5 <= share["win_share_high"], compensation
    assert abs(best["settings"]["compensation"] - 5) <= 1


def _candidate_file(compensation: int) -> Path:
    folder = Path(COMPENSATION).parent
    path = folder / f"_compensation-{compensation}.yaml"
    path.write_text(f"name: c{compensation}\nextends: compensation.yaml\nsettings: {{compensation: {compensation}}}\n")
    return path


@pytest.fixture(autouse=True, scope="module")
def _remove_candidate_files():
    yield
    for path in Path(COMPENSATION).parent.glob("_compensation-*.yaml"):
        path.unlink()


def test_every_candidate_plays_the_same_games_the_lab_plays(study):
    """Common random numbers: a candidate's figure is that of `simulate` with its settings and
    the run's seed, games 1 to N, whatever stage they were played in."""
    best = study["best"]
    compensation = best["settings"]["compensation"]
    run = simulate(load_variant(_candidate_file(compensation)), 2, best["games"], 1, "random")
    assert first_seat(best)["estimate"] == pytest.approx(run.summary()["start_player"]["win_share"], abs=1e-4)


def test_the_answer_says_which_candidates_it_cant_tell_apart(study):
    assert study["budget"] == 1500 and study["games_played"] <= 1500
    assert study["runners_up"]
    best = study["best"]
    tied = set(study["not_told_apart"])
    for candidate in study["candidates"]:
        if candidate["state"] != "complete" or candidate["number"] == best["number"]:
            continue
        assert (candidate["number"] in tied) == (candidate["low"] <= best["high"])
    assert study["clearly_best"] == (not tied)


def test_text_answer_states_the_interval_and_the_noise():
    result = azul("tune", COMPENSATION, *[a for a in SEARCH if a != "--json"], "--budget", "1500")
    assert result.exit_code == 0, result.output
    assert "95% interval" in result.stdout and "target 50.0%: met" in result.stdout
    assert "the budget was too small to tell them apart" in result.stdout


def test_a_candidate_clearly_worse_is_pruned_after_a_stage(study):
    pruned = [c for c in study["candidates"] if c["state"] == "pruned"]
    assert pruned
    for candidate in pruned:
        assert candidate["games"] < 300
        assert candidate["low"] > 0  # its interval never held the target


def test_workers_and_a_local_cluster_give_the_answer_of_one_process(study):
    pytest.importorskip("distributed")
    for extra in (["--workers", "2"], ["--cluster", "local", "--workers", "2"]):
        other = tuned("--budget", "1500", *extra)
        assert other["best"] == study["best"], extra
        assert other["candidates"] == study["candidates"], extra


def test_a_study_file_continues_where_it_stopped(tmp_path):
    path = tmp_path / "study.log"
    first = tuned("--budget", "600", "--study", str(path))
    second = tuned("--budget", "1500", "--study", str(path))
    assert second["candidates"][:len(first["candidates"])] == first["candidates"]
    assert len(second["candidates"]) > len(first["candidates"])
    assert second["games_played"] > first["games_played"]
    numbers = [c["settings"]["compensation"] for c in second["candidates"]]
    assert len(numbers) == len(set(numbers))  # a value already played is not played again


def test_ctrl_c_prints_the_best_so_far_and_the_study_continues(tmp_path, monkeypatch):
    path = tmp_path / "study.log"
    real = tune_module.simulate
    calls = []

    def stopped_at_the_seventh_stage(*args, **kwargs):
        calls.append(1)
        if len(calls) == 7:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(tune_module, "simulate", stopped_at_the_seventh_stage)
    result = azul("tune", COMPENSATION, *SEARCH, "--budget", "1500", "--study", str(path))
    assert result.exit_code == 130, result.output
    assert "interrupted after 600 games" in result.stderr
    stopped = json.loads(result.stdout)
    assert stopped["best"] is not None and stopped["games_played"] == 600
    monkeypatch.setattr(tune_module, "simulate", real)
    resumed = tuned("--budget", "1500", "--study", str(path))
    finished = [c for c in stopped["candidates"] if c["state"] in ("complete", "pruned")]
    assert resumed["candidates"][:len(finished)] == finished
    assert resumed["games_played"] > 600


def test_a_study_file_refuses_other_options(tmp_path):
    path = tmp_path / "study.log"
    tuned("--budget", "300", "--study", str(path))
    result = azul("tune", COMPENSATION, *SEARCH, "--budget", "600", "--study", str(path), "--seed", "2")
    assert result.exit_code == 1
    assert "made with other options" in result.stderr and "seed 1" in result.stderr
    assert "Traceback" not in result.output


def test_write_extends_the_input_with_the_best_settings_and_plot_draws(study, tmp_path):
    written, picture = tmp_path / "tuned.yaml", tmp_path / "tune.png"
    result = azul("tune", COMPENSATION, *SEARCH, "--budget", "1500", "--write", str(written), "--plot", str(picture))
    assert result.exit_code == 0, result.output
    variant = load_variant(written)
    assert variant.settings["compensation"] == study["best"]["settings"]["compensation"]
    assert variant.name == "compensation-tuned"
    assert "first seat wins" in variant.description
    assert picture.read_bytes().startswith(PNG_MAGIC)


@pytest.mark.parametrize("args, message", [
    (["--vary", "nonsense"], "the variant has no setting 'nonsense'"),
    (["--vary", "compensation=0..40"], "leaves the setting's declared range 0..30"),
    (["--vary", "compensation=5..1"], "give a range LOW..HIGH"),
    (["--vary", "row_bonus"], "its plugin declares no maximum; give one, like row_bonus=0..10"),
    (["--vary", "compensation", "--goal", "luck"], "unknown goal 'luck'"),
    (["--vary", "compensation", "--goal", "rounds=long"], "give the target as a number"),
    (["--vary", "compensation", "--budget", "0"], "--budget must be 1 or more"),
])
def test_wrong_options_are_one_line_with_exit_2(args, message):
    result = azul("tune", COMPENSATION, *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_vary_reads_ranges_choices_and_list_items():
    variant = load_variant("duel")
    current = dict(variant.settings)
    dimensions = parse_vary(["scoring,floor_penalties=-4..0"], variant.declared, current)
    assert dimensions[0].choices == tuple(variant.declared["scoring"].choices)
    assert [d.name for d in dimensions[1:]] == [f"floor_penalties[{i}]" for i in range(8)]
    first_space = parse_vary(["floor_penalties[0]=-6..0"], variant.declared, current)
    assert [(d.name, d.low, d.high) for d in first_space] == [("floor_penalties[0]", -6, 0)]
    with pytest.raises(TuneError, match="counted from 0"):
        parse_vary(["floor_penalties[8]=-6..0"], variant.declared, current)
    lists = parse_vary(["floor_penalties=[-1,-1,-2]|[-1,-2,-3]"], variant.declared, current)
    assert len(lists) == 1 and len(lists[0].choices) == 2
    with pytest.raises(TuneError, match="above the maximum 0"):
        parse_vary(["floor_penalties=[1,2]|[-1]"], variant.declared, current)


def test_goals_mix_with_weights_and_targets():
    assert parse_goal("rounds=6*0.5").target == 6 and parse_goal("rounds=6*0.5").weight == 0.5
    assert parse_goal("fair").kind == "first-seat edge"
    assert parse_goal("like=standard").reference == "standard"


def test_a_goal_file_and_a_target_game_length(tmp_path):
    goals = tmp_path / "goals.yaml"
    goals.write_text("- {goal: score, target: 8}\n- {goal: first-seat edge, weight: 0.5}\n")
    result = azul("tune", COMPENSATION, *SEARCH, "--budget", "900", "--goal-file", str(goals))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [g["goal"] for g in data["goals"]] == ["score 8", "first-seat edge"]
    # The same games for every candidate: the bots' moves don't depend on the compensation, so
    # each candidate's mean score per player is the same base plus half its compensation.
    bases = {round(c["goals"][0]["figures"][0]["estimate"] - c["settings"]["compensation"] / 2, 3)
             for c in data["candidates"]}
    assert len(bases) == 1 and len(data["candidates"]) > 1
    assert data["best"]["goals"][0]["figures"][0]["words"] == "mean score"


def test_a_run_in_stages_plays_the_games_of_one_run():
    whole = simulate("standard", 2, 6, 4, "greedy")
    later = simulate("standard", 2, 2, 4, "greedy", first_game=5)
    assert [r.game for r in later.results] == [5, 6]
    assert [(r.scores, r.winners) for r in later.results] == [(r.scores, r.winners) for r in whole.results[4:]]


def test_the_candidates_variant_files_are_removed_after_the_search(tmp_path, monkeypatch):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    tuned("--budget", "300")
    assert not list(tmp_path.glob("azul-tune-*"))


def test_like_a_variant_targets_its_figures_on_the_same_games():
    data = tuned("--budget", "600", "--goal", "like=standard")
    figures = data["best"]["goals"][0]["figures"]
    assert [f["figure"] for f in figures] == ["first-seat edge", "rounds", "score", "spread"]
    standard = simulate("standard", 2, 300, 1, "random").summary()
    targets = {f["figure"]: f["target"] for f in figures}
    assert targets["first-seat edge"] == pytest.approx(standard["start_player"]["win_share"], abs=1e-4)
    assert targets["rounds"] == pytest.approx(standard["mean_rounds"], abs=1e-4)
    assert targets["score"] == pytest.approx(standard["score"]["mean"], abs=1e-4)
    # The compensation only adds points: the same games, so the rounds are standard's exactly.
    assert next(f for f in figures if f["figure"] == "rounds")["estimate"] == pytest.approx(targets["rounds"])
