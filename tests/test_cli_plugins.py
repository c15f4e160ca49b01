"""``azul plugins``, and plugins that misbehave seen through ``azul simulate`` and ``azul validate``:
one line naming the plugin, the hook and the plugin's file and line, exit 1, no traceback
unless --debug."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from azul_core.cli.app import _register, app
from azul_core.engine.plugins import PluginError

_register()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "AZUL_DEBUG": ""}


def azul(*args: str, debug: bool = False):
    env = {**ENV, "AZUL_DEBUG": "1" if debug else ""}
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# ---------------------------------------------------------------- azul plugins


def test_plugins_lists_the_installed_plugins_with_origin_and_hooks():
    result = azul("plugins")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Installed plugins (entry-point group azul.plugins)")
    standard = next(i for i, line in enumerate(lines) if line.startswith("standard "))
    assert "entry point azul_plugins.standard (package azul-variants " in lines[standard]
    assert "azul_floor_penalty" in " ".join(lines[standard + 1:standard + 6])
    assert any(line.startswith("colour_wall ") for line in lines)


def test_plugins_json():
    result = azul("plugins", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert (document["kind"], document["source"], document["api_version"]) == ("plugins", "installed", 1)
    found = {entry["name"]: entry for entry in document["plugins"]}
    wall = found["colour_wall"]
    assert wall["hooks"] == ["azul_wall_choice", "azul_wall_spaces"]
    assert wall["origin"] == "entry point azul_plugins.colour_wall"
    assert wall["distribution"].startswith("azul-variants ") and wall["error"] is None
    assert found["standard"]["file"].endswith("standard.py")


def test_plugins_of_a_variant_file_include_its_py_files_in_order():
    path = EXAMPLES / "free-marker" / "free-marker.yaml"
    result = azul("plugins", "--variant", path, "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["source"] == "variant" and document["variant"] == "free-marker"
    assert [entry["name"] for entry in document["plugins"]] == ["standard", "colour_wall", "free_marker"]
    assert document["plugins"][0]["distribution"].startswith("azul-variants ")
    house = document["plugins"][-1]
    assert house["origin"] == f"file {path.parent / 'free_marker.py'}"
    assert (house["version"], house["hooks"], house["api"]) == ("1.0", ["azul_floor_penalty"], [1])
    text = azul("plugins", "--variant", path).stdout
    assert "Plugins of variant 'free-marker'" in text and "free_marker  1.0  file " in text


def test_plugins_of_a_builtin_variant_by_name():
    result = azul("plugins", "--variant", "standard")
    assert result.exit_code == 0, result.output
    assert "standard  " in result.stdout and "colour_wall  " in result.stdout


def test_plugins_of_an_unknown_variant_is_one_line_and_exit_1():
    result = azul("plugins", "--variant", "standrd")
    assert result.exit_code == 1
    assert "unknown variant 'standrd'" in result.stderr and "did you mean 'standard'?" in result.stderr
    assert "Traceback" not in result.output


def install(folder: Path, plugin: str, code: str) -> None:
    dist = folder / f"azul_test_{plugin}-0.3.dist-info"
    write(dist / "METADATA", f"Metadata-Version: 2.1\nName: azul-test-{plugin}\nVersion: 0.3\n")
    write(dist / "entry_points.txt", f"[azul.plugins]\n{plugin} = azul_test_{plugin}\n")
    write(folder / f"azul_test_{plugin}.py", code)


def test_a_broken_installed_plugin_is_listed_with_its_error_and_exit_1(site_folder):
    install(site_folder, "broken", "import no_such_module_anywhere\n")
    install(site_folder, "too_new", "AZUL_API = 7\n\ndef azul_game_over(walls):\n    return None\n")
    result = azul("plugins", "--json")
    assert result.exit_code == 1
    found = {entry["name"]: entry for entry in json.loads(result.stdout)["plugins"]}
    assert "failed to import: ModuleNotFoundError" in found["broken"]["error"]
    assert found["broken"]["version"] == "0.3" and found["broken"]["distribution"] == "azul-test-broken 0.3"
    assert found["too_new"]["error"] == "needs hook API 7; this azul-variants offers 1"
    assert found["too_new"]["hooks"] == ["azul_game_over"]
    assert found["standard"]["error"] is None
    assert result.stderr.strip() == "azul: 2 plugin(s) failed to load: broken, too_new"


def test_a_misspelt_hook_is_shown(site_folder):
    install(site_folder, "typo", "def azul_flor_penalty(floor):\n    return 0\n")
    result = azul("plugins")
    assert "typo  0.3  entry point azul_test_typo (package azul-test-typo 0.3)" in result.stdout
    assert "not hooks (typos?): azul_flor_penalty" in result.stdout


# ---------------------------------------------------------------- misbehaving plugins in commands

RAISES = """\
from azul_core import hookimpl


