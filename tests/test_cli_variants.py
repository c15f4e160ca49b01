"""``azul variants``, ``azul variants show`` and ``azul rules`` through the command line."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from azul_core.cli.app import _register, app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

_register()
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "AZUL_DEBUG": "", "AZUL_VARIANTS_PATH": ""}


def azul(*args, env: dict | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], env={**ENV, **(env or {})})


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# ------------------------------------------------------------------ azul variants


def test_variants_lists_the_built_in_variants_with_descriptions():
    result = azul("variants")
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert {"standard", "grey-wall", "duel"} <= set(lines)
    assert "built-in" in lines["duel"] and 'not the boxed "Azul Duel"' in lines["duel"]
    assert "2, 3, 4" in lines["grey-wall"] and "grey wall" in lines["grey-wall"]


def test_variants_json_and_discovered_files(tmp_path):
    write(tmp_path, "house.yaml", "description: a house rule\nextends: standard\nsettings: {row_bonus: 3}\n")
    write(tmp_path, "broken.yaml", "extends: standrd\n")
    result = azul("variants", "--json", env={"AZUL_VARIANTS_PATH": str(tmp_path)})
    assert result.exit_code == 0, result.output
    entries = {entry["name"]: entry for entry in json.loads(result.stdout)["variants"]}
    assert entries["duel"]["builtin"] and entries["duel"]["players"] == [2]
    assert entries["house"] == {"name": "house", "path": str(tmp_path / "house.yaml"), "builtin": False,
                                "players": [2, 3, 4], "description": "a house rule", "valid": True}
    assert entries["broken"]["valid"] is False
    assert "did you mean 'standard'?" in entries["broken"]["error"]


def test_a_broken_discovered_variant_is_listed_as_invalid(tmp_path):
    write(tmp_path, "broken.yaml", "extends: standrd\n")
    result = azul("variants", env={"AZUL_VARIANTS_PATH": str(tmp_path)})
    assert result.exit_code == 0
    line = next(line for line in result.stdout.splitlines() if line.startswith("broken"))
    assert "INVALID:" in line and "unknown variant 'standrd'" in line


# ------------------------------------------------------------------ azul variants show


def test_show_prints_the_merged_configuration():
    result = azul("variants", "show", "duel")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "players: [2]\n" in out and "plugins: [standard, colour_wall, duel]\n" in out
    assert "  floor_penalties: [-1, -1, -2, -2, -3, -3, -4, -4]\n" in out
    assert "  row_bonus: 2\n" in out              # a default is shown too
    assert "#" not in out and "rules decided by" not in out


def test_show_resolved_says_where_each_value_came_from_and_who_decides(tmp_path):
    path = write(tmp_path, "mine.yaml", "extends: duel\nsettings:\n  scoring: standard\n")
    result = azul("variants", "show", path, "--resolved")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    scoring = next(line for line in lines if line.strip().startswith("scoring:"))
    assert scoring.strip().startswith("scoring: standard  # ") and scoring.endswith("mine.yaml:3")
    floor = next(line for line in lines if line.strip().startswith("floor_penalties:"))
    assert floor.endswith("duel.yaml:11")
    row_bonus = next(line for line in lines if line.strip().startswith("row_bonus:"))
    assert row_bonus.endswith("# default of plugin 'standard'")
    assert "  azul_tiling_time: duel" in lines
    assert "  azul_placement_score: duel > standard" in lines
    assert any(line.startswith("  duel: entry point azul_plugins.duel") for line in lines)


def test_show_json(tmp_path):
    result = azul("variants", "show", "grey-wall", "--json", "--resolved")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["name"] == "grey-wall" and document["plugins"] == ["standard", "grey_wall"]
    assert document["settings"]["factories"] == {"2": 5, "3": 7, "4": 9}
    assert document["settings"]["end_when_blocked"] is True
    assert document["deciders"]["azul_wall_spaces"] == "grey_wall"
    assert document["origins"]["plugins"].endswith("grey-wall.yaml:5")
    plain = json.loads(azul("variants", "show", "grey-wall", "--json").stdout)
    assert "origins" not in plain and "deciders" not in plain


def test_show_an_unknown_variant_is_one_line_and_exit_1():
    result = azul("variants", "show", "duell")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "azul: unknown variant 'duell' (known: duel, grey-wall, standard); did you mean 'duel'?"]


def test_show_a_broken_file_lists_every_problem_without_a_traceback(tmp_path):
    path = write(tmp_path, "bad.yaml", """\
        extends: standard
        players: [2, 99]
        settings: {row_bonus: x}
        """)
    result = azul("variants", "show", path)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in result.stderr
    assert lines[0].startswith("azul: ") and lines[0].endswith("bad.yaml:2:14: players: 99 is out of range (1 to 9)")
    assert lines[1].endswith("bad.yaml:3:23: setting 'row_bonus' must be a whole number, not str 'x'")


# ------------------------------------------------------------------ azul rules


def test_rules_of_the_standard_game_has_no_differences():
    result = azul("rules", "standard")
    assert result.exit_code == 0, result.output
    assert "It plays exactly as the standard game: no rule differs." in result.stdout


def test_rules_of_duel_names_each_difference():
    result = azul("rules", "duel")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "- players: 2 (standard: 2, 3, 4)" in out
    assert "- floor: 8 spaces; 1 to 8 tiles cost 1, 2, 4, 6, 9, 12, 16, 20 " \
           "(standard: 7 spaces; 1 to 7 tiles cost 1, 2, 4, 6, 8, 11, 14)" in out
    assert "tiled at the end of the turn that filled it" in out
    assert "- start marker: kept in front of its holder: no floor space, no cost" in out
    assert "all the tiles taken go to the floor (standard: refused)" in out
    assert "- scoring a tile with 3 across and 2 down: 4 points (standard: 5 points)" in out
    assert "scoring a tile in a run of 3 across" not in out     # the same in both
    assert "- scoring = neighbours (plugin 'duel'; not in the standard game)" in out


def test_rules_of_the_grey_wall():
    out = azul("rules", "grey-wall").stdout
    assert "on an empty wall: columns 1, 2, 3, 4, 5 (standard: column 1)" in out
    assert "the player chooses the column (standard: the rules place it)" in out
    assert ("when every row's free spaces are blocked by the colours in their columns: the game ends "
            "(standard: the game goes on)") in out
    assert "misses a colour none of whose tiles" not in out     # both end a starved game
    assert "floor" not in out.split("Settings:")[0]


def test_rules_of_house_rules_name_only_what_they_change():
    diagonals = azul("rules", str(EXAMPLES / "diagonals" / "diagonals.yaml")).stdout
    assert "- end bonus for the main diagonal: 15 points (standard: 10 points)" in diagonals
    assert "all 5 tiles of one colour" not in diagonals          # yellow's tiles make no diagonal
    free_marker = azul("rules", str(EXAMPLES / "free-marker" / "free-marker.yaml")).stdout
    assert "- a floor holding the start marker: the marker and 0 to 6 tiles cost 0, 1, 3" in free_marker
    five = azul("rules", str(EXAMPLES / "five-rounds" / "five-rounds.yaml")).stdout
    assert "after round 5: the game ends" in five and "blocked" not in five


def test_rules_are_derived_from_the_rules_not_from_the_name(tmp_path):
    # Named like duel, plays like standard but for one bonus.
    path = write(tmp_path, "duel.yaml", "name: duel\nextends: standard\nsettings: {row_bonus: 5}\n")
    out = azul("rules", path).stdout
    assert "- end bonus for a complete row: 5 points (standard: 2 points)" in out
    assert "tiled at the end of the turn" not in out and "players:" not in out
    assert "- row_bonus = 5 (standard: 2)" in out


def test_rules_of_duel_with_standard_scoring(tmp_path):
    path = write(tmp_path, "mine.yaml", "extends: duel\nsettings:\n  scoring: standard\n")
    out = azul("rules", path).stdout
    assert "scoring a tile" not in out
    assert "- scoring = standard (plugin 'duel'; not in the standard game)" in out


def test_rules_of_an_unknown_variant():
    result = azul("rules", "gray-wall")
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("did you mean 'grey-wall'?")


def test_help_lists_the_commands():
    result = azul("--help")
    assert result.exit_code == 0
    assert "variants" in result.stdout and "rules" in result.stdout
    result = azul("variants", "--help")
    assert "show" in result.stdout


def test_rules_and_show_state_when_a_duel_line_tiled_this_round_reopens(tmp_path):
    rules = azul("rules", "duel")
    assert rules.exit_code == 0, rules.output
    assert "tiled at the end of the turn that filled it, and takes no tiles again until the next " \
        "round" in rules.stdout
    assert "tiled_line_reopens = next_round" in rules.stdout
    assert "tiled_line_reopens: next_round" in azul("variants", "show", "duel").stdout
    path = tmp_path / "reopen.yaml"
    path.write_text("extends: duel\nsettings:\n  tiled_line_reopens: at_once\n")
    assert "and takes tiles again at once, in the same round" in azul("rules", path).stdout


def test_a_variant_file_that_is_a_link_in_a_loop_is_a_message_everywhere(tmp_path, monkeypatch):
    # A link to itself: resolving it raises (RuntimeError: Symlink loop), reading it fails.
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "loop.yaml").symlink_to("loop.yaml")
    monkeypatch.chdir(tmp_path)
    listing = azul("variants", "--json")
    assert listing.exit_code == 0, listing.output
    entry = next(e for e in json.loads(listing.output)["variants"] if e["name"] == "loop")
    assert entry["valid"] is False and "loop" in entry["error"].lower()
    for arguments in (["simulate", "--variant", "loop", "--games", "1"], ["validate", "variants/loop.yaml"],
                      ["simulate", "--variant", "variants/loop.yaml", "--games", "1"]):
        result = azul(*arguments)
        assert result.exit_code == 1, (arguments, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), arguments
        assert result.output.count("\n") == 1 and "loop.yaml" in result.output, (arguments, result.output)
    # a record's variant named by the user (--variant) that is such a link: trusted, then unreadable
    from azul_core.variants.loading import Trust
    assert Trust.of([Path("variants/loop.yaml")]).names(Path("variants/loop.yaml"))
