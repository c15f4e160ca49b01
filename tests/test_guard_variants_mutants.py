"""Tests written for the survivors of the mutation run of the `variants` scope (issue 24).

Each one was checked to fail with the mutant it answers planted by hand;
docs/mutation/variants.md lists the mutants and what was done about each.
"""

from __future__ import annotations

import os
import socket
import textwrap
from pathlib import Path

import pytest

from azul_core.variants.check import check_variant_file
from azul_core.variants.limits import InputRefused, read_regular_file, walk_problems
from azul_core.variants.loading import VariantError, load_variant


@pytest.mark.parametrize("size", [0, 1, 100])
def test_a_file_at_its_size_limit_is_read_and_one_byte_more_is_refused(tmp_path, size):
    path = tmp_path / "file.yaml"
    path.write_bytes(b"x" * size)
    assert read_regular_file(path, size) == b"x" * size
    path.write_bytes(b"x" * (size + 1))
    with pytest.raises(InputRefused) as refused:
        read_regular_file(path, size)
    assert refused.value.reason == f"larger than {size} bytes ({size + 1}): refused"


def test_a_folder_or_a_missing_file_is_refused_with_what_it_is(tmp_path):
    with pytest.raises(InputRefused) as refused:
        read_regular_file(tmp_path, 10)
    assert refused.value.reason == "a folder, not a regular file: refused"
    with pytest.raises(InputRefused) as refused:
        read_regular_file(tmp_path / "nothing.yaml", 10)
    assert refused.value.reason == "no such file"


# ---------------------------------------------------------------- what a wrong value is called

from test_variant_files import problems_of, write  # noqa: E402  (shared set-up)


@pytest.mark.parametrize("value, called", [
    ("''", "the string ''"), ("true", "true (true/false)"), ("false", "false (true/false)"),
    ("{a: 1}", "a mapping"), ("[1]", "a list"), ("[]", "an empty list"), ("'x'", None), ("3", "the number 3"), ("2.5", "the number 2.5"),
])
def test_a_wrong_name_is_called_what_it_is(tmp_path, value, called):
    path = write(tmp_path, "named.yaml", f"extends: standard\nname: {value}\n")
    if called is None:
        assert load_variant(path).name == "x"
        return
    [problem] = problems_of(path)
    assert problem.message == f"'name' must be a non-empty string, not {called}"


def test_a_player_count_of_nothing_is_called_nothing(tmp_path):
    [problem] = problems_of(write(tmp_path, "players.yaml", "extends: standard\nplayers: [2, null]\n"))
    assert problem.message == "players: nothing is not a player count"


# ---------------------------------------------------------------- too few tiles for the table

def test_too_few_tiles_are_counted_in_words_per_colour_and_extra_tile(tmp_path):
    """Found by the mutation run: the extra tiles were counted twice in the words ("2 wild, 2 wild")."""
    (tmp_path / "uneven.py").write_text(textwrap.dedent('''\
        from dataclasses import replace
        from azul_core import hookimpl
        from azul_core.rules import ExtraTile

        AZUL_API = 1

        @hookimpl
        def azul_game_setup(answer):
            return replace(answer, colour_counts=(1, 2, 3, 4, 5), extra_tiles=(ExtraTile("J", "wild", 2),))
        '''), encoding="utf-8")
    path = write(tmp_path, "uneven.yaml", """\
        extends: standard
        players: [2]
        plugins: [standard, colour_wall, uneven.py]
        """)
    [problem] = problems_of(path)
    assert problem.message == ("2 players: 5 factories of 4 tiles need 20 tiles, but there are only 17 "
                               "(1 blue, 2 yellow, 3 red, 4 black, 5 white, 2 wild)")


def test_too_few_tiles_of_each_colour_and_extra_tiles(tmp_path):
    (tmp_path / "few.py").write_text(textwrap.dedent('''\
        from dataclasses import replace
        from azul_core import hookimpl
        from azul_core.rules import ExtraTile

        AZUL_API = 1

        @hookimpl
        def azul_game_setup(answer):
            return replace(answer, tiles_per_colour=2, extra_tiles=(ExtraTile("J", "wild", 3),))
        '''), encoding="utf-8")
    path = write(tmp_path, "few.yaml", """\
        extends: standard
        players: [2]
        plugins: [standard, colour_wall, few.py]
        """)
    [problem] = problems_of(path)
    assert problem.message == ("2 players: 5 factories of 4 tiles need 20 tiles, but there are only 13 "
                               "(2 of each colour, 3 wild)")


# ---------------------------------------------------------------- numbers too large

@pytest.mark.parametrize("value, shown", [
    (10**18 + 1, "with 19 digits"), (-(10**4000 - 1), "with 4000 digits"), (10**4000, "with thousands of digits"),
])
def test_a_number_out_of_range_is_shown_by_its_length(value, shown):
    [(path, message)] = list(walk_problems({"seed": value}))
    assert path == ("seed",)
    assert message == f"the number {shown} is out of range (at most 1e+18 either way)"


# ---------------------------------------------------------------- where a TOML file goes wrong

def toml_problem(tmp_path, text: str) -> tuple[int, int, str]:
    path = write(tmp_path, "variant.toml", text)
    [problem] = problems_of(path)
    assert problem.file == str(path)
    return problem.line, problem.column, problem.message


def test_an_unclosed_bracket_is_pointed_at_where_it_opens(tmp_path):
    text = ('description = "a [b {c"  # and [d\n'
            "[settings]\n"
            "floor_penalties = [-1, -1,\n"
            "  -2\n"
            "row_bonus = 2\n")
    assert toml_problem(tmp_path, text) == (3, 19, "TOML syntax error: Unclosed array")
    text = "name = 'x'\nsettings = {row_bonus = 2, colour_bonus = [1, 2}\nplayers = [2]\n"
    line, column, _message = toml_problem(tmp_path, text)
    assert (line, column) == (2, 12)


def test_an_error_at_the_end_of_a_toml_file_is_placed_on_its_last_line(tmp_path):
    assert toml_problem(tmp_path, 'name = "x"\ndescription = "y"\nplayers = ') == (
        3, 1, "TOML syntax error: Invalid value")


def test_a_value_out_of_range_in_toml_is_placed_at_its_key(tmp_path):
    text = 'name = "x"\nextends = "standard"\n[settings]\nrow_bonus = 2\ncolour_bonus = 10000000000000000000000\n'
    line, column, message = toml_problem(tmp_path, text)
    assert (line, column) == (5, 1)
    assert message == ("settings.colour_bonus: the number with 23 digits is out of range "
                       "(at most 1e+18 either way)")


def test_a_value_out_of_range_in_an_inline_toml_table_is_placed_at_its_key(tmp_path):
    text = 'name = "x"\nsettings = { row_bonus = 2, factories = { 2 = 100000000000000000000 } }\n'
    line, column, message = toml_problem(tmp_path, text)
    assert line == 2 and message.startswith("settings.factories.2: the number with 21 digits")


# ---------------------------------------------------------------- where `azul validate` places a game problem

def test_a_game_that_never_ends_is_reported_at_the_variant_s_plugins(tmp_path):
    folder = tmp_path / "a:b"  # a colon in a folder's name: the line is after the last one
    folder.mkdir()
    (folder / "endless.py").write_text(textwrap.dedent('''\
        from azul_core import hookimpl

        AZUL_API = 1

        @hookimpl
        def azul_game_over():
            return False
        '''), encoding="utf-8")
    path = write(folder, "endless.yaml", """\
        extends: standard
        players: [2]

        plugins: [standard, colour_wall, endless.py]
        """)
    report = check_variant_file(path, games=1)
    [problem] = report.problems
    assert (problem.file, problem.line, problem.column) == (str(path), 4, 1)
    assert problem.message.startswith("2 players, game 1 (seed 2000006): the game did not end within 100 rounds")


# ---------------------------------------------------------------- more TOML places and messages

def test_a_toml_file_that_is_empty_or_too_deep_is_refused_at_its_start(tmp_path):
    assert toml_problem(tmp_path, "# nothing\n") == (
        1, 1, "the file is empty: a variant file is a mapping with at least 'plugins' or 'extends'")
    deep = "a = " + "[" * 5000 + "]" * 5000 + "\n"  # deeper than the parser can follow
    assert toml_problem(tmp_path, deep) == (1, 1, "nested more than 32 levels deep: refused")


def test_a_toml_number_too_long_to_convert_is_refused_at_the_file_start(tmp_path):
    line, column, message = toml_problem(tmp_path, 'name = "x"\nrow = 1.' + "0" * 45 + "\n")
    assert (line, column, message) == (1, 1, "TOML error: a number of 47 characters is out of range")


def test_a_duplicate_toml_key_names_its_first_place(tmp_path):
    text = 'name = "x"\n[settings]\nrow_bonus = 2\ncolour_bonus = 1\nrow_bonus = 3\n'
    assert toml_problem(tmp_path, text) == (5, 1, "duplicate key 'settings.row_bonus' (first at line 3)")


def test_a_problem_in_a_toml_table_without_its_own_line_is_placed_at_the_table(tmp_path):
    text = 'name = "x"\nextends = "standard"\n  [ "settings" ]\n"colour_bonus" = 100000000000000000000\n'
    line, column, message = toml_problem(tmp_path, text)
    assert (line, column) == (4, 1) and message.startswith("settings.colour_bonus: the number with 21 digits")
    text = 'name = "x"\nextends = "standard"\n[settings.factories]\n"2" = 1e999999\n'
    assert toml_problem(tmp_path, text) == (4, 1, "settings.factories.2: inf is not a number a game can use")


