"""The traps of the rule API, closed: misspelt hook arguments, orderings other than the
variant file's, hook functions imported from another plugin, ``azul rules`` probes that
miss a rule, ``set_wall`` with a list, and the record's optional ``first_player``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from azul_core.lab.simulate import simulate
from azul_core.records.game_record import RecordError, parse_record, validate_record
from azul_core.testing import new_game, set_wall, wall_text
from azul_core.variants.differences import explain
from azul_core.variants.loading import load_variant

STANDARD_REFERENCE = Path(__file__).resolve().parent / "reference" / "records" / "standard.json"


def variant_with(tmp_path: Path, code: str, name: str = "rule") -> Path:
    (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: standard\nplugins: [standard, colour_wall, {name}.py]\n",
                    encoding="utf-8")
    return path


# ---------------------------------------------------------------- registration


def test_a_misspelt_argument_names_the_allowed_ones_with_a_did_you_mean_and_the_line(tmp_path):
    path = variant_with(tmp_path, "from azul_core import hookimpl\n\n\n@hookimpl\n"
                                  "def azul_floor_penalty(floor, setings):\n    return 0\n")
    with pytest.raises(Exception) as excinfo:
        load_variant(path)
    message = str(excinfo.value)
    assert "azul_floor_penalty has no argument 'setings'; did you mean 'settings'?" in message
    assert "(it may take floor, seat, game, memory, secret, settings, answer)" in message
    assert f"{tmp_path / 'rule.py'}:4" in message
    assert "hookimpl definition" not in message  # not pluggy's raw text


@pytest.mark.parametrize("mark", ["tryfirst=True", "trylast=True", "wrapper=True"])
def test_an_ordering_other_than_the_files_is_refused(tmp_path, mark):
    body = "    answer = yield\n    return answer\n" if mark.startswith("wrapper") else "    return 0\n"
    path = variant_with(tmp_path, f"from azul_core import hookimpl\n\n\n@hookimpl({mark})\n"
                                  f"def azul_floor_penalty(floor):\n{body}")
    with pytest.raises(Exception, match=f"marks azul_floor_penalty {mark}.*variant file's order"):
        load_variant(path)


def test_a_hook_function_imported_from_a_listed_plugin_is_refused(tmp_path):
    path = variant_with(tmp_path, "from azul_plugins.standard import azul_end_bonuses  # noqa: F401\n")
    with pytest.raises(Exception) as excinfo:
        load_variant(path)
    message = str(excinfo.value)
    assert "plugin 'rule' implements azul_end_bonuses with the function of plugin 'standard'" in message
    assert "asked twice" in message and "import azul_plugins.standard as" in message


def test_a_module_imported_to_call_its_functions_is_fine(tmp_path):
    path = variant_with(tmp_path, "import azul_plugins.standard as standard\nfrom azul_core import hookimpl\n\n"
                                  "@hookimpl\ndef azul_placement_score(wall, row, column):\n"
                                  "    return standard.azul_placement_score(wall, row, column) + 1\n")
    assert load_variant(path).rules.deciders["azul_end_bonuses"] == "standard"


# ---------------------------------------------------------------- testing helpers


def test_set_wall_takes_a_list_of_rows():
    game = new_game()
    set_wall(game, 0, ["B . . . .", ". . . . .", ". . . . .", ". . . . .", ". . . . ."])
    set_wall(game, 1, [["B", None, ".", ".", "."]] + [["."] * 5] * 4)
    assert wall_text(game, 0).splitlines()[0] == wall_text(game, 1).splitlines()[0] == "B . . . ."
    with pytest.raises(ValueError, match="a wall picture is a string of 5 lines or a list of 5 rows"):
        set_wall(game, 0, 42)
    with pytest.raises(ValueError, match="5 lines of 5 spaces"):
        set_wall(game, 0, ["B...."])


# ---------------------------------------------------------------- azul rules


def rules_text(tmp_path: Path, code: str) -> str:
    return "\n".join(explain(load_variant(variant_with(tmp_path, code)), load_variant("standard")))


def test_rules_finds_a_score_for_one_colour_only(tmp_path):
    text = rules_text(tmp_path, "from azul_core import hookimpl\n\n@hookimpl\n"
                                "def azul_placement_score(wall, row, column, answer):\n"
                                "    return answer * 2 if wall[row][column] == 3 else answer\n")
    assert "- scoring the tile at (" in text and "no rule differs" not in text


def test_rules_finds_a_two_by_two_square_bonus(tmp_path):
    text = rules_text(tmp_path, "from azul_core import hookimpl\n\n@hookimpl\ndef azul_end_bonuses(wall):\n"
                                "    squares = sum(all(wall[r + i][c + j] is not None for i in (0, 1) for j in (0, 1))\n"
                                "                  for r in range(4) for c in range(4))\n"
                                "    return [('squares', 3 * squares)]\n")
    assert "- end bonus for the wall " in text and "no rule differs" not in text


def test_rules_says_it_could_not_tell_a_rule_that_reads_the_game(tmp_path):
    text = rules_text(tmp_path, "from azul_core import hookimpl\n\n@hookimpl\ndef azul_winners(game):\n"
                                "    return [game.first_player]\n")
    assert "Could not tell" in text and "azul_winners (rule)" in text
    assert "plays exactly as the standard game" not in text


# ---------------------------------------------------------------- records


def test_an_old_record_has_no_first_player_and_still_validates():
    data = json.loads(STANDARD_REFERENCE.read_text())
    assert "first_player" not in data
    assert parse_record(json.dumps(data)).first_player == 0
    assert validate_record(STANDARD_REFERENCE)["valid"]


@pytest.mark.parametrize("value", [2, -1, True, "1", 1.0])
def test_a_first_player_that_is_not_a_seat_is_refused(value):
    data = {"format": "azul-record/1", "variant": "standard", "players": ["a", "b"], "rounds": [],
            "first_player": value}
    with pytest.raises(RecordError, match="'first_player' must be the seat that started round 1"):
        parse_record(json.dumps(data))


def test_a_record_written_with_seat_zero_starting_has_no_first_player_field():
    data = {"format": "azul-record/1", "variant": "standard", "players": ["a", "b"], "rounds": []}
    assert "first_player" not in parse_record(json.dumps(data)).to_dict()
    data["first_player"] = 1
    assert parse_record(json.dumps(data)).to_dict()["first_player"] == 1


def test_a_record_replays_from_its_first_player(tmp_path):
    folder = tmp_path / "records"
    simulate("standard", 2, 1, seed=2, bots="random", record_dir=folder)
    path = next(folder.glob("*.json"))
    assert validate_record(path)["valid"]
    data = json.loads(path.read_text())
    data["first_player"] = 1  # the same moves with seat 1 first: the recorded scores no longer match
    path.write_text(json.dumps(data))
    assert not validate_record(path)["valid"]
