"""Faults found while writing harder house rules from the docs alone (issue 20), each fixed:
end bonuses judged from one set of scores, a line that can't change colour, a game view
that can't change the game, ``variants show --resolved`` and the winning sets of a run."""

from __future__ import annotations

import pytest

from azul_core import hookimpl
from azul_core.colours import RED, WHITE
from azul_core.engine.plugins import PluginError
from azul_core.testing import new_game, play, scores, set_lines, set_table, snapshot, winners

# ---------------------------------------------------------------- end bonuses


class OneRound:
    """The game ends after its first round."""

    @hookimpl
    def azul_game_over(self):
        return True


class LeaderBonus:
    """+5 at the end for every player leading on points (ties included)."""

    @hookimpl
    def azul_end_bonuses(self, seat, game):
        return [("leader", 5)] if game.scores[seat] == max(game.scores) else []


def test_every_seats_end_bonuses_are_decided_from_the_scores_before_any_bonus():
    game = new_game(plugins=[OneRound(), LeaderBonus()])
    game.players[0].score, game.players[1].score = 9, 10
    set_table(game, ["B"])
    play(game, ["1B1"])  # seat 0's blue scores 1: tied on 10 when the game ends
    assert game.over
    # Seat 0's bonus must not make seat 1 look behind when seat 1 is asked.
    assert [dict(board.bonuses).get("leader") for board in game.players] == [5, 5]
    assert scores(game) == [15, 15] and winners(game) == [0, 1]


def test_the_end_bonuses_see_the_same_scores_from_every_seat():
    seen = []

    class Watcher:
        @hookimpl
        def azul_end_bonuses(self, seat, game):
            seen.append((seat, game.scores))

    game = new_game(plugins=[OneRound(), Watcher(), LeaderBonus()])
    set_table(game, ["B"])
    play(game, ["1B1"])
    assert seen == [(0, (1, 0)), (1, (1, 0))]


# ---------------------------------------------------------------- one colour per line


class AnyColourWhileRoom:
    """A careless rule: any colour goes on a line that has room."""

    @hookimpl
    def azul_line_accepts(self, line_count, capacity):
        return line_count < capacity


def test_a_line_accepting_another_colour_than_it_holds_is_refused_with_the_plugin_named():
    game = new_game(plugins=[AnyColourWhileRoom()])
    set_table(game, ["RRWW", "WWWB"])
    before = snapshot(game)
    with pytest.raises(PluginError) as excinfo:
        play(game, ["1R3"])  # RR on line 3 would take white next: WWW, two reds gone
    error = excinfo.value
    assert (error.plugin, error.hook) == ("AnyColourWhileRoom", "azul_line_accepts")
    assert error.location.startswith(__file__ + ":")
    assert "pattern line 3 holds red, and a line holds one colour: it can't take" in str(error)
    assert snapshot(game) == before


def test_a_line_accepting_its_own_colour_or_refusing_another_is_fine():
    class OwnColourAlways:
        @hookimpl
        def azul_line_accepts(self, line_colour, line_count, capacity, colour):
            if line_colour is not None:
                return colour == line_colour and line_count < capacity
            return None

    game = new_game(plugins=[OwnColourAlways()])
    set_lines(game, 0, {3: "RR"})
    set_table(game, ["RRWW"])
    lines = {line for source, colour, line in game.legal_decisions() if colour == RED}
    assert 2 in lines
    assert not any(line == 2 for source, colour, line in game.legal_decisions() if colour == WHITE)
    assert sum(game.tile_counts()) == 100