def test_an_inline_toml_table_places_each_of_its_keys(tmp_path):
    text = 'name = "x"\nsettings = {row_bonus = 2, "colour_bonus" = 100000000000000000000}\n'
    assert toml_problem(tmp_path, text)[:2] == (2, 28)


def test_twenty_problems_of_a_toml_file_at_most_are_shown(tmp_path):
    text = 'name = "x"\n' + "".join(f"k{n} = {10**20}\n" for n in range(25))
    problems = problems_of(write(tmp_path, "many.toml", text))
    assert len(problems) == 20 and problems[0].line == 2 and problems[19].line == 21


# ---------------------------------------------------------------- files that are not files

def test_a_fifo_a_socket_and_a_device_are_refused_unread(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(InputRefused) as refused:
        read_regular_file(fifo, 10)
    assert str(refused.value) == refused.value.reason == "a FIFO (named pipe), not a regular file: refused"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "s.yaml"))
        with pytest.raises(InputRefused) as refused:
            read_regular_file(tmp_path / "s.yaml", 10)
    assert refused.value.reason == "a socket, not a regular file: refused"
    with pytest.raises(InputRefused) as refused:
        read_regular_file("/dev/null", 10)
    assert refused.value.reason == "a device, not a regular file: refused"


# ---------------------------------------------------------------- settings: the item refused

@pytest.mark.parametrize("penalties, column", [([0, -1, 1], 28), ([-1, "x", -1], 25), ([0, 0], None)])
def test_the_floor_penalty_refused_is_pointed_at(tmp_path, penalties, column):
    """The item refused, not the list: 0 is the maximum (taken), 1 is past it, 'x' no number."""
    path = write(tmp_path, "floor.yaml", f"extends: standard\nsettings:\n  floor_penalties: {penalties}\n")
    if column is None:
        assert load_variant(path).settings.floor_penalties == penalties
        return
    [problem] = problems_of(path)
    assert (problem.line, problem.column) == (3, column)


def test_a_misspelt_plugin_gets_one_suggestion(tmp_path):
    [problem] = problems_of(write(tmp_path, "typo.yaml", "plugins: [standrd, colour_wall]\n"))
    assert problem.message.endswith("; did you mean 'standard'?")
    [problem] = problems_of(write(tmp_path, "none.yaml", "plugins: [zzzzzzzz, standard, colour_wall]\n"))
    assert "did you mean" not in problem.message and not problem.message.endswith("XXXX")


# ---------------------------------------------------------------- the variant a record names

def test_a_record_s_variant_file_refused_or_missing_is_one_problem_naming_it(tmp_path):
    from azul_core.variants.loading import find_variant, record_variant_path

    assert record_variant_path("standard", tmp_path) == find_variant("standard")
    for ref, start in [("missing.yaml", "variant file not found"),
                       (str(tmp_path / "abs.yaml"), "a record may name a variant file only inside its own folder, "
                                                    "not an absolute path: refused; name it with --variant "),
                       ("../up.yaml", "a record may name a variant file only inside its own folder, "
                                      "not through '..': refused; name it with --variant ")]:
        with pytest.raises(VariantError) as refused:
            record_variant_path(ref, tmp_path / "records")
        [problem] = refused.value.problems
        assert (problem.file, problem.line, problem.column) == (ref, 0, 0)
        assert problem.message.startswith(start) and (start.endswith("found") or
                                                      problem.message.endswith(" to use it anyway"))
    outside = write(tmp_path, "outside.yaml", "extends: standard\n")
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "link.yaml").symlink_to(outside)
    with pytest.raises(VariantError) as refused:
        record_variant_path("link.yaml", tmp_path / "records")
    [problem] = refused.value.problems
    assert (problem.file, problem.line, problem.column) == ("link.yaml", 0, 0)
    assert problem.message.startswith("a symbolic link out of the record's folder")


# ---------------------------------------------------------------- what `azul variants list` shows of a file

def test_a_variant_file_is_described_without_running_its_plugins(tmp_path):
    from azul_core.variants.loading import describe_variant_file

    good = write(tmp_path, "good.yaml", "extends: standard\nname: good one\ndescription: A  test.\nplayers: [2, 3]\n")
    assert describe_variant_file(good) == {"name": "good one", "description": "A test.", "players": [2, 3],
                                           "error": None}
    bad = write(tmp_path, "bad.yaml", "extends: standard\nname: [1]\nplayers: [0, 2]\n")
    entry = describe_variant_file(bad)
    assert entry["name"] == "bad" and entry["players"] == [2]
    assert entry["error"].endswith("'name' must be a non-empty string, not a list (and 1 more)")
    assert entry["error"].startswith(f"{bad}:2:")


# ---------------------------------------------------------------- where `azul validate` places a plugin failure

def test_a_plugin_failing_in_a_game_is_placed_at_its_own_line(tmp_path):
    plugin = tmp_path / "failing.py"
    plugin.write_text(textwrap.dedent('''\
        from azul_core import hookimpl

        AZUL_API = 1


        @hookimpl
        def azul_placement_score():
            raise RuntimeError("no score today")
        '''), encoding="utf-8")
    path = write(tmp_path, "failing.yaml", "extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, failing.py]\n")
    [problem] = check_variant_file(path, games=1).problems
    assert (problem.file, problem.line, problem.column) == (str(plugin), 8, 1)  # the line that raised
    assert problem.message.startswith("2 players, game 1 (seed 2000006): ")
    assert "no score today" in problem.message


# ---------------------------------------------------------------- run of 2026-12-01: files.py

