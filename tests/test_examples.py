"""The house rules in examples/: each loads from its variant file and changes the game as its
README paragraph says, compared with the same moves in standard Azul."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from azul_core.colours import BLACK, MARKER
from azul_core.testing import floor_of, new_game, play, play_out, set_lines, set_table, set_wall, wall_from
from azul_core.variants.loading import load_variant

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HOUSE_RULES = {  # folder: (variant file, plugin file, the hook it uses)
    "family-floor": ("family-floor.yaml", "family_floor.py", "azul_floor_penalty"),
    "five-rounds": ("five-rounds.yaml", "five_rounds.py", "azul_game_over"),
    "diagonals": ("diagonals.yaml", "diagonals.py", "azul_end_bonuses"),
    "free-marker": ("free-marker.yaml", "free_marker.py", "azul_floor_penalty"),
    "shared-ties": ("shared-ties.yaml", "shared_ties.py", "azul_winners"),
    # The rules that use the game, the table and other rules' answers (tests/test_house_rules.py).
    "lead-by-forty": ("lead-by-forty.yaml", "lead_by_forty.py", "azul_game_over"),
    "centre-pairs": ("centre-pairs.yaml", "centre_pairs.py", "azul_draft_allowed"),
    "short-lines": ("short-lines.yaml", "short_lines.py", "azul_line_capacity"),
    "floor-to-bag": ("floor-to-bag.yaml", "floor_to_bag.py", "azul_discard_pile"),
    "middle-column": ("middle-column.yaml", "middle_column.py", "azul_placement_score"),
    "double-red": ("double-red.yaml", "double_red.py", "azul_placement_score"),
    # A bonus the bots play for (tests/test_bots_whole_game.py).
    "double-columns": ("double-columns.yaml", "double_columns.py", "azul_end_bonuses"),
    # A bonus with a cost, whose worth azul tune weighs (tests/test_tune_net.py).
    "pillar": ("pillar.yaml", "pillar.py", "azul_end_bonuses"),
    "marker-fee": ("marker-fee.yaml", "marker_fee.py", "azul_floor_penalty"),
    "seeded-start": ("seeded-start.yaml", "seeded_start.py", "azul_first_player"),
    # Moves, memory and secrets (tests/test_examples_moves.py).
    "pass-once": ("pass-once.yaml", "pass_once.py", "azul_offer_moves"),
    "factory-one-shift": ("factory-one-shift.yaml", "factory_one_shift.py", "azul_after_draft"),
    "secret-goal": ("secret-goal.yaml", "secret_goal.py", "azul_deal_secrets"),
    "wild-tiles": ("wild-tiles.yaml", "wild_tiles.py", "azul_stands_in"),
    # Tiles moved between places (tests/test_transfers.py).
    "take-a-tile": ("take-a-tile.yaml", "take_a_tile.py", "azul_apply_move"),
    # Phases of choices a plugin adds (tests/test_phases.py).
    "lid-market": ("lid-market.yaml", "lid_market.py", "azul_declare_phases"),
    "colour-bid": ("colour-bid.yaml", "colour_bid.py", "azul_declare_phases"),
    # Tiles drawn at random by a rule (tests/test_draws.py).
    "refill-factories": ("refill-factories.yaml", "refill_factories.py", "azul_apply_move"),
    # The board's size (tests/test_board_size.py).
    "sixth-colour": ("sixth-colour.yaml", "sixth_colour.py", "azul_colours"),
}


def variant_path(folder: str) -> Path:
    return EXAMPLES / folder / HOUSE_RULES[folder][0]


def both(folder: str, players: int = 2):
    """A new game of the house rule and one of standard Azul."""
    return new_game(variant_path(folder), players), new_game("standard", players)


# ---------------------------------------------------------------- every example


@pytest.mark.parametrize("folder", sorted(HOUSE_RULES))
def test_example_variant_extends_standard_and_adds_its_plugin_file(folder):
    variant_file, plugin_file, hook = HOUSE_RULES[folder]
    data = yaml.safe_load(variant_path(folder).read_text(encoding="utf-8"))
    assert data["extends"] == "standard"
    assert data["plugins"] == ["standard", "colour_wall", plugin_file]
    variant = load_variant(variant_path(folder))
    plugin = variant.plugins[-1]
    assert plugin.name == Path(plugin_file).stem and plugin.origin.startswith("file ")
    assert plugin.module.AZUL_API == 1
    assert plugin.name in variant.rules.deciders[hook]  # "family_floor > standard", "standard + diagonals"


def test_every_example_has_a_readme_paragraph():
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for folder, (variant_file, plugin_file, hook) in HOUSE_RULES.items():
        assert f"({folder}/)" in readme and hook in readme, folder


# ---------------------------------------------------------------- family floor


def test_family_floor_every_tile_costs_one_and_at_most_three():
    # The test of the tutorial in docs/plugins.md.
    game = new_game(variant_path("family-floor"))
    set_table(game, ["BBBB", "R"], centre="Y")
    play(game, ["CY-", "1B-", "2R-"])  # seat 0: marker + Y; seat 1: BBBB; seat 0: R
    assert game.players[1].penalty_points == -3  # 4 tiles, capped at 3
    assert game.players[0].penalty_points == -3  # marker, Y, R


@pytest.mark.parametrize("tiles, house, standard", [(1, -1, -1), (2, -2, -2), (3, -3, -4),
                                                    (4, -3, -6), (7, -3, -14)])
def test_family_floor_against_standard(tiles, house, standard):
    for game, expected in zip(both("family-floor"), (house, standard)):
        assert game.rules.floor_penalty([BLACK] * tiles) == expected


def test_family_floor_cap_is_a_setting():
    game = new_game(variant_path("family-floor"), settings={"family_floor_cap": 2})
    assert game.rules.floor_penalty([BLACK] * 5) == -2


# ---------------------------------------------------------------- five rounds


def test_five_rounds_every_game_lasts_at_most_five_rounds():
    house_rounds = [play_out(new_game(variant_path("five-rounds")), seed=seed).round for seed in range(30)]
    standard_rounds = [play_out(new_game("standard"), seed=seed).round for seed in range(30)]
    assert max(house_rounds) == 5
    assert max(standard_rounds) > 5


def test_five_rounds_a_complete_row_still_ends_the_game_earlier():
    game = new_game(variant_path("five-rounds"))
    set_wall(game, 0, """
        x x x . x
        . . . . .
        . . . . .
        . . . . .
        . . . . .""")
    set_lines(game, 0, {1: "K"})
    set_table(game, ["W"])
    play(game, ["1W-"])
    assert game.over and game.round == 1


def test_five_rounds_answers_nothing_before_round_five():
    house, standard = both("five-rounds")
    empty = [wall_from("\n".join([". . . . ."] * 5))] * 2
    for round_number in (1, 4):
        assert house.rules.game_over(empty, round_number) is False
    assert house.rules.game_over(empty, 5) is True and standard.rules.game_over(empty, 5) is False


# ---------------------------------------------------------------- diagonals

BOTH_DIAGONALS_AND_ROW_1_BUT_ONE = """
    x x x . x
    . x . x .
    . . x . .
    . x . x .
    x . . . x"""


def end_with_row_1_complete(game):
    """Seat 0 completes row 1 (black at (1,4)) in a one-draft round: the game ends."""
    set_wall(game, 0, BOTH_DIAGONALS_AND_ROW_1_BUT_ONE)
    set_lines(game, 0, {1: "K"})
    set_table(game, ["W"])
    play(game, ["1W-"])
    assert game.over
    return game


def test_diagonals_give_five_each_at_the_end():
    house, standard = (end_with_row_1_complete(game) for game in both("diagonals"))
    assert ("diagonals", 10) in house.players[0].bonuses
    assert ("diagonals", 0) in house.players[1].bonuses
    assert all(label != "diagonals" for label, _ in standard.players[0].bonuses)
    assert house.scores()[0] == standard.scores()[0] + 10


@pytest.mark.parametrize("picture, points", [
    ("x....\n.x...\n..x..\n...x.\n....x", 5),   # (1,1) to (5,5)
    ("....x\n...x.\n..x..\n.x...\nx....", 5),   # (1,5) to (5,1)
    ("x...x\n.x.x.\n..x..\n.x.x.\nx...x", 10),  # both
    ("xxxxx\n.....\n.....\n.....\n.....", 0),   # a row is not a diagonal
    (".x...\n..x..\n...x.\n....x\n.....", 0),   # a shorter diagonal does not count
    ("x....\n.x...\n..x..\n...x.\n.....", 0),   # four of five
])
def test_diagonals_only_the_two_main_ones_count(picture, points):
    game = new_game(variant_path("diagonals"))
    set_wall(game, 0, picture)
    assert ("diagonals", points) in game.rules.end_bonuses(game.players[0].wall)


# ---------------------------------------------------------------- pillar


@pytest.mark.parametrize("picture, settings, toll, bonus", [
    ("..x..\n..x..\n..x..\n..x..\n..x..", {}, -5, 10),                  # a complete pillar
    ("xxxxx\n..x..\n.....\n..x..\n.....", {}, -3, 0),                   # three tiles, no bonus
    ("x.x.x\n..x..\n..x..\n..x..\n..x..", {"pillar_toll": 2, "pillar_bonus": 25}, -10, 25),
    ("xx.xx\nxx.xx\nxx.xx\nxx.xx\nxx.xx", {}, 0, 0),                    # the other columns are free
])
def test_pillar_tolls_each_middle_tile_and_pays_a_complete_middle_column(tmp_path, picture, settings, toll, bonus):
    path = tmp_path / "pillar.yaml"
    path.write_text(f"name: p\nextends: {variant_path('pillar')}\nsettings: {settings}\n")
    game = new_game(path)
    set_wall(game, 0, picture)
    assert game.rules.end_bonuses(game.players[0].wall)[-2:] == [("pillar toll", toll), ("pillar bonus", bonus)]


# ---------------------------------------------------------------- free marker


def test_free_marker_takes_a_space_but_costs_nothing():
    house, standard = both("free-marker")
    for game in (house, standard):
        set_table(game, ["B"], centre="RR")
        play(game, ["CR-", "1B1"])  # seat 0: marker + RR to the floor; the round ends
    assert house.players[0].penalty_points == -1 - 2  # the tiles lie on spaces 2 and 3
    assert standard.players[0].penalty_points == -1 - 1 - 2


@pytest.mark.parametrize("floor, house, standard", [
    ([MARKER], 0, -1),
    ([MARKER, BLACK], -1, -2),
    ([MARKER] + [BLACK] * 6, -13, -14),
    ([BLACK] * 7, -14, -14),
])
def test_free_marker_penalties(floor, house, standard):
    for game, expected in zip(both("free-marker"), (house, standard)):
        assert game.rules.floor_penalty(floor) == expected


def test_free_marker_still_pushes_tiles_along_the_floor():
    game = new_game(variant_path("free-marker"))
    set_table(game, ["BYRK"], centre="RRRRRRR")
    play(game, ["CR-"])
    assert floor_of(game, 0) == "MRRRRRR" and game.lid[2] == 1  # the 7th red went to the lid


# ---------------------------------------------------------------- shared ties

ONE_ROW = wall_from("B Y R K W\n. . . . .\n. . . . .\n. . . . .\n. . . . .")
NO_ROW = wall_from("B . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .")


def test_shared_ties_a_tie_on_points_is_shared_whatever_the_rows():
    house, standard = both("shared-ties")
    assert house.rules.winners([12, 12], [ONE_ROW, NO_ROW]) == [0, 1]
    assert standard.rules.winners([12, 12], [ONE_ROW, NO_ROW]) == [0]
    assert house.rules.winners([12, 9], [NO_ROW, ONE_ROW]) == [0]
