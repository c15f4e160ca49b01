"""Replayed factory fills (``deal_tiles``, what ``azul validate`` replays) that could not have been
drawn, and filling the factories in the wrong phase.

rules/standard.md: tiles are drawn from the bag, factory 1 first; when the bag runs out the whole
lid is poured in and the drawing goes on; when both are empty the rest stays empty. A record made
by another program may break any of these; each case below is one that must be refused.
"""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from azul_core.cli.app import _register, app
from azul_core.colours import BLUE, NAMES, RED, YELLOW
from azul_core.engine.state import DEAL, DRAFT, PLACE, IllegalDecision, letters
from azul_core.players.bots import RandomBot
from azul_core.records.game_record import Recorder
from azul_core.testing import counts_of, deal, new_game, play, set_bag, set_table

# The bag holds 6 blue, the lid 14 yellow and 10 red: 20 tiles for 5 factories of 4.
BAG, LID = "BBBBBB", "Y" * 14 + "R" * 10


def dry_game():
    game = new_game()
    set_bag(game, bag=BAG, lid=LID)
    return game


def test_a_fill_drawing_the_bag_then_the_lid_is_laid_and_the_lid_emptied():
    game = dry_game()
    deal(game, ["BBBB", "BBYY", "YYYY", "YYRR", "RRRR"])
    assert game.phase == DRAFT
    assert game.sources[1] == counts_of("BBBB") and game.sources[2] == counts_of("BBYY")
    assert game.lid == [0] * 5
    # 30 tiles in bag and lid, 20 laid: the bag keeps the 10 others (6 yellow, 4 red)
    assert sorted(game.bag) == [YELLOW] * 6 + [RED] * 4


def test_the_bags_tiles_must_all_be_drawn_before_the_lid_is_poured_in():
    game = dry_game()
    # the sixth blue turns up in factory 3, after the lid's yellow: the bag had run out by then
    with pytest.raises(IllegalDecision,
                       match="the bag's 6 blue tiles must all be drawn before the lid is poured in"):
        deal(game, ["BBBB", "BYYY", "BYYY", "YYRR", "RRRR"])
    assert game.phase == DEAL and game.lid == counts_of(LID) and game.bag == [BLUE] * 6


def test_no_lid_tile_in_the_factories_filled_from_the_bag_alone():
    game = dry_game()
    # all six blues are drawn by factory 2, but factory 1 (filled from the bag alone) holds yellow
    with pytest.raises(IllegalDecision,
                       match="1 yellow tiles laid before the bag ran out, but it held 0"):
        deal(game, ["BBBY", "BBBY", "YYYY", "YYRR", "RRRR"])
    assert game.phase == DEAL


def test_no_more_of_a_colour_than_bag_and_lid_held():
    game = dry_game()
    with pytest.raises(IllegalDecision, match="14 red tiles laid, but bag and lid held 10"):
        deal(game, ["BBBB", "BBRR", "RRRR", "RRRR", "RRRR"])
    assert game.phase == DEAL