def test_a_character_yaml_refuses_is_placed_at_its_line_and_column(tmp_path):
    path = tmp_path / "bell.yaml"
    path.write_bytes(b"name: x\nextends: standard\nplayers: [2]\ndescription: ab\x07c\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.column) == (4, 16)
    assert problem.message == "not a text file: character 0x0007 is not allowed in YAML"


@pytest.mark.parametrize("text, called", [("3\n", "an int"), ("2.5\n", "a float"), ("true\n", "a bool"),
                                          ("2026-12-01\n", "a date")])
def test_a_variant_file_that_is_one_value_is_refused_with_what_it_is(tmp_path, text, called):
    """A bug found by the mutation run: the message said "not a int"."""
    [problem] = problems_of(write(tmp_path, "value.yaml", text))
    assert problem.message == f"a variant file must be a mapping (key: value lines), not {called}"


def test_a_toml_float_of_40_characters_is_read_and_one_of_41_is_not(tmp_path):
    path = write(tmp_path, "float.toml", 'extends = "standard"\nsettings = {row_bonus = 2.' + "0" * 38 + "}\n")
    with pytest.raises(VariantError) as caught:  # read: refused only as a float where a number is wanted
        load_variant(path)
    assert "TOML error" not in str(caught.value)
    path = write(tmp_path, "float.toml", 'extends = "standard"\nsettings = {row_bonus = 2.' + "0" * 39 + "}\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.column, problem.message) == (
        1, 1, "TOML error: a number of 41 characters is out of range")


def test_a_one_line_toml_file_broken_at_its_end_is_placed_on_line_1(tmp_path):
    assert toml_problem(tmp_path, "players = ") == (1, 1, "TOML syntax error: Invalid value")


def test_an_unclosed_bracket_is_found_past_keys_holding_x(tmp_path):
    """The characters that open, close and quote are these and no others (an X is none of them)."""
    assert toml_problem(tmp_path, 'name = "x"\nXa = [1, 2,\nXb = 3\n') == (2, 6, "TOML syntax error: Invalid value")
    assert toml_problem(tmp_path, 'X = 1\nname = "x"\nXa = {b = 1\n')[:2] == (3, 6)


# ---------------------------------------------------------------- run of 2026-12-01: loading.py

def test_too_few_tiles_with_two_extra_kinds_names_each_once(tmp_path):
    (tmp_path / "two_extras.py").write_text(textwrap.dedent('''\
        from dataclasses import replace
        from azul_core import hookimpl
        from azul_core.rules import ExtraTile

        AZUL_API = 1

        @hookimpl
        def azul_game_setup(answer):
            return replace(answer, tiles_per_colour=2, extra_tiles=(ExtraTile("J", "wild", 3), ExtraTile("G", "gold", 1)))
        '''), encoding="utf-8")
    path = write(tmp_path, "two_extras.yaml", """\
        extends: standard
        players: [2]
        plugins: [standard, colour_wall, two_extras.py]
        """)
    [problem] = problems_of(path)
    assert problem.message.endswith("but there are only 14 (2 of each colour, 3 wild, 1 gold)")


def test_a_variant_file_that_does_not_parse_is_described_by_its_file_name_only(tmp_path):
    from azul_core.variants.loading import describe_variant_file

    path = write(tmp_path, "broken.yaml", "name: [\n")
    entry = describe_variant_file(path)
    assert (entry["name"], entry["description"], entry["players"]) == ("broken", "", [])
    assert entry["error"].startswith(f"{path}:2:1: YAML syntax error: ")


def test_a_table_read_by_item_from_a_refused_setting_is_not_judged(tmp_path):
    """A plugin may read a setting as ``settings["name"]``: that read counts as one too."""
    (tmp_path / "by_item.py").write_text(textwrap.dedent('''\
        from dataclasses import replace
        from azul_core import hookimpl
        from azul_core.settings import Setting

        AZUL_API = 1

        @hookimpl
        def azul_declare_settings():
            return [Setting("each_colour", "int", 1, "tiles of each colour", minimum=1, maximum=100)]

        @hookimpl
        def azul_game_setup(settings, answer):
            return replace(answer, tiles_per_colour=settings["each_colour"])
        '''), encoding="utf-8")
    path = write(tmp_path, "by_item.yaml", """\
        extends: standard
        players: [2]
        plugins: [standard, colour_wall, by_item.py]
        settings: {each_colour: 500}
        """)
    assert [p.message for p in problems_of(path)] == ["setting 'each_colour': 500 is above the maximum 100"]
    path.write_text(path.read_text().replace("500", "20"))
    assert load_variant(path).rules.table(2).kind_counts[:5] == (20, 20, 20, 20, 20)
    # Accepted, it makes the table judged beside another setting's refusal: a good one.
    path.write_text(path.read_text().replace("20}", "20, row_bonus: x}"))
    assert [p.message for p in problems_of(path)] == ["setting 'row_bonus' must be a whole number, not str 'x'"]


UNKNOWN_SETINGS = ("unknown key 'setings'; did you mean 'settings'? "
                   "(allowed: name, description, extends, players, plugins, decide, settings)")


@pytest.mark.parametrize("text, place", [
    ("setings.row_bonus = 2\n", (3, 1)),        # a table made by a dotted key: at that key
    ("[setings.factories]\n'2' = 5\n", (3, 2)),  # by a header of a table inside it: at that header
    ("[setings]\nrow_bonus = 2\n", (3, 2)),
    ("[[setings]]\nrow_bonus = 2\n", (1, 1)),    # an array of tables is not placed: the file's start
    ("  [ setings ]  # not [settings]\nrow_bonus = 2\n", (3, 4)),
])
def test_a_misspelt_toml_table_is_placed_where_it_is_first_named(tmp_path, text, place):
    """A bug found by the mutation run: a table named only inside a dotted key or header was
    placed at 1:1."""
    assert toml_problem(tmp_path, 'name = "x"\nextends = "standard"\n' + text) == (*place, UNKNOWN_SETINGS)


def test_a_toml_key_beginning_with_x_is_placed_at_its_line(tmp_path):
    text = 'name = "x"\nextends = "standard"\n[settings]\nrow_bonus = 2\nXy = 2\n'
    assert toml_problem(tmp_path, text) == (
        5, 1, "unknown setting 'Xy' (no listed plugin declares it; plugins with settings: standard)")


def test_an_unknown_key_like_none_allowed_gets_no_suggestion(tmp_path):
    [problem] = problems_of(write(tmp_path, "odd.yaml", "extends: standard\nzzzzzz: 1\n"))
    assert problem.message == ("unknown key 'zzzzzz' (allowed: name, description, extends, players, plugins, "
                               "decide, settings)")


def test_a_variant_file_with_one_problem_is_described_by_it_alone(tmp_path):
    from azul_core.variants.loading import describe_variant_file

    path = write(tmp_path, "one.yaml", "extends: standard\nplayers: [0, 2]\n")
    assert describe_variant_file(path)["error"] == f"{path}:2:11: players: 0 is out of range (1 to 9)"


def test_a_block_device_is_refused_unread():
    devices = [path for path in Path("/dev").glob("*") if path.is_block_device()] if os.path.isdir("/dev") else []
    if not devices:
        pytest.skip("no block device to try")
    with pytest.raises(InputRefused) as refused:
        read_regular_file(devices[0], 10)
    assert refused.value.reason == "a device, not a regular file: refused"


@pytest.mark.parametrize("values, column", [([2, 1, 9], 28), ([1, 0], 25)])
def test_a_list_setting_s_item_below_or_above_its_range_is_pointed_at(tmp_path, values, column):
    """The minimum itself is allowed: the item pointed at is the one out of range."""
    (tmp_path / "bonuses.py").write_text(textwrap.dedent('''\
        from azul_core import hookimpl
        from azul_core.settings import Setting

        AZUL_API = 1

        @hookimpl
        def azul_declare_settings():
            return [Setting("bonuses", "int_list", [1], "bonus of each row", minimum=1, maximum=5)]
        '''), encoding="utf-8")
    path = write(tmp_path, "bonuses.yaml", f"""\
        extends: standard
        plugins: [standard, colour_wall, bonuses.py]
        settings: {{bonuses: {values}}}
        """)
    [problem] = problems_of(path)
    assert (problem.line, problem.column) == (3, column)


# ---------------------------------------------------------------- the code a record's variant may run

def test_a_record_s_variant_refused_its_plugin_file_says_how_to_allow_it(tmp_path):
    from azul_core.variants.loading import Trust

    (tmp_path / "own.py").write_text("AZUL_API = 1\n", encoding="utf-8")
    path = write(tmp_path, "own.yaml", "extends: standard\nplugins: [standard, colour_wall, own.py]\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path, Trust().rule_for(path))
    [problem] = caught.value.problems
    assert (problem.line, problem.column) == (2, 34)
    assert problem.message == (f"plugin 'own.py' would run the code of the file {tmp_path / 'own.py'}: not run, "
                               f"since no one named this variant; allow it with --variant {path} or --trust")
    assert [p.name for p in load_variant(path, Trust.of([path]).rule_for(path)).plugins][-1] == "own"
    assert [p.name for p in load_variant(path, Trust(everything=True).rule_for(path)).plugins][-1] == "own"


def test_a_record_s_variant_file_refused_names_the_file_to_allow(tmp_path):
    from azul_core.variants.loading import record_variant_path

    for ref, shown in [(str(tmp_path / "abs.yaml"), tmp_path / "abs.yaml"), ("../up.yaml", tmp_path / "up.yaml")]:
        with pytest.raises(VariantError) as refused:
            record_variant_path(ref, tmp_path / "records")
        assert str(refused.value).endswith(f": refused; name it with --variant {shown} to use it anyway")


def test_a_player_count_without_a_table_is_told_beside_a_refused_setting(tmp_path):
    """Told from the rules the accepted settings make: with the file's 'decide' (two walls)."""
    path = write(tmp_path, "both.yaml", "extends: standard\nplayers: [2, 3, 4, 5]\nsettings: {floor_penalties: nope}\n"
                                        "plugins: [standard, colour_wall, grey_wall]\ndecide: {wall: grey_wall}\n")
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == [
        (2, 20, "5 players: the factories table covers 2, 3, 4 players, not 5"),
        (3, 29, "setting 'floor_penalties' must be a list of whole numbers, not str 'nope'")]


# ---------------------------------------------------------------- run of 2026-12-01: places of plugin problems

SHIFT_PLUGIN = '''\
from azul_core import hookimpl
from azul_core.rules import Move, Outcome

AZUL_API = 1
SHIFT = Move("shift", label="Shift a pattern line")


@hookimpl
def azul_declare_moves():
    return [SHIFT]


@hookimpl
def azul_offer_moves(stage):
    return [SHIFT] if stage == "turn" else None


@hookimpl
def azul_apply_move():
    return Outcome(shift=(0, 1, 2))
'''


def test_an_outcome_the_engine_refuses_is_placed_at_the_plugin_s_hook(tmp_path):
    """The engine refuses the answer, no line of the plugin raised: the hook that answered."""
    plugin = tmp_path / "bad_shift.py"
    plugin.write_text(SHIFT_PLUGIN, encoding="utf-8")
    path = write(tmp_path, "shift.yaml", "extends: standard\nplayers: [2]\n\nplugins: [standard, colour_wall, bad_shift.py]\n")
    report = check_variant_file(path, games=3)
    [problem] = report.problems
    assert (problem.file, problem.line, problem.column) == (str(plugin), 18, 1)
    assert problem.message == ("2 players, game 1 (seed 2000006): plugin 'bad_shift' answered +shift with shift "
                               f"(0, 1, 2) (azul_apply_move at {plugin}:18): pattern line 1 of seat 0 is empty")
    assert report.summary == f"{path}: invalid variant 'shift': 1 problem"


def test_a_plugin_failing_in_a_folder_named_with_a_colon_is_placed_at_its_own_line(tmp_path):
    folder = tmp_path / "x:1"
    folder.mkdir()
    plugin = folder / "failing.py"
    plugin.write_text("from azul_core import hookimpl\n\nAZUL_API = 1\n\n\n@hookimpl\ndef azul_placement_score():\n"
                      "    raise RuntimeError('no score today')\n", encoding="utf-8")
    path = write(folder, "failing.yaml", "extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, failing.py]\n")
    [problem] = check_variant_file(path, games=1).problems
    assert (problem.file, problem.line, problem.column) == (str(plugin), 8, 1)


def test_a_setting_declared_twice_is_placed_at_the_plugin_that_declares_it_again(tmp_path):
    """A bug found by the mutation run: a plugin was pointed at by its place among the plugins that
    loaded, so past a plugin that failed the place was its neighbour's."""
    (tmp_path / "twice.py").write_text(textwrap.dedent('''\
        from azul_core import hookimpl
        from azul_core.settings import Setting

        AZUL_API = 1

        @hookimpl
        def azul_declare_settings():
            return [Setting("row_bonus", "int", 2, "again")]
        '''), encoding="utf-8")
    path = write(tmp_path, "twice.yaml", "extends: standard\nplugins: [standard, colour_wall, nothere.py, twice.py]\n")
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == [
        (2, 34, f"plugin file 'nothere.py' not found (looked for {tmp_path / 'nothere.py'})"),
        (2, 46, "setting 'row_bonus' is declared by both 'standard' and 'twice'")]


def test_a_plugin_of_a_toml_list_is_placed_in_that_file_not_in_its_base(tmp_path):
    """A bug found by the mutation run: a TOML list keeps no item places, and the base's list's
    item was pointed at (standard.yaml), not the TOML file."""
    path = write(tmp_path, "plugins.toml", 'extends = "standard"\nplugins = ["standard",\n  "nope"]\n')
    [problem] = problems_of(path)
    assert (problem.file, problem.line, problem.column) == (str(path), 2, 1)
    assert problem.message.startswith("plugin 'nope' not found: not an installed plugin")


def test_a_file_without_plugins_is_told_so_at_its_start(tmp_path):
    path = write(tmp_path, "bare.yaml", "name: bare\n")
    [problem] = problems_of(path)
    assert (problem.file, problem.line, problem.column) == (str(path), 1, 1)
    assert problem.message == "no 'plugins' list: name the rule plugins, e.g. [standard, colour_wall], or extend a variant"


# ---------------------------------------------------------------- run of 2026-12-01: values walked in a TOML file

def test_every_refused_value_of_a_toml_file_is_told_past_one_nested_too_deep(tmp_path):
    text = "a = " + "[" * 33 + "]" * 33 + "\nb = 100000000000000000000\n"
    problems = problems_of(write(tmp_path, "deep.toml", text))
    assert [(p.line, p.message.split(": ", 1)[1]) for p in problems] == [
        (1, "nested more than 32 levels deep"), (2, "the number with 21 digits is out of range (at most 1e+18 either way)")]


def test_a_toml_key_with_a_control_character_is_refused(tmp_path):
    path = write(tmp_path, "key.toml", '"bad\\u0001key" = 1\nname = "x"\n')
    [problem] = problems_of(path)
    assert (problem.line, problem.column) == (1, 1)
    assert problem.message == ("bad\x01key: key: a string with the control character 0x01: text in a file can't "
                               "drive the terminal it is shown on")


# ---------------------------------------------------------------- run of 2026-12-01: the games `azul validate` plays

def plugin_variant(folder: Path, name: str, plugin: str) -> Path:
    (folder / f"{name}.py").write_text("from azul_core import hookimpl\n\nAZUL_API = 1\n" + textwrap.dedent(plugin),
                                       encoding="utf-8")
    return write(folder, f"{name}.yaml", f"extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, {name}.py]\n")


def test_the_games_played_are_the_same_every_time(tmp_path):
    """Seeded: the game, its seed, the round and the score where a long game's tax shows are fixed
    (the first player too, drawn from the game's seed)."""
    path = plugin_variant(tmp_path, "tax", '''
        @hookimpl
        def azul_end_bonuses(game):
            return [("tax", -300)] if game.round_number > 7 else []


        @hookimpl
        def azul_first_player(players, rng):
            return rng.randrange(players)
        ''')
    report = check_variant_file(path, games=50)
    [problem] = report.problems
    assert (problem.file, problem.line, problem.column) == (str(path), 3, 1)
    assert problem.message == ("2 players, game 3 (seed 2000008), round 9: seat 1 has a negative score "
                               "(-298; azul_end_bonuses: standard + tax)")
    assert report.games_played == 2


def test_a_decision_offered_then_refused_is_the_variant_s_problem(tmp_path):
    path = plugin_variant(tmp_path, "flaky", '''
        CALLS = [0]


        @hookimpl
        def azul_draft_allowed(source):
            CALLS[0] += 1
            return CALLS[0] % 3 != 0
        ''')
    [problem] = check_variant_file(path, games=5).problems
    assert (problem.file, problem.line, problem.column) == (str(path), 3, 1)
    assert problem.message == ("2 players, game 1 (seed 2000006), round 1: the engine refused a decision it offered "
                               "itself: the rules (flaky) forbid this draft now")


def test_a_game_of_exactly_100_rounds_is_a_game_that_ends(tmp_path):
    path = plugin_variant(tmp_path, "hundred", '''
        @hookimpl
        def azul_game_over(round_number):
            return round_number >= 100
        ''')
    report = check_variant_file(path, games=1)
    assert report.valid and report.games_played == 1


def test_each_game_draws_its_first_player_from_its_own_seed(tmp_path):
    path = plugin_variant(tmp_path, "unlucky", '''
        @hookimpl
        def azul_first_player(players, rng):
            if rng.random() < 0.1:
                raise ValueError("an unlucky draw")
            return 0
        ''')
    report = check_variant_file(path, games=10)
    [problem] = report.problems
    assert (problem.file, problem.line) == (str(tmp_path / "unlucky.py"), 8)
    assert problem.message.startswith("2 players, game 7 (seed 2000012): plugin 'unlucky' raised ValueError")
    assert report.games_played == 6


@pytest.mark.parametrize("players, games, played", [
    ("[1]", None, "200 random games played (1 player)"),
    ("[1]", 1, "1 random game played (1 player)"),
    ("[2]", 1, "1 random game played (2 players)"),
    ("[1, 2]", 2, "4 random games played (1, 2 players)"),
])
def test_the_summary_counts_games_and_players(tmp_path, players, games, played):
    path = write(tmp_path, "solo.yaml", f"extends: standard\nname: solo\nplayers: {players}\n"
                                        "settings: {factories: {1: 3}}\n")
    report = check_variant_file(path) if games is None else check_variant_file(path, games=games)
    assert report.summary == f"{path}: valid variant 'solo'; {played}"
    assert report.to_json() == {"kind": "variant", "path": str(path), "valid": True, "name": "solo", "errors": [],
                                "games_played": int(played.split()[0])}


def test_a_file_that_does_not_load_is_summed_up_without_a_name(tmp_path):
    path = write(tmp_path, "bad.yaml", "extends: standard\nplayers: [0]\n")
    report = check_variant_file(path)
    assert report.summary == f"{path}: invalid variant: 1 problem"
    assert report.to_json()["name"] is None and report.to_json()["errors"] == [
        {"file": str(path), "line": 2, "column": 11, "message": "players: 0 is out of range (1 to 9)"}]


def test_the_broken_invariants_name_the_hooks_to_suspect():
    """No plugin can lose a tile or make a score negative during a round (their answers are
    checked, the floor stops at 0): the checks guard the engine, and name the hooks involved."""
    from azul_core.engine.state import GameState
    from azul_core.variants.check import _broken_invariant

    game = GameState(load_variant("standard").rules, 2)
    game.bag.remove(3)
    assert _broken_invariant(game, [20] * 5) == ("tiles were lost or made: B 20, Y 20, R 20, K 19, W 20, "
                                                 "expected B 20, Y 20, R 20, K 20, W 20 (wall: colour_wall)")
    game = GameState(load_variant("standard").rules, 2)
    game.players[1].score = -5
    assert _broken_invariant(game, [20] * 5) == "seat 2 has a negative score (-5; azul_placement_score: standard)"


def test_every_problem_of_a_variant_is_a_line_of_its_error(tmp_path):
    path = write(tmp_path, "two.yaml", "extends: standard\nplayers: [0, 10]\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert str(caught.value) == (f"{path}:2:11: players: 0 is out of range (1 to 9)\n"
                                 f"{path}:2:14: players: 10 is out of range (1 to 9)")


def test_trusting_one_variant_file_trusts_no_other(tmp_path):
    from azul_core.variants.loading import Trust

    named, other = tmp_path / "named.yaml", tmp_path / "other.yaml"
    assert Trust.of([named]).rule_for(named).allowed
    assert not Trust.of([named]).rule_for(other).allowed
    assert Trust.of([named], everything=True).rule_for(other).allowed


def test_a_problem_about_a_name_or_a_whole_file_is_told_without_a_place(tmp_path):
    from azul_core.variants.loading import find_variant, record_variant_path

    with pytest.raises(VariantError) as caught:
        find_variant("no-such-variant")
    assert str(caught.value).startswith("unknown variant 'no-such-variant' (known: ")
    with pytest.raises(VariantError) as caught:
        record_variant_path("missing.yaml", tmp_path)
    assert str(caught.value) == "missing.yaml: variant file not found"


def test_every_duplicate_toml_key_is_told(tmp_path):
    text = 'name = "x"\nname = "y"\nextends = "standard"\nextends = "duel"\n'
    problems = problems_of(write(tmp_path, "twice.toml", text))
    assert [(p.line, p.column, p.message) for p in problems] == [
        (2, 1, "duplicate key 'name' (first at line 1)"), (4, 1, "duplicate key 'extends' (first at line 3)")]


def test_a_player_count_written_alone_without_a_table_is_placed_at_players(tmp_path):
    path = write(tmp_path, "five.yaml", "extends: standard\nplayers: 5\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.column, problem.message) == (
        2, 1, "5 players: the factories table covers 2, 3, 4 players, not 5")


# ---------------------------------------------------------------- run of 2026-12-02: the loader's hot functions

def test_a_misspelt_toml_table_under_a_second_header_is_placed_at_that_header(tmp_path):
    """Not at the first header's place: each table a header makes on the way is placed at
    the header that first names it."""
    text = 'name = "x"\nextends = "standard"\n[settings]\nrow_bonus = 2\n[setings.factories]\nx = 1\n'
    assert toml_problem(tmp_path, text) == (5, 2, UNKNOWN_SETINGS)


def test_each_player_count_a_table_can_t_hold_is_told_at_the_setting_that_makes_it(tmp_path):
    path = write(tmp_path, "big.yaml", "extends: standard\nsettings:\n  tiles_per_factory: 20\n")
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == [
        (3, 22, "3 players: 7 factories of 20 tiles need 140 tiles, but there are only 100 (20 of each colour)"),
        (3, 22, "4 players: 9 factories of 20 tiles need 180 tiles, but there are only 100 (20 of each colour)")]


def test_a_player_count_a_plugin_refuses_does_not_hide_the_next_counts_problems(tmp_path):
    write(tmp_path, "no_pairs.py", '''
        from azul_core import hookimpl

        AZUL_API = 1

        @hookimpl
        def azul_game_setup(players, answer):
            return "no table for two here" if players == 2 else answer
    ''')
    path = write(tmp_path, "odd.yaml", "extends: standard\nplugins: [standard, colour_wall, no_pairs.py]\n"
                                       "settings:\n  tiles_per_factory: 20\n")
    assert [p.message for p in problems_of(path)] == [
        "2 players: no table for two here",
        "3 players: 7 factories of 20 tiles need 140 tiles, but there are only 100 (20 of each colour)",
        "4 players: 9 factories of 20 tiles need 180 tiles, but there are only 100 (20 of each colour)"]


def test_a_variant_file_the_user_names_by_a_winding_path_is_the_file_a_record_names(tmp_path):
    """``--variant`` consent is for the file itself, however the user wrote its path."""
    from azul_core.variants.loading import Trust, record_variant_path

    house = write(tmp_path, "house.yaml", "extends: standard\n")
    (tmp_path / "records").mkdir()
    winding = tmp_path / "records" / ".." / "house.yaml"
    trust = Trust.of([str(winding)])
    assert record_variant_path(str(house), tmp_path / "records", trust) == house
    assert record_variant_path("../house.yaml", tmp_path / "records", trust).resolve() == house


def test_a_variant_link_in_a_loop_named_for_consent_is_no_crash(tmp_path):
    from azul_core.variants.loading import Trust

    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    assert Trust.of([str(loop)]).names(loop)
    assert not Trust.of([str(loop)]).names(tmp_path / "other.yaml")


WIDE_TABLES = '''
    from azul_core import hookimpl
    from azul_core.rules import TableSetup

    AZUL_API = 1

    @hookimpl
    def azul_game_setup(players, answer):
        return {2: TableSetup(10, 2, 20), 3: TableSetup(1, 4, 20), 4: TableSetup(9, 20, 20)}.get(players, answer)
'''


@pytest.mark.parametrize("text, place", [
    # no table setting written anywhere: at the file's settings
    ("name: wide\nplugins: [standard, colour_wall, wide.py]\n\nsettings:\n  row_bonus: 2\n", (4, 1)),
    # at the value of the table setting the file writes
    ("extends: standard\nplugins: [standard, colour_wall, wide.py]\nsettings:\n  tiles_per_factory: 4\n", (4, 22)),
])
def test_a_plugin_s_tables_of_10_factories_or_too_many_tiles_are_refused_and_one_of_1_is_not(tmp_path, text, place):
    plugin = write(tmp_path, "wide.py", WIDE_TABLES)
    path = write(tmp_path, "wide.yaml", text)
    problems = [(p.file, p.line, p.column, p.message) for p in problems_of(path)]
    # 10 factories is the plugin's own answer: told at its place in 'plugins', with its file:line.
    lines = text.splitlines()
    row = next(number for number, line in enumerate(lines) if "wide.py" in line)
    listed = (row + 1, lines[row].index("wide.py") + 1)
    assert problems[0][:3] == (str(path), *listed)
    assert problems[0][3].startswith("2 players: plugin 'wide' returned TableSetup(factories=10")
    assert problems[0][3].endswith(f"from azul_game_setup ({plugin}:7): 10 factories; there can be 1 to 9 "
                                   "(a record names a factory by one digit)")
    assert problems[1:] == [
        (str(path), *place, "4 players: 9 factories of 20 tiles need 180 tiles, but there are only 100 (20 of each colour)")]


def test_a_table_problem_is_placed_at_this_file_s_setting_before_its_base_s(tmp_path):
    write(tmp_path, "base.yaml", "extends: standard\nsettings:\n  factories: {2: 5, 3: 7, 4: 9}\n")
    path = write(tmp_path, "child.yaml", "extends: base.yaml\nsettings:\n  tiles_per_colour: 5\n")
    assert [(p.file, p.line, p.column, p.message) for p in problems_of(path)] == [
        (str(path), 3, 21, "3 players: 7 factories of 4 tiles need 28 tiles, but there are only 25 (5 of each colour)"),
        (str(path), 3, 21, "4 players: 9 factories of 4 tiles need 36 tiles, but there are only 25 (5 of each colour)")]


def test_the_variant_folders_of_azul_variants_path_are_all_searched(tmp_path, monkeypatch):
    from azul_core.variants.loading import discovered_variants

    folders = [tmp_path / "one", tmp_path / "two"]
    for folder, name in zip(folders, ("first", "second")):
        folder.mkdir()
        write(folder, f"{name}.yaml", "extends: standard\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AZUL_VARIANTS_PATH", os.pathsep.join(map(str, folders)))
    found = discovered_variants()
    assert (found["first"], found["second"]) == (folders[0] / "first.yaml", folders[1] / "second.yaml")


def test_a_mapping_or_a_list_where_a_number_goes_is_told_as_the_user_wrote_it(tmp_path):
    """A bug found by the mutation run: the message named the loader's own class
    ("not Located {...}"). TOML's keys stay strings where no mapping of numbers is read."""
    toml = toml_problem(tmp_path, 'extends = "standard"\n[settings]\nrow_bonus = { 2 = 3 }\n')
    assert toml == (3, 13, "setting 'row_bonus' must be a whole number, not dict {'2': 3}")
    path = write(tmp_path, "list.yaml", "extends: standard\nsettings:\n  row_bonus: [1, 2]\n")
    [problem] = problems_of(path)
    assert problem.message == "setting 'row_bonus' must be a whole number, not list [1, 2]"


def test_a_variant_not_found_is_told_by_its_name(tmp_path, monkeypatch):
    from azul_core.variants.loading import find_variant, known_variants

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AZUL_VARIANTS_PATH", "")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "x.yaml", "extends: standard\n")
    assert find_variant("sub/x.yaml") == Path("sub/x.yaml")
    with pytest.raises(VariantError) as missing:
        find_variant("sub/missing.yaml")
    assert [(p.file, p.line, p.column, p.message) for p in missing.value.problems] == [
        ("sub/missing.yaml", 0, 0, "variant file not found")]
    assert str(missing.value) == "sub/missing.yaml: variant file not found"
    with pytest.raises(VariantError) as unknown:
        find_variant("stadnard")
    known = ", ".join(known_variants())
    assert [(p.file, p.line, p.column, p.message) for p in unknown.value.problems] == [
        ("", 0, 0, f"unknown variant 'stadnard' (known: {known}); did you mean 'standard'?")]
    assert known == "duel, grey-wall, standard"


BAD_DECLARATIONS = {
    "badset": ('"row_bonus"', "plugin 'badset' returned 'row_bonus' from azul_declare_settings: "
                              "expected a list of Setting"),
    "baditem": ("[1]", "plugin 'baditem' declared 1, not a Setting"),
}


@pytest.mark.parametrize("broken", [["badset"], ["baditem"], ["badset", "baditem"]])
def test_settings_a_plugin_declares_wrongly_are_told_at_that_plugin_and_nothing_else_is_judged(tmp_path, broken):
    """An answer that is not a list, an item that is not a Setting: told at the plugin in the
    file's list, and the settings are judged no further (``their_setting`` may be the one the
    broken plugin meant to declare)."""
    for name in broken:
        write(tmp_path, f"{name}.py", f'''
            from azul_core import hookimpl

            AZUL_API = 1

            @hookimpl
            def azul_declare_settings():
                return {BAD_DECLARATIONS[name][0]}
        ''')
    path = write(tmp_path, "bs.yaml", "extends: standard\nplugins: [standard, colour_wall,\n  "
                                      + ", ".join(f"{name}.py" for name in broken)
                                      + "]\nsettings:\n  row_bonus: 3\n  their_setting: 1\n")
    columns = [3 + sum(len(f"{name}.py, ") for name in broken[:index]) for index in range(len(broken))]
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == [
        (3, column, BAD_DECLARATIONS[name][1]) for column, name in zip(columns, broken)]


def test_a_check_without_code_names_each_plugin_file_it_did_not_run_at_its_line(tmp_path):
    path = write(tmp_path, "nc.yaml", "extends: standard\nplugins: [standard, colour_wall,\n  mine.py,\n  yours.py]\n")
    from azul_core.variants.loading import check_without_code

    problems, skipped = check_without_code(path)
    assert problems == []
    assert skipped == [f"{path}:3: plugin 'mine.py' (the file {tmp_path / 'mine.py'}) was not run",
                       f"{path}:4: plugin 'yours.py' (the file {tmp_path / 'yours.py'}) was not run"]


def test_every_plugin_not_found_is_told_and_the_settings_they_may_own_are_not(tmp_path):
    path = write(tmp_path, "miss.yaml", "extends: standard\nplugins: [standard, colour_wall, nosuch, alsonot]\n"
                                        "settings:\n  their_setting: 1\n")
    installed = "not an installed plugin (installed: colour_wall, duel, grey_wall, standard), an importable module or a .py file"
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == [
        (2, 34, f"plugin 'nosuch' not found: {installed}"), (2, 42, f"plugin 'alsonot' not found: {installed}")]


MINE_DECLARES = '''
    from azul_core import hookimpl
    from azul_core.settings import Setting

    AZUL_API = 1

    @hookimpl
    def azul_declare_settings():
        return [Setting("bonus_mine", "int", 0, "a bonus")]
'''
NOT_A_NUMBER = "setting 'row_bonus' must be a whole number, not str 'x'"


@pytest.mark.parametrize("plugins, first", [
    ("[standard, colour_wall, mine.py]",
     (4, 3, "unknown setting 'zzz' (no listed plugin declares it; plugins with settings: mine, standard)")),
    # a plugin missing may own zzz: not told, but the values of known settings still are
    ("[standard, colour_wall, nosuch]",
     (2, 34, "plugin 'nosuch' not found: not an installed plugin (installed: colour_wall, duel, grey_wall, "
             "standard), an importable module or a .py file")),
])
def test_every_setting_is_judged_past_an_unknown_one(tmp_path, plugins, first):
    write(tmp_path, "mine.py", MINE_DECLARES)
    path = write(tmp_path, "s.yaml", f"extends: standard\nplugins: {plugins}\nsettings:\n  zzz: 1\n  row_bonus: x\n")
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == [first, (5, 14, NOT_A_NUMBER)]


def test_an_unknown_setting_where_no_plugin_declares_any_says_none(tmp_path):
    path = write(tmp_path, "bare.yaml", "name: bare\nplugins: [colour_wall]\nsettings:\n  zzz: 1\n")
    [problem] = problems_of(path)
    assert problem.message == "unknown setting 'zzz' (no listed plugin declares it; plugins with settings: none)"


PLUGIN_FILES = {
    "future.py": "from azul_core import hookimpl\n\nAZUL_API = 99\n\n\n@hookimpl\n"
                 "def azul_floor_spaces(answer):\n    return answer\n",
    "nohook.py": "from azul_core import hookimpl\n\nAZUL_API = 1\n\n\n@hookimpl\ndef azul_no_such_hook():\n    return 1\n",
}


@pytest.mark.parametrize("plugins, expected", [
    ("[standard, colour_wall,\n  future.py]",
     [(3, 3, "plugin 'future' needs hook API 99, but this azul-variants offers API 1: update the plugin or "
             "azul-variants")]),
    ("[standard, colour_wall, nohook.py]",
     [(2, 34, "plugin 'nohook' implements 'azul_no_such_hook', which is not a hook")]),
    ("[standard, colour_wall, colour_wall, standard]",
     [(2, 34, "plugin 'colour_wall' is listed twice"), (2, 47, "plugin 'standard' is listed twice")]),
])
def test_a_plugin_that_can_t_be_used_is_told_at_its_place_and_the_settings_are_not_judged(tmp_path, plugins, expected):
    """A setting no loaded plugin declares (``their_setting``) may be the broken plugin's:
    only the plugin's problems are told, each at its item of the list."""
    for name, text in PLUGIN_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    path = write(tmp_path, "p.yaml", f"extends: standard\nplugins: {plugins}\nsettings:\n  their_setting: 1\n")
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == expected


def test_where_a_variant_s_name_description_and_settings_come_from(tmp_path):
    """Name and description are never inherited: the origins say so; a file's own name is
    its line; each declared setting keeps its plugin."""
    write(tmp_path, "base.yaml", "name: base\ndescription: the base\nextends: standard\n")
    kid = load_variant(write(tmp_path, "kid.yaml", "extends: base.yaml\n"))
    assert (kid.name, kid.description) == ("kid", "")
    assert (kid.origins["name"], kid.origins["description"]) == (
        f"the file name of {tmp_path / 'kid.yaml'} (a base's is not inherited)",
        f"none in {tmp_path / 'kid.yaml'} (a base's is not inherited)")
    alone = load_variant(write(tmp_path, "alone.yaml", "plugins: [standard, colour_wall]\n"))
    assert alone.origins["name"] == f"the file name of {tmp_path / 'alone.yaml'}"
    assert "description" not in alone.origins
    own = load_variant(write(tmp_path, "own.yaml", "extends: base.yaml\nname: own\ndescription: mine\n"))
    assert (own.origins["name"], own.origins["description"]) == (f"{tmp_path / 'own.yaml'}:2",
                                                                 f"{tmp_path / 'own.yaml'}:3")
    assert kid.declared["row_bonus"].owner == "standard" and set(kid.declared) == set(own.declared)


def test_a_decide_that_is_not_a_mapping_says_what_it_is(tmp_path):
    path = write(tmp_path, "d.yaml", "name: own\nextends: standard\ndecide: grey_wall\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.column, problem.message) == (
        3, 9, "'decide' must map a rule to the plugin that decides it, e.g. {wall: grey_wall}, not the string 'grey_wall'")


@pytest.mark.parametrize("text, place, message", [
    ("extends: standard\nplayers: two\n", (2, 10),
     "'players' must be a list of player counts, e.g. [2, 3, 4], not the string 'two'"),
    ("extends: standard\nplayers: [2,\n  x]\n", (3, 3), "players: the string 'x' is not a player count"),
    ("name: x\nplugins: 5\n", (2, 10),
     "'plugins' must be a non-empty list of plugin names, modules or .py files, not the number 5"),
    ("extends: standard\ndescription: [1]\n", (2, 14), "'description' must be a string, not a list"),
    ("extends: standard\nsettings: 5\n", (2, 11),
     "'settings' must be a mapping of setting names to values, not the number 5"),
    ("extends: standard\ndecide: {wall: 3}\n", (2, 16), "decide: wall: expected a plugin name, not the number 3"),
    ("extends: standard\nsettings:\n  row_bonus: " + "1" * 51 + "\n", (3, 14),
     "YAML error: a number of 51 characters is out of range"),
])
def test_a_field_of_the_wrong_kind_is_told_what_it_is_at_its_value(tmp_path, text, place, message):
    [problem] = problems_of(write(tmp_path, "v.yaml", text))
    assert ((problem.line, problem.column), problem.message) == (place, message)


# ---------------------------------------------------------------- YAML values checked before they are built

CONTROL = "a string with the control character 0x{:02x}: text in a file can't drive the terminal it is shown on"


def yaml_problems(tmp_path, text: str) -> list[tuple]:
    from azul_core.variants.files import read_mapping

    path = write(tmp_path, "v.yaml", text)
    _data, problems = read_mapping(path)
    assert all(problem.file == str(path) for problem in problems)
    return [(problem.line, problem.column, problem.message) for problem in problems]


def test_the_first_20_refused_yaml_values_are_told_in_the_file_s_order(tmp_path):
    """A bug found by the mutation run: the walk went from the end of each mapping, so the 20
    told were the last 20."""
    text = "extends: standard\nsettings:\n" + "".join(f'  k{i}: "v\\u0001"\n' for i in range(25))
    assert yaml_problems(tmp_path, text) == [(3 + i, 7 + len(str(i)) - 1, CONTROL.format(1)) for i in range(20)]


def test_refused_yaml_values_are_told_in_order_across_nested_values(tmp_path):
    text = 'extends: standard\nsettings: {b: [1, "\\u0001"], a: "\\u0002"}\nname: "\\u0003"\n'
    assert yaml_problems(tmp_path, text) == [(2, 19, CONTROL.format(1)), (2, 33, CONTROL.format(2)),
                                             (3, 7, CONTROL.format(3))]


def test_a_refused_yaml_value_used_through_aliases_is_told_once_where_it_is_written(tmp_path):
    text = 'extends: standard\ndescription: &a "bad \\u0001 here"\nname: *a\nplayers: [*a, *a]\n'
    assert yaml_problems(tmp_path, text) == [(2, 14, CONTROL.format(1))]


@pytest.mark.parametrize("levels, refused", [(29, False), (30, True)])
def test_a_yaml_key_that_is_a_list_counts_its_depth_as_a_value_does(tmp_path, levels, refused):
    key = "a: " + "{b: " * levels + "{? [x]\n: 1}" + "}" * levels + "\n"
    value = "a: " + "{b: " * levels + "{c: [x]}" + "}" * levels + "\n"
    for text in (key, value):
        deep = [problem for problem in yaml_problems(tmp_path, text) if "nested more than" in problem[2]]
        assert bool(deep) == refused


def test_every_refused_yaml_value_is_told_past_one_nested_too_deep(tmp_path):
    text = "a: " + "[" * 33 + "]" * 33 + '\nb: "\\u0001"\nc: ' + "[" * 33 + "]" * 33 + "\n"
    assert yaml_problems(tmp_path, text) == [(1, 35, "nested more than 32 levels deep"), (2, 4, CONTROL.format(1)),
                                             (3, 35, "nested more than 32 levels deep")]


def test_aliases_expanding_inside_a_key_count_towards_the_limit(tmp_path):
    """A list used as a key (``? [...]``) is walked like any value: an alias bomb there is
    refused before anything is built."""
    text = f"x: &a [{', '.join(['1'] * 99)}]\n? [{', '.join(['*a'] * 250)}]\n: 1\n"
    assert yaml_problems(tmp_path, text) == [
        (1, 1, "the document expands to more than 20000 values (nested aliases?): refused")]


def test_a_float_at_the_largest_magnitude_is_taken_and_past_it_is_not():
    from azul_core.variants.limits import MAX_INT, value_problem

    assert value_problem(float(MAX_INT)) is None and value_problem(-float(MAX_INT)) is None
    # written in full: "1e+18 is out of range" would say the limit itself is refused
    assert value_problem(1.000001e18) == (
        "the number 1.000001e+18 is out of range (at most 1e+18 either way)")
    assert value_problem(float("inf")) == "inf is not a number a game can use"
    assert value_problem(float("-inf")) == "-inf is not a number a game can use"


def test_a_string_with_a_lone_surrogate_is_refused_as_not_unicode():
    from azul_core.variants.limits import value_problem

    assert value_problem("a\ud800b") == "a string with a lone surrogate (\\ud800-\\udfff): not valid Unicode text"


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\n\n"])
def test_an_empty_yaml_file_is_told_so_at_its_start(tmp_path, text):
    from azul_core.variants.files import EMPTY_FILE

    assert yaml_problems(tmp_path, text) == [(1, 1, EMPTY_FILE)]


# ---------------------------------------------------------------- extends

def test_an_extends_cycle_through_another_spelling_of_a_path_is_found(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    write(tmp_path, "a.yaml", "extends: sub/../b.yaml\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\n")
    assert [(p.file, p.line, p.column, p.message) for p in problems_of(tmp_path / "a.yaml")] == [
        ("b.yaml", 1, 10, "extends cycle: a.yaml -> b.yaml -> a.yaml")]


def test_an_extends_chain_too_deep_is_told_at_the_extends_that_goes_too_far(tmp_path, monkeypatch):
    from test_guard_variants import extends_chain

    monkeypatch.chdir(tmp_path)
    first = extends_chain(tmp_path / "deep", 34)
    assert [(p.file, p.line, p.column, p.message) for p in problems_of(first)] == [
        (str(Path("deep") / "v32.yaml"), 2, 10, "extends chain deeper than 32 files")]


@pytest.mark.parametrize("extends, message", [
    ("5", "'extends' must be a variant name or a file path"),
    ("''", "'extends' must be a variant name or a file path"),
    ("nowhere/base.yaml", "base variant file 'nowhere/base.yaml' not found (looked in nowhere)"),
])
def test_a_base_that_can_t_be_read_is_told_and_settings_its_plugins_may_own_are_not(tmp_path, monkeypatch,
                                                                                  extends, message):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, "e.yaml", f"extends: {extends}\nsettings:\n  their_setting: 1\n")
    assert [(p.file, p.line, p.column, p.message) for p in problems_of(path)] == [("e.yaml", 1, 10, message)]


def test_a_variant_file_named_by_its_absolute_path_is_shown_relative_to_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for text, line in (("extends: standard\nplayers: two\n", 2),  # a problem of the variant
                       ("extends: standard\nplayers: [2\n", 2)):  # a problem of the file
        path = write(tmp_path, "broken.yaml", text)
        assert path.is_absolute()
        [problem] = problems_of(path)
        assert (problem.file, problem.line) == ("broken.yaml", line)


def test_a_file_of_too_many_lines_is_refused_at_its_start(tmp_path):
    text = "extends: standard\n" + "#\n" * 4000
    assert yaml_problems(tmp_path, text) == [
        (1, 1, "more than 4000 lines and list items: too many for a variant file, refused unparsed")]


@pytest.mark.parametrize("line", ['description = "{dots}"', 'description="{dots}"', 'description = "{dots}=x"'])
def test_dots_in_a_toml_value_are_no_parts_of_its_key(tmp_path, line):
    path = write(tmp_path, "dots.toml", 'extends = "standard"\n' + line.format(dots="." * 40) + "\n")
    assert load_variant(path).description.startswith("." * 40)


def test_a_toml_dotted_key_of_too_many_parts_is_refused_at_its_line(tmp_path):
    key = ".".join(f"k{n}" for n in range(33))
    path = write(tmp_path, "deep.toml", f'name = "limits"\nextends = "standard"\n{key} = 1\n')
    [problem] = problems_of(path)
    assert (problem.file, problem.line, problem.column, problem.message) == (
        str(path), 3, 1, "a dotted key of more than 32 parts: refused unparsed")


# ---------------------------------------------------------------- reading a file: what changed since its stat

def stat_saying(monkeypatch, size: int | None = None, regular: bool = False):
    """``os.stat`` (read_regular_file's first look) reporting another size, or a regular file:
    what a file swapped or grown between that look and the reading would show."""
    import stat as stat_module
    import types

    real = os.stat

    def fake(path, *args, **kwargs):
        found = real(path, *args, **kwargs)
        mode = stat_module.S_IFREG | 0o644 if regular else found.st_mode
        return types.SimpleNamespace(st_mode=mode, st_size=found.st_size if size is None else size)

    monkeypatch.setattr(os, "stat", fake)


def test_a_file_larger_than_its_first_look_said_is_refused_once_read(tmp_path, monkeypatch):
    path = tmp_path / "grew.yaml"
    path.write_bytes(b"#" * 100)
    with monkeypatch.context() as patch:
        stat_saying(patch, size=10)
        assert read_regular_file(path, 100) == b"#" * 100
        with pytest.raises(InputRefused) as refused:
            read_regular_file(path, 99)
    assert refused.value.reason == "larger than 99 bytes: refused"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_file_swapped_for_a_fifo_after_its_first_look_is_refused_without_waiting(tmp_path, monkeypatch):
    path = tmp_path / "swapped.yaml"
    os.mkfifo(path)
    with monkeypatch.context() as patch:
        stat_saying(patch, regular=True)
        with pytest.raises(InputRefused) as refused:
            read_regular_file(path, 100)  # opened without blocking: no writer is waited for
    assert refused.value.reason == "a FIFO (named pipe), not a regular file: refused"


def test_a_path_through_a_file_can_t_be_read(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputRefused) as refused:
        read_regular_file(tmp_path / "file" / "inside.yaml", 100)
    assert refused.value.reason == "can't be read: Not a directory"
    problems = read_mapping_problems(tmp_path / "file" / "inside.yaml")
    assert problems == [(str(tmp_path / "file" / "inside.yaml"), 1, 1, "can't be read: Not a directory")]


def read_mapping_problems(path: Path) -> list[tuple]:
    from azul_core.variants.files import read_mapping

    return [(p.file, p.line, p.column, p.message) for p in read_mapping(path)[1]]


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe", "not UTF-8 text (invalid start byte at byte 0)"),
    (b"#" * 70_000, "the file is larger than 65536 bytes (70000): refused"),
])
def test_a_file_that_is_no_variant_text_is_refused_at_its_start(tmp_path, content, message):
    path = tmp_path / "v.yaml"
    path.write_bytes(content)
    assert read_mapping_problems(path) == [(str(path), 1, 1, message)]


