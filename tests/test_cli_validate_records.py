"""``azul simulate`` and ``azul validate`` through the command line (CliRunner)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import azul_core.cli.simulate  # noqa: F401  (registers the command)
import azul_core.cli.validate  # noqa: F401  (registers the command)
from azul_core.cli.app import app
from azul_core.records.game_record import FORMAT

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
HAND_RECORD = {
    "format": FORMAT, "variant": "standard", "players": ["ana", "bo"],
    "rounds": [{"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"], "scores": [0, 1]}],
}


def run(*args: str):
    return CliRunner().invoke(app, list(args), env=ENV)


def write(path, data) -> str:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


# ---------------------------------------------------------------- azul simulate


def test_simulate_prints_a_summary():
    result = run("simulate", "--players", "3", "--games", "10", "--seed", "4", "--bots", "random")
    assert result.exit_code == 0, result.output
    assert "standard: 10 games, 3 players, seed 4" in result.stdout
    assert "mean score" in result.stdout and "win share" in result.stdout
    assert "rounds per game: mean" in result.stdout


def test_simulate_json_is_one_object_with_the_summary():
    result = run("simulate", "--variant", "grey-wall", "--games", "6", "--seed", "1", "--bots", "random", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["variant"] == "grey-wall" and summary["games"] == 6 and summary["seed"] == 1
    assert [seat["seat"] for seat in summary["seats"]] == [0, 1]
    assert {"mean_score", "win_share", "wins"} <= set(summary["seats"][0])
    assert summary["mean_rounds"] >= 5


def test_simulate_with_two_workers_gives_the_same_results():
    one = run("simulate", "--games", "16", "--seed", "9", "--bots", "random", "--json", "--workers", "1")
    two = run("simulate", "--games", "16", "--seed", "9", "--bots", "random", "--json", "--workers", "2")
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_simulate_string_seed_and_bots_per_seat():
    result = run("simulate", "--seed", "club night", "--bots", "random,random", "--games", "2", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["seed"] == "club night"


def test_simulate_without_a_seed_prints_the_one_it_chose():
    result = run("simulate", "--games", "2", "--bots", "random", "--json")
    assert result.exit_code == 0
    seed = json.loads(result.stdout)["seed"]
    again = run("simulate", "--games", "2", "--bots", "random", "--json", "--seed", str(seed))
    assert json.loads(again.stdout) == json.loads(result.stdout)


def test_simulate_record_dir_writes_records_that_validate(tmp_path):
    folder = tmp_path / "games"
    result = run("simulate", "--games", "3", "--seed", "2", "--players", "4", "--bots", "random",
                 "--record-dir", str(folder))
    assert result.exit_code == 0, result.output
    assert len(list(folder.glob("game-*.json"))) == 3
    checked = run("validate", str(folder), "--json")
    assert checked.exit_code == 0, checked.output
    reports = [json.loads(line) for line in checked.stdout.splitlines()]
    assert [r["path"] for r in reports] == [str(folder / f"game-0000{i}.json") for i in (1, 2, 3)]
    for report in reports:                 # each replays to the result its record claims
        record = json.loads(open(report["path"]).read())
        assert report["valid"] and report["finished"], report["errors"]
        assert len(record["players"]) == 4 and report["players"] == record["players"]
        assert (report["scores"], report["winners"]) == (record["result"]["scores"], record["result"]["winners"])


@pytest.mark.parametrize("args, words", [
    (["--bots", "random,nobody"], "unknown bot 'nobody'"),
    (["--bots", "random,random,random"], "3 bots named for 2 players"),
    (["--players", "5"], "played by 2, 3, 4 players, not 5"),
    (["--variant", "duel", "--players", "3"], "played by 2 players, not 3"),
    (["--variant", "standrd"], "did you mean 'standard'"),
])
def test_simulate_bad_input_is_one_line_and_exit_1(args, words):
    result = run("simulate", "--games", "2", *args)
    assert result.exit_code == 1
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_simulate_wrong_usage_is_exit_2():
    assert run("simulate", "--gams", "3").exit_code == 2
    assert run("simulate", "--players", "two").exit_code == 2


def test_simulate_plugin_error_names_plugin_and_hook_in_one_line(tmp_path):
    (tmp_path / "broken.py").write_text(
        "from azul_core import hookimpl\n\n@hookimpl\ndef azul_placement_score(wall, row, column):\n"
        "    raise KeyError('oops')\n")
    variant = write(tmp_path / "broken.yaml",
                    "name: broken\nextends: standard\nplugins: [standard, colour_wall, broken.py]\n")
    result = run("simulate", "--variant", variant, "--games", "3", "--seed", "1", "--bots", "random")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert "plugin 'broken'" in lines[0] and "azul_placement_score" in lines[0]


# ---------------------------------------------------------------- azul validate


def test_validate_valid_unfinished_record_exits_0(tmp_path):
    path = write(tmp_path / "game.json", HAND_RECORD)
    result = run("validate", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (f"{path}: unfinished record (standard, 2 players), "
                                     "after 1 round: scores 0, 1 (game not over)")


def test_validate_finished_record_names_the_winner(tmp_path):
    folder = tmp_path / "games"
    run("simulate", "--games", "1", "--seed", "2", "--bots", "random", "--record-dir", str(folder))
    path = folder / "game-00001.json"
    result = run("validate", str(path))
    assert result.exit_code == 0
    claimed = json.loads(path.read_text())["result"]
    scores = ", ".join(str(score) for score in claimed["scores"])
    seats = ", ".join(str(seat + 1) for seat in claimed["winners"])  # people count seats from 1
    plural = "s" if len(claimed["winners"]) > 1 else ""
    assert result.stdout.strip() == \
        f"{path}: valid record (standard, 2 players), scores {scores}; winner{plural}: seat {seats}"


def test_validate_invalid_record_exits_1_with_the_error_line(tmp_path):
    data = json.loads(json.dumps(HAND_RECORD))
    data["rounds"][0]["actions"][2] = "3R4"  # seat 0's line 4 holds blue
    path = write(tmp_path / "bad.json", data)
    result = run("validate", path)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{path}: invalid record (standard, 2 players)")
    assert lines[1] == "  round 1 action 3 (seat 1, '3R4'): pattern line 4 is full"


def test_validate_json_is_one_object_per_file_per_line(tmp_path):
    good = write(tmp_path / "good.json", HAND_RECORD)
    bad = write(tmp_path / "bad.json", "{not json")
    result = run("validate", good, bad, "--json")
    assert result.exit_code == 1
    first, second = [json.loads(line) for line in result.stdout.splitlines()]
    assert first["path"] == good and first["valid"] and first["kind"] == "record"
    assert first["finished"] is False and first["round_scores"] == [[0, 1]] and first["winners"] is None
    assert second["path"] == bad and not second["valid"]
    assert second["errors"][0]["message"].startswith("not JSON")
    assert set(second["errors"][0]) == {"round", "action", "seat", "text", "message"}


def test_validate_hostile_json_is_a_message_not_a_traceback(tmp_path):
    deep = write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000)
    listed = write(tmp_path / "list.json", "[1, 2, 3]")
    result = run("validate", deep, listed)
    assert result.exit_code == 1
    assert "nested too deeply" in result.stdout and "a JSON object, not a list" in result.stdout
    assert "Traceback" not in result.output


def test_validate_tells_records_from_variant_files_by_content(tmp_path):
    record = write(tmp_path / "game.txt", HAND_RECORD)  # a record, whatever its name
    variant = write(tmp_path / "house.yaml", "name: house\nextends: standard\n")
    result = run("validate", record, variant, "--json", "--no-play")
    assert result.exit_code == 0, result.output
    kinds = [json.loads(line)["kind"] for line in result.stdout.splitlines()]
    assert kinds == ["record", "variant"]


def test_validate_plays_variant_files_unless_told_not_to(tmp_path):
    variant = write(tmp_path / "house.yaml", "name: house\nextends: standard\nplayers: [2]\n")
    result = run("validate", variant, "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games_played"] >= 3


def test_validate_invalid_variant_file_exits_1(tmp_path):
    variant = write(tmp_path / "bad.yaml", "name: bad\nextends: standrd\n")
    result = run("validate", variant, "--no-play")
    assert result.exit_code == 1
    assert "bad.yaml:2:" in result.output and "standard" in result.output


def test_validate_missing_file_is_exit_1_with_a_message(tmp_path):
    good = write(tmp_path / "good.json", HAND_RECORD)
    result = run("validate", good, str(tmp_path / "nothing.json"))
    assert result.exit_code == 1
    assert "nothing.json: no such file" in result.stderr
    assert "unfinished record" in result.stdout  # the other file is still checked


def test_validate_without_files_is_wrong_usage():
    assert run("validate").exit_code == 2
    assert run("validate", "--games", "x", "f.json").exit_code == 2


RECORD_KEYS = {"path", "kind", "valid", "finished", "variant", "variant_name", "players", "rounds",
               "scores", "winners", "round_scores", "to_move", "errors", "sealed"}


def test_validate_json_gives_every_line_the_documented_keys_a_missing_file_included(tmp_path):
    good = write(tmp_path / "good.json", HAND_RECORD)
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("validate", good, str(tmp_path / "nothing.json"), str(empty), "--json")
    assert result.exit_code == 1
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [set(report) for report in reports] == [RECORD_KEYS] * 3
    missing = reports[1]
    assert missing["kind"] is None and not missing["valid"]
    assert missing["errors"] == [{"round": None, "action": None, "seat": None, "text": None,
                                  "message": "no such file"}]
    assert reports[2]["errors"][0]["message"] == "a folder with no .json records"


def test_validate_a_folder_ends_with_a_summary_line(tmp_path):
    for number in range(3):
        write(tmp_path / f"game{number}.json", HAND_RECORD)
    write(tmp_path / "broken.json", "{not json")
    result = run("validate", str(tmp_path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "3 valid, 1 invalid"
    single = run("validate", str(tmp_path / "game0.json"))
    assert "valid, 0 invalid" not in single.stdout       # one file: its verdict says it all


def test_validate_one_player_is_not_players(tmp_path):
    variant = write(tmp_path / "solo.yaml", "name: solo\nextends: standard\nplayers: [1]\n"
                    "settings:\n  factories: {1: 3}\n")
    record = write(tmp_path / "solo.json", {**HAND_RECORD, "variant": "solo.yaml", "players": ["ana"],
                                             "rounds": []})
    result = run("validate", record, variant, "--games", "2")
    assert "(solo.yaml, 1 player)" in result.stdout, result.output
    assert "2 random games played (1 player)" in result.stdout, result.output
