"""Simulating bot games: reproducible per game, the same in any number of processes."""

from __future__ import annotations

import json

import pytest

import azul_core.lab.simulate as simulate_module
from azul_core.lab.simulate import (
    SimulationError,
    game_seed,
    play_game,
    record_variant_ref,
    resolve_bots,
    simulate,
)
from azul_core.records.game_record import validate_record
from azul_core.variants.loading import Trust, load_variant


@pytest.fixture(scope="module")
def standard():
    return load_variant("standard")


def plugin_variant(folder, plugin_source: str, name: str = "house"):
    """A variant file extending standard with one extra plugin file."""
    (folder / f"{name}_rule.py").write_text("from azul_core import hookimpl\n\n" + plugin_source)
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: standard\n"
                    f"plugins: [standard, colour_wall, {name}_rule.py]\n")
    return path


def test_a_game_depends_only_on_the_run_seed_and_its_number(standard):
    first = play_game(standard.rules, 2, 7, ["random", "random"], 3)
    again = play_game(standard.rules, 2, 7, ["random", "random"], 3)
    other = play_game(standard.rules, 2, 7, ["random", "random"], 4)
    assert first == again
    assert first.seed == game_seed(7, 3) == "7:3"
    assert (first.scores, first.rounds) != (other.scores, other.rounds) or \
        first.seats != other.seats


def test_game_result_holds_what_statistics_need(standard):
    result = play_game(standard.rules, 3, 1, ["random"] * 3, 1)
    assert result.game == 1 and result.first_player == 0 and result.record is None
    assert len(result.scores) == len(result.seats) == 3
    assert result.winners and all(0 <= w < 3 for w in result.winners)
    assert result.rounds >= 5  # a row of 5 needs 5 rounds at least
    for seat, score in zip(result.seats, result.scores):
        assert seat.score == score and seat.bot == "random"
        assert seat.placement_points >= 0 >= seat.penalty_points
        assert [label for label, _points in seat.bonuses] == ["rows", "columns", "colours"]
        assert seat.floor_tiles >= 0
    # the winners follow the scores and, among tied scores, the complete rows (2 points each)
    best = max(result.scores)
    rows = {seat: dict(result.seats[seat].bonuses)["rows"] // 2
            for seat, score in enumerate(result.scores) if score == best}
    assert result.winners == [seat for seat in rows if rows[seat] == max(rows.values())]
    data = json.loads(json.dumps(result.to_json()))      # plain data
    assert (data["scores"], data["winners"], data["rounds"]) == (result.scores, result.winners, result.rounds)
    assert [seat["score"] for seat in data["seats"]] == result.scores
    assert [seat["bonuses"] for seat in data["seats"]] == \
        [[list(bonus) for bonus in seat.bonuses] for seat in result.seats]


def test_simulation_is_the_same_whatever_the_workers(standard):
    alone = simulate(standard, 2, 12, seed=5, workers=1)
    shared = simulate("standard", 2, 12, seed=5, workers=2)
    assert [r.to_json() for r in alone.results] == [r.to_json() for r in shared.results]
    assert [r.game for r in shared.results] == list(range(1, 13))
    assert alone.summary() == shared.summary()


def test_each_game_of_a_run_is_the_game_played_alone(standard):
    run = simulate(standard, 2, 4, seed="club")
    assert run.results[2] == play_game(standard.rules, 2, "club", ["random"] * 2, 3)


def test_summary_means_and_win_shares(standard):
    run = simulate(standard, 3, 30, seed=2)
    summary = run.summary()
    assert summary["games"] == 30 and summary["players"] == 3 and summary["seed"] == 2
    assert summary["bots"] == ["random"] * 3
    assert sum(seat["win_share"] for seat in summary["seats"]) == pytest.approx(1, abs=1e-3)
    for seat in summary["seats"]:
        scores = [r.scores[seat["seat"]] for r in run.results]
        assert seat["mean_score"] == pytest.approx(sum(scores) / 30, abs=1e-3)
        assert seat["wins"] == sum(1 for r in run.results if seat["seat"] in r.winners)
    rounds = [r.rounds for r in run.results]
    assert summary["mean_rounds"] == pytest.approx(sum(rounds) / 30, abs=1e-3)
    assert (summary["min_rounds"], summary["max_rounds"]) == (min(rounds), max(rounds))
    assert summary["shared_victories"] == sum(1 for r in run.results if len(r.winners) > 1)