def test_a_folder_or_a_fifo_named_as_a_variant_file_is_refused_at_its_start(tmp_path):
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    assert read_mapping_problems(folder) == [(str(folder), 1, 1, "the file is a folder, not a regular file: refused")]
    missing = tmp_path / "missing.yaml"
    assert read_mapping_problems(missing) == [(str(missing), 1, 1, "no such file")]
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.yaml"
        os.mkfifo(fifo)
        assert read_mapping_problems(fifo) == [
            (str(fifo), 1, 1, "the file is a FIFO (named pipe), not a regular file: refused")]


@pytest.mark.parametrize("text, expected", [
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", (1, 1, "nested more than 32 levels deep: refused")),
    ("a:\n  b: 1\n c: 2\n",  # the error's own place, not where the mapping began
     (3, 2, "YAML syntax error: while parsing a block mapping expected <block end>, but found '<block mapping start>'")),
    ("a: 1\n\tb: 2\n", (2, 1, "YAML syntax error: while scanning for the next token found character '\\t' that "
                             "cannot start any token")),
    ("a: b: c\n", (1, 5, "YAML syntax error: mapping values are not allowed here")),
])
def test_a_yaml_syntax_error_is_told_at_its_place(tmp_path, text, expected):
    assert yaml_problems(tmp_path, text) == [expected]


