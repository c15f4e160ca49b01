"""One of issue 40's rules stated in a sentence, written as a plugin author would from
docs/plugins.md alone: "a draft from a factory may take two colours if they go on two
different lines". A choice after the draft whose outcome is a transfer from the centre (where
the factory's other tiles went) to another line, what doesn't fit to the floor. (A move
instead of the draft, one per source, pair of colours and pair of lines, would need 1,800
declared moves: a variant declares at most 64, each an action of the RL adapters.)"""

from __future__ import annotations

import pytest
from recorded_games import play_recorded

from azul_core import hookimpl
from azul_core.engine.state import DRAFT
from azul_core.players.bots import seen_by_mover
from azul_core.players.registry import make_bot
from azul_core.records.game_record import replay_state
from azul_core.rules import CENTRE, Move, Outcome, Transfer, floor, line
from azul_core.testing import floor_of, lines_of, new_game, play, set_table, table_of


class TwoColours:
    """A draft from a factory may take two colours if they go on two different lines: after
    the draft, the seat may take one more colour of that factory's (now in the centre) onto
    another line. The plugin keeps the centre as it was before the draft, to know which tiles
    came from the factory."""

    KEEP = Move("keep", label="Take only one colour")
    SECOND = {(colour, row): Move("second", (colour, row)) for colour in range(5) for row in range(5)}

    @hookimpl
    def azul_declare_moves(self):
        return [self.KEEP, *self.SECOND.values()]

    @hookimpl
    def azul_initial_memory(self):
        return ((0,) * 5, None, None)  # the centre before the draft; the factory's rest; its line

    @hookimpl
    def azul_round_start(self):
        return ((0,) * 5, None, None)

    @hookimpl
    def azul_after_draft(self, source, line, game, memory):
        centre = game.centre[:5]
        rest = tuple(now - before for now, before in zip(centre, memory[0])) if source else None
        return (centre, rest, line)

    @hookimpl
    def azul_offer_moves(self, stage, seat, game, memory):
        _centre, rest, taken_line = memory
        if stage != "after_draft" or not rest:
            return None
        accepts = game.accepts[seat]
        seconds = [move for (colour, row), move in self.SECOND.items()
                   if rest[colour] and row != taken_line and colour in accepts[row]]
        return [self.KEEP, *seconds] if seconds else None

    @hookimpl
    def azul_apply_move(self, move, seat, game, memory):
        if move == self.KEEP:
            return Outcome(memory=(game.centre[:5], None, None))
        (colour, row), count = move.args, memory[1][move.args[0]]
        fits = min(count, game.line_capacity[row] - game.lines[seat][row][1])
        transfers = (Transfer(CENTRE, line(seat, row), colour, fits),) + (
            (Transfer(CENTRE, floor(seat), colour, count - fits),) if count > fits else ())
        centre = tuple(held - (count if kind == colour else 0) for kind, held in enumerate(game.centre[:5]))
        return Outcome(memory=(centre, None, None), transfers=transfers)


def test_a_factorys_two_colours_go_to_two_lines_and_the_rest_to_the_centre():
    game = new_game(plugins=[TwoColours()])
    set_table(game, ["BBRK", "YYYY"])
    play(game, "1B2")                                    # blue on line 2; R and K go to the centre
    assert [move.notation for move in game.legal_decisions()] == \
        ["+keep", "+second:2:0", "+second:2:2", "+second:2:3", "+second:2:4",
         "+second:3:0", "+second:3:2", "+second:3:3", "+second:3:4"]
    play(game, "+second:2:0")                            # the factory's one red onto line 1
    assert lines_of(game, 0) == {1: "R", 2: "BB"} and table_of(game)["centre"] == "K"
    assert (game.phase, game.to_move) == (DRAFT, 1) and game.tile_counts() == [20] * 5


def test_what_doesnt_fit_falls_to_the_floor():
    game = new_game(plugins=[TwoColours()])
    set_table(game, ["BRRR", "YYYY"])
    play(game, "1B3 +second:2:1")                        # three red for line 2: two fit
    assert lines_of(game, 0) == {2: "RR", 3: "B"} and floor_of(game, 0) == "R"


def test_no_second_colour_from_the_centre_nor_on_the_drafts_line():
    game = new_game(plugins=[TwoColours()])
    set_table(game, ["BBKK", "YYYY"], centre="RR")
    play(game, "CR1")                                    # from the centre: one colour only
    assert game.to_move == 1
    play(game, "1B2")
    assert "+second:3:1" not in [move.notation for move in game.legal_decisions()]
    assert "+second:3:0" in [move.notation for move in game.legal_decisions()]


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_every_bot_plays_the_second_colour_to_the_games_end_and_the_record_replays(bot):
    game = new_game(plugins=[TwoColours()])
    bots = [make_bot(bot, game.rules, seed=seat) for seat in range(2)]
    record = play_recorded(game, 7, "standard", lambda state: bots[state.to_move].choose(seen_by_mover(state)),
                           each_step=lambda state: state.tile_counts() == [20] * 5 or pytest.fail("tiles lost"))
    actions = [action for entry in record.rounds for action in entry.actions]
    assert game.over and any(action.startswith("+second") for action in actions)
    assert replay_state(record, game.rules).scores() == game.scores()
