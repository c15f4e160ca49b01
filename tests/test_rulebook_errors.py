"""Resolving a variant's rules refuses plugins that don't make a playable game, with a reason:
setup hooks left unanswered or answered wrongly, a negative floor, a situation hook nobody
implements, a bad ``MarkerRule``, a table that is not a ``TableSetup``; and two plugins
declaring the same setting."""

from __future__ import annotations

import textwrap
from types import SimpleNamespace

import pytest

import azul_plugins.colour_wall as colour_wall
import azul_plugins.standard as standard
from azul_core import hookimpl
from azul_core.engine.plugins import LoadedPlugin, PluginError, register_plugins
from azul_core.engine.rulebook import Rules, VariantRulesError
from azul_core.rules import MarkerRule, TableSetup
from azul_core.testing import new_game
from azul_core.variants.loading import VariantError, load_variant


def loaded(name: str, module) -> LoadedPlugin:
    return LoadedPlugin(name, module, "test", "", "")


def standard_without(*hooks: str) -> SimpleNamespace:
    """The standard plugin's hook implementations but the named ones."""
    return SimpleNamespace(**{name: getattr(standard, name) for name in dir(standard)
                              if name.startswith("azul_") and name not in hooks})


def rules_of(*plugins: LoadedPlugin, decide=None) -> Rules:
    return Rules(register_plugins(list(plugins)), load_variant("standard").settings, name="test",
                 decide=decide)


def plugin(hook: str, answer):
    """A plugin object answering one hook with ``answer``."""
    def answering(self, **_kwargs):
        return answer
    answering.__name__ = hook
    return type(f"Answers_{hook}", (), {hook: hookimpl(answering)})()


# ------------------------------------------------------------------ setup hooks


def test_the_standard_rules_resolve():
    rules = rules_of(loaded("standard", standard), loaded("colour_wall", colour_wall))
    assert rules.floor_spaces == 7 and not rules.tile_at_turn_end
    assert rules.table(2) == TableSetup(5, 4, 20)


def test_a_setup_hook_no_plugin_answers_names_it():
    with pytest.raises(VariantRulesError,
                       match="no plugin answers azul_floor_spaces: is the 'standard' plugin listed"):
        rules_of(loaded("colour_wall", colour_wall))
    with pytest.raises(VariantRulesError, match="no plugin answers azul_tiling_time"):
        rules_of(loaded("standard", standard_without("azul_tiling_time")),
                 loaded("colour_wall", colour_wall))


def test_the_plugin_deciding_the_wall_must_answer_its_setup_hook():
    class SilentWall:
        @hookimpl
        def azul_wall_spaces(self, wall, row, colour):
            return (0,)

        @hookimpl
        def azul_wall_choice(self):
            return None

    with pytest.raises(VariantRulesError,
                       match="plugin 'SilentWall' decides the rule of azul_wall_choice but does not answer it"):
        new_game(plugins=[SilentWall()], decide={"wall": "SilentWall"})


@pytest.mark.parametrize("hook, answer, expected", [
    ("azul_floor_spaces", "7", "expected int"),
    ("azul_floor_spaces", True, "expected int"),          # a bool is not a size
    ("azul_tiling_time", "never", "expected round or turn"),
    ("azul_misplaced_draft", "bin", "expected refuse or floor"),
])
def test_a_setup_answer_of_the_wrong_kind_is_refused(hook, answer, expected):
    with pytest.raises(PluginError) as caught:
        new_game(plugins=[plugin(hook, answer)])
    assert f"returned {answer!r} from {hook}: {expected}" in str(caught.value)
    assert caught.value.hook == hook and caught.value.plugin == f"Answers_{hook}"


def test_a_negative_floor_size_is_refused():
    with pytest.raises(PluginError, match="plugin 'Answers_azul_floor_spaces' gave a negative floor size"):
        new_game(plugins=[plugin("azul_floor_spaces", -1)])
    assert new_game(plugins=[plugin("azul_floor_spaces", 0)]).rules.floor_spaces == 0


# ------------------------------------------------------------------ situation hooks


def test_a_situation_hook_no_plugin_implements_names_it():
    with pytest.raises(VariantRulesError,
                       match="no plugin implements azul_placement_score: is the 'standard' plugin listed"):
        rules_of(loaded("standard", standard_without("azul_placement_score")),
                 loaded("colour_wall", colour_wall))
    with pytest.raises(VariantRulesError, match="no plugin implements azul_floor_penalty"):
        rules_of(loaded("standard", standard_without("azul_floor_penalty")),
                 loaded("colour_wall", colour_wall))


def test_the_plugin_deciding_the_wall_must_implement_its_situation_hook():
    class ChoiceOnly:
        @hookimpl
        def azul_wall_choice(self):
            return True

    with pytest.raises(VariantRulesError,
                       match="plugin 'ChoiceOnly' decides the rule of azul_wall_spaces but does not implement it"):
        new_game(plugins=[ChoiceOnly()], decide={"wall": "ChoiceOnly"})


