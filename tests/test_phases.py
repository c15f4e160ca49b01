"""Phases of choices a plugin adds (``rules.Phase``): at the round's start, after a turn, at
the round's end, at the game's end; each seat in turn, or all at once in secret. The two
examples (examples/lid-market, examples/colour-bid) everywhere a variant works, from the
engine's side: bots, records, ``azul simulate`` and ``azul validate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recorded_games import play_recorded
from typer.testing import CliRunner

from azul_core import hookimpl
from azul_core.colours import BLUE, RED, YELLOW
from azul_core.engine.state import CHOOSE, DEAL, DRAFT, OVER
from azul_core.players.bots import seen_by_mover
from azul_core.players.registry import make_bot
from azul_core.records.game_record import Recorder, replay_state, sealed_for
from azul_core.rules import CENTRE, LID, Move, Outcome, Phase, Transfer, factory
from azul_core.testing import floor_of, lines_of, new_game, play, play_out, set_floor, set_lines, set_table

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MARKET = EXAMPLES / "lid-market" / "lid-market.yaml"
BID = EXAMPLES / "colour-bid" / "colour-bid.yaml"
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def moves_on_offer(game) -> list[str]:
    return [move.notation for move in game.legal_decisions() if isinstance(move, Move)]


# ---------------------------------------------------------------- a phase at the round's end


def market_round_end(scores=(5, 5)):
    game = new_game(MARKET)
    for seat, score in enumerate(scores):
        game.players[seat].score = score
    game.lid[RED] = 1
    game.bag.remove(RED)
    set_lines(game, 1, {3: "RR"})
    set_table(game, ["B"])
    play(game, "1B1")                # the round's last draft: the wall tiling, then the market
    return game


def test_the_market_comes_after_the_wall_tiling_and_before_the_floors_are_paid():
    game = market_round_end()
    assert (game.phase, game.stage, game.to_move) == (CHOOSE, "round_end", 0)
    assert game.players[0].score == 6            # seat 0's blue is on the wall already
    assert "+buy:2:0" in moves_on_offer(game) and "+no-buy" in moves_on_offer(game)
    play(game, "+buy:2:0")                       # a red from the lid onto line 1 for 2 points
    assert lines_of(game, 0) == {1: "R"} and game.lid[RED] == 0 and game.players[0].score == 4
    # The lid holds no more tiles seat 1's lines take: the phase is over, the round ends.
    assert game.phase == DEAL and game.round == 2
    assert game.tile_counts() == [20] * 5


def test_the_market_offers_nothing_to_a_seat_that_cannot_pay():
    game = market_round_end(scores=(0, 5))   # seat 0 has 1 point after its tiling
    assert (game.stage, game.to_move) == ("round_end", 1)     # seat 0 is skipped
    assert "+buy:2:2" in moves_on_offer(game)                 # seat 1's line 3 holds red
    play(game, "+no-buy")
    assert game.phase == DEAL


def test_the_floor_is_paid_after_the_market():
    game = new_game(MARKET)
    game.players[0].score = 5
    set_floor(game, 0, "K")
    game.lid[RED] = 1
    game.bag.remove(RED)
    set_table(game, ["B"])
    play(game, "1B1 +no-buy")
    assert game.players[0].score == 5 + 1 - 1 and floor_of(game, 0) == ""


# ---------------------------------------------------------------- all at once, in secret


def bid_round(players: int = 2):
    game = new_game(BID, players=players)
    set_table(game, ["RRBB", "YYKK"])       # the deal: the bid comes before the first draft
    return game


def test_every_seat_bids_before_the_first_draft_and_nobody_sees_another_bid_before_all_have():
    game = bid_round(players=3)
    assert (game.phase, game.stage, game.to_move) == (CHOOSE, "round_start", 0)
    play(game, "+pick:2")
    assert game.to_move == 1 and game.memory["colour_bid"] == (None, None, None)   # not yet carried out
    assert game.for_seat(1).sealed == ((0, None),)           # seat 1 can't see seat 0's pick
    assert seen_by_mover(game).sealed == ((0, None),)        # nor can its bot
    assert game.for_seat(0).sealed == ((0, Move("pick", (2,))),)
    play(game, "+pick:2 +pick:4")
    assert game.memory["colour_bid"] == (2, 2, 4)            # revealed together
    assert (game.phase, game.stage, game.to_move) == (DRAFT, None, 0)


def test_a_picked_colour_scores_double_for_its_picker_this_round_only():
    game = bid_round()
    play(game, "+pick:2 +pick:0")            # seat 0 picks red, seat 1 blue
    play(game, "1R1 2Y1 CB2 CK-")            # the round's drafts
    # Seat 0: its red 2 (doubled), its blue 1; seat 1 picked blue and tiled a yellow: 1.
    assert game.players[0].placement_points == 2 + 1 and game.players[1].placement_points == 1
    assert game.memory["colour_bid"] == (2, 0)
    set_table(game, ["RRBB"])                # round 2: the picks start afresh
    assert game.memory["colour_bid"] == (None, None)


def test_a_record_of_a_game_in_progress_hides_the_bids_not_every_seat_has_made():
    game = bid_round()
    recorder = Recorder("colour-bid", ["ann", "bob"])
    recorder.dealt(game)
    decision = Move("pick", (3,))
    game.apply(decision)
    recorder.decided(decision, game)
    record = recorder.to_record(game)
    assert record.rounds[-1].actions == ["+pick:3"]
    for seat in (0, 1, None):
        assert sealed_for(record, seat, False, len(game.sealed)).rounds[-1].actions == []
    assert sealed_for(record, 1, True, 0).rounds[-1].actions == ["+pick:3"]


# ---------------------------------------------------------------- after a turn: ending drafting early


class SweepWhenOneFactoryIsLeft:
    """After any turn that leaves one factory holding tiles, the player who just played may
    sweep everything on the table into the lid: drafting is over for the round."""

    SWEEP = Move("sweep", label="Sweep the table into the lid")
    GO_ON = Move("go-on", label="Go on drafting")

    @hookimpl
    def azul_declare_phases(self):
        return [Phase("after_turn")]

    @hookimpl
    def azul_declare_moves(self):
        return [self.SWEEP, self.GO_ON]

    @hookimpl
    def azul_offer_moves(self, stage, seat, game):
        held = [number for number, tiles in enumerate(game.factories, 1) if sum(tiles)]
        if stage == "after_turn" and seat == game.current and len(held) == 1 and sum(game.centre):
            return [self.SWEEP, self.GO_ON]
        return None

    @hookimpl
    def azul_apply_move(self, move, game):
        if move.name != "sweep":
            return Outcome()
        held = [number for number, tiles in enumerate(game.factories, 1) if sum(tiles)]
        return Outcome(transfers=tuple(
            Transfer(source, LID, kind, count)
            for source, tiles in [(factory(held[0]), game.factories[held[0] - 1]), (CENTRE, game.centre)]
            for kind, count in enumerate(tiles) if count))


def test_a_phase_after_a_turn_may_end_the_drafting_by_moving_the_tiles_off_the_table():
    game = new_game(plugins=[SweepWhenOneFactoryIsLeft()])
    set_lines(game, 1, {1: "K"})
    set_table(game, ["RRBB", "YYKW"])
    play(game, "1R2")                         # factory 2 alone is left, BB in the centre
    assert (game.stage, game.to_move) == ("after_turn", 0)
    assert moves_on_offer(game) == ["+sweep", "+go-on"]
    play(game, "+sweep")                      # everything to the lid: the round's tiling
    assert game.phase == DEAL and game.lid[YELLOW] == 2 and game.lid[BLUE] == 2
    assert game.players[1].score == 1 and game.tile_counts() == [20] * 5


def test_declining_after_a_turn_passes_the_turn_as_usual():
    game = new_game(plugins=[SweepWhenOneFactoryIsLeft()])
    set_table(game, ["RRBB", "YYKW"])
    play(game, "1R2 +go-on")
    assert (game.phase, game.to_move) == (DRAFT, 1)


# ---------------------------------------------------------------- at the game's end


class LastWord:
    """When the game is over, before the end bonuses, each seat may take 3 points once."""

    TAKE = Move("last-word", label="Take 3 points")

    @hookimpl
    def azul_declare_phases(self):
        return [Phase("game_end")]

    @hookimpl
    def azul_declare_moves(self):
        return [self.TAKE]

    @hookimpl
    def azul_initial_memory(self):
        return ()

    @hookimpl
    def azul_offer_moves(self, stage, seat, memory):
        return [self.TAKE] if stage == "game_end" and seat not in memory else None

    @hookimpl
    def azul_apply_move(self, seat, memory):
        return Outcome(points=3, memory=memory + (seat,))

    @hookimpl
    def azul_game_over(self):
        return True


def test_a_phase_at_the_games_end_comes_before_the_end_bonuses_and_the_winners():
    game = new_game(plugins=[LastWord()])
    set_table(game, ["B"])
    play(game, "1B1")
    assert (game.phase, game.stage, game.to_move) == (CHOOSE, "game_end", 0)
    assert not game.winners
    play(game, "+last-word +last-word")
    assert game.phase == OVER and game.scores() == [4, 3] and game.winners == [0]


# ---------------------------------------------------------------- no seat can stall a phase


class Forever:
    """A wait that leaves the same seat to choose again, for ever."""

    WAIT = Move("wait", label="Wait")

    @hookimpl
    def azul_declare_phases(self):
        return [Phase("round_start")]

    @hookimpl
    def azul_declare_moves(self):
        return [self.WAIT]

    @hookimpl
    def azul_offer_moves(self, stage):
        return [self.WAIT] if stage == "round_start" else None

    @hookimpl
    def azul_apply_move(self):
        return Outcome(ends_turn=False)


def test_a_seat_offered_moves_for_ever_is_moved_on_after_sixteen():
    game = new_game(plugins=[Forever()])
    set_table(game, ["BBYY"])
    play(game, ["+wait"] * 16)
    assert game.to_move == 1 and game.stage == "round_start"
    play(game, ["+wait"] * 16)
    assert (game.phase, game.to_move) == (DRAFT, 0)


# ---------------------------------------------------------------- every bot, every record


@pytest.mark.parametrize("variant", [MARKET, BID], ids=lambda path: path.stem)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_every_bot_plays_the_phases_and_the_record_replays(variant, players, bot):
    game = new_game(variant, players=players)
    bots = [make_bot(bot, game.rules, seed=seat, playouts=10) for seat in range(players)]

    def every_tile_counted(state):
        assert state.tile_counts() == [20] * 5

    record = play_recorded(game, players, str(variant), lambda state: bots[state.to_move].choose(seen_by_mover(state)),
                           limit=50 if bot == "mcts" else None,  # a few rounds are enough for the slow bot
                           each_step=every_tile_counted)
    assert replay_state(record, game.rules).scores() == game.scores()


@pytest.mark.parametrize("variant", [MARKET, BID], ids=lambda path: path.stem)
def test_simulated_records_of_the_phases_validate(variant, tmp_path):
    from azul_core.cli.app import _register, app
    _register()
    runner = CliRunner(env=ENV)
    result = runner.invoke(app, ["simulate", "--variant", str(variant), "--games", "8", "--seed", "2",
                                 "--bots", "greedy,random", "--quiet", "--record-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    texts = [path.read_text() for path in tmp_path.glob("*.json")]
    assert any(('"+buy:' if variant == MARKET else '"+pick:') in text for text in texts)
    result = runner.invoke(app, ["validate", str(tmp_path), "--variant", str(variant), "--json"])
    assert result.exit_code == 0, result.output
    assert all(json.loads(line)["valid"] for line in result.stdout.splitlines())


def test_a_game_with_phases_plays_out_at_random():
    game = play_out(new_game(BID, players=3), seed=4)
    assert game.over and sum(game.tile_counts()) == 100
    assert None not in game.memory["colour_bid"]      # every seat picked in the last round


# ---------------------------------------------------------------- told in words


@pytest.mark.parametrize("variant, told", [
    (MARKET, "at each round's end, after the wall tiling, before the floors are paid (each player in turn)"),
    (BID, "at each round's start, before the first draft (every player at once, in secret)"),
], ids=["lid-market", "colour-bid"])
def test_azul_rules_and_the_tables_words_tell_the_phase(variant, told):
    from azul_core.cli.app import _register, app
    from azul_core.variants.loading import load_variant
    from azul_core.variants.words import rules_in_words
    _register()
    result = CliRunner(env=ENV).invoke(app, ["rules", str(variant)])
    assert result.exit_code == 0, result.output
    assert f"- phases of choices the plugins add: {told} (standard: none)" in result.stdout
    standard = load_variant(EXAMPLES.parent / "variants" / "standard.yaml")
    assert f"The round has a phase of choices of its own: {told}." in rules_in_words(load_variant(variant), standard)


def test_the_picks_read_in_words_once_revealed():
    from azul_core.players.plugin_words import plugin_words
    game = bid_round()

    def told(reader):
        return [text for item in plugin_words(game.for_seat(reader))
                if (text := item.text(["Ann", "Bob"], reader))]

    assert told(0) == ["You have picked no colour yet this round", "Bob has picked no colour yet this round"]
    play(game, "+pick:2")                     # sealed: the memory, and so the words, are unchanged
    assert told(1) == ["Ann has picked no colour yet this round", "You have picked no colour yet this round"]
    play(game, "+pick:4")
    assert told(0) == ["Your colour this round: red, double points",
                       "Bob picked white this round: double points for it"]
