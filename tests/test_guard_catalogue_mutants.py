"""Tests written for the survivors of the ``catalogue`` mutation scope (bench/mutation.py): what
``azul variants``, ``azul variants show``, ``azul rules`` and ``azul plugins`` show, as data for any
front end. Each sentence ``azul rules`` prints is a promise to the reader, so the examples' rules
are pinned word for word (docs/mutation/catalogue.md says which survivor each test answers)."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from azul_core.cli.app import _register, app
from azul_core.variants import load_variant
from azul_core.variants.catalogue import jsonable, variant_configuration

_register()
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "AZUL_DEBUG": "", "AZUL_VARIANTS_PATH": ""}


def azul(*args, env: dict | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], env={**ENV, **(env or {})})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_configuration_is_json_data_whatever_its_settings_hold():
    assert jsonable({1: (2, {3: [4, (5,)]}), "x": None}) == {"1": [2, {"3": [4, [5]]}], "x": None}
    document = variant_configuration(load_variant("grey-wall"), resolved=True)
    assert json.loads(json.dumps(document)) == document
    assert document["name"] == "grey-wall" and document["deciders"] and document["origins"]
    assert set(variant_configuration(load_variant("grey-wall"), resolved=False)) == (
        {"name", "description", "path", "players", "plugins", "decide", "settings"})


# ------------------------------------------------------------------ azul rules, word for word

#: What ``azul rules`` prints for each example after its first line (which names the file).
EXAMPLE_RULES = {
    "centre-pairs/centre-pairs.yaml": """\
Plugins: standard, colour_wall, centre_pairs (standard: standard, colour_wall)
Differences from the standard game:
- which drafts are legal: restricted by centre_pairs (azul_draft_allowed): the probes can't say how (standard: any source and colour, onto a pattern line that takes it or the floor)
Everything else is as in the standard game.
""",
    "double-red/double-red.yaml": """\
Plugins: standard, colour_wall, double_red (standard: standard, colour_wall)
Differences from the standard game:
- scoring the tile at (1,3) of the wall ..RK. / W.YRK / KWB.R / RKWBY / Y.KW.: 14 points (standard: 7 points)
Everything else is as in the standard game.
""",
    "factory-one-shift/factory-one-shift.yaml": """\
Plugins: standard, colour_wall, factory_one_shift (standard: standard, colour_wall)
Differences from the standard game:
- moves besides the drafts: Keep the tiles where they are (+keep, plugin 'factory_one_shift'); Move a tile to line 1 (+shift:0, plugin 'factory_one_shift'); Move a tile to line 2 (+shift:1, plugin 'factory_one_shift'); Move a tile to line 3 (+shift:2, plugin 'factory_one_shift'); Move a tile to line 4 (+shift:3, plugin 'factory_one_shift'); Move a tile to line 5 (+shift:4, plugin 'factory_one_shift'); Move a tile to the floor (+shift:5, plugin 'factory_one_shift') (standard: none)
- what the rules remember during a game: plugins factory_one_shift keep a memory (standard: nothing)
Everything else is as in the standard game.
""",
    "floor-to-bag/floor-to-bag.yaml": """\
Plugins: standard, colour_wall, floor_to_bag (standard: standard, colour_wall)
Differences from the standard game:
- where the floor tiles at the end of a round go: back into the bag (standard: to the lid)
Everything else is as in the standard game.
""",
    "lead-by-forty/lead-by-forty.yaml": """\
Plugins: standard, colour_wall, lead_by_forty (standard: standard, colour_wall)
Could not tell (these rules were not compared; read the plugins):
- azul_game_over (lead_by_forty): its answer depends on the game being played
Settings:
- winning_lead = 40 (plugin 'lead_by_forty'; not in the standard game): a lead (points) that ends the game
Everything else probed is as in the standard game.
""",
    "marker-fee/marker-fee.yaml": """\
Plugins: standard, colour_wall, marker_fee (standard: standard, colour_wall)
Differences from the standard game:
- start marker: kept in front of its holder: no floor space, no cost (standard: onto the leftmost free floor space, costing like a tile; on a full floor it is kept without a space)
Could not tell (these rules were not compared; read the plugins):
- azul_floor_penalty (marker_fee): its answer depends on the game being played
Settings:
- marker_fee = 3 (plugin 'marker_fee'; not in the standard game): what the start marker costs its holder
Everything else probed is as in the standard game.
""",
    "pass-once/pass-once.yaml": """\