def test_from_the_bag_alone_no_more_of_a_colour_than_it_held():
    game = new_game()
    set_bag(game, bag="BBBBYYYYRRRRKKKKWWWWB", lid="RRRR")   # 21 in the bag: the lid is not needed
    with pytest.raises(IllegalDecision, match="5 red tiles laid, but the bag held 4"):
        deal(game, ["BBBB", "YYYY", "RRRR", "KKKK", "WWWR"])
    deal(game, ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    assert game.bag == [BLUE] and game.lid == counts_of("RRRR")     # the lid stays full


def test_every_factory_gets_its_tiles_while_bag_or_lid_hold_any():
    game = dry_game()
    with pytest.raises(IllegalDecision, match="16 tiles laid, but 20 must be drawn"):
        deal(game, ["BBBB", "BBYY", "YYYY", "YYRR"])
    with pytest.raises(IllegalDecision, match="factory 1 has 5 tiles; a factory holds 4"):
        game.deal_tiles([counts_of("BBBBB"), counts_of("BYYY"), counts_of("YYYY"),
                         counts_of("YYRR"), counts_of("RR")])
    with pytest.raises(IllegalDecision, match="expected 5 factories, got 4"):
        game.deal_tiles([counts_of("BBBB")] * 4)
    assert game.phase == DEAL


def test_when_bag_and_lid_run_dry_only_the_last_factory_drawn_is_partly_filled():
    game = new_game()
    set_bag(game, bag="BBBBBB", lid="YYY")
    with pytest.raises(IllegalDecision, match="in order"):
        deal(game, ["BBBB", "BB", "YYY"])
    deal(game, ["BBBB", "BBYY", "Y"])
    assert [sum(f) for f in game.sources[1:]] == [4, 4, 1, 0, 0]
    assert game.bag == [] and game.lid == [0] * 5


# ------------------------------------------------------------------ the phase


def test_factories_are_filled_only_at_the_start_of_a_round():
    game = new_game()
    game.deal(random.Random(1))
    drafting = [source[:] for source in game.sources]
    bag = game.bag[:]
    for fill in (lambda: game.deal(random.Random(2)), lambda: deal(game, ["BBBB"] * 5)):
        with pytest.raises(IllegalDecision, match="only at the start of a round"):
            fill()
        assert game.sources == drafting and game.bag == bag and game.phase == DRAFT


def test_no_fill_while_a_grey_wall_tile_is_being_placed_or_after_the_game():
    game = new_game("grey-wall")
    set_table(game, ["YYYY", "RRRR"])
    play(game, ["1Y1", "2R-"])
    assert game.phase == PLACE
    with pytest.raises(IllegalDecision, match="only at the start of a round"):
        game.deal(random.Random(1))
    with pytest.raises(IllegalDecision, match="only at the start of a round"):
        deal(game, ["BBBB"] * 5)
    assert game.phase == PLACE

    from azul_core.testing import play_out
    over = play_out(new_game(), seed=4)
    with pytest.raises(IllegalDecision, match="only at the start of a round"):
        over.deal(random.Random(1))
    with pytest.raises(IllegalDecision, match="only at the start of a round"):
        over.deal_tiles([[0] * 5] * 5)


# ------------------------------------------------------------------ azul validate


def game_with_a_split_fill():
    """A random game's record, and a round whose fill drew the bag's last tiles then the lid,
    with the bag's last tiles in an early factory: (record data, round number, bag before it)."""
    for seed in range(100):
        game, rng = new_game(), random.Random(seed)
        bots = [RandomBot(seed=seed), RandomBot(seed=seed + 1)]
        recorder = Recorder("standard", ["ana", "bo"], seed=seed)
        while not game.over:
            if game.phase == DEAL:
                bag = [game.bag.count(colour) for colour in range(5)]
                game.deal(rng)
                recorder.dealt(game)
                if 0 < sum(bag) < 16 and sum(bag) % 4 and sum(game.sources[-1]) == 4:
                    return recorder.to_dict(game), game.round, bag
                continue
            decision = bots[game.to_move].choose(game)
            game.apply(decision)
            recorder.decided(decision, game)
    raise AssertionError("no game with such a fill in 100 seeds")


def test_azul_validate_rejects_a_record_that_pours_the_lid_before_the_bag_is_empty(tmp_path):
    data, number, bag = game_with_a_split_fill()
    factories = [counts_of(text) for text in data["rounds"][number - 1]["factories"]]
    split = sum(bag) // 4                     # the factory drawn partly from the bag, partly from the lid
    # a colour whose last bag tiles are in that factory, with none of its kind from the lid there
    drawn_by_then = [sum(f[c] for f in factories[:split + 1]) for c in range(5)]
    colour = next(c for c in range(5) if factories[split][c] and drawn_by_then[c] == bag[c])
    later, other = next((j, d) for j in range(split + 1, len(factories))
                        for d in range(5) if d != colour and factories[j][d])
    factories[split][colour] -= 1             # one of the bag's tiles is drawn after the lid's
    factories[split][other] += 1
    factories[later][other] -= 1
    factories[later][colour] += 1
    data["rounds"][number - 1]["factories"] = [letters(f) for f in factories]
    data["rounds"] = data["rounds"][:number]
    data.pop("result", None)
    path = tmp_path / "lid-too-early.json"
    path.write_text(json.dumps(data))
    _register()
    result = CliRunner().invoke(app, ["validate", "--json", str(path)], env={"AZUL_DEBUG": ""})
    assert result.exit_code == 1
    (error,) = json.loads(result.stdout)["errors"]
    assert error["round"] == number
    assert (f"the bag's {bag[colour]} {NAMES[colour]} tiles must all be drawn before the lid is poured in"
            in error["message"])
