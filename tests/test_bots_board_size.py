"""Every bot plays a board of any size (issue 40): 4 to 8 colours make an n x n wall and n
pattern lines, and the bots read the size from the rules (``rules.size``, ``rules.floor_line``)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from azul_core.engine.state import DEAL, PLACE, IllegalDecision
from azul_core.players.bots import GreedyBot, RandomBot, draft_gains, tried_gains
from azul_core.players.evaluation import BonusModel, Outlooks
from azul_core.players.refusal_words import line_refusal_words, refusal_words
from azul_core.players.registry import available_bots, make_bot
from azul_core.players.search import quick_gains
from azul_core.testing import new_game, set_lines, set_wall

SIZES = (4, 6, 8)
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def sized_game(colours: int, players: int = 2):
    return new_game("standard", players=players, settings={"colours": colours})


def play_to_the_end(game, seats, deal_seed: int):
    """Play ``game`` out with ``seats``; every decision must be one of the legal ones, and no
    tile may be lost or made."""
    deal = random.Random(deal_seed)
    tiles = list(game.table.kind_counts)
    while not game.over:
        if game.phase == DEAL:
            game.deal(deal)
            continue
        decision = seats[game.to_move].choose(game)
        assert decision in game.legal_decisions(), (game.round, decision)
        game.apply(decision)
        assert game.tile_counts() == tiles
    return game


@pytest.mark.parametrize("colours", SIZES)
@pytest.mark.parametrize("players", (2, 3))
def test_every_bot_plays_whole_games_on_a_board_of_any_size(colours, players):
    rules = sized_game(colours).rules
    names = sorted(available_bots(rules))
    assert {"random", "greedy", "mcts"} <= set(names)
    for name in names:
        # The search bot at a few playouts a move: its games then depend on the seed alone.
        seats = [make_bot(name, rules, seed=seat, playouts=8) for seat in range(players)]
        game = play_to_the_end(sized_game(colours, players), seats, deal_seed=colours * 10 + players)
        assert game.rules.size == colours and len(game.players[0].wall) == colours
        # The standard end: a complete row, which takes a round per tile at least.
        assert game.round >= colours
        assert any(None not in row for board in game.players for row in board.wall), name


def test_greedy_beats_random_on_six_colours():
    wins = 0
    for number in range(20):
        game = sized_game(6)
        greedy_seat = number % 2
        seats = [None, None]
        seats[greedy_seat] = GreedyBot(seed=number)
        seats[1 - greedy_seat] = RandomBot(seed=number)
        play_to_the_end(game, seats, deal_seed=number)
        wins += game.winners == [greedy_seat]
    assert wins >= 15


@pytest.mark.parametrize("colours", SIZES)
def test_greedy_draft_gains_equal_the_gains_of_applying_each_draft_on_any_board(colours):
    """Greedy's worked-out gains index the wall's slots and the floor by the board's size: they
    must be the gains measured after ``apply``, where the engine does the arithmetic."""
    rng = random.Random(colours)
    game = sized_game(colours)
    seats = [GreedyBot(seed=seat) for seat in range(2)]
    checked = 0
    while not game.over:
        if game.phase == DEAL:
            game.deal(rng)
            continue
        decisions = game.legal_decisions()
        if game.phase != PLACE:
            fast = draft_gains(game, decisions)
            if fast is not None:
                slow = [gain for gain, _decision in tried_gains(game, decisions)]
                assert fast == pytest.approx(slow, abs=1e-9), game.round
                checked += len(decisions)
        # Greedy and random moves mixed, so that lines and the floor overflow now and then.
        game.apply(seats[game.to_move].choose(game) if rng.random() < 0.6 else game.random_decision(rng.random))
    assert checked > 200


@pytest.mark.parametrize("colours", SIZES)
def test_the_search_bots_estimates_are_greedys_gains_on_a_fresh_round(colours):
    game = sized_game(colours)
    game.deal(random.Random(5))
    quick = {decision: gain for gain, decision in quick_gains(game)}
    greedy = {decision: gain for gain, decision in GreedyBot(seed=0).scored_decisions(game)}
    assert quick.keys() == greedy.keys()
    assert any(decision[2] == colours for decision in quick)  # the floor is line n
    for decision, gain in greedy.items():
        assert quick[decision] == pytest.approx(gain), decision


@pytest.mark.parametrize("colours", SIZES)
def test_the_bonus_groups_of_an_n_colour_wall_are_its_rows_columns_and_colours(colours):
    model = BonusModel(sized_game(colours).rules)
    assert model.fixed_groups is not None and model.layout is not None
    assert sorted(gain for gain, _slots in model.fixed_groups) == [2.0] * colours + [7.0] * colours + [10.0] * colours
    assert all(len(slots) == colours for _gain, slots in model.fixed_groups)
    every_slot = {slot for _gain, slots in model.fixed_groups for slot in slots}
    assert every_slot == set(range(colours * colours))


def test_a_six_colour_row_missing_one_tile_makes_that_slot_worth_its_bonus():
    """Slots are numbered ``row * 6 + colour`` on a six-colour board: the one tile wall row 4
    lacks brings the row's bonus (the game's last round: nothing else is hoped for), and
    tiles on pattern line 4 bring their share of it."""
    game = sized_game(6)
    game.deal(random.Random(1))
    set_wall(game, 0, ["......", "......", "......", "xxxxx.", "......", "......"])
    missing = next(colour for colour in range(6) if colour not in game.players[0].wall[3])
    outlook = Outlooks(game.rules).for_state(game)[0]
    assert outlook.size == 6 and len(outlook.slot_bonus) == 36
    assert outlook.slot_bonus[3 * 6 + missing] == 2.0
    assert [slot for slot, bonus in enumerate(outlook.slot_bonus) if bonus] == [3 * 6 + missing]
    set_lines(game, 0, {4: game.table.kind_letters[missing] * 2})
    assert outlook.board_bonus(game.players[0], game.rules.capacity) == pytest.approx(outlook.expected + 2.0 * 2 / 4)
    assert outlook.line_bonus(3, missing, 2, 4) == pytest.approx(1.0)


def test_azul_simulate_and_compare_play_the_six_colour_variant_with_greedy(tmp_path):
    from azul_core.cli.app import _register, app
    _register()
    six = tmp_path / "six.yaml"
    six.write_text("name: six\nextends: standard\nsettings:\n  colours: 6\n", encoding="utf-8")
    simulated = CliRunner().invoke(app, ["simulate", "--variant", str(six), "--games", "4", "--bots",
                                         "greedy,greedy", "--seed", "2", "--json"], env=ENV)
    assert simulated.exit_code == 0, simulated.output
    summary = json.loads(simulated.stdout)
    assert summary["games"] == 4 and summary["mean_rounds"] >= 6
    compared = CliRunner().invoke(app, ["compare", "standard", str(six), "--games", "4", "--bots", "greedy",
                                        "--seed", "2", "--json"], env=ENV)
    assert compared.exit_code == 0, compared.output
    labels = [entry["label"] for entry in json.loads(compared.stdout)["variants"]]
    assert labels == ["standard", "six"]


def test_a_refusal_names_the_colours_of_a_six_colour_board():
    """Orange is colour 5, past the standard game's names: the player's words name it from the
    variant's colours, and without them the engine's message (which names it) is told."""
    game = sized_game(6)
    game.deal(random.Random(2))
    set_lines(game, 0, {3: "OO"})
    colour = next(colour for colour in range(5) if game.sources[1][colour])
    assert line_refusal_words(game, 0, colour, 2) == "Line 3 already holds orange"
    with pytest.raises(IllegalDecision) as refused:
        game.apply((1, colour, 2))
    assert refusal_words(refused.value, game.rules.colour_names) == "Line 3 already holds orange"
    assert "orange" in refusal_words(refused.value)