def test_every_key_yaml_would_lose_or_can_t_hold_is_told(tmp_path):
    """A bug found by the mutation run: a list as key was "a key can't be LocatedList" (the
    loader's class)."""
    text = 'a: 1\na: 2\n? [1]\n: 3\n3: x\n"3": y\nb: 1\nb: 2\n? {c: 1}\n: 4\n4: x\n"4": y\n? !!set {d: null}\n: 5\n'
    assert yaml_problems(tmp_path, text) == [
        (2, 1, "duplicate key 'a' (first at line 1); YAML would silently keep only the last"),
        (3, 3, "a key can't be a list"),
        (6, 1, "keys 3 (line 5) and '3' are the same key once read as text: write it once"),
        (8, 1, "duplicate key 'b' (first at line 7); YAML would silently keep only the last"),
        (9, 3, "a key can't be a mapping"),
        (12, 1, "keys 4 (line 11) and '4' are the same key once read as text: write it once"),
        (13, 3, "a key can't be set")]


@pytest.mark.parametrize("text, expected", [
    ('extends = "standard"\n[settings.factories]\nx = 5\n',
     (2, 2, "setting 'factories' must be a mapping of whole numbers to whole numbers, not dict "
            "{2: 5, 3: 7, 4: 9, 'x': 5}")),
    ('extends = "standard"\n[settings.factories]\n"-3" = 5\n', (2, 2, "setting 'factories': -3 players: a table seats 1 to 9")),
    ('extends = "standard"\nplayers = 2024-01-01\n',
     (2, 11, "'players' must be a list of player counts, e.g. [2, 3, 4], not date 2024-01-01")),
    ('name = "x"\nextends = "standard"\n  [settings.' + ".".join(f"k{n}" for n in range(33)) + "]\nx = 1\n",
     (3, 1, "a dotted key of more than 32 parts: refused unparsed")),
])
def test_toml_keys_read_as_numbers_dates_and_indented_headers(tmp_path, text, expected):
    """A mapping of numbers reads "-3" as -3 and leaves "x" a string; a TOML date is told as
    written; an indented table header is a header."""
    assert toml_problem(tmp_path, text) == expected