Plugins: standard, colour_wall, pass_once (standard: standard, colour_wall)
Differences from the standard game:
- moves besides the drafts: Pass this turn (once a round) (+pass, plugin 'pass_once') (standard: none)
- what the rules remember during a game: plugins pass_once keep a memory (standard: nothing)
Everything else is as in the standard game.
""",
    "secret-goal/secret-goal.yaml": """\
Plugins: standard, colour_wall, secret_goal (standard: standard, colour_wall)
Differences from the standard game:
- secrets: each seat is dealt a secret by secret_goal, seen only by that seat until the end (standard: none: everything is seen by everyone)
Could not tell (these rules were not compared; read the plugins):
- azul_end_bonuses (secret_goal): its answer depends on the game being played
Everything else probed is as in the standard game.
""",
    "seeded-start/seeded-start.yaml": """\
Plugins: standard, colour_wall, seeded_start (standard: standard, colour_wall)
Differences from the standard game:
- who starts round 1: a seat chosen by the rules (seen: 1, 2, 3, 4) (standard: seat 1)
Everything else is as in the standard game.
""",
    "shared-ties/shared-ties.yaml": """\
Plugins: standard, colour_wall, shared_ties (standard: standard, colour_wall)
Differences from the standard game:
- winner with a tie on 30, the first player with a complete row: seats 1 and 2 share the victory (standard: seat 1 wins)
Everything else is as in the standard game.
""",
    "short-lines/short-lines.yaml": """\
Plugins: standard, colour_wall, short_lines (standard: standard, colour_wall)
Differences from the standard game:
- pattern lines: hold 2, 2, 3, 4, 5 tiles (standard: hold 1, 2, 3, 4, 5 tiles)
- what pattern line 1 holding 1 blue takes, its wall row holding nothing: blue (standard: nothing)
Everything else is as in the standard game.
""",
    "wild-tiles/wild-tiles.yaml": """\
Plugins: standard, colour_wall, wild_tiles (standard: standard, colour_wall)
Differences from the standard game:
- table for 2 players: 5 factories of 4 tiles, 20 tiles of each colour, 10 wild tiles (J) (standard: 5 factories of 4 tiles, 20 tiles of each colour)
- table for 3 players: 7 factories of 4 tiles, 20 tiles of each colour, 10 wild tiles (J) (standard: 7 factories of 4 tiles, 20 tiles of each colour)
- table for 4 players: 9 factories of 4 tiles, 20 tiles of each colour, 10 wild tiles (J) (standard: 9 factories of 4 tiles, 20 tiles of each colour)
- what a draft takes: decided by wild_tiles (azul_draft_takes) (standard: every tile of its colour)
- tiles of another kind on a pattern line: decided by wild_tiles (azul_stands_in) (standard: never: they fall to the floor)
Everything else is as in the standard game.
""",
    "five-rounds/five-rounds.yaml": """\
Plugins: standard, colour_wall, five_rounds (standard: standard, colour_wall)
Differences from the standard game:
- end of the game with no complete row, after round 5: the game ends (standard: the game goes on)
- end of the game with no complete row, after round 10: the game ends (standard: the game goes on)
Everything else is as in the standard game.
""",
    "family-floor/family-floor.yaml": """\
Plugins: standard, colour_wall, family_floor (standard: standard, colour_wall)
Differences from the standard game:
- floor: 7 spaces; 1 to 7 tiles cost 1, 2, 3, 3, 3, 3, 3 (standard: 7 spaces; 1 to 7 tiles cost 1, 2, 4, 6, 8, 11, 14)
- a floor holding the start marker: the marker and 0 to 6 tiles cost 1, 2, 3, 3, 3, 3, 3 (standard: the marker and 0 to 6 tiles cost 1, 2, 4, 6, 8, 11, 14)
Settings:
- family_floor_cap = 3 (plugin 'family_floor'; not in the standard game): the most a player's floor can cost in one round
Everything else is as in the standard game.
""",
    "diagonals/diagonals.yaml": """\
