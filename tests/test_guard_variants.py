"""Every documented limit of a variant file, at the limit and one past it (issue 24).

docs/variants.md and docs/security.md: at most 64 KB, 4,000 lines and list items, TOML dotted
keys of 32 parts, nesting 32 deep, numbers of 40 characters, strings of 2,000 characters, YAML
aliases expanding to 20,000 values, ``extends`` 32 files deep, 1 to 9 players, settings within
±10^6 and list settings of 1,000 values.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from azul_core.settings import LIMIT
from azul_core.settings import MAX_ITEMS as MAX_SETTING_ITEMS
from azul_core.variants.files import MAX_FILE_BYTES, MAX_ITEMS, MAX_KEY_PARTS, MAX_NODES, MAX_NUMBER_CHARS, read_mapping
from azul_core.variants.limits import MAX_DEPTH, MAX_STRING
from azul_core.variants.loading import MAX_EXTENDS_DEPTH, MAX_PLAYERS, VariantError, load_variant

HEAD = "name: limits\nextends: standard\n"


def problems_of(path: Path) -> list[str]:
    _data, problems = read_mapping(path)
    return [problem.message for problem in problems]


def write(tmp_path: Path, text: str, name: str = "limits.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# ---------------------------------------------------------------- the file: bytes and lines


def test_a_file_of_exactly_64_kb_is_read_and_one_byte_more_is_not(tmp_path):
    assert MAX_FILE_BYTES == 64 * 1024
    text = HEAD + "#" * (MAX_FILE_BYTES - len(HEAD) - 1) + "\n"
    assert problems_of(write(tmp_path, text)) == []
    assert problems_of(write(tmp_path, text + "\n")) == [
        f"the file is larger than {MAX_FILE_BYTES} bytes ({MAX_FILE_BYTES + 1}): refused"]


def test_4000_lines_and_items_are_read_and_one_more_is_not(tmp_path):
    assert MAX_ITEMS == 4000
    text = HEAD + "#\n" * (MAX_ITEMS - HEAD.count("\n"))
    assert text.count("\n") == MAX_ITEMS and problems_of(write(tmp_path, text)) == []
    refused = problems_of(write(tmp_path, text + "#,\n"))  # one comma more (an item)
    assert len(refused) == 1 and refused[0].startswith(f"more than {MAX_ITEMS} lines and list items")


def test_a_toml_dotted_key_of_32_parts_is_read_and_of_33_is_not(tmp_path):
    assert MAX_KEY_PARTS == 32

    def toml(parts: int) -> Path:
        key = ".".join(f"k{n}" for n in range(parts))
        return write(tmp_path, f'name = "limits"\nextends = "standard"\n{key} = 1\n', "limits.toml")

    assert problems_of(toml(MAX_KEY_PARTS)) == []
    assert problems_of(toml(MAX_KEY_PARTS + 1)) == [f"a dotted key of more than {MAX_KEY_PARTS} parts: "
                                                    "refused unparsed"]


# ---------------------------------------------------------------- values: nesting, numbers, text


@pytest.mark.parametrize("suffix", [".yaml", ".toml"])
def test_nesting_32_levels_is_read_and_33_is_not(tmp_path, suffix):
    assert MAX_DEPTH == 32

    def nested(levels: int) -> Path:  # the file itself is level 1, each list one more
        lists = "[" * (levels - 1) + "]" * (levels - 1)
        text = HEAD + f"note: {lists}\n" if suffix == ".yaml" else \
            f'name = "limits"\nextends = "standard"\nnote = {lists}\n'
        return write(tmp_path, text, "limits" + suffix)

    assert problems_of(nested(MAX_DEPTH)) == []
    refused = problems_of(nested(MAX_DEPTH + 1))
    assert len(refused) == 1 and "nested more than 32 levels deep" in refused[0]


def test_a_number_of_40_characters_is_read_and_one_of_41_is_not(tmp_path):
    assert MAX_NUMBER_CHARS == 40
    assert problems_of(write(tmp_path, HEAD + f"note: {'1' * 40}\n")) == []
    refused = problems_of(write(tmp_path, HEAD + f"note: {'1' * 41}\n"))
    assert refused == ["YAML error: a number of 41 characters is out of range"]


def test_a_string_of_2000_characters_is_read_and_one_of_2001_is_not(tmp_path):
    assert MAX_STRING == 2000
    assert problems_of(write(tmp_path, HEAD + f"description: {'a' * MAX_STRING}\n")) == []
    assert problems_of(write(tmp_path, HEAD + f"description: {'a' * (MAX_STRING + 1)}\n")) == [
        f"a string of {MAX_STRING + 1} characters (at most {MAX_STRING})"]


def aliases_expanding_to(values: int) -> str:
    """A YAML document whose aliases expand to exactly ``values`` nodes (keys and values):
    a list of m items, aliased k times in another list, and j more ``key: value`` pairs."""
    for extra in range(0, 40):
        rest = values - 4 - 2 * extra  # the root, 'x', 'y' and the list of aliases
        for size in range(100, 400):
            if rest % (size + 1) == 0 and rest // (size + 1) >= 2:
                aliases = rest // (size + 1) - 1
                return (f"x: &a [{', '.join(['1'] * size)}]\ny: [{', '.join(['*a'] * aliases)}]\n"
                        + "".join(f"k{n}: 1\n" for n in range(extra)))
    raise AssertionError(f"no document of {values} values found")


def test_aliases_expanding_to_20000_values_are_read_and_to_20001_are_not(tmp_path):
    assert MAX_NODES == 20_000
    assert problems_of(write(tmp_path, aliases_expanding_to(MAX_NODES))) == []
    assert problems_of(write(tmp_path, aliases_expanding_to(MAX_NODES + 1))) == [
        f"the document expands to more than {MAX_NODES} values (nested aliases?): refused"]


# ---------------------------------------------------------------- the variant: extends, players, settings


def extends_chain(tmp_path: Path, files: int) -> Path:
    """``files`` variant files, each extending the next; the last extends standard."""
    tmp_path.mkdir()
    for number in range(files):
        base = f"v{number + 1}.yaml" if number + 1 < files else "standard"
        write(tmp_path, f"name: v{number}\nextends: {base}\n", f"v{number}.yaml")
    return tmp_path / "v0.yaml"


def test_extends_32_files_deep_is_read_and_33_is_not(tmp_path):
    assert MAX_EXTENDS_DEPTH == 32
    # 32 files, each extending the next (32 'extends'), the last extending standard's own.
    assert load_variant(extends_chain(tmp_path / "ok", MAX_EXTENDS_DEPTH)).name == "v0"
    with pytest.raises(VariantError, match=f"extends chain deeper than {MAX_EXTENDS_DEPTH} files"):
        load_variant(extends_chain(tmp_path / "deep", MAX_EXTENDS_DEPTH + 1))


def test_nine_players_are_allowed_and_ten_are_not(tmp_path):
    assert MAX_PLAYERS == 9
    table = "settings: {factories: {2: 5, 3: 7, 4: 9, 9: 9}}\n"
    assert 9 in load_variant(write(tmp_path, HEAD + "players: [2, 3, 4, 9]\n" + table)).players
    with pytest.raises(VariantError, match=r"players: 10 is out of range \(1 to 9\)"):
        load_variant(write(tmp_path, HEAD + "players: [2, 10]\n" + table))
    with pytest.raises(VariantError, match=r"players: 0 is out of range \(1 to 9\)"):
        load_variant(write(tmp_path, HEAD + "players: [0, 2]\n" + table))


def test_a_setting_of_a_million_is_allowed_and_one_more_is_not(tmp_path):
    assert LIMIT == 10**6
    assert load_variant(write(tmp_path, HEAD + f"settings: {{row_bonus: {LIMIT}}}\n")).settings.row_bonus == LIMIT
    with pytest.raises(VariantError, match=f"setting 'row_bonus': {LIMIT + 1} is out of range"):
        load_variant(write(tmp_path, HEAD + f"settings: {{row_bonus: {LIMIT + 1}}}\n"))


def test_a_list_setting_of_1000_values_is_allowed_and_1001_are_not(tmp_path):
    assert MAX_SETTING_ITEMS == 1000

    def penalties(count: int) -> Path:
        return write(tmp_path, HEAD + f"settings: {{floor_penalties: [{', '.join(['-1'] * count)}]}}\n")

    assert load_variant(penalties(MAX_SETTING_ITEMS)).rules.floor_spaces == MAX_SETTING_ITEMS
    with pytest.raises(VariantError, match=f"setting 'floor_penalties': more than {MAX_SETTING_ITEMS} values"):
        load_variant(penalties(MAX_SETTING_ITEMS + 1))