@pytest.mark.parametrize("variant", ["standard", "grey-wall", "duel"])
def test_every_shipped_variant_simulates(variant, tmp_path):
    loaded = load_variant(variant)
    for players in loaded.players:
        folder = tmp_path / f"{players}p"
        run = simulate(loaded, players, 3, seed=1, record_dir=folder)
        assert [r.game for r in run.results] == [1, 2, 3] and run.variant == loaded.name
        for result in run.results:               # each game replays from its record to its result
            assert len(result.scores) == players
            report = validate_record(folder / f"game-{result.game:05d}.json")
            assert report["valid"] and report["finished"], report["errors"]
            assert (report["scores"], report["winners"]) == (result.scores, result.winners)


def test_bots_one_name_for_every_seat_or_one_per_seat(standard):
    assert resolve_bots("random", 3, standard.rules) == ["random"] * 3
    assert resolve_bots("random, random", 2, standard.rules) == ["random", "random"]
    assert resolve_bots(["random"], 4, standard.rules) == ["random"] * 4
    with pytest.raises(SimulationError, match="3 bots named for 2 players"):
        resolve_bots("random,random,random", 2, standard.rules)
    with pytest.raises(SimulationError, match="unknown bot 'randon'.*did you mean 'random'"):
        resolve_bots("randon", 2, standard.rules)
    with pytest.raises(SimulationError, match="no bot named"):
        resolve_bots(",", 2, standard.rules)


@pytest.mark.parametrize("kwargs, words", [
    ({"players": 5}, "played by 2, 3, 4 players, not 5"),
    ({"games": 0}, "1 or more"),
    ({"workers": -1}, "workers"),
    ({"bots": "nobody"}, "unknown bot 'nobody'"),
])
def test_bad_arguments_are_one_line_errors(standard, kwargs, words):
    arguments = {"players": 2, "games": 2, "seed": 1, "bots": "random", "workers": 1, **kwargs}
    with pytest.raises(SimulationError, match=words):
        simulate(standard, **arguments)


def test_a_plugin_raising_during_a_game_names_plugin_and_hook(tmp_path):
    path = plugin_variant(tmp_path, "@hookimpl\ndef azul_floor_penalty(floor):\n"
                                    "    if len(floor) > 4:\n        raise RuntimeError('no')\n")
    with pytest.raises(SimulationError) as caught:
        simulate(str(path), 2, 5, seed=1)
    error = caught.value
    assert error.plugin == "house_rule" and error.hook == "azul_floor_penalty"
    assert "house_rule" in str(error) and "azul_floor_penalty" in str(error)
    assert str(error).startswith("game 1: ")


def test_a_plugin_error_crosses_process_boundaries_intact(tmp_path):
    path = plugin_variant(tmp_path, "@hookimpl\ndef azul_floor_penalty(floor):\n"
                                    "    if len(floor) > 4:\n        raise RuntimeError('no')\n")
    with pytest.raises(SimulationError) as caught:
        simulate(str(path), 2, 4, seed=1, workers=2)
    assert caught.value.plugin == "house_rule" and caught.value.hook == "azul_floor_penalty"


def test_a_game_that_never_ends_is_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(simulate_module, "MAX_ROUNDS", 12)
    path = plugin_variant(tmp_path, "@hookimpl\ndef azul_game_over():\n    return False\n", "endless")
    with pytest.raises(SimulationError, match="did not end within 12 rounds") as caught:
        simulate(str(path), 2, 1, seed=1)
    assert caught.value.hook == "azul_game_over" and "endless_rule" in str(caught.value)


def test_record_dir_gets_one_record_per_game_that_validates(standard, tmp_path):
    folder = tmp_path / "records"
    run = simulate(standard, 3, 4, seed=8, record_dir=folder)
    files = sorted(p.name for p in folder.iterdir())
    assert files == [f"game-0000{i}.json" for i in range(1, 5)]
    for result, name in zip(run.results, files):
        report = validate_record(folder / name)
        assert report["valid"] and report["finished"], report["errors"]
        assert report["scores"] == result.scores and report["winners"] == result.winners
        assert report["variant"] == "standard"
        assert json.loads((folder / name).read_text())["seed"] == result.seed


