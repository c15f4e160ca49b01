"""Loading plugins (file, module, entry point), the hook API version, and plugins that misbehave:
each problem is a PluginError (or a VariantError line) naming the plugin, the hook and the line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from azul_core import API_VERSION, hookimpl
from azul_core.engine.plugins import PluginError, load_plugin, register_plugins
from azul_core.engine.state import IllegalDecision
from azul_core.testing import new_game, play, play_out, set_lines, set_table, set_wall
from azul_core.variants.loading import VariantError, load_variant

HOUSE_RULE = """\
from azul_core import hookimpl

__version__ = "2.5"


@hookimpl
def azul_floor_penalty(floor):
    return {penalty}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def variant_file(folder: Path, plugins: list[str], name: str = "house", extends: str = "standard") -> Path:
    listed = ", ".join(plugins)
    return write(folder / f"{name}.yaml", f"name: {name}\nextends: {extends}\nplugins: [{listed}]\n")


def floor_cost(variant) -> int:
    """What two tiles on the floor cost under this variant (standard: -2)."""
    return variant.rules.floor_penalty([0, 0])


def problems_of(excinfo) -> str:
    return "\n".join(str(problem) for problem in excinfo.value.problems)


# ---------------------------------------------------------------- three ways to load


def test_a_py_file_is_found_relative_to_the_variant_file(tmp_path, monkeypatch):
    write(tmp_path / "rules" / "house" / "cheap_floor.py", HOUSE_RULE.format(penalty=-1))
    path = variant_file(tmp_path / "rules", ["standard", "colour_wall", "house/cheap_floor.py"])
    monkeypatch.chdir(write(tmp_path / "elsewhere" / "x", "").parent)
    variant = load_variant(path)
    plugin = variant.plugins[-1]
    assert (plugin.name, plugin.version) == ("cheap_floor", "2.5")
    assert plugin.origin == f"file {tmp_path / 'rules' / 'house' / 'cheap_floor.py'}"
    assert floor_cost(variant) == -1


def test_a_py_file_may_be_given_by_absolute_path(tmp_path):
    plugin = write(tmp_path / "a" / "cheap_floor.py", HOUSE_RULE.format(penalty=-1))
    path = variant_file(tmp_path / "b", ["standard", "colour_wall", str(plugin)])
    assert floor_cost(load_variant(path)) == -1


def test_a_py_file_listed_by_a_base_variant_is_relative_to_that_file(tmp_path):
    write(tmp_path / "base" / "cheap_floor.py", HOUSE_RULE.format(penalty=-1))
    variant_file(tmp_path / "base", ["standard", "colour_wall", "cheap_floor.py"], name="base")
    child = write(tmp_path / "child" / "child.yaml",
                  "name: child\nextends: ../base/base.yaml\nsettings: {row_bonus: 3}\n")
    variant = load_variant(child)
    assert floor_cost(variant) == -1 and variant.settings.row_bonus == 3


def test_a_missing_py_file_names_where_it_was_looked_for(tmp_path):
    path = variant_file(tmp_path, ["standard", "colour_wall", "nothere.py"])
    with pytest.raises(VariantError) as excinfo:
        load_variant(path)
    assert f"plugin file 'nothere.py' not found (looked for {tmp_path / 'nothere.py'})" in problems_of(excinfo)


def test_a_dotted_module_importable_from_the_environment(site_folder, tmp_path):
    write(site_folder / "club_rules" / "__init__.py", "")
    write(site_folder / "club_rules" / "floor.py", HOUSE_RULE.format(penalty=-1))
    variant = load_variant(variant_file(tmp_path, ["standard", "colour_wall", "club_rules.floor"]))
    plugin = variant.plugins[-1]
    assert (plugin.name, plugin.origin, plugin.version) == ("club_rules.floor", "module club_rules.floor", "2.5")
    assert floor_cost(variant) == -1


def install_entry_point(folder: Path, plugin_name: str, module: str, code: str, version: str = "3.1") -> None:
    """Make ``folder`` (on sys.path) hold an installed distribution declaring ``plugin_name``
    in the entry-point group azul.plugins, as pip would leave it."""
    dist = folder / f"azul_house_{plugin_name}-{version}.dist-info"
    write(dist / "METADATA", f"Metadata-Version: 2.1\nName: azul-house-{plugin_name}\nVersion: {version}\n")
    write(dist / "entry_points.txt", f"[azul.plugins]\n{plugin_name} = {module}\n")
    write(folder / f"{module}.py", code)