def test_collecting_hooks_may_have_no_implementation():
    rules = rules_of(loaded("standard", standard_without("azul_end_bonuses")),
                     loaded("colour_wall", colour_wall))
    assert rules.end_bonuses([[None] * 5] * 5) == []


# ------------------------------------------------------------------ the marker rule


@pytest.mark.parametrize("answer, expected", [
    (MarkerRule(placement="table"), "placement must be floor or aside"),
    (MarkerRule(full_floor="drop"), "full_floor must be keep or bump"),
    (MarkerRule(unclaimed="last"), "unclaimed must be same or next"),
    ("aside", "expected a MarkerRule"),
])
def test_a_bad_marker_rule_is_refused(answer, expected):
    with pytest.raises(PluginError) as caught:
        new_game(plugins=[plugin("azul_marker_rule", answer)])
    assert expected in str(caught.value) and caught.value.hook == "azul_marker_rule"


def test_every_part_of_the_marker_rule_needs_an_answer():
    class PlacementOnly:
        @hookimpl
        def azul_marker_rule(self):
            return MarkerRule(placement="aside")

    with pytest.raises(VariantRulesError,
                       match="no plugin answers azul_marker_rule for full_floor, unclaimed"):
        rules_of(loaded("standard", standard_without("azul_marker_rule")),
                 loaded("colour_wall", colour_wall), loaded("PlacementOnly", PlacementOnly()))
    # the parts a plugin leaves open are the next plugin's (the standard's) answer
    rules = new_game(plugins=[PlacementOnly()]).rules
    assert rules.marker == MarkerRule("aside", "keep", "same")
    assert rules.deciders["azul_marker_rule"] == \
        "placement: PlacementOnly, full_floor: standard, unclaimed: standard"


# ------------------------------------------------------------------ the table


def test_a_table_no_plugin_sets_up_is_refused_when_a_game_starts():
    rules = rules_of(loaded("standard", standard_without("azul_game_setup")),
                     loaded("colour_wall", colour_wall))
    with pytest.raises(VariantRulesError, match="no plugin sets up a table for 3 players"):
        rules.table(3)


@pytest.mark.parametrize("answer", [{"factories": 5}, (5, 4, 20)])
def test_a_table_that_is_not_a_table_setup_is_refused(answer):
    game_rules = new_game(plugins=[plugin("azul_game_setup", None)]).rules
    assert game_rules.table(2) == TableSetup(5, 4, 20)   # None: the standard plugin's table
    with pytest.raises(PluginError, match="from azul_game_setup: expected a TableSetup") as caught:
        new_game(plugins=[plugin("azul_game_setup", answer)])
    assert caught.value.plugin == "Answers_azul_game_setup"


def test_a_table_refused_in_words_gives_the_words():
    with pytest.raises(VariantRulesError, match="the factories table covers 2, 3, 4 players, not 5"):
        new_game().rules.table(5)


# ------------------------------------------------------------------ settings


def write_plugin(folder, name: str, setting: str, default) -> None:
    (folder / f"{name}.py").write_text(textwrap.dedent(f"""\
        from azul_core import hookimpl
        from azul_core.settings import Setting

        @hookimpl
        def azul_declare_settings():
            return [Setting({setting!r}, "int", {default!r}, "a house rule's number")]
        """))


def test_two_plugins_declaring_the_same_setting_are_refused(tmp_path):
    write_plugin(tmp_path, "first_rule", "house_bonus", 1)
    write_plugin(tmp_path, "second_rule", "house_bonus", 5)
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: standard\n"
                    "plugins: [standard, colour_wall, first_rule.py, second_rule.py]\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    messages = [problem.message for problem in caught.value.problems]
    assert "setting 'house_bonus' is declared by both 'first_rule' and 'second_rule'" in messages


def test_a_plugin_may_not_redeclare_a_standard_setting(tmp_path):
    write_plugin(tmp_path, "greedy_rule", "row_bonus", 9)
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: standard\nplugins: [standard, colour_wall, greedy_rule.py]\n")
    with pytest.raises(VariantError, match="setting 'row_bonus' is declared by both 'standard' and 'greedy_rule'"):
        load_variant(path)


def test_distinct_settings_of_two_plugins_both_load(tmp_path):
    write_plugin(tmp_path, "first_rule", "house_bonus", 1)
    write_plugin(tmp_path, "second_rule", "house_malus", 5)
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: standard\n"
                    "plugins: [standard, colour_wall, first_rule.py, second_rule.py]\n")
    variant = load_variant(path)
    assert (variant.settings.house_bonus, variant.settings.house_malus) == (1, 5)
    assert variant.declared["house_malus"].owner == "second_rule"