def test_records_of_a_variant_file_name_it_relative_to_their_folder(tmp_path):
    path = plugin_variant(tmp_path, "@hookimpl\ndef azul_floor_penalty(floor):\n    return -len(floor)\n")
    folder = tmp_path / "out" / "games"
    simulate(str(path), 2, 2, seed=1, record_dir=folder)
    assert record_variant_ref(load_variant(path), folder) == "../../house.yaml"
    # Outside the record's folder, and with a plugin file: used only when the user names it.
    report = validate_record(folder / "game-00001.json")
    assert not report["valid"] and "not through '..'" in report["errors"][0]["message"]
    report = validate_record(folder / "game-00001.json", trust=Trust.of([path]))
    assert report["valid"], report["errors"]
    assert report["variant"] == "../../house.yaml" and report["variant_name"] == "house"


def test_records_in_processes_match_records_in_one(standard, tmp_path):
    simulate(standard, 2, 6, seed=3, record_dir=tmp_path / "one")
    simulate("standard", 2, 6, seed=3, record_dir=tmp_path / "two", workers=2)
    for i in range(1, 7):
        name = f"game-{i:05d}.json"
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


def test_think_reaches_the_search_bot(monkeypatch):
    """The search bot the registry builds for a seat is given the run's --think; it then plays
    with a tiny fixed budget, so that the test stays quick."""
    import azul_core.lab.simulate as simulation
    from azul_core.players.search import DEFAULT_THINK, MctsBot
    made = []
    real = simulation.bot_factories

    def spying(rules):
        factories = dict(real(rules))
        make_search_bot = factories["mcts"]

        def noted(seed, think):
            bot = make_search_bot(seed=seed, think=think)
            made.append((type(bot), bot.think))
            bot.think, bot.iterations = None, 3
            return bot
        factories["mcts"] = noted
        return factories
    monkeypatch.setattr(simulation, "bot_factories", spying)
    run = simulation.simulate("standard", 2, 1, seed=1, bots="mcts,random", think=0.05)
    assert made == [(MctsBot, 0.05)]
    assert run.results[0].seats[0].bot == "mcts"
    made.clear()
    simulation.simulate("standard", 2, 1, seed=1, bots="mcts,random")
    assert made == [(MctsBot, DEFAULT_THINK)]     # no --think: the search bot's own default


def test_think_must_be_positive():
    from typer.testing import CliRunner

    from azul_core.cli.app import _register, app
    _register()
    result = CliRunner().invoke(app, ["simulate", "--games", "1", "--think", "0"],
                                env={"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0"})
    assert result.exit_code == 2 and "--think must be a positive number" in result.stderr


# ------------------------------------------------------------------ a playout budget


def test_a_playout_budget_makes_search_games_depend_on_the_seed_alone(standard):
    first = simulate(standard, 2, 2, seed=9, bots="mcts,greedy", playouts=15)
    again = simulate(standard, 2, 2, seed=9, bots="mcts,greedy", playouts=15, workers=2)
    other = simulate(standard, 2, 2, seed=9, bots="mcts,greedy", playouts=40)
    assert [r.to_json() for r in first.results] == [r.to_json() for r in again.results]
    assert [r.to_json() for r in first.results] != [r.to_json() for r in other.results]


def test_the_playout_budget_reaches_the_search_bot_and_only_when_given():
    from azul_core.players.registry import build_bot, make_bot
    bot = make_bot("mcts", seed=1, playouts=25)
    assert bot.iterations == 25 and bot.think is None
    assert make_bot("mcts", seed=1).iterations is None
    assert make_bot("greedy", seed=1, playouts=25).choose  # bots that don't search ignore it

    def old_factory(seed=None, think=None):  # written before playouts existed
        return (seed, think)
    assert build_bot(old_factory, 3, None, None) == (3, None)


@pytest.mark.parametrize("args, message", [
    (["--think", "0.1", "--playouts", "10"], "give --think or --playouts, not both"),
    (["--playouts", "0"], "--playouts must be 1 or more"),
])
def test_simulate_refuses_a_budget_it_cant_use(args, message):
    from typer.testing import CliRunner

    from azul_core.cli.app import _register, app
    _register()
    result = CliRunner().invoke(app, ["simulate", "--games", "1", "--bots", "mcts", *args])
    assert result.exit_code == 2 and message in result.stderr