Plugins: standard, colour_wall, diagonals (standard: standard, colour_wall)
Differences from the standard game:
- end bonus for the main diagonal: 15 points (standard: 10 points)
Everything else is as in the standard game.
""",
}


@pytest.mark.parametrize("example", sorted(EXAMPLE_RULES))
def test_azul_rules_of_each_example_word_for_word(example):
    path = EXAMPLES / example
    result = azul("rules", path)
    assert result.exit_code == 0, result.output
    first, rest = result.stdout.split("\n", 1)
    assert first.startswith(f"Rules of '{path.stem}' ({path}): Standard Azul")
    assert rest == EXAMPLE_RULES[example]


def test_azul_rules_of_the_built_in_variants_word_for_word():
    assert azul("rules", "duel").stdout == """\
Rules of 'duel' (built-in): Two players on the colour wall: a full line is tiled at the end of the turn (and closed until the next round), the marker kept aside, an 8-space floor, neighbour scoring (not the boxed "Azul Duel").
Plugins: standard, colour_wall, duel (standard: standard, colour_wall)
Differences from the standard game:
- players: 2 (standard: 2, 3, 4)
- floor: 8 spaces; 1 to 8 tiles cost 1, 2, 4, 6, 9, 12, 16, 20 (standard: 7 spaces; 1 to 7 tiles cost 1, 2, 4, 6, 8, 11, 14)
- tiling: a full pattern line is tiled at the end of the turn that filled it, and takes no tiles again until the next round (standard: full pattern lines are tiled at the end of the round, lines 1 to 5)
- start marker: kept in front of its holder: no floor space, no cost (standard: onto the leftmost free floor space, costing like a tile; on a full floor it is kept without a space)
- a draft onto a pattern line that can't take the colour: allowed as a mistake: all the tiles taken go to the floor (standard: refused)
- scoring a tile with 3 across and 2 down: 4 points (standard: 5 points)
- scoring a tile with 5 across and 5 down: 9 points (standard: 10 points)
Settings:
- floor_penalties = [-1, -1, -2, -2, -3, -3, -4, -4] (standard: [-1, -1, -2, -2, -2, -3, -3])
- scoring = neighbours (plugin 'duel'; not in the standard game): how a placed tile scores: 'neighbours' (1 for the tile plus 1 per tile in its horizontal and vertical runs) or 'standard' (the standard run lengths); the rules can be read either way
- tiled_line_reopens = next_round (plugin 'duel'; not in the standard game): when a line tiled during a round takes tiles again: 'next_round' (it stays closed for the rest of the round, so each line reaches the wall at most once a round) or 'at_once' (a line can be refilled and tiled again in the same round)
Everything else is as in the standard game.
"""
    assert azul("rules", "grey-wall").stdout == """\
