"""Tiles a rule draws at random from the bag (``rules.Draw``, issue 40): a chance event of the
game, drawn by the engine before the game goes on, written in the record (``~RRB``) and laid
again by a replay; examples/refill-factories everywhere a variant works, from the engine's
side: every bot, records, ``azul simulate``, ``azul validate`` and ``azul replay``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from recorded_games import play_recorded
from typer.testing import CliRunner

from azul_core import hookimpl
from azul_core.colours import BLACK, BLUE, RED, WHITE
from azul_core.engine.draws import Drawn, drawn_problem, sample_draw
from azul_core.engine.notation import NotationError, parse_decision, parse_record_action
from azul_core.engine.plugins import PluginError
from azul_core.engine.state import CHOOSE, DEAL, DRAFT, DRAW, IllegalDecision
from azul_core.players.bots import seen_by_mover
from azul_core.players.registry import make_bot
from azul_core.records.game_record import replay_state
from azul_core.rules import BOX, CENTRE, Draw, Move, Outcome, Phase, factory, line
from azul_core.testing import new_game, play, set_table, snapshot, table_of

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
REFILL = EXAMPLES / "refill-factories" / "refill-factories.yaml"
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def refill_turn():
    """Factories 1-4 empty, factory 5 and the centre hold tiles: seat 0 drafts, and the
    refill is offered."""
    game = new_game(REFILL)
    set_table(game, ["", "", "", "", "BBYY"], centre="RK")
    play(game, "CR1")
    return game


# ---------------------------------------------------------------- the example's rule


def test_the_refill_is_offered_after_a_turn_that_leaves_one_factory():
    game = refill_turn()
    assert (game.phase, game.stage, game.to_move) == (CHOOSE, "after_turn", 0)
    assert [move.notation for move in game.legal_decisions()] == ["+refill", "+leave"]
    bag = sum(game.rules.table(2).kind_counts) - 6
    play(game, "+refill")
    # Four draws wait, one per empty factory: the engine draws them before the turn passes.
    assert game.phase == DRAW and [draw.target for _owner, _seat, draw in game.drawing] == \
        [factory(1), factory(2), factory(3), factory(4)]
    play(game, "~BBBB ~YYYY ~RRKW ~WWWW")
    assert table_of(game)["factories"][:4] == ["BBBB", "YYYY", "RRKW", "WWWW"]
    assert (game.phase, game.to_move) == (DRAFT, 1)
    assert len(game.bag) == bag - 16 and game.tile_counts() == [20] * 5
    # Once a round: after seat 1's draft nothing is offered, even with one factory left.
    play(game, "1B2 2Y2 3R3 4W4")
    assert sum(1 for tiles in game.sources[1:] if any(tiles)) == 1
    assert (game.phase, game.to_move) == (DRAFT, 1)
    assert not [m for m in game.legal_decisions() if isinstance(m, Move)]


def test_leaving_the_factories_empty_draws_nothing():
    game = refill_turn()
    play(game, "+leave")
    assert (game.phase, game.to_move) == (DRAFT, 1) and not game.drawing
    assert table_of(game)["factories"][:4] == ["", "", "", ""]


def test_a_draw_takes_from_the_bag_and_pours_the_lid_in_when_it_runs_out():
    game = refill_turn()
    game.bag = [BLUE, BLUE]
    game.lid[RED], game.lid[WHITE] = 3, 3
    tiles = game.tile_counts()
    play(game, "+refill")
    with pytest.raises(IllegalDecision, match="the lid is poured into the bag only once the bag is empty"):
        play(game, "~RRRW")
    with pytest.raises(IllegalDecision, match="can't have been drawn"):
        play(game, "~BBB")                          # 3 blue: the bag and lid hold 2
    play(game, "~BBRW")                            # the bag's two, then two of the lid
    assert game.lid == [0] * 5 and sorted(game.bag) == [RED, RED, WHITE, WHITE]
    play(game, "~RRWW")                            # the bag is empty now
    play(game, "~")                                # and so is the lid: the draw stops short
    play(game, "~")
    assert table_of(game)["factories"][:4] == ["BBRW", "RRWW", "", ""]
    assert game.tile_counts() == tiles and game.phase == DRAFT


@pytest.mark.parametrize("seed", range(30))
def test_a_sampled_draw_is_one_a_replay_accepts(seed):
    rng = random.Random(seed)
    kinds = 5
    bag = [rng.randrange(kinds) for _ in range(rng.randrange(0, 9))]
    lid = [rng.randrange(0, 3) for _ in range(kinds)]
    count = rng.randrange(1, 12)
    drawn = sample_draw(bag, lid, count, rng.random)
    in_bag = [bag.count(kind) for kind in range(kinds)]
    assert drawn_problem(in_bag, lid, tuple(drawn), count, ("t",) * kinds) is None
    assert sum(drawn) == min(count, len(bag) + sum(lid))
    assert drawn_problem(in_bag, lid, tuple(drawn), count + 1, ("t",) * kinds) is not None or \
        sum(drawn) == len(bag) + sum(lid)                     # one short is a draw stopped early


def test_a_short_draw_needs_an_empty_bag_and_lid():
    assert drawn_problem([1, 0, 0, 0, 0], [0, 0, 3, 0, 0], (1, 0, 0, 0, 0), 4, ("t",) * 5) == \
        "1 tiles drawn of 4, but the bag and lid held more"
    assert drawn_problem([1, 0, 0, 0, 0], [0, 0, 0, 0, 0], (1, 0, 0, 0, 0), 4, ("t",) * 5) is None


def test_nothing_but_the_draw_is_taken_while_it_waits():
    game = refill_turn()
    play(game, "+refill")
    with pytest.raises(IllegalDecision, match="the tiles a rule draws from the bag come first"):
        game.apply((0, BLACK, 0))
    assert game.phase == DRAW


def test_a_player_never_types_what_is_drawn():
    # A player's words and moves are read by parse_decision: a draw's notation is not one of
    # them (the web table and `azul play` read moves with it), so nobody chooses the tiles.
    with pytest.raises(NotationError):
        parse_decision("~RRRR")
    assert parse_record_action("~RRB", "BYRKW", "BYRKW") == Drawn((1, 0, 2, 0, 0))
    with pytest.raises(NotationError, match="names a tile this variant doesn't have"):
        parse_record_action("~RRQ", "BYRKW", "BYRKW")
    game = new_game()
    set_table(game, ["BBYY"])
    with pytest.raises(IllegalDecision, match="no tiles are being drawn now"):
        game.apply(Drawn((1, 0, 0, 0, 0)))


# ---------------------------------------------------------------- what a plugin may draw


class Drawer:
    """A move that draws what the test says, where it says, at the stage it says."""

    GO = Move("go", label="Go")

    def __init__(self, draws, stage="turn"):
        self.draws, self.stage = draws, stage

    @hookimpl
    def azul_declare_phases(self):
        return [Phase(self.stage)] if self.stage != "turn" else []

    @hookimpl
    def azul_declare_moves(self):
        return [self.GO]

    @hookimpl
    def azul_offer_moves(self, stage):
        return [self.GO] if stage == self.stage else None

    @hookimpl
    def azul_apply_move(self):
        return Outcome(draws=self.draws)


def test_a_draw_into_a_factory_at_the_rounds_end_is_the_plugins_error():
    game = new_game(plugins=[Drawer((Draw(factory(1), 2),), "round_end")])
    set_table(game, ["B"])
    play(game, "1B1")                                   # the round's last draft: then the phase
    assert game.stage == "round_end"
    before = snapshot(game)
    with pytest.raises(PluginError, match=r"plugin '.*' answered \+go with a draw of 2 onto factory 1 "
                                          r"\(azul_apply_move at .*test_draws.py:\d+\): the factories"):
        game.apply(Drawer.GO)
    assert snapshot(game) == before


@pytest.mark.parametrize("draw, why", [
    (Draw(line(0, 1)), "tiles are drawn onto lid, box, factory, centre, floor, not pattern line 2 of seat 0"),
    (Draw(factory(1), 0), "count must be from 1 to 200"),
    (Draw(factory(9)), "there is no factory 9"),
    ("two tiles", "expected a Draw, not str"),
])
def test_a_draw_the_engine_cant_make_is_refused_and_changes_nothing(draw, why):
    game = new_game(plugins=[Drawer((draw,))])
    set_table(game, ["BBYY"])
    before = snapshot(game)
    with pytest.raises(PluginError, match=why):
        game.apply(Drawer.GO)
    assert snapshot(game) == before


def test_a_draw_onto_the_centre_and_the_box_then_the_turn_passes():
    game = new_game(plugins=[Drawer((Draw(CENTRE, 2), Draw(BOX, 1)))])
    set_table(game, ["BBYY"])
    play(game, "+go ~RK ~W")
    assert table_of(game)["centre"] == "RK" and game.removed[WHITE] == 1
    assert (game.phase, game.to_move) == (DRAFT, 1) and game.tile_counts() == [20] * 5


def test_draws_in_a_phase_chosen_at_once_come_when_every_seat_has_chosen():
    class SealedDraw(Drawer):
        @hookimpl
        def azul_declare_phases(self):
            return [Phase("round_start", at_once=True)]

    game = new_game(plugins=[SealedDraw((Draw(CENTRE, 1),), "round_start")])
    set_table(game, ["BBYY"])
    play(game, "+go")
    assert game.phase == CHOOSE and not game.drawing  # seat 0's choice is sealed: nothing drawn yet
    play(game, "+go")
    assert game.phase == DRAW and len(game.drawing) == 2
    play(game, "~R ~Y")
    assert (game.phase, game.to_move, table_of(game)["centre"]) == (DRAFT, 0, "YR")


# ---------------------------------------------------------------- everywhere a variant works


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_every_bot_plays_the_refill_and_the_record_replays(players, bot):
    game = new_game(REFILL, players=players)
    bots = [make_bot(bot, game.rules, seed=seat, playouts=10) for seat in range(players)]

    def every_tile_counted(state):
        assert state.tile_counts() == [20] * 5

    record = play_recorded(game, players, str(REFILL), lambda state: bots[state.to_move].choose(seen_by_mover(state)),
                           limit=60 if bot == "mcts" else None, each_step=every_tile_counted)
    actions = [action for entry in record.rounds for action in entry.actions]
    assert "+refill" in actions or "+leave" in actions
    if "+refill" in actions:
        assert any(action.startswith("~") for action in actions)
    assert replay_state(record, game.rules).scores() == game.scores()


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_every_bot_chooses_where_a_choice_draws(bot):
    # A refill draws at random: greedy and the search value it from the mover's view (the
    # search draws the tiles in its tree, as it deals a round); none of them fails on it.
    game = refill_turn()
    decisions = {make_bot(bot, game.rules, seed=seed, playouts=30).choose(seen_by_mover(game)).notation
                 for seed in range(6)}
    assert decisions <= {"+refill", "+leave"} and decisions


def test_simulated_records_of_the_refill_validate_and_replay_in_words(tmp_path):
    from azul_core.cli.app import _register, app
    _register()
    runner = CliRunner(env=ENV)
    result = runner.invoke(app, ["simulate", "--variant", str(REFILL), "--games", "6", "--seed", "2",
                                 "--bots", "random", "--quiet", "--record-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    path = next(path for path in sorted(tmp_path.glob("*.json")) if '"~' in path.read_text())
    result = runner.invoke(app, ["validate", str(tmp_path), "--variant", str(REFILL), "--json"])
    assert result.exit_code == 0, result.output
    assert all(json.loads(line)["valid"] for line in result.stdout.splitlines())
    record = json.loads(path.read_text())
    where = next((number, index) for number, entry in enumerate(record["rounds"], 1)
                 for index, action in enumerate(entry["actions"], 1) if action.startswith("~"))
    result = runner.invoke(app, ["replay", str(path), "--variant", str(REFILL), "--at", f"{where[0]}:{where[1]}"])
    assert result.exit_code == 0, result.output
    assert "Drawn from the bag onto factory" in result.stdout
    # A tile the bag can't have held is a record that can't have happened.
    entry = record["rounds"][where[0] - 1]
    entry["actions"][where[1] - 1] = "~" + "R" * 4
    record["rounds"][where[0] - 1] = entry
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["validate", str(path), "--variant", str(REFILL)])
    assert result.exit_code == 1 and "can't have been drawn" in result.stdout + result.output


def test_the_same_seed_draws_the_same_tiles():
    def played():
        game = new_game(REFILL)
        return [action for entry in play_recorded(game, 5, str(REFILL)).rounds for action in entry.actions]
    first = played()
    assert any(action.startswith("~") for action in first) and played() == first


def test_a_variant_that_draws_nothing_never_waits_for_a_draw():
    # A variant without draws never enters phase DRAW: the standard game is unchanged.
    game = new_game()
    rng = random.Random(1)
    phases = set()
    while not game.over:
        if game.phase == DEAL:
            game.deal(rng)
        else:
            game.apply(game.random_decision(rng.random))
        phases.add(game.phase)
    assert DRAW not in phases and not game.drawing


def test_azul_play_tells_the_draws_and_a_game_resumed_between_two_draws_ends_the_same(tmp_path):
    from azul_core.cli.app import _register, app
    _register()
    runner = CliRunner(env=ENV)
    whole, cut = tmp_path / "whole.json", tmp_path / "cut.json"
    result = runner.invoke(app, ["play", "--variant", str(REFILL), "--players", "random,random", "--seed", "3",
                                 "--record", str(whole)])
    assert result.exit_code == 0, result.output
    assert "Drawn from the bag onto factory 1: 1 yellow, 2 red, 1 black" in result.stdout
    record = json.loads(whole.read_text())
    number, index = next((number, index) for number, entry in enumerate(record["rounds"])
                         for index, action in enumerate(entry["actions"]) if action.startswith("~"))
    assert record["rounds"][number]["actions"][index + 1].startswith("~")  # another draw waits
    record["rounds"] = record["rounds"][:number + 1]
    record["rounds"][number] = {"factories": record["rounds"][number]["factories"],
                                "actions": record["rounds"][number]["actions"][:index + 1]}
    del record["result"]
    cut.write_text(json.dumps(record))
    result = runner.invoke(app, ["play", "--resume", str(cut), "--variant", str(REFILL), "--trust"])
    assert result.exit_code == 0, result.output
    assert json.loads(cut.read_text())["result"] == json.loads(whole.read_text())["result"]