def test_an_installed_plugin_is_found_by_its_entry_point_name(site_folder, tmp_path):
    install_entry_point(site_folder, "cheap_floor", "azul_house_cheap_floor", HOUSE_RULE.format(penalty=-1))
    variant = load_variant(variant_file(tmp_path, ["standard", "colour_wall", "cheap_floor"]))
    plugin = variant.plugins[-1]
    assert plugin.name == "cheap_floor"
    assert plugin.origin == "entry point azul_house_cheap_floor" and plugin.version == "3.1"
    assert floor_cost(variant) == -1


def test_the_shipped_plugins_load_through_the_same_entry_point_group():
    plugin = load_plugin("standard")
    assert plugin.origin == "entry point azul_plugins.standard" and plugin.version


def test_an_unknown_name_lists_the_installed_plugins_with_a_did_you_mean():
    with pytest.raises(PluginError) as excinfo:
        load_plugin("standrd")
    message = str(excinfo.value)
    assert "plugin 'standrd' not found" in message and "did you mean 'standard'?" in message
    assert excinfo.value.plugin == "standrd"


def test_an_installed_plugin_that_fails_to_import_is_named(site_folder, tmp_path):
    install_entry_point(site_folder, "broken", "azul_house_broken", "import no_such_module_here\n")
    with pytest.raises(VariantError) as excinfo:
        load_variant(variant_file(tmp_path, ["standard", "colour_wall", "broken"]))
    text = problems_of(excinfo)
    assert "plugin 'broken' (azul_house_broken) failed to import: ModuleNotFoundError" in text
    assert "azul_house_broken.py:1" in text


# ---------------------------------------------------------------- the hook API version


@pytest.mark.parametrize("wanted", ["1", "(1, 2)", "[0, 1]"])
def test_a_plugin_needing_the_offered_api_loads(tmp_path, wanted):
    write(tmp_path / "rule.py", HOUSE_RULE.format(penalty=-1) + f"\nAZUL_API = {wanted}\n")
    assert floor_cost(load_variant(variant_file(tmp_path, ["standard", "colour_wall", "rule.py"]))) == -1


@pytest.mark.parametrize("wanted", ["2", "(2, 3)"])
def test_a_plugin_needing_another_api_is_refused_clearly(tmp_path, wanted):
    write(tmp_path / "rule.py", HOUSE_RULE.format(penalty=-1) + f"\nAZUL_API = {wanted}\n")
    with pytest.raises(VariantError) as excinfo:
        load_variant(variant_file(tmp_path, ["standard", "colour_wall", "rule.py"]))
    assert (f"plugin 'rule' needs hook API {wanted}, but this azul-variants offers API {API_VERSION}: "
            "update the plugin or azul-variants") in problems_of(excinfo)


def test_the_api_check_at_the_api_level(tmp_path):
    plugin = load_plugin(str(write(tmp_path / "future.py", "AZUL_API = 99\n")))
    with pytest.raises(PluginError, match="needs hook API 99") as excinfo:
        register_plugins([load_plugin("standard"), plugin])
    assert excinfo.value.plugin == "future"


# ---------------------------------------------------------------- plugins that fail


def test_a_plugin_file_with_a_syntax_error_names_file_and_line(tmp_path):
    write(tmp_path / "typo.py", "from azul_core import hookimpl\n\ndef azul_game_over(walls:\n")
    with pytest.raises(PluginError) as excinfo:
        load_plugin("typo.py", tmp_path)
    message = str(excinfo.value)
    assert message.startswith("plugin file 'typo.py' failed to import: SyntaxError")
    assert f"{tmp_path / 'typo.py'}:3" in message


def test_a_plugin_file_raising_on_import_names_the_line_in_the_plugin(tmp_path):
    write(tmp_path / "bad_import.py", "import json\n\nSETTINGS = json.loads('{not json')\n")
    with pytest.raises(PluginError) as excinfo:
        load_plugin("bad_import.py", tmp_path)
    assert "failed to import: JSONDecodeError" in str(excinfo.value)
    assert excinfo.value.plugin == "bad_import.py"
    assert excinfo.value.location == f"{tmp_path / 'bad_import.py'}:3"


RAISES_IN_A_HOOK = """\
from azul_core import hookimpl


def _penalty_of(floor):
    return -len(floor) // 0


@hookimpl
def azul_floor_penalty(floor):
    return _penalty_of(floor)
"""


def test_an_exception_in_a_hook_names_plugin_hook_and_line(tmp_path):
    write(tmp_path / "divides.py", RAISES_IN_A_HOOK)
    game = new_game(variant_file(tmp_path, ["standard", "colour_wall", "divides.py"]))
    with pytest.raises(PluginError) as excinfo:
        play_out(game, seed=1)
    error = excinfo.value
    where = f"{tmp_path / 'divides.py'}:5"
    assert (error.plugin, error.hook, error.location) == ("divides", "azul_floor_penalty", where)
    assert str(error) == (f"plugin 'divides' raised ZeroDivisionError in azul_floor_penalty at {where}: "
                          "integer division or modulo by zero")