def test_a_plugin_failing_to_declare_its_settings_is_told_at_its_item(tmp_path):
    write(tmp_path, "broken.py", """
        from azul_core import hookimpl

        AZUL_API = 1

        @hookimpl
        def azul_declare_settings():
            raise RuntimeError("no settings today")
    """)
    path = write(tmp_path, "b.yaml", "extends: standard\nplugins: [standard, colour_wall,\n  broken.py]\n"
                                     "settings:\n  their_setting: 1\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.column) == (3, 3)
    assert problem.message == (f"plugin 'broken' raised RuntimeError in azul_declare_settings at "
                               f"{tmp_path / 'broken.py'}:8: no settings today")


def test_a_setting_declared_by_two_plugins_stops_the_settings_being_judged(tmp_path):
    for name in ("one", "two"):
        write(tmp_path, f"{name}.py", MINE_DECLARES)
    path = write(tmp_path, "t.yaml", "extends: standard\nplugins: [standard, colour_wall, one.py, two.py]\n"
                                     "settings:\n  their_setting: 1\n")
    assert [(p.line, p.column, p.message) for p in problems_of(path)] == [
        (2, 42, "setting 'bonus_mine' is declared by both 'one' and 'two'")]


def test_a_refused_yaml_value_after_an_alias_is_still_told(tmp_path):
    text = 'a: &x [1]\nb: *x\nc: "\\u0001"\n'
    assert yaml_problems(tmp_path, text) == [(3, 4, CONTROL.format(1))]


def test_a_plugin_file_not_run_without_consent_stops_the_settings_being_judged(tmp_path):
    from azul_core.variants.loading import CodeRule

    write(tmp_path, "mine.py", MINE_DECLARES)
    path = write(tmp_path, "r.yaml", "extends: standard\nplugins: [standard, colour_wall, mine.py]\n"
                                     "settings:\n  bonus_mine: 1\n")
    with pytest.raises(VariantError) as refused:
        load_variant(path, code=CodeRule(refused="allow it with --trust"))
    assert [(p.line, p.column, p.message) for p in refused.value.problems] == [
        (2, 34, f"plugin 'mine.py' would run the code of the file {tmp_path / 'mine.py'}: not run, since no one "
                "named this variant; allow it with --trust")]


# ---------------------------------------------------------------- the "not killed" of both runs

from test_cli_error_paths import azul  # noqa: E402  (typer's CliRunner, plain output)

#: A plugin that builds its helpers lazily (PEP 562), with a slip in its ``__dir__``: the
#: loader's own look at the module (its version, its hook functions) runs neither function,
#: but pluggy's ``dir()`` of it does, and the NameError is no error of pluggy's own.
LAZY_PLUGIN = '''\
import importlib

AZUL_API = 1
_LAZY_HELPERS = {"helpers": "azul_helpers"}


def __getattr__(name):
    if name in _LAZY_HELPERS:
        return importlib.import_module(_LAZY_HELPERS[name])
    raise AttributeError(name)


def __dir__():
    return [*globals(), *_LAZY_HELPER]
'''


def test_a_plugin_whose_own_code_fails_while_it_is_registered_is_a_problem_at_its_item(tmp_path):
    """`_plugin_problems`' last resort: the error named by its class (a KeyError's text alone is
    just the key), on one line, at the plugin's item; `azul validate` exits 1, no traceback."""
    write(tmp_path, "lazy.py", LAZY_PLUGIN)
    path = write(tmp_path, "lazy.yaml", "extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, lazy.py]\n")
    message = "plugin 'lazy' could not be registered: NameError: name '_LAZY_HELPER' is not defined"
    [problem] = problems_of(path)
    assert (problem.file, problem.line, problem.column, problem.message) == (str(path), 3, 34, message)
    result = azul("validate", path)
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [f"{path}: invalid variant: 1 problem", f"  {path}:3:34: {message}"]


def failing_on(monkeypatch, path: Path, step: str, error: OSError) -> None:
    """``os.open`` (step "open") or ``os.read`` (step "read") failing for ``path`` alone, after
    read_regular_file's first look has seen a regular file: what a file made unreadable in
    between, or a disk failing, would do (root opens any file, so no real file can)."""
    real_open, real_read = os.open, os.read
    opened: set[int] = set()

    def fake_open(name, *args, **kwargs):
        if os.fspath(name) == str(path):
            if step == "open":
                raise error
            handle = real_open(name, *args, **kwargs)
            opened.add(handle)
            return handle
        return real_open(name, *args, **kwargs)

    def fake_read(handle, size):
        if handle in opened:
            raise error
        return real_read(handle, size)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "read", fake_read)