Rules of 'grey-wall' (built-in): The grey wall (free placement) for 2 to 4 players; every other rule is standard.
Plugins: standard, grey_wall (standard: standard, colour_wall)
Differences from the standard game:
- where a blue tile of line 1 goes on an empty wall: columns 1, 2, 3, 4, 5 (standard: column 1)
- where a blue tile of line 2 goes when row 1 has blue in column 1: columns 2, 3, 4, 5 (standard: column 2)
- who places a tile on the wall: the player chooses the column (standard: the rules place it)
- end of the game when every row's free spaces are blocked by the colours in their columns: the game ends (standard: the game goes on)
Settings:
- end_when_blocked = true (plugin 'grey_wall'; not in the standard game): end the game after a round in which no player's grey wall has a row that can still be completed (otherwise such a game never ends)
Everything else is as in the standard game.
"""


def rules_lines(path: Path) -> list[str]:
    """What ``azul rules`` prints after its first line (which names the file)."""
    result = azul("rules", path)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[1:]


def test_azul_rules_of_settings_the_standard_plugin_offers(tmp_path):
    marker = write(tmp_path / "marker.yaml", """\
        name: marker
        extends: standard
        settings: {marker_on_full_floor: bump, start_without_marker: next, end_when_starved: false}
        """)
    assert rules_lines(marker) == [
        "Plugins: standard, colour_wall",
        "Differences from the standard game:",
        "- start marker: onto the leftmost free floor space, costing like a tile; on a full floor it bumps the "
        "last tile to the lid (standard: onto the leftmost free floor space, costing like a tile; on a full floor "
        "it is kept without a space)",
        "- when nobody took the start marker: the next seat starts (standard: the same player starts again)",
        "- end of the game when every row misses a colour none of whose tiles is left in play: the game goes on "
        "(standard: the game ends)",
        "Settings:",
        "- marker_on_full_floor = bump (standard: keep)",
        "- start_without_marker = next (standard: same)",
        "- end_when_starved = false (standard: true)",
        "Everything else is as in the standard game.",
    ]
    five = write(tmp_path / "five.yaml", """\
        name: five
        extends: standard
        players: [2, 3, 4, 5]
        settings: {factories: {5: 9}}
        """)
    assert rules_lines(five) == [
        "Plugins: standard, colour_wall",
        "Differences from the standard game:",
        "- players: 2, 3, 4, 5 (standard: 2, 3, 4)",
        "- table for 5 players: 9 factories of 4 tiles, 20 tiles of each colour (standard: not played)",
        "Settings:",
        "- factories = {2: 5, 3: 7, 4: 9, 5: 9} (standard: {2: 5, 3: 7, 4: 9})",
        "Everything else is as in the standard game.",
    ]
    no_floor = write(tmp_path / "no-floor.yaml", "extends: standard\nsettings: {floor_penalties: []}\n")
    assert rules_lines(no_floor)[2:4] == [
        "- floor: no floor spaces: every tile that falls goes to the lid (standard: 7 spaces; 1 to 7 tiles cost 1, "
        "2, 4, 6, 8, 11, 14)",
        # The engine keeps the marker off a floor with no space (it is full), whatever marker_on_full_floor says.
        "- a floor holding the start marker: no floor space for it: the marker is kept off the floor (standard: the "
        "marker and 0 to 6 tiles cost 1, 2, 4, 6, 8, 11, 14)"]
    reopen = write(tmp_path / "reopen.yaml", "extends: duel\nsettings: {tiled_line_reopens: at_once}\n")
    assert ("- tiling: a full pattern line is tiled at the end of the turn that filled it, and takes tiles again "
            "at once, in the same round (standard: full pattern lines are tiled at the end of the round, lines 1 "
            "to 5)") in rules_lines(reopen)


ODD_PLUGIN = """\
from azul_core import hookimpl
from azul_core.rules import ExtraTile, TableSetup


@hookimpl
def azul_game_setup(players):
    extras = (ExtraTile("G", "gold", 2), ExtraTile("S", "silver", 3)) if players == 3 else ()
    return TableSetup(5 if players == 2 else 7, 4, colour_counts=(20, 20, 20, 20, 15), extra_tiles=extras)


@hookimpl
def azul_wall_choice():
    return False


@hookimpl
def azul_wall_spaces(row, colour):
    return [] if colour == 4 else [(row + colour) % 5]


@hookimpl
def azul_placement_score(row, column, answer):
    return 1 // 0 if row == 2 else answer


@hookimpl
def azul_end_bonuses(wall, answer):
    return answer if wall[4][4] is None else 1 // 0