def test_an_exception_in_a_setup_hook_fails_the_variant_with_the_plugin_named(tmp_path):
    write(tmp_path / "no_floor.py", """\
        def azul_floor_spaces(settings):
            return settings.floor_size
        """)
    with pytest.raises(VariantError) as excinfo:
        load_variant(variant_file(tmp_path, ["standard", "colour_wall", "no_floor.py"]))
    assert (f"plugin 'no_floor' raised AttributeError in azul_floor_spaces at {tmp_path / 'no_floor.py'}:2"
            in problems_of(excinfo))


def test_a_misspelt_hook_is_refused_with_a_did_you_mean(tmp_path):
    write(tmp_path / "misspelt.py", "def azul_flor_penalty(floor):\n    return 0\n")
    with pytest.raises(VariantError) as excinfo:
        load_variant(variant_file(tmp_path, ["standard", "colour_wall", "misspelt.py"]))
    assert ("plugin 'misspelt' implements 'azul_flor_penalty', which is not a hook; "
            "did you mean 'azul_floor_penalty'?") in problems_of(excinfo)


# ---------------------------------------------------------------- answers the engine refuses


def refused(excinfo, plugin: str, hook: str, why: str) -> None:
    error = excinfo.value
    assert (error.plugin, error.hook) == (plugin, hook)
    assert str(error).startswith(f"plugin '{plugin}' returned ") and str(error).endswith(why)
    assert error.location.startswith(__file__)


class OneColumnWall:
    """A wall that always answers the same column (and lets the player choose nothing)."""

    def __init__(self, column):
        self.name = "one_column_wall"
        self.column = column

    @hookimpl
    def azul_wall_spaces(self):
        return (self.column,)

    @hookimpl
    def azul_wall_choice(self):
        return False


def one_column_game(column):
    return new_game(plugins=[OneColumnWall(column)], decide={"wall": "one_column_wall"})


def fill_line_one_and_end_round(game):
    set_lines(game, 0, {1: "Y"})
    set_table(game, ["W"])
    play(game, ["1W-"])


def test_a_wall_space_that_is_taken_is_refused():
    game = one_column_game(0)
    set_wall(game, 0, "B....\n.....\n.....\n.....\n.....")
    with pytest.raises(PluginError) as excinfo:
        fill_line_one_and_end_round(game)
    refused(excinfo, "one_column_wall", "azul_wall_spaces", "wall space (1,1) is already taken")


def test_a_wall_space_off_the_board_is_refused():
    with pytest.raises(PluginError) as excinfo:
        fill_line_one_and_end_round(one_column_game(5))
    refused(excinfo, "one_column_wall", "azul_wall_spaces", "column 5 is off the wall (0 to 4)")


class Answers:
    """A plugin answering one hook with a fixed value."""

    def __init__(self, hook, value):
        self.name = "fixed"
        setattr(self, hook, hookimpl(lambda: value))


@pytest.mark.parametrize("value, why", [(3, "a floor penalty can't be positive"),
                                        (-1.5, "expected a whole number"),
                                        (True, "expected a whole number")])
def test_a_bad_floor_penalty_is_refused(value, why):
    game = new_game(plugins=[Answers("azul_floor_penalty", value)])
    with pytest.raises(PluginError) as excinfo:
        play_out(game, seed=1)
    refused(excinfo, "fixed", "azul_floor_penalty", why)


@pytest.mark.parametrize("value, why", [("3", "expected a whole number of points"),
                                        (2.5, "expected a whole number of points"),
                                        (None, None),  # None is "no opinion": standard scores
                                        (-1, "a placement can't cost points")])
def test_a_score_that_is_not_a_whole_number_is_refused(value, why):
    game = new_game(plugins=[Answers("azul_placement_score", value)])
    if why is None:
        assert play_out(game, seed=1).over
        return
    with pytest.raises(PluginError) as excinfo:
        play_out(game, seed=1)
    refused(excinfo, "fixed", "azul_placement_score", why)


@pytest.mark.parametrize("hook, value, why", [
    ("azul_game_over", 1, "expected true or false"),
    ("azul_line_accepts", "yes", "expected true or false"),
    ("azul_winners", [5], "expected seats from 0 to 1"),
    ("azul_winners", [], "expected seats from 0 to 1"),
])
def test_other_unusable_answers_are_refused(hook, value, why):
    with pytest.raises(PluginError) as excinfo:
        play_out(new_game(plugins=[Answers(hook, value)]), seed=1)
    refused(excinfo, "fixed", hook, why)


