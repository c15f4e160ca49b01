"""Tests written for the survivors of the mutation run of the `variants` scope (issue 24).

Each one was checked to fail with the mutant it answers planted by hand; docs/testing.md
lists the mutants and what was done about each.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from azul_core.variants.check import check_variant_file
from azul_core.variants.files import Problem
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

def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems_of(path: Path) -> list[Problem]:
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    return caught.value.problems


@pytest.mark.parametrize("value, called", [
    ("''", "the string ''"), ("true", "true (true/false)"), ("false", "false (true/false)"),
    ("{a: 1}", "a mapping"), ("[1]", "a list"), ("[]", "an empty list"), ("'x'", None), ("3", "int 3"),
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