@hookimpl
def azul_floor_penalty(floor):
    return -len(floor) // 0
"""


@pytest.fixture
def raising_variant(tmp_path):
    write(tmp_path / "divides.py", RAISES)
    return write(tmp_path / "divides.yaml",
                 "name: divides\nextends: standard\nplugins: [standard, colour_wall, divides.py]\n")


def test_simulate_reports_a_raising_plugin_in_one_line(raising_variant, tmp_path):
    result = azul("simulate", "--variant", raising_variant, "--games", "3", "--seed", "1", "--bots", "random")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert (f"plugin 'divides' raised ZeroDivisionError in azul_floor_penalty at "
            f"{tmp_path / 'divides.py'}:6") in lines[0]


def test_simulate_with_debug_lets_the_traceback_through(raising_variant):
    result = azul("simulate", "--variant", raising_variant, "--games", "3", "--seed", "1", "--bots", "random",
                  debug=True)
    assert result.exit_code != 0
    error = result.exception
    while error is not None and not isinstance(error, PluginError):
        error = error.__cause__
    assert isinstance(error, PluginError) and error.hook == "azul_floor_penalty"


def test_validate_reports_a_raising_plugin_with_its_line(raising_variant, tmp_path):
    result = azul("validate", raising_variant, "--games", "2")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert (f"plugin 'divides' raised ZeroDivisionError in azul_floor_penalty at "
            f"{tmp_path / 'divides.py'}:6") in result.output


def test_simulate_and_validate_report_a_plugin_that_fails_to_import(tmp_path):
    write(tmp_path / "broken.py", "import no_such_module_anywhere\n")
    path = write(tmp_path / "broken.yaml",
                 "name: broken\nextends: standard\nplugins: [standard, colour_wall, broken.py]\n")
    for result in (azul("simulate", "--variant", path, "--games", "1", "--seed", "1"),
                   azul("validate", path)):
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert (f"plugin file 'broken.py' failed to import: ModuleNotFoundError: No module named "
                f"'no_such_module_anywhere' ({tmp_path / 'broken.py'}:1)") in result.output


def test_validate_reports_an_answer_the_engine_refuses(tmp_path):
    write(tmp_path / "generous.py", "def azul_floor_penalty(floor):\n    return len(floor)\n")
    path = write(tmp_path / "generous.yaml",
                 "name: generous\nextends: standard\nplugins: [standard, colour_wall, generous.py]\n")
    result = azul("validate", path, "--games", "2")
    assert result.exit_code == 1
    assert "plugin 'generous' returned" in result.output
    assert "from azul_floor_penalty" in result.output and "a floor penalty can't be positive" in result.output


@pytest.mark.parametrize("folder", ["family-floor", "five-rounds", "diagonals", "free-marker", "shared-ties"])
def test_every_example_validates(folder):
    path = next((EXAMPLES / folder).glob("*.yaml"))
    result = azul("validate", path, "--games", "20")
    assert result.exit_code == 0, result.output


def seats(summary, key):
    return [seat[key] for seat in summary["seats"]]


EFFECTS = {  # what `azul simulate` shows for each house rule, against standard with the same seed
    "family-floor": lambda house, standard: all(
        h > s for h, s in zip(seats(house, "mean_penalty_points"), seats(standard, "mean_penalty_points"))),
    "five-rounds": lambda house, standard: house["max_rounds"] == 5 < standard["max_rounds"],
    "diagonals": lambda house, standard: sum(seats(house, "mean_bonus_points"))
    > sum(seats(standard, "mean_bonus_points")),
    "free-marker": lambda house, standard: all(
        h > s for h, s in zip(seats(house, "mean_penalty_points"), seats(standard, "mean_penalty_points"))),
    "shared-ties": lambda house, standard: house["shared_victories"] > standard["shared_victories"],
}


@pytest.fixture(scope="module")
def standard_summary():
    return json.loads(azul("simulate", "--games", "200", "--seed", "1", "--bots", "random", "--json").stdout)


@pytest.mark.parametrize("folder", sorted(EFFECTS))
def test_simulate_shows_each_house_rule_in_its_summary(folder, standard_summary):
    path = next((EXAMPLES / folder).glob("*.yaml"))
    result = azul("simulate", "--variant", path, "--games", "200", "--seed", "1", "--bots", "random", "--json")
    assert result.exit_code == 0, result.output
    house = json.loads(result.stdout)
    assert house["games"] == standard_summary["games"] == 200
    assert EFFECTS[folder](house, standard_summary)