"""


def test_azul_rules_of_plugins_that_set_colours_apart_drop_a_colour_and_fail(tmp_path):
    write(tmp_path / "odd.py", ODD_PLUGIN)
    for watcher in ("watcher_a", "watcher_b"):  # two plugins whose end depends on the game
        write(tmp_path / f"{watcher}.py", "def azul_game_over(game):\n    return None\n")
    path = write(tmp_path / "odd.yaml", """\
        name: odd
        extends: standard
        players: [2, 3]
        plugins: [standard, odd.py, watcher_a.py, watcher_b.py]
        """)
    assert rules_lines(path) == [
        "Plugins: standard, odd, watcher_a, watcher_b (standard: standard, colour_wall)",
        "Differences from the standard game:",
        "- players: 2, 3 (standard: 2, 3, 4)",
        "- table for 2 players: 5 factories of 4 tiles, colours blue 20, yellow 20, red 20, black 20, white 15 "
        "(standard: 5 factories of 4 tiles, 20 tiles of each colour)",
        "- table for 3 players: 7 factories of 4 tiles, colours blue 20, yellow 20, red 20, black 20, white 15, "
        "2 gold tiles (G), 3 silver tiles (S) (standard: 7 factories of 4 tiles, 20 tiles of each colour)",
        "- where a white tile of line 1 goes on an empty wall: no column (the line falls to the floor) "
        "(standard: column 5)",
        "- where a white tile of line 2 goes when row 1 has white in column 5: no column (the line falls to the "
        "floor) (standard: column 1)",
        "- scoring a tile with no neighbour: error: PluginError (standard: 1 points)",
        "- scoring a tile in a run of 3 across: error: PluginError (standard: 3 points)",
        "- scoring a tile in a run of 3 down: error: PluginError (standard: 3 points)",
        "- scoring a tile with 3 across and 2 down: error: PluginError (standard: 5 points)",
        "- scoring a tile with 5 across and 5 down: error: PluginError (standard: 10 points)",
        "- end bonus for the main diagonal: error: PluginError (standard: 10 points)",
        "Could not tell (these rules were not compared; read the plugins):",
        "- azul_game_over (watcher_b, watcher_a): its answer depends on the game being played",
        "Everything else probed is as in the standard game.",
    ]


# ------------------------------------------------------------------ azul variants, azul variants show


def test_the_listing_puts_the_built_in_variants_first_and_gives_a_broken_file_no_description(tmp_path):
    write(tmp_path / "aaa.yaml", "extends: standrd\n")
    result = azul("variants", "--json", env={"AZUL_VARIANTS_PATH": str(tmp_path)})
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)["variants"]
    assert [entry["name"] for entry in entries] == ["duel", "grey-wall", "standard", "aaa"]
    assert entries[-1]["description"] == "" and entries[-1]["players"] == []
    assert [line.split()[0] for line in azul("variants", env={"AZUL_VARIANTS_PATH": str(tmp_path)})
            .stdout.splitlines()] == ["name", "duel", "grey-wall", "standard", "aaa"]


def test_a_reader_that_fails_on_one_file_leaves_the_rest_of_the_listing(tmp_path, monkeypatch):
    import azul_core.variants.catalogue as catalogue

    write(tmp_path / "odd.yaml", "extends: standard\n")
    real = catalogue.describe_variant_file

    def failing(path):
        if path.name == "odd.yaml":
            raise ValueError("a reader's bug,\n   over two lines")
        return real(path)

    monkeypatch.setattr(catalogue, "describe_variant_file", failing)
    result = azul("variants", "--json", env={"AZUL_VARIANTS_PATH": str(tmp_path)})
    assert result.exit_code == 0, result.output
    entries = {entry["name"]: entry for entry in json.loads(result.stdout)["variants"]}
    assert entries["odd"] == {"name": "odd", "path": str(tmp_path / "odd.yaml"), "builtin": False, "players": [],
                              "description": "", "valid": False,
                              "error": "ValueError: a reader's bug, over two lines"}
    assert entries["duel"]["valid"] is True


def test_show_json_says_where_each_plugin_comes_from_and_the_file_or_none():
    duel = load_variant("duel")
    document = json.loads(azul("variants", "show", "duel", "--json", "--resolved").stdout)
    assert document["path"] == str(duel.path)
    assert document["plugin_sources"] == {"standard": "entry point azul_plugins.standard",
                                          "colour_wall": "entry point azul_plugins.colour_wall",
                                          "duel": "entry point azul_plugins.duel"}
    assert "plugin_sources" not in json.loads(azul("variants", "show", "duel", "--json").stdout)
    # A variant that is no file (the web table's, made in memory) has no path.
    assert variant_configuration(dataclasses.replace(duel, path=None), resolved=False)["path"] is None


# ------------------------------------------------------------------ azul plugins


def install(folder: Path, plugin: str, code: str) -> None:
    """A plugin installed by hand: a distribution ``azul-test-<plugin>`` 0.3 with its entry point."""
    dist = folder / f"azul_test_{plugin}-0.3.dist-info"
    write(dist / "METADATA", f"Metadata-Version: 2.1\nName: azul-test-{plugin}\nVersion: 0.3\n")
    write(dist / "entry_points.txt", f"[azul.plugins]\n{plugin} = azul_test_{plugin}\n")
    write(folder / f"azul_test_{plugin}.py", code)


#: A hook that is no function: pluggy refuses it with an AssertionError, not the loader.
NOT_A_FUNCTION = "{api}azul_floor_penalty = len\n"


def test_plugins_say_why_each_broken_one_fails_and_the_first_reason_wins(site_folder):
    install(site_folder, "gone", "import no_such_module_anywhere\n")
    install(site_folder, "two_apis", "AZUL_API = (1, 2)\n\ndef azul_floor_penalty(floor):\n    return 0\n")
    install(site_folder, "misspelt", "def azul_floor_penalty(flor):\n    return 0\n")
    install(site_folder, "misspelt_new", "AZUL_API = 7\n\ndef azul_floor_penalty(flor):\n    return 0\n")
    install(site_folder, "no_function", NOT_A_FUNCTION.format(api=""))
    install(site_folder, "no_function_new", NOT_A_FUNCTION.format(api="AZUL_API = 7\n"))
    result = azul("plugins", "--json")
    assert result.exit_code == 1
    found = {entry["name"]: entry for entry in json.loads(result.stdout)["plugins"]}
    # A plugin that can't be imported is still described by its entry point and package.
    assert found["gone"]["origin"] == "entry point azul_test_gone"
    assert (found["gone"]["file"], found["gone"]["api"]) == (None, None)
    assert (found["gone"]["hooks"], found["gone"]["unknown_hooks"]) == ([], [])
    # A plugin accepting several API versions, this one among them, is fine.
    assert (found["two_apis"]["api"], found["two_apis"]["error"]) == ([1, 2], None)
    assert found["two_apis"]["hooks"] == ["azul_floor_penalty"]
    # An argument its hook does not have: the loader's message, with a did-you-mean.
    misspelt = found["misspelt"]
    assert misspelt["api"] is None and misspelt["hooks"] == []
    assert misspelt["error"].startswith("plugin 'misspelt': azul_floor_penalty has no argument 'flor'; "
                                        "did you mean 'floor'?")
    # What pluggy refuses: said as "can't be registered".
    assert found["no_function"]["error"].startswith("can't be registered: ")
    assert found["no_function"]["error"].endswith(".azul_floor_penalty is not a hookable attribute")
    # The API it needs is the first thing a plugin's author must fix: it is the reason given.
    for name in ("misspelt_new", "no_function_new"):
        assert found[name]["error"] == "needs hook API 7; this azul-variants offers 1"
    text = azul("plugins")
    assert text.exit_code == 1
    assert "    error: can't be registered: " in text.stdout
    assert text.stderr.strip() == ("azul: 5 plugin(s) failed to load: gone, misspelt, misspelt_new, no_function, "
                                   "no_function_new")


# ------------------------------------------------------------------ azul rules: probes


def test_azul_rules_finds_on_random_walls_what_the_fixed_probes_miss(tmp_path):
    write(tmp_path / "corners.py", """\
        def azul_end_bonuses(wall, answer):
            corners = all(wall[row][column] is not None for row in (0, 4) for column in (0, 4))
            return answer + [("four corners", 5)] if corners else answer
        """)
    write(tmp_path / "row_five.py", "def azul_placement_score(row, answer):\n    return answer + 1 if row == 4 else answer\n")
    write(tmp_path / "long_game.py", """\
        def azul_game_over(round_number, answer):
            return 1 // 0 if round_number == 10 else answer
        """)
    path = write(tmp_path / "probes.yaml", """\
        name: probes
        extends: standard
        plugins: [standard, colour_wall, corners.py, row_five.py, long_game.py]
        """)
    # The random walls are seeded: the same walls, and the same first difference, every time.
    assert rules_lines(path) == [
        "Plugins: standard, colour_wall, corners, row_five, long_game (standard: standard, colour_wall)",
        "Differences from the standard game:",
        "- scoring the tile at (5,1) of the wall ..RK. / W.YRK / KWB.R / RKWBY / Y.KW.: 5 points (standard: 4 points)",
        "- end of the game with no complete row, after round 10: error: PluginError (standard: the game goes on)",
        "- end bonus for the wall BYRKW / WBY.K / KWBYR / RKW.Y / YRK.B: 57 points (standard: 52 points)",
        "Everything else is as in the standard game.",
    ]


def test_azul_rules_does_not_probe_the_rules_that_read_the_game(tmp_path):
    write(tmp_path / "watching.py", """\
        def azul_placement_score(game, answer):
            return answer + len(game.scores)


        def azul_winners(game, answer):
            return answer if len(game.scores) else []


        def azul_end_bonuses(game, answer):
            return answer + [("lead", len(game.scores))]
        """)
    path = write(tmp_path / "watching.yaml", "name: watching\nextends: standard\n"
                                             "plugins: [standard, colour_wall, watching.py]\n")
    assert rules_lines(path) == [
        "Plugins: standard, colour_wall, watching (standard: standard, colour_wall)",
        "Could not tell (these rules were not compared; read the plugins):",
        "- azul_placement_score (watching): its answer depends on the game being played",
        "- azul_winners (watching): its answer depends on the game being played",
        "- azul_end_bonuses (watching): its answer depends on the game being played",
        "Everything else probed is as in the standard game.",
    ]


LINE_RULES = {
    # Differs only on positions no game reaches: nothing to report.
    "unreachable": ("""\
        def azul_line_accepts(line_colour, line_count, capacity, wall_row, colour, answer):
            # a wall row with a sixth colour; a line holding none of its colour, more than it
            # holds, or a colour its wall row already has
            unreachable = max(wall_row, default=0) > 4 or line_colour is not None and (
                line_count == 0 or line_count > capacity or line_colour in wall_row)
            mine = line_colour if line_colour is not None else 0
            return (not answer) if unreachable and colour == mine else answer
        """, ["It plays exactly as the standard game: no rule differs."]),
    "crowded": ("""\
        def azul_line_accepts(line_colour, wall_row, answer):
            return False if line_colour is not None and wall_row else answer
        """, ["Differences from the standard game:",
              "- what pattern line 2 holding 1 blue takes, its wall row holding yellow: nothing (standard: blue)",
              "Everything else is as in the standard game."]),
    "no_white_first": ("""\
        def azul_line_accepts(row, line_colour, colour, answer):
            return False if row == 0 and line_colour is None and colour == 4 else answer
        """, ["Differences from the standard game:",
              "- what pattern line 1 empty takes, its wall row holding nothing: blue, yellow, red, black "
              "(standard: blue, yellow, red, black, white)",
              "Everything else is as in the standard game."]),
}


@pytest.mark.parametrize("plugin", sorted(LINE_RULES))
def test_azul_rules_names_the_first_reachable_position_where_a_line_takes_other_colours(tmp_path, plugin):
    code, expected = LINE_RULES[plugin]
    write(tmp_path / f"{plugin}.py", code)
    path = write(tmp_path / f"{plugin}.yaml", f"extends: standard\nplugins: [standard, colour_wall, {plugin}.py]\n")
    assert rules_lines(path) == [f"Plugins: standard, colour_wall, {plugin} (standard: standard, colour_wall)",
                                 *expected]


def test_azul_rules_json_gives_each_changed_setting_its_plugin_and_help():
    result = azul("rules", "duel", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["differences"][0] == {"rule": "players", "variant": "2", "standard": "2, 3, 4"}
    floor, scoring = document["settings"][:2]
    assert floor == {"name": "floor_penalties", "value": [-1, -1, -2, -2, -3, -3, -4, -4],
                     "standard": [-1, -1, -2, -2, -2, -3, -3], "plugin": "standard", "only_here": False,
                     "help": "the penalty of each floor space, left to right (their number is the floor's size)"}
    assert (scoring["name"], scoring["standard"], scoring["plugin"], scoring["only_here"]) == (
        "scoring", None, "duel", True)


def test_the_first_line_of_azul_rules_names_the_variant_its_file_and_its_whole_description(tmp_path):
    from azul_core.variants.differences import explain

    bare = write(tmp_path / "bare.yaml", "name: bare\nextends: standard\n")
    assert azul("rules", bare).stdout.splitlines()[0] == f"Rules of 'bare' ({bare})"
    club = write(tmp_path / "club.yaml", "name: club\ndescription: House rules of the Club X\nextends: standard\n")
    assert azul("rules", club).stdout.splitlines()[0] == f"Rules of 'club' ({club}): House rules of the Club X"
    # A variant made in memory (the web table's) has no file to name.
    duel, standard = load_variant("duel"), load_variant("standard")
    assert explain(dataclasses.replace(duel, path=None), standard)[0] == (
        f"Rules of 'duel': {duel.description}")


def test_azul_rules_probes_every_line_on_an_empty_wall(tmp_path):
    write(tmp_path / "third_line.py", """\
        def azul_wall_choice():
            return False


        def azul_wall_spaces(row, colour):
            return [] if row == 2 else [(row + colour) % 5]
        """)
    path = write(tmp_path / "third.yaml", "extends: standard\nplugins: [standard, third_line.py]\n")
    assert rules_lines(path) == [
        "Plugins: standard, third_line (standard: standard, colour_wall)",
        "Differences from the standard game:",
        "- where a blue tile of line 3 goes on an empty wall: no column (the line falls to the floor) "
        "(standard: column 3)",
        "Everything else is as in the standard game.",
    ]


def test_azul_rules_of_a_plugin_that_only_adds_a_setting_and_of_a_bigger_colour_bonus(tmp_path):
    write(tmp_path / "quiet.py", """\
        from azul_core import hookimpl
        from azul_core.settings import Setting


        @hookimpl
        def azul_declare_settings():
            return [Setting("table_talk", "bool", False, "whether players may discuss their moves")]
        """)
    quiet = write(tmp_path / "quiet.yaml", "extends: standard\nplugins: [standard, colour_wall, quiet.py]\n")
    assert rules_lines(quiet) == [
        "Plugins: standard, colour_wall, quiet (standard: standard, colour_wall)",
        "No rule differs from the standard game in play.",
        "Settings:",
        "- table_talk = false (plugin 'quiet'; not in the standard game): whether players may discuss their moves",
        "Everything else is as in the standard game.",
    ]
    # The probe walls are coloured as the colour wall prints them: five yellows make a colour.
    colours = write(tmp_path / "colours.yaml", "extends: standard\nsettings: {colour_bonus: 20}\n")
    assert rules_lines(colours) == [
        "Plugins: standard, colour_wall",
        "Differences from the standard game:",
        "- end bonus for all 5 tiles of one colour: 20 points (standard: 10 points)",
        "- end bonus for the main diagonal: 20 points (standard: 10 points)",
        "Settings:",
        "- colour_bonus = 20 (standard: 10)",
        "Everything else is as in the standard game.",
    ]


def test_a_variant_compared_with_itself_has_nothing_undecided():
    from azul_core.variants.differences import explain

    lead = load_variant(EXAMPLES / "lead-by-forty" / "lead-by-forty.yaml")
    assert explain(lead, lead)[2:] == ["It plays exactly as the standard game: no rule differs."]


def test_azul_rules_names_every_plugin_that_remembers_or_deals_a_secret(tmp_path):
    for plugin in ("tally", "notes"):
        write(tmp_path / f"{plugin}.py", "def azul_initial_memory(players):\n    return 0\n")
    for plugin in ("goal", "mission"):
        write(tmp_path / f"{plugin}.py", "def azul_deal_secrets(players):\n    return [0] * players\n")
    path = write(tmp_path / "two.yaml", "extends: standard\n"
                                        "plugins: [standard, colour_wall, tally.py, notes.py, goal.py, mission.py]\n")
    assert rules_lines(path)[1:] == [
        "Differences from the standard game:",
        "- what the rules remember during a game: plugins tally, notes keep a memory (standard: nothing)",
        "- secrets: each seat is dealt a secret by goal, mission, seen only by that seat until the end "
        "(standard: none: everything is seen by everyone)",
        "Everything else is as in the standard game.",
    ]
