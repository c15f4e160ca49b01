"""The house rules that use the rule API's context, decisions and stacking (examples/):
each plays against standard Azul (and duel) to show that the rule is in effect."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from azul_core.colours import BLACK, RED
from azul_core.engine.state import CENTRE, IllegalDecision
from azul_core.lab.simulate import simulate
from azul_core.players.registry import make_bot
from azul_core.records.game_record import read_record, validate_record
from azul_core.testing import (
    first_player,
    floor_of,
    lines_of,
    new_game,
    play,
    play_out,
    round_scores,
    set_lines,
    set_table,
    set_wall,
    table_of,
    winners,
)
from azul_core.variants.loading import Trust

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(folder: str, name: str | None = None) -> Path:
    return EXAMPLES / folder / f"{name or folder}.yaml"


def plugin_file(folder: str) -> str:
    return str(EXAMPLES / folder / f"{folder.replace('-', '_')}.py")


def one_draft_round(game, seat0_score: int, seat1_score: int):
    """Scores set, then a round of one draft (seat 0 takes the lone blue to line 1)."""
    game.players[0].score, game.players[1].score = seat0_score, seat1_score
    set_table(game, ["B"])
    play(game, ["1B1"])
    return game


# ---------------------------------------------------------------- lead by forty


@pytest.mark.parametrize("lead, ends", [(40, True), (39, False)])
def test_lead_by_forty_ends_the_game_on_a_big_lead(lead, ends):
    house = one_draft_round(new_game(example("lead-by-forty")), lead - 1, 0)  # +1 for the blue
    standard = one_draft_round(new_game(), lead - 1, 0)
    assert round_scores(house) == [[lead, 0]]
    assert house.over is ends and not standard.over
    if ends:
        assert winners(house) == [0]


def test_lead_by_forty_counts_the_lead_over_the_second_best():
    game = new_game(example("lead-by-forty"), players=3)
    game.players[2].score = 30
    one_draft_round(game, 60, 0)  # 61 against 30: a lead of 31
    assert not game.over


# ---------------------------------------------------------------- centre pairs


def test_centre_pairs_refuses_a_lone_tile_from_the_centre():
    house, standard = new_game(example("centre-pairs")), new_game()
    for game in (house, standard):
        set_table(game, ["BBYY"], centre="RKK")
    assert not any(source == CENTRE and colour == RED for source, colour, _ in house.legal_decisions())
    assert any(source == CENTRE and colour == RED for source, colour, _ in standard.legal_decisions())
    with pytest.raises(IllegalDecision, match="centre_pairs"):
        play(house, ["CR1"])
    play(house, ["CK2"])  # two blacks: allowed
    play(standard, ["CR1"])


def test_centre_pairs_allows_a_lone_tile_when_nothing_else_is_left():
    game = new_game(example("centre-pairs"))
    set_table(game, [], centre="RY")
    assert len(game.legal_decisions()) == 12  # every draft: the rule may not stall the game
    play(game, ["CR1"])


def test_centre_pairs_bots_follow_the_rule():
    game = new_game(example("centre-pairs"))
    rng = random.Random(4)
    bots = [make_bot("greedy", game.rules, seed=1), make_bot("random", game.rules, seed=2)]
    while not game.over:
        if game.phase == "deal":
            game.deal(rng)
            continue
        decision = bots[game.to_move].choose(game)
        if len(decision) == 3 and decision[0] == CENTRE and game.sources[0][decision[1]] == 1:
            assert all(d[0] == CENTRE and game.sources[0][d[1]] == 1 for d in game.legal_decisions())
        game.apply(decision)


# ---------------------------------------------------------------- short lines


def test_short_lines_the_first_line_holds_two():
    house, standard = new_game(example("short-lines")), new_game()
    assert house.rules.capacity == (2, 2, 3, 4, 5) and standard.rules.capacity == (1, 2, 3, 4, 5)
    for game in (house, standard):
        set_table(game, ["BBYY", "K"])
        play(game, ["1B1", "2K2", "CY-"])  # the round ends: line 1 is tiled where it is full
    assert house.players[0].wall[0][0] is not None and house.lid[0] == 1  # BB: one to the wall
    assert standard.players[0].wall[0][0] is not None and floor_of(standard, 0) == ""
    assert standard.lid[0] == 1  # standard: the second blue fell to the floor, then the lid


def test_short_lines_a_line_of_one_tile_is_not_full():
    house, standard = new_game(example("short-lines")), new_game()
    for game in (house, standard):
        set_table(game, ["BYRK", "K"])
        play(game, ["1B1", "2K2", "CY-", "CR-", "CK3"])
    assert house.players[0].wall[0][0] is None and lines_of(house, 0) == {1: "B", 3: "K"}
    assert standard.players[0].wall[0][0] is not None
    with pytest.raises(ValueError, match="holds 1 tiles"):
        set_lines(new_game(), 0, {1: "BB"})
    set_lines(new_game(example("short-lines")), 0, {1: "BB"})


def test_short_lines_games_end_and_bots_play_them():
    game = play_out(new_game(example("short-lines")), seed=2)
    assert game.over and game.tile_counts() == [20] * 5
    simulate(example("short-lines"), 2, 2, seed=1, bots="greedy")


# ---------------------------------------------------------------- floor to bag


def test_floor_to_bag_sends_the_floor_tiles_back_into_the_bag():
    house, standard = new_game(example("floor-to-bag")), new_game()
    for game in (house, standard):
        set_table(game, ["BKKK"])
        play(game, ["1K-"])  # three blacks to the floor; the blue goes to the centre
        play(game, ["CB1"])
    assert table_of(house)["lid"] == "" and house.bag.count(BLACK) == 20 - 3 + 3
    assert table_of(standard)["lid"] == "KKK" and standard.bag.count(BLACK) == 17


def test_floor_to_bag_keeps_every_tile_in_play():
    game = play_out(new_game(example("floor-to-bag")), seed=5)
    assert game.tile_counts() == [20] * 5 and sum(game.removed) == 0


# ---------------------------------------------------------------- stacking score rules

# Seat 0's red line 1 goes to (1,3), the middle column, beside (1,2) and above (2,3).
BESIDE_AND_ABOVE = ". x . . .\n. . x . .\n. . . . .\n. . . . .\n. . . . ."


def red_in_the_middle(variant, plugins=()):
    game = new_game(variant, plugins=[plugin_file(p) for p in plugins])
    set_wall(game, 0, BESIDE_AND_ABOVE)
    set_lines(game, 0, {1: "R"})
    set_table(game, ["Y"])
    play(game, ["1Y-"])  # the round's only draft: line 1 is tiled
    assert game.players[0].wall[0][2] == RED
    return game.players[0].placement_points


@pytest.mark.parametrize("variant, base", [("standard", 2 + 2), ("duel", 2 + 2 - 1)])
def test_middle_column_adds_one_over_standard_and_over_duel(variant, base):
    assert red_in_the_middle(variant) == base
    assert red_in_the_middle(variant, ["middle-column"]) == base + 1


def test_middle_column_and_double_red_compose_in_file_order():
    assert red_in_the_middle("standard", ["double-red"]) == 4 * 2
    assert red_in_the_middle("standard", ["middle-column", "double-red"]) == (4 + 1) * 2
    assert red_in_the_middle("standard", ["double-red", "middle-column"]) == 4 * 2 + 1
    assert red_in_the_middle("duel", ["middle-column", "double-red"]) == (3 + 1) * 2


def test_stacked_variant_files_give_the_same_points():
    assert red_in_the_middle(example("middle-column", "middle-column-duel")) == 3 + 1
    assert red_in_the_middle(example("double-red", "double-red-middle-column")) == (4 + 1) * 2


def test_middle_column_only_changes_the_middle_column():
    house, standard = new_game(example("middle-column")), new_game()
    wall = [[None] * 5 for _ in range(5)]
    wall[0][0] = 0
    assert house.rules.placement_score(wall, 0, 0) == standard.rules.placement_score(wall, 0, 0) == 1


# ---------------------------------------------------------------- marker fee


def test_marker_fee_no_floor_space_and_a_flat_three():
    house, standard = new_game(example("marker-fee")), new_game()
    for game in (house, standard):
        set_table(game, ["B"], centre="RR")
        play(game, ["CR-", "1B1"])  # seat 0: marker + RR to the floor; the round ends
    assert floor_of(house, 0) == "" and floor_of(standard, 0) == ""
    assert house.players[0].penalty_points == -1 - 1 - 3  # RR on spaces 1 and 2, then the fee
    assert standard.players[0].penalty_points == -1 - 1 - 2  # M, R, R on spaces 1 to 3
    assert house.players[1].penalty_points == standard.players[1].penalty_points == 0
    assert first_player(house) == 0


def test_marker_fee_the_marker_never_takes_a_space():
    game = new_game(example("marker-fee"))
    set_table(game, ["BYRK"], centre="RRRRRRR")
    play(game, ["CR-"])
    assert floor_of(game, 0) == "RRRRRRR" and game.lid[RED] == 0


# ---------------------------------------------------------------- seeded start


def test_seeded_start_draws_the_first_player_from_the_seed(tmp_path):
    house = simulate(example("seeded-start"), 2, 20, seed=3, bots="random", record_dir=tmp_path / "h")
    standard = simulate("standard", 2, 20, seed=3, bots="random")
    assert {r.first_player for r in house.results} == {0, 1}
    assert {r.first_player for r in standard.results} == {0}
    records = sorted((tmp_path / "h").glob("*.json"))
    started = [json.loads(path.read_text()).get("first_player", 0) for path in records]
    assert set(started) == {0, 1}
    trust = Trust.of([example("seeded-start")])  # as `azul validate --variant FILE` gives
    assert all(validate_record(path, trust=trust)["valid"] for path in records)
    assert {read_record(path).first_player for path in records} == {0, 1}


def test_seeded_start_in_a_test_game():
    game = new_game(example("seeded-start"), first_player=None, seed=1)
    assert first_player(game) == game.rules.opening_seat(2, 1)
    set_table(game, ["BYRK"])
    assert game.to_move == first_player(game)
