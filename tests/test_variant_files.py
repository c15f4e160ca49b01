"""Variant files validate themselves: every problem at once, each as file:line:col: message."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from azul_core.variants.files import Problem, read_mapping
from azul_core.variants.loading import VariantError, builtin_variants, load_variant


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[Problem]:
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    return caught.value.problems


def places(problems: list[Problem]) -> list[tuple[str, int, int]]:
    return [(Path(p.file).name, p.line, p.column) for p in problems]


def only(path: Path) -> Problem:
    found = problems_of(path)
    assert len(found) == 1, found
    return found[0]


# ------------------------------------------------------------------ the shipped variants


def test_the_shipped_variants_load():
    assert {"standard", "grey-wall", "duel"} <= set(builtin_variants())
    for name in ("standard", "grey-wall", "duel"):
        assert load_variant(name).name == name


def test_duel_settings_are_its_own():
    duel = load_variant("duel")
    assert duel.players == (2,)
    assert duel.settings.factories[2] == 5         # merged key by key with the base's table
    assert duel.settings.floor_penalties == [-1, -1, -2, -2, -3, -3, -4, -4]
    assert duel.settings.scoring == "neighbours"
    assert duel.settings.row_bonus == 2             # the standard plugin's default


# ------------------------------------------------------------------ syntax


def test_yaml_syntax_error(tmp_path):
    path = write(tmp_path, "syntax.yaml", """\
        name: broken
        plugins: [standard, colour_wall
        players: [2]
        """)
    problem = only(path)
    assert places([problem]) == [("syntax.yaml", 2, 10)]  # where the unclosed [ was opened
    assert problem.message.startswith("YAML syntax error:") and "flow sequence" in problem.message


def test_duplicate_keys_are_reported_where_the_second_one_stands(tmp_path):
    path = write(tmp_path, "dup.yaml", """\
        extends: standard
        name: one
        settings:
          row_bonus: 3
          row_bonus: 4
        name: two
        """)
    found = problems_of(path)
    assert places(found) == [("dup.yaml", 5, 3), ("dup.yaml", 6, 1)]
    assert found[0].message.startswith("duplicate key 'row_bonus' (first at line 4)")
    assert found[1].message.startswith("duplicate key 'name' (first at line 2)")


def test_unknown_key_with_did_you_mean(tmp_path):
    path = write(tmp_path, "unknown.yaml", """\
        extends: standard
        pluginz: [standard]
        """)
    problem = only(path)
    assert places([problem]) == [("unknown.yaml", 2, 1)]
    assert problem.message.startswith("unknown key 'pluginz'; did you mean 'plugins'?")


def test_unknown_setting_with_did_you_mean(tmp_path):
    path = write(tmp_path, "setting.yaml", """\
        extends: standard
        settings:
          floor_penalty: [-1]
        """)
    problem = only(path)
    assert places([problem]) == [("setting.yaml", 3, 3)]
    assert problem.message.startswith("unknown setting 'floor_penalty'; did you mean 'floor_penalties'?")


def test_unknown_decide_rule_with_did_you_mean(tmp_path):
    path = write(tmp_path, "decide.yaml", """\
        extends: standard
        decide:
          wal: colour_wall
        """)
    problem = only(path)
    assert places([problem]) == [("decide.yaml", 3, 3)]
    assert "'wal' is not a rule that 'decide' chooses; did you mean 'wall'?" in problem.message


# ------------------------------------------------------------------ types and ranges


@pytest.mark.parametrize("line, where, message", [
    ("players: two", (2, 10), "'players' must be a list of player counts"),
    ("players: [2, 12]", (2, 14), "players: 12 is out of range (1 to 9)"),
    ("players: [2, 2]", (2, 14), "players: 2 is listed twice"),
    ("plugins: standard", (2, 10), "'plugins' must be a non-empty list"),
    ("plugins: [standard, 3]", (2, 21), "plugins: the number 3 is not a plugin name"),
    ("settings: [1, 2]", (2, 11), "'settings' must be a mapping"),
    ("description: [a]", (2, 14), "'description' must be a string"),
    ("name: ''", (2, 7), "'name' must be a non-empty string"),
    ("decide: wall", (2, 9), "'decide' must map a rule to the plugin"),
    ("settings: {row_bonus: two}", (2, 23), "setting 'row_bonus' must be a whole number, not str 'two'"),
    ("settings: {row_bonus: true}", (2, 23), "setting 'row_bonus' must be a whole number, not bool True"),
    ("settings: {tiles_per_factory: 0}", (2, 31), "setting 'tiles_per_factory': 0 is below the minimum 1"),
    ("settings: {factories: {2: 10}}", (2, 23), "setting 'factories': 10 is above the maximum 9"),
    ("settings: {marker_on_full_floor: drop}", (2, 34),
     "setting 'marker_on_full_floor' must be one of 'keep', 'bump', not 'drop'"),
])
def test_wrong_types_and_out_of_range_values(tmp_path, line, where, message):
    path = write(tmp_path, "types.yaml", f"extends: standard\n{line}\n")
    problem = only(path)
    assert places([problem]) == [("types.yaml", *where)]
    assert problem.message.startswith(message), problem.message


def test_a_positive_floor_penalty_is_pointed_at(tmp_path):
    path = write(tmp_path, "floor.yaml", """\
        extends: standard
        settings:
          floor_penalties: [-1, -1,
                            2, -2]
        """)
    problem = only(path)
    assert places([problem]) == [("floor.yaml", 4, 21)]
    assert problem.message == "setting 'floor_penalties': 2 is above the maximum 0"


# ------------------------------------------------------------------ extends


def test_unknown_base_variant_with_did_you_mean(tmp_path):
    path = write(tmp_path, "base.yaml", "name: mine\nextends: standrd\n")
    problem = only(path)
    assert places([problem]) == [("base.yaml", 2, 10)]
    assert problem.message.startswith("unknown variant 'standrd'")
    assert problem.message.endswith("did you mean 'standard'?")


def test_missing_base_file(tmp_path):
    path = write(tmp_path, "base.yaml", "extends: ./nothere.yaml\n")
    problem = only(path)
    assert places([problem]) == [("base.yaml", 1, 10)]
    assert problem.message.startswith("base variant file './nothere.yaml' not found")
    write(tmp_path, "family.yaml", "extends: standard\n")
    typo = write(tmp_path, "top.yaml", "extends: famly.yaml\n")
    assert only(typo).message.endswith("did you mean 'family.yaml'?")


def test_extends_cycle(tmp_path):
    write(tmp_path, "b.yaml", "name: b\nextends: c.yaml\n")
    write(tmp_path, "c.yaml", "# c goes back to b\nextends: b.yaml\n")
    problem = only(tmp_path / "b.yaml")
    assert places([problem]) == [("c.yaml", 2, 10)]
    assert problem.message.startswith("extends cycle:")
    assert problem.message.count("b.yaml") == 2 and "c.yaml" in problem.message


def test_a_file_extending_itself(tmp_path):
    path = write(tmp_path, "self.yaml", "extends: self.yaml\n")
    assert only(path).message.startswith("extends cycle:")


def test_problems_in_a_base_file_are_reported_in_that_file(tmp_path):
    write(tmp_path, "base.yaml", "extends: standard\nsettings: {row_bonus: -1}\n")
    path = write(tmp_path, "top.yaml", "extends: base.yaml\n")
    problem = only(path)
    assert places([problem]) == [("base.yaml", 2, 23)]


def test_extends_merges_settings_and_decide_and_replaces_the_rest(tmp_path):
    write(tmp_path, "base.yaml", """\
        name: base
        description: the base
        extends: standard
        settings: {row_bonus: 3, factories: {2: 4, 3: 6, 4: 8}}
        """)
    path = write(tmp_path, "top.yaml", """\
        extends: base.yaml
        players: [2]
        settings:
          column_bonus: 9
          factories: {2: 6}
        """)
    variant = load_variant(path)
    assert variant.name == "top" and variant.description == ""    # never inherited
    assert variant.players == (2,)
    assert variant.settings.row_bonus == 3 and variant.settings.column_bonus == 9
    assert variant.settings.factories == {2: 6, 3: 6, 4: 8}        # mappings merge key by key
    assert variant.origins["settings.row_bonus"].endswith("base.yaml:4")
    assert variant.origins["settings.column_bonus"].endswith("top.yaml:4")
    assert variant.origins["players"].endswith("top.yaml:2")
    assert variant.origins["settings.tiles_per_factory"] == "default of plugin 'standard'"


# ------------------------------------------------------------------ plugins


def test_plugins_that_can_not_be_found(tmp_path):
    path = write(tmp_path, "missing.yaml", """\
        extends: standard
        plugins: [standard, colour_wal, nothing_like_it, gone.py]
        """)
    found = problems_of(path)
    assert places(found) == [("missing.yaml", 2, 21), ("missing.yaml", 2, 33), ("missing.yaml", 2, 50)]
    assert found[0].message.startswith("plugin 'colour_wal' not found")
    assert found[0].message.endswith("did you mean 'colour_wall'?")
    assert found[1].message.startswith("plugin 'nothing_like_it' not found")
    assert found[2].message.startswith("plugin file 'gone.py' not found")


def test_a_plugin_that_fails_to_import_says_why(tmp_path):
    write(tmp_path, "broken.py", "x = 1\nimport no_such_module_anywhere\n")
    path = write(tmp_path, "broken.yaml", "extends: standard\nplugins: [standard, colour_wall, broken.py]\n")
    problem = only(path)
    assert places([problem]) == [("broken.yaml", 2, 34)]
    assert "failed to import: ModuleNotFoundError: No module named 'no_such_module_anywhere'" in problem.message
    assert "broken.py:2" in problem.message


def test_hooks_that_do_not_exist_are_reported_with_did_you_mean(tmp_path):
    write(tmp_path, "typos.py", """\
        def azul_floor_spacess(settings):
            return 3

        def azul_tiling_tim():
            return "turn"
        """)
    path = write(tmp_path, "typos.yaml", "extends: standard\nplugins: [standard, colour_wall, typos.py]\n")
    found = problems_of(path)
    assert places(found) == [("typos.yaml", 2, 34)] * 2
    messages = sorted(p.message for p in found)
    assert messages[0] == "plugin 'typos' implements 'azul_floor_spacess', which is not a hook; " \
                          "did you mean 'azul_floor_spaces'?"
    assert messages[1].endswith("did you mean 'azul_tiling_time'?")


def test_a_hook_with_arguments_the_spec_lacks(tmp_path):
    write(tmp_path, "args.py", "def azul_floor_spaces(settingz):\n    return 3\n")
    path = write(tmp_path, "args.yaml", "extends: standard\nplugins: [standard, colour_wall, args.py]\n")
    problem = only(path)
    assert problem.message.startswith("plugin 'args': azul_floor_spaces has no argument 'settingz'; "
                                      "did you mean 'settings'? (it may take settings, answer) at ")
    assert "\n" not in problem.message


def test_a_plugin_listed_twice(tmp_path):
    path = write(tmp_path, "twice.yaml", "extends: standard\nplugins: [standard, colour_wall, standard]\n")
    problem = only(path)
    assert places([problem]) == [("twice.yaml", 2, 34)]
    assert problem.message == "plugin 'standard' is listed twice"


def test_a_plugin_failing_while_declaring_its_settings(tmp_path):
    write(tmp_path, "failing.py", "def azul_declare_settings():\n    return 1 / 0\n")
    path = write(tmp_path, "failing.yaml", "extends: standard\nplugins: [standard, colour_wall, failing.py]\n")
    problem = only(path)
    assert "plugin 'failing' raised ZeroDivisionError in azul_declare_settings" in problem.message


def test_two_walls_need_a_decide(tmp_path):
    path = write(tmp_path, "walls.yaml", "extends: standard\nplugins: [standard, colour_wall, grey_wall]\n")
    problem = only(path)
    assert places([problem]) == [("walls.yaml", 2, 1)]
    assert "'colour_wall' and 'grey_wall' both decide the wall" in problem.message
    assert "decide: {wall: grey_wall}" in problem.message
    decided = write(tmp_path, "decided.yaml", """\
        extends: standard
        plugins: [standard, colour_wall, grey_wall]
        decide: {wall: grey_wall}
        """)
    assert load_variant(decided).rules.deciders["azul_wall_spaces"] == "grey_wall"


def test_decide_naming_a_plugin_without_that_rule(tmp_path):
    path = write(tmp_path, "decide.yaml", """\
        extends: standard
        plugins: [standard, colour_wall]
        decide:
          wall: standard
        """)
    problem = only(path)
    assert places([problem]) == [("decide.yaml", 4, 3)]
    assert problem.message.startswith("decide: wall: 'standard' does not implement the wall")


# ------------------------------------------------------------------ settings that can't work


def test_more_factories_than_the_tiles_can_fill(tmp_path):
    path = write(tmp_path, "tiles.yaml", """\
        extends: standard
        players: [2]
        settings:
          tiles_per_colour: 5
          factories: {2: 7}
        """)
    problem = only(path)
    assert places([problem]) == [("tiles.yaml", 5, 14)]  # the factories setting's value
    assert problem.message == ("2 players: 7 factories of 4 tiles need 28 tiles, but there are only 25 "
                               "(5 of each colour)")


def test_player_counts_the_factory_table_does_not_cover(tmp_path):
    path = write(tmp_path, "five.yaml", "extends: standard\nplayers: [2, 3, 4, 5]\n")
    problem = only(path)
    assert places([problem]) == [("five.yaml", 2, 20)]
    assert problem.message == "5 players: the factories table covers 2, 3, 4 players, not 5"


# ------------------------------------------------------------------ not a mapping


@pytest.mark.parametrize("text, message", [
    ("", "the file is empty"),
    ("# only a comment\n", "the file is empty"),
    ("~\n", "the file is empty"),
    ("- standard\n- colour_wall\n", "a variant file must be a mapping (key: value lines), not a list"),
    ("just words\n", "a variant file must be a mapping (key: value lines), not a string"),
])
def test_empty_files_and_files_that_are_not_a_mapping(tmp_path, text, message):
    path = tmp_path / "odd.yaml"
    path.write_text(text, encoding="utf-8")
    problem = only(path)
    assert Path(problem.file).name == "odd.yaml" and problem.line == 1
    assert problem.message.startswith(message)


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1"))
    assert only(path).message.startswith("not UTF-8 text")


def test_yaml_tags_that_build_objects_are_refused(tmp_path):
    path = write(tmp_path, "tag.yaml", "name: !!python/object:os.system x\n")
    problem = only(path)
    assert problem.message.startswith("YAML error:") and problem.line == 1


# ------------------------------------------------------------------ alias bombs


BILLION_LAUGHS = """\
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def test_a_billion_laughs_document_is_refused_before_it_expands(tmp_path, monkeypatch):
    # 9^9 strings if built. Refusing it must cost what reading a small file costs, whatever the
    # Python and YAML build: the work is counted (nodes read, counted, built), not the memory.
    import azul_core.variants.files as files
    loader = files._LocatingLoader
    work = {"composed": 0, "counted": [], "built": 0}
    real_compose, real_count, real_build = loader.compose_node, files._node_count, loader.construct_object

    def compose_node(self, parent, index):
        work["composed"] += 1
        return real_compose(self, parent, index)

    def node_count(node, limit):
        work["counted"].append(real_count(node, limit))
        return work["counted"][-1]

    def construct_object(self, node, deep=False):
        work["built"] += 1
        assert work["built"] < 10_000, "the aliases are being expanded"
        return real_build(self, node, deep)

    monkeypatch.setattr(loader, "compose_node", compose_node)
    monkeypatch.setattr(files, "_node_count", node_count)
    monkeypatch.setattr(loader, "construct_object", construct_object)
    path = write(tmp_path, "bomb.yaml", BILLION_LAUGHS)
    data, found = read_mapping(path)
    assert data is None
    assert [(p.line, p.column) for p in found] == [(1, 1)]
    assert "expands to more than" in found[0].message and "refused" in found[0].message
    # the document as written: 9 keys, 9 lists of 9 items (an alias is read as a reference)
    assert work["composed"] == 1 + 9 * (1 + 1 + 9)
    assert work["counted"] == [files.MAX_NODES + 1]     # counting stops at the limit
    assert work["built"] == 0                            # nothing is built
    assert problems_of(path)[0].message == found[0].message


def test_a_recursive_alias_is_refused(tmp_path):
    path = write(tmp_path, "loop.yaml", "plugins: &p [standard, *p]\n")
    assert "expands to more than" in only(path).message


def test_a_few_aliases_are_fine(tmp_path):
    path = write(tmp_path, "anchors.yaml", """\
        extends: standard
        settings:
          floor_penalties: &floor [-1, -1, -2, -2, -2, -3, -3]
        description: same floor
        """)
    assert load_variant(path).settings.floor_penalties == [-1, -1, -2, -2, -2, -3, -3]


# ------------------------------------------------------------------ TOML


DUEL_TOML = """\
name = "duel-toml"
description = "duel, written in TOML"
extends = "standard"
players = [2]
plugins = ["standard", "colour_wall", "duel"]

[settings]
factories = { 2 = 5 }
floor_penalties = [-1, -1, -2, -2, -3, -3, -4, -4]
scoring = "neighbours"
"""


def test_toml_files_have_the_same_fields(tmp_path):
    variant = load_variant(write(tmp_path, "duel.toml", DUEL_TOML))
    duel = load_variant("duel")
    assert variant.name == "duel-toml" and variant.players == (2,)
    assert dict(variant.settings) == dict(duel.settings)
    assert variant.origins["settings.scoring"].endswith("duel.toml:10")


def test_toml_problems_have_places(tmp_path):
    path = write(tmp_path, "bad.toml", DUEL_TOML.replace('scoring = "neighbours"', 'scoring = "both"')
                 + "colour = 1\n")
    found = problems_of(path)
    assert places(found) == [("bad.toml", 10, 11), ("bad.toml", 11, 1)]  # the value; the key
    assert found[0].message == "setting 'scoring' must be one of 'neighbours', 'standard', not 'both'"
    assert found[1].message.startswith("unknown setting 'colour'; did you mean 'colours'?")


def test_toml_syntax_error_and_duplicate_key(tmp_path):
    syntax = write(tmp_path, "syntax.toml", 'name = "x"\nplayers = [2,\nplugins = 3\n')
    assert only(syntax).message.startswith("TOML syntax error")
    assert places([only(syntax)]) == [("syntax.toml", 2, 11)]  # where the unclosed [ was opened
    duplicate = write(tmp_path, "dup.toml", 'name = "x"\nextends = "standard"\nname = "y"\n')
    problem = only(duplicate)
    assert places([problem]) == [("dup.toml", 3, 1)]
    assert problem.message == "duplicate key 'name' (first at line 1)"


def test_toml_unknown_key(tmp_path):
    path = write(tmp_path, "key.toml", 'extends = "standard"\n\nplayer = [2]\n')
    problem = only(path)
    assert places([problem]) == [("key.toml", 3, 1)]
    assert problem.message.startswith("unknown key 'player'; did you mean 'players'?")


# ------------------------------------------------------------------ all at once


def test_every_problem_is_reported_at_once_in_file_order(tmp_path):
    path = write(tmp_path, "many.yaml", """\
        name: many
        extends: standard
        player: [2]
        players: [2, 3, 4, 11]
        settings:
          row_bonus: -2
          colour_bonuss: 3
          floor_penalties: [-1, 1]
        decide: {walls: colour_wall}
        """)
    found = problems_of(path)
    assert [p.line for p in found] == [3, 4, 6, 7, 8, 9]
    assert [p.message.split(":")[0].split(" ")[0] for p in found] == \
        ["unknown", "players", "setting", "unknown", "setting", "'walls'"]
    assert all(str(p).startswith(f"{p.file}:{p.line}:{p.column}: ") for p in found)


def test_a_problem_prints_as_file_line_column_message():
    assert str(Problem("v.yaml", 3, 7, "bad")) == "v.yaml:3:7: bad"
    assert Problem("v.yaml", 3, 7, "bad").to_json() == {"file": "v.yaml", "line": 3, "column": 7,
                                                        "message": "bad"}


def test_a_missing_plugin_does_not_hide_the_value_problems_of_the_settings_others_own(tmp_path):
    path = write(tmp_path, "v.yaml", """\
        name: v
        plugins: [standard, colour_wal]
        settings: {floor_penalties: [1], no_such_setting: 3}
        """)
    found = problems_of(path)
    messages = [p.message for p in found]
    assert places(found) == [("v.yaml", 2, 21), ("v.yaml", 3, 30)]
    assert "did you mean 'colour_wall'?" in messages[0]
    assert messages[1] == "setting 'floor_penalties': 1 is above the maximum 0"
    # no_such_setting might belong to the plugin that is missing: not reported


def test_a_control_character_is_a_message_with_its_place(tmp_path):
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"name: x\n  y: \x00\n")
    found = problems_of(path)
    assert places(found) == [("nul.yaml", 2, 6)]
    assert found[0].message == "not a text file: character 0x0000 is not allowed in YAML"