@pytest.mark.parametrize("step", ["open", "read"])
@pytest.mark.parametrize("error, reason", [
    (PermissionError(13, "Permission denied"), "can't be read: Permission denied"),
    (OSError(5, "Input/output error"), "can't be read: Input/output error"),
    (OSError("the disk went away"), "can't be read: the disk went away"),  # no strerror: the error itself
])
def test_a_file_that_can_t_be_opened_or_read_after_its_first_look_is_told_so(tmp_path, monkeypatch, step,
                                                                              error, reason):
    path = write(tmp_path, "v.yaml", "extends: standard\n")
    failing_on(monkeypatch, path, step, error)
    with pytest.raises(InputRefused) as refused:
        read_regular_file(path, 100)
    assert refused.value.reason == reason
    assert [(p.file, p.line, p.column, p.message) for p in problems_of(path)] == [(str(path), 1, 1, reason)]
    result = azul("validate", path)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"azul: {path}: {reason}\n")


#: The mode of a Solaris door (``S_IFDOOR`` there; Linux has no such kind of file).
DOOR = 0o150000 | 0o644


@pytest.mark.parametrize("look", ["stat", "fstat"])
def test_a_kind_of_file_with_no_name_here_is_refused_unread(tmp_path, monkeypatch, look):
    """Found by the mutation run: such a file was "not a regular file, not a regular file"."""
    import types

    path = write(tmp_path, "door.yaml", "extends: standard\n")
    real = getattr(os, look)

    def door(target, *args, **kwargs):
        found = real(target, *args, **kwargs)
        if look == "fstat" or os.fspath(target) == str(path):
            return types.SimpleNamespace(st_mode=DOOR, st_size=found.st_size)
        return found

    monkeypatch.setattr(os, look, door)
    reason = "a special file of an unknown kind, not a regular file: refused"
    with pytest.raises(InputRefused) as refused:
        read_regular_file(path, 100)
    assert refused.value.reason == reason
    assert read_mapping_problems(path) == [(str(path), 1, 1, f"the file is {reason}")]
    if look == "stat":  # the command opens other files too: the first look alone is faked there
        result = azul("validate", path)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"azul: {path}: {reason}\n")