def test_bad_end_bonuses_are_refused_with_the_plugin_named():
    game = new_game(plugins=[Answers("azul_end_bonuses", [("style", "lots")])])
    with pytest.raises(PluginError) as excinfo:
        play_out(game, seed=1)
    assert (excinfo.value.plugin, excinfo.value.hook) == ("fixed", "azul_end_bonuses")
    assert "plugin 'fixed' returned" in str(excinfo.value)
    assert "from azul_end_bonuses" in str(excinfo.value) and "expected (label, points) pairs" in str(excinfo.value)


def test_a_bad_setup_answer_is_refused_with_the_plugin_named():
    with pytest.raises(PluginError) as excinfo:
        new_game(plugins=[Answers("azul_tiling_time", "sometimes")])
    assert str(excinfo.value) == "plugin 'fixed' returned 'sometimes' from azul_tiling_time: expected round or turn"


def test_a_refused_draft_is_not_a_plugin_error():
    game = new_game()
    set_lines(game, 0, {2: "R"})
    set_table(game, ["BBYY"])
    with pytest.raises(IllegalDecision) as excinfo:
        play(game, ["1B2"])
    assert not isinstance(excinfo.value, PluginError)


# ---------------------------------------------------------------- two plugins, one hook


def test_the_later_plugin_in_the_variant_file_answers_first(tmp_path):
    write(tmp_path / "ten.py", HOUSE_RULE.format(penalty=-10))
    write(tmp_path / "twenty.py", HOUSE_RULE.format(penalty=-20))
    one = load_variant(variant_file(tmp_path, ["standard", "colour_wall", "ten.py", "twenty.py"], "one"))
    other = load_variant(variant_file(tmp_path, ["standard", "colour_wall", "twenty.py", "ten.py"], "other"))
    assert floor_cost(one) == -20 and one.rules.deciders["azul_floor_penalty"] == "twenty > ten > standard"
    assert floor_cost(other) == -10 and other.rules.deciders["azul_floor_penalty"] == "ten > twenty > standard"


def test_a_plugin_answering_none_passes_the_question_on(tmp_path):
    write(tmp_path / "ten.py", HOUSE_RULE.format(penalty=-10))
    write(tmp_path / "no_opinion.py", HOUSE_RULE.format(penalty=None))
    variant = load_variant(variant_file(tmp_path, ["standard", "colour_wall", "ten.py", "no_opinion.py"]))
    assert floor_cost(variant) == -10


def test_zero_is_an_answer_not_no_opinion(tmp_path):
    write(tmp_path / "ten.py", HOUSE_RULE.format(penalty=-10))
    write(tmp_path / "free.py", HOUSE_RULE.format(penalty=0))
    variant = load_variant(variant_file(tmp_path, ["standard", "colour_wall", "ten.py", "free.py"]))
    assert floor_cost(variant) == 0


# ---------------------------------------------------------------- a failing plugin changes nothing

class NegativePlacement:
    """Scores every placed tile -1, which the engine refuses."""

    @hookimpl
    def azul_placement_score(self):
        return -1


class FussyLines:
    """Raises as soon as a pattern line holding red is judged."""

    @hookimpl
    def azul_line_accepts(self, line_colour):
        if line_colour == 2:
            raise RuntimeError("no red here")


def test_a_refused_score_on_the_last_draft_leaves_the_game_as_it_was():
    from azul_core.testing import snapshot
    game = new_game("standard", plugins=[NegativePlacement()])
    set_lines(game, 0, {1: ""})
    set_table(game, ["B"])
    before = snapshot(game)
    with pytest.raises(PluginError, match="NegativePlacement|azul_placement_score"):
        play(game, ["1B1"])  # fills line 1 and ends the round: the tiling scores it
    assert snapshot(game) == before


def test_a_refused_score_on_a_grey_wall_placement_leaves_the_game_as_it_was():
    from azul_core.testing import snapshot
    game = new_game("grey-wall", plugins=[NegativePlacement()])
    set_table(game, ["B"])
    play(game, ["1B1"])
    assert game.phase == "place"
    before = snapshot(game)
    with pytest.raises(PluginError, match="can't cost points"):
        play(game, ["w1:3"])
    assert snapshot(game) == before


def test_a_line_rule_raising_mid_draft_leaves_the_game_as_it_was():
    from azul_core.testing import snapshot
    game = new_game("standard", plugins=[FussyLines()])
    set_table(game, ["RRBY", "KKWW"])
    before = snapshot(game)
    with pytest.raises(PluginError, match="no red here"):
        play(game, ["1R3"])
    assert snapshot(game) == before