def test_an_engine_failure_in_a_test_game_is_a_problem_of_the_variant_not_a_traceback(tmp_path, monkeypatch):
    """`_play_games`' last resort, for what is neither a plugin's failure nor a refused decision:
    no plugin answer is known to make the engine fail (each is checked), so an engine bug is
    planted; it is told with the game and seed to replay, at the variant's 'plugins'."""
    from azul_core.engine.state import GameState

    real_deal = GameState.deal

    def deal_failing_in_round_2(self, rng):
        if self.round == 2:
            raise RuntimeError("the engine's own bug\nsecond line")
        return real_deal(self, rng)

    monkeypatch.setattr(GameState, "deal", deal_failing_in_round_2)
    path = write(tmp_path, "v.yaml", "extends: standard\nplayers: [3]\n\nplugins: [standard, colour_wall]\n")
    report = check_variant_file(path, games=4)
    [problem] = report.problems
    message = "3 players, game 1 (seed 3000009): RuntimeError: the engine's own bug\nsecond line"
    assert (problem.file, problem.line, problem.column, problem.message) == (str(path), 4, 1, message)
    assert report.games_played == 0
    result = azul("validate", "--games", "4", path)
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [f"{path}: invalid variant 'v': 1 problem",
                                          f"  {path}:4:1: {' '.join(message.splitlines())}"]


GREEDY_GETATTR_PLUGIN = '''\
AZUL_API = 1
_HELPERS = {"helpers": "azul_helpers"}


def __getattr__(name):
    return _HELPERS[name]  # a KeyError, not the AttributeError Python expects, for any other name
'''


def test_a_plugin_whose_module_getattr_raises_for_its_version_is_named_at_its_item(tmp_path):
    """Reading a plugin's ``__version__`` runs its module ``__getattr__``: one that raises
    something other than AttributeError is the plugin's failure, told at its item with its class,
    not "the variant check failed: KeyError: '__version__'"."""
    write(tmp_path, "greedy_getattr.py", GREEDY_GETATTR_PLUGIN)
    path = write(tmp_path, "g.yaml", "extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, greedy_getattr.py]\n")
    message = ("plugin file 'greedy_getattr.py' failed to load: its __version__ raised KeyError: '__version__'")
    [problem] = problems_of(path)
    assert (problem.line, problem.column, problem.message) == (3, 34, message)
    result = azul("validate", path)
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [f"{path}: invalid variant: 1 problem", f"  {path}:3:34: {message}"]
