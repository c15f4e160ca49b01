"""One test per hook: a tiny plugin changes that hook's answer, and the game changes with it.

Each test plays the same position with and without the plugin (or checks
the standard answer), so it shows what the hook decides. The meta-tests at
the end fail when a hook is added without a test here or without a
docstring, and when docs/plugins.md no longer matches the hook specifications.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path

import pytest

from azul_core import hookdoc, hookimpl, hookspecs
from azul_core.colours import BLACK, BLUE, RED, YELLOW
from azul_core.engine.plugins import PluginError
from azul_core.engine.state import CHOOSE, DRAFT, DRAW, PLACE, IllegalDecision
from azul_core.players.registry import available_bots, make_bot
from azul_core.rules import Colour, Draw, ExtraTile, MarkerRule, Move, Outcome, Phase, TableSetup, floor
from azul_core.settings import Setting
from azul_core.testing import (
    floor_of,
    lines_of,
    new_game,
    play,
    play_out,
    run_round,
    scores,
    set_lines,
    set_table,
    snapshot,
    table_of,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"

# Seat 0 fills line 1 (blue) and line 2 (red); seat 1 fills line 1 (yellow), taking the
# marker; the centre's black goes to seat 1's floor. The round then ends.
ONE_ROUND_TABLE = ["BYRR", "K"]
ONE_ROUND_MOVES = ["1B1", "CY1", "CR2", "2K-"]


def one_round(game):
    set_table(game, ONE_ROUND_TABLE)
    play(game, ONE_ROUND_MOVES)
    return game


# ---------------------------------------------------------------- setup hooks


def test_hook_azul_declare_settings():
    class TilePoints:
        @hookimpl
        def azul_declare_settings(self):
            return [Setting("tile_points", "int", 1, "points for every placed tile", minimum=0)]

        @hookimpl
        def azul_placement_score(self, settings):
            return settings.tile_points

    game = one_round(new_game(plugins=[TilePoints()], settings={"tile_points": 4}))
    assert [board.placement_points for board in game.players] == [8, 4]
    with pytest.raises(ValueError, match="unknown setting 'tile_points'"):
        new_game(settings={"tile_points": 4})  # nobody declares it in plain standard


def test_hook_azul_game_setup():
    class SmallTable:
        @hookimpl
        def azul_game_setup(self, players):
            return TableSetup(factories=players, tiles_per_factory=3, tiles_per_colour=10)

    game = new_game(plugins=[SmallTable()], players=3)
    assert len(game.sources) - 1 == 3 and len(game.bag) == 50
    run_round(game, seed=1)
    assert game.tile_counts() == [10] * 5
    standard = new_game(players=3)
    assert len(standard.sources) - 1 == 7 and len(standard.bag) == 100


def test_hook_azul_floor_spaces():
    class ShortFloor:
        @hookimpl
        def azul_floor_spaces(self):
            return 3

    game = new_game(plugins=[ShortFloor()])
    set_table(game, ["BBBB", "YYYY"])
    play(game, ["1B-"])
    assert floor_of(game, 0) == "BBB" and game.lid[BLUE] == 1
    standard = new_game()
    set_table(standard, ["BBBB", "YYYY"])
    play(standard, ["1B-"])
    assert floor_of(standard, 0) == "BBBB" and standard.lid[BLUE] == 0


def test_hook_azul_tiling_time():
    class TileAtOnce:
        @hookimpl
        def azul_tiling_time(self):
            return "turn"

    game = new_game(plugins=[TileAtOnce()])
    set_table(game, ONE_ROUND_TABLE)
    play(game, ["1B1"])
    assert game.players[0].wall[0][0] == BLUE and lines_of(game, 0) == {}
    standard = new_game()
    set_table(standard, ONE_ROUND_TABLE)
    play(standard, ["1B1"])
    assert standard.players[0].wall[0][0] is None and lines_of(standard, 0) == {1: "B"}


def test_hook_azul_tiled_line_reopens():
    class TileAtOnce:
        @hookimpl
        def azul_tiling_time(self):
            return "turn"

    class ClosedUntilNextRound:
        @hookimpl
        def azul_tiled_line_reopens(self):
            return "next_round"

    table = ["BYYY", "KRRR"]
    game = new_game(plugins=[TileAtOnce(), ClosedUntilNextRound()])
    set_table(game, table)
    play(game, ["1B1", "CY-"])  # seat 0 fills line 1: tiled at once, then closed
    assert not [d for d in game.legal_decisions() if d[2] == 0]
    with pytest.raises(IllegalDecision, match="pattern line 1 was tiled this round"):
        game.apply((2, BLACK, 0))
    at_once = new_game(plugins=[TileAtOnce()])
    set_table(at_once, table)
    play(at_once, ["1B1", "CY-", "2K1"])  # line 1 again, black: tiled beside the blue
    assert at_once.players[0].wall[0] == (BLUE, None, None, BLACK, None)


def test_hook_azul_marker_rule():
    class MarkerAside:
        @hookimpl
        def azul_marker_rule(self):
            return MarkerRule(placement="aside")

    game = new_game(plugins=[MarkerAside()])
    set_table(game, ["BYRK"], centre="RR")
    play(game, ["CR-"])
    assert floor_of(game, 0) == "RR" and game.marker_holder == 0
    standard = new_game()
    set_table(standard, ["BYRK"], centre="RR")
    play(standard, ["CR-"])
    assert floor_of(standard, 0) == "MRR" and standard.marker_holder == 0


def test_hook_azul_misplaced_draft():
    class MistakesToFloor:
        @hookimpl
        def azul_misplaced_draft(self):
            return "floor"

    game = new_game(plugins=[MistakesToFloor()])
    set_lines(game, 0, {2: "R"})
    set_table(game, ["BBYY"])
    play(game, ["1B2"])  # line 2 holds red: the blues go to the floor
    assert floor_of(game, 0) == "BB" and lines_of(game, 0) == {2: "R"}
    standard = new_game()
    set_lines(standard, 0, {2: "R"})
    set_table(standard, ["BBYY"])
    with pytest.raises(IllegalDecision, match="pattern line 2 holds red"):
        play(standard, ["1B2"])


class PrintedWallChosenByHand:
    """The colour wall, but the player places each tile (always one legal column)."""

    name = "chosen_wall"

    @hookimpl
    def azul_wall_spaces(self, wall, row, colour):
        column = (colour + row) % 5
        return (column,) if wall[row][column] is None else ()

    @hookimpl
    def azul_wall_choice(self):
        return True


def test_hook_azul_wall_choice():
    game = one_round(new_game(plugins=[PrintedWallChosenByHand()], decide={"wall": "chosen_wall"}))
    assert game.phase == PLACE and game.to_move == 0
    assert game.legal_decisions() == [(0, 0)]
    play(game, ["w1:1", "w2:4", "w1:2"])
    assert game.players[0].wall[1][3] == RED and game.players[1].wall[0][1] == YELLOW
    standard = one_round(new_game())
    assert standard.phase != PLACE and standard.players[0].wall[1][3] == RED


def test_hook_azul_register_bots():
    class FirstChoice:
        def __init__(self, seed=None, think=None):
            pass

        def choose(self, state):
            return state.legal_decisions()[0]

    class OffersABot:
        @hookimpl
        def azul_register_bots(self):
            return {"first-choice": FirstChoice}

    game = new_game(plugins=[OffersABot()])
    assert "first-choice" in available_bots(game.rules)
    assert "first-choice" not in available_bots(new_game().rules)
    set_table(game, ["BYRK"])
    game.apply(make_bot("first-choice", game.rules, seed=1).choose(game))
    assert lines_of(game, 0) == {1: "B"}


def test_hook_azul_line_capacity():
    class LongFirstLine:
        @hookimpl
        def azul_line_capacity(self, row):
            return 3 if row == 0 else None  # the others: the standard row + 1

    game = new_game(plugins=[LongFirstLine()])
    assert game.rules.capacity == (3, 2, 3, 4, 5)
    set_table(game, ["BBYY"])
    play(game, ["1B1"])
    assert lines_of(game, 0) == {1: "BB"} and floor_of(game, 0) == ""
    assert (0, 0) not in [(seat, row) for seat, row in game.pending]  # 2 of 3: not full
    standard = new_game()
    set_table(standard, ["BBYY"])
    play(standard, ["1B1"])
    assert lines_of(standard, 0) == {1: "B"} and floor_of(standard, 0) == "B"


def test_hook_azul_colours():
    class Pink:
        @hookimpl
        def azul_colours(self, answer):
            return (*answer, Colour("P", "pink", "#e87ab0"))

    game = new_game(plugins=[Pink()])
    rules = game.rules
    assert rules.size == 6 and rules.colour_letters == "BYRKWP"
    assert game.table.kind_counts == (20,) * 6 and game.tile_counts() == [20] * 6
    assert rules.capacity == (1, 2, 3, 4, 5, 6)  # a sixth pattern line, asked of azul_line_capacity
    set_table(game, ["PPPB"])
    assert (1, 5, 5) in game.legal_decisions() and (1, 5, 6) in game.legal_decisions()  # line 6, floor
    play(game, ["1P6", "CB1"])  # the last tile: the round's tiling follows
    assert lines_of(game, 0) == {6: "PPP"}
    assert game.players[1].wall[0] == (0, None, None, None, None, None)  # a 6x6 wall
    assert new_game().rules.size == 5 and new_game().rules.colour_letters == "BYRKW"


def test_hook_azul_colours_is_checked():
    class Twice:
        @hookimpl
        def azul_colours(self, answer):
            return (*answer, answer[0])

    with pytest.raises(PluginError, match="azul_colours.*colour letter 'B'"):
        new_game(plugins=[Twice()])

    class Three:
        @hookimpl
        def azul_colours(self, answer):
            return answer[:3]

    with pytest.raises(PluginError, match="expected 4 to 8 colours"):
        new_game(plugins=[Three()])


def test_hook_azul_line_capacity_is_checked():
    class Zero:
        @hookimpl
        def azul_line_capacity(self):
            return 0

    with pytest.raises(PluginError, match="azul_line_capacity for pattern line 1: expected a whole"):
        new_game(plugins=[Zero()])


def test_hook_azul_discard_pile():
    class Recycling:
        @hookimpl
        def azul_discard_pile(self, reason):
            return {"floor": "bag", "line": "out"}.get(reason)  # overflow: the standard lid

    game = one_round(new_game(plugins=[Recycling()]))
    standard = one_round(new_game())
    # Seat 1's black (floor) went back into the bag; seat 0's line 2 left one red behind.
    assert game.bag.count(BLACK) == standard.bag.count(BLACK) + 1 and game.lid[BLACK] == 0
    assert standard.lid[BLACK] == 1 and standard.lid[RED] == 1
    assert game.lid[RED] == 0 and game.removed[RED] == 1
    assert game.tile_counts() == standard.tile_counts() == [20] * 5
    assert game.rules.discard == {"floor": "bag", "overflow": "lid", "line": "out", "leftover": "lid"}


def test_hook_azul_first_player():
    class DrawnStart:
        @hookimpl
        def azul_first_player(self, players, rng):
            return rng.randrange(players)

    rules = new_game(plugins=[DrawnStart()]).rules
    starters = [rules.opening_seat(3, seed) for seed in range(40)]
    assert set(starters) == {0, 1, 2}
    assert starters == [rules.opening_seat(3, seed) for seed in range(40)]  # seeded
    assert {new_game().rules.opening_seat(3, seed) for seed in range(40)} == {0}
    game = new_game(plugins=[DrawnStart()], first_player=None, seed=starters.index(2), players=3)
    set_table(game, ["BYRK"])
    assert game.to_move == 2


def test_hook_azul_draft_allowed():
    class FactoriesFirst:
        @hookimpl
        def azul_draft_allowed(self, source, game):
            return False if source == 0 and any(map(sum, game.factories)) else None

    game = new_game(plugins=[FactoriesFirst()])
    set_table(game, ["BBYY"], centre="RK")
    assert {source for source, _colour, _line in game.legal_decisions()} == {1}
    with pytest.raises(IllegalDecision, match="forbid this draft"):
        play(game, ["CR1"])
    play(game, ["1B1"])  # the factory is empty now: the centre is open
    assert {source for source, _colour, _line in game.legal_decisions()} == {0}
    standard = new_game()
    set_table(standard, ["BBYY"], centre="RK")
    play(standard, ["CR1"])


def test_hook_azul_draft_allowed_never_stalls_a_game():
    class NothingAllowed:
        @hookimpl
        def azul_draft_allowed(self):
            return False

    game = new_game(plugins=[NothingAllowed()])
    set_table(game, ["BBYY"])
    assert len(game.legal_decisions()) == 12
    play_out(game, seed=3)  # random bots follow the rule and the game ends
    assert game.over


# ---------------------------------------------------------------- situation hooks


def test_hook_azul_wall_spaces():
    class MirroredWall:
        name = "mirrored_wall"

        @hookimpl
        def azul_wall_spaces(self, wall, row, colour):
            column = 4 - (colour + row) % 5
            return (column,) if wall[row][column] is None else ()

        @hookimpl
        def azul_wall_choice(self):
            return False

    game = one_round(new_game(plugins=[MirroredWall()], decide={"wall": "mirrored_wall"}))
    assert game.players[0].wall[0][4] == BLUE and game.players[0].wall[1][1] == RED
    standard = one_round(new_game())
    assert standard.players[0].wall[0][0] == BLUE and standard.players[0].wall[1][3] == RED


def test_hook_azul_line_accepts():
    class NoBlueOnLineOne:
        @hookimpl
        def azul_line_accepts(self, row, colour):
            if row == 0 and colour == BLUE:
                return False
            return None  # no opinion: the standard rule decides

    game = new_game(plugins=[NoBlueOnLineOne()])
    set_table(game, ["BBYY"])
    legal = game.legal_decisions()
    assert (1, BLUE, 0) not in legal and (1, BLUE, 1) in legal and (1, YELLOW, 0) in legal
    standard = new_game()
    set_table(standard, ["BBYY"])
    assert (1, BLUE, 0) in standard.legal_decisions()


def test_hook_azul_placement_score():
    class RowNumberPoints:
        @hookimpl
        def azul_placement_score(self, row):
            return row + 1

    game = one_round(new_game(plugins=[RowNumberPoints()]))
    assert [board.placement_points for board in game.players] == [1 + 2, 1]
    standard = one_round(new_game())
    assert [board.placement_points for board in standard.players] == [1 + 1, 1]


def test_hook_azul_floor_penalty():
    class FreeFloor:
        @hookimpl
        def azul_floor_penalty(self):
            return 0

    game = one_round(new_game(plugins=[FreeFloor()]))
    assert [board.penalty_points for board in game.players] == [0, 0]
    standard = one_round(new_game())
    assert [board.penalty_points for board in standard.players] == [0, -2]  # marker + black


def test_hook_azul_game_over():
    class OneRoundOnly:
        @hookimpl
        def azul_game_over(self):
            return True

    game = one_round(new_game(plugins=[OneRoundOnly()]))
    assert game.over and game.round == 1 and len(game.round_scores) == 1
    standard = one_round(new_game())
    assert not standard.over and standard.round == 2


def test_hook_azul_end_bonuses():
    class ThanksForPlaying:
        @hookimpl
        def azul_end_bonuses(self):
            return [("participation", 1)]

    game = play_out(new_game(plugins=[ThanksForPlaying()]), seed=7)
    standard = play_out(new_game(), seed=7)
    assert all(("participation", 1) in board.bonuses for board in game.players)
    assert game.scores() == [score + 1 for score in standard.scores()]


def test_hook_azul_winners():
    class LowestScoreWins:
        @hookimpl
        def azul_winners(self, scores):
            low = min(scores)
            return [seat for seat, score in enumerate(scores) if score == low]

    game = play_out(new_game(plugins=[LowestScoreWins()]), seed=0)
    standard = play_out(new_game(), seed=0)
    scores = game.scores()
    assert scores == standard.scores() and min(scores) < max(scores)
    assert game.winners == [scores.index(min(scores))]
    assert standard.winners == [scores.index(max(scores))]


# ---------------------------------------------------------------- context and stacking


def test_a_hook_may_ask_for_the_seat_and_the_game():
    seen = []

    class Watcher:
        @hookimpl
        def azul_floor_penalty(self, seat, game):
            seen.append((seat, game.marker_holder, game.round_number, game.scores, game.players))
            return None

    one_round(new_game(plugins=[Watcher()]))
    assert seen == [(0, 1, 1, (2, 1), 2), (1, 1, 1, (2, 1), 2)]  # scores before penalties


def test_a_hook_that_asks_for_nothing_gets_no_game_view(monkeypatch):
    from azul_core.engine import view
    built = []
    monkeypatch.setattr(view.GameView, "__init__", lambda self, state: built.append(state))
    one_round(new_game())  # compiled after the patch, but no standard hook reads the game
    assert built == []


def test_answer_builds_on_the_rest_of_the_variant_in_file_order():
    class PlusOne:
        @hookimpl
        def azul_placement_score(self, answer):
            return answer + 1

    class Double:
        @hookimpl
        def azul_placement_score(self, answer):
            return answer * 2

    assert one_round(new_game(plugins=[PlusOne(), Double()])).players[0].placement_points == (1 + 1) * 2 * 2
    assert one_round(new_game(plugins=[Double(), PlusOne()])).players[0].placement_points == (1 * 2 + 1) * 2
    deciders = new_game(plugins=[PlusOne()]).rules.deciders["azul_placement_score"]
    assert deciders == "PlusOne (modifies) > standard"


def test_answer_in_a_setup_hook_and_in_a_collected_hook():
    class OneMoreSpace:
        @hookimpl
        def azul_floor_spaces(self, answer):
            return answer + 1

    class NoColumnBonus:
        @hookimpl
        def azul_end_bonuses(self, answer):
            return [(label, points) for label, points in answer if label != "columns"]

    assert new_game(plugins=[OneMoreSpace()]).rules.floor_spaces == 8
    rules = new_game(plugins=[NoColumnBonus()]).rules
    full = [[(column - row) % 5 for column in range(5)] for row in range(5)]
    assert [label for label, _ in rules.end_bonuses(full)] == ["rows", "colours"]


# ---------------------------------------------------------------- meta-tests



# ---------------------------------------------------- moves, memory and secrets


class PassOnce:
    """Once per round, a seat may pass instead of drafting (the pass-once example, inline)."""

    PASS = Move("pass", label="Pass")

    @hookimpl
    def azul_declare_moves(self):
        return [self.PASS]

    @hookimpl
    def azul_initial_memory(self, players):
        return (False,) * players

    @hookimpl
    def azul_round_start(self, game):
        return (False,) * game.players

    @hookimpl
    def azul_offer_moves(self, stage, seat, memory):
        return [self.PASS] if stage == "turn" and not memory[seat] else None

    @hookimpl
    def azul_apply_move(self, seat, memory):
        return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:])


def test_hook_azul_declare_moves():
    game = new_game(plugins=[PassOnce()])
    assert game.rules.plugin_hooks.moves == (Move("pass"),)
    assert game.rules.plugin_hooks.moves[0].label == "Pass"
    assert new_game().rules.plugin_hooks.moves == ()

    class Undeclared(PassOnce):
        @hookimpl
        def azul_declare_moves(self):
            return []

    with pytest.raises(PluginError, match="offers moves but declares none"):
        new_game(plugins=[Undeclared()])

    class BadName(PassOnce):
        @hookimpl
        def azul_declare_moves(self):
            return [Move("Pass!")]

    with pytest.raises(PluginError, match="move name 'Pass!'"):
        new_game(plugins=[BadName()])


class RoundEndKeep:
    """At the round's end, each seat is offered +keep once a round (a phase of choices)."""

    KEEP = Move("keep", label="Keep")

    @hookimpl
    def azul_declare_phases(self):
        return [Phase("round_end")]

    @hookimpl
    def azul_declare_moves(self):
        return [self.KEEP]

    @hookimpl
    def azul_initial_memory(self, players):
        return ()

    @hookimpl
    def azul_round_start(self):
        return ()

    @hookimpl
    def azul_offer_moves(self, stage, seat, memory):
        return [self.KEEP] if stage == "round_end" and seat not in memory else None

    @hookimpl
    def azul_apply_move(self, seat, memory):
        return Outcome(memory=memory + (seat,))


def test_hook_azul_declare_phases():
    game = new_game(plugins=[RoundEndKeep()])
    assert game.rules.phases == {"round_end": Phase("round_end")}
    assert new_game().rules.phases == {}
    set_table(game, ["B"])
    play(game, "1B1")                     # the round's last draft: tiling, then the phase
    assert (game.phase, game.stage, game.to_move) == (CHOOSE, "round_end", 0)
    assert game.players[0].score == 1     # the wall tiling came first
    play(game, "+keep +keep")
    assert game.phase == "deal" and game.stage is None

    class Wrong(RoundEndKeep):
        @hookimpl
        def azul_declare_phases(self):
            return [Phase("lunch")]

    with pytest.raises(PluginError, match="expected a Phase of a stage among round_start, after_turn"):
        new_game(plugins=[Wrong()])

    class AtOnce:
        @hookimpl
        def azul_declare_phases(self):
            return [Phase("round_end", at_once=True)]

    with pytest.raises(PluginError, match="another plugin declares the round_end phase otherwise"):
        new_game(plugins=[RoundEndKeep(), AtOnce()])

    class Unprintable(RoundEndKeep):
        @hookimpl
        def azul_declare_phases(self):
            return [Phase("round_end", words="Buy\x1b[2J")]

    with pytest.raises(PluginError, match="a phase's words are printable text of at most 120 characters"):
        new_game(plugins=[Unprintable()])

    class NoMoves:
        @hookimpl
        def azul_declare_phases(self):
            return [Phase("round_start")]

    with pytest.raises(PluginError, match="declares phases but no plugin offers moves"):
        new_game(plugins=[NoMoves()])


def test_hook_azul_initial_memory():
    game = new_game(players=3, plugins=[PassOnce()])
    assert game.memory == {"PassOnce": (False, False, False)}
    assert new_game().memory == {}

    class Unplain:
        @hookimpl
        def azul_initial_memory(self):
            return [1, 2]  # a list can be changed in place: refused

    with pytest.raises(PluginError, match="a list is not a plain immutable value"):
        new_game(plugins=[Unplain()])


def test_hook_azul_deal_secrets():
    class Goal:
        @hookimpl
        def azul_deal_secrets(self, players, rng):
            return [rng.randrange(5) for _ in range(players)]

    game = new_game(plugins=[Goal()])
    game.deal(random.Random(3))
    expected = random.Random(3)
    assert game.secrets == {"Goal": (expected.randrange(5), expected.randrange(5))}
    hidden = game.for_seat(1).secrets["Goal"]
    assert hidden == (None, game.secrets["Goal"][1])
    assert game.for_seat(None).secrets["Goal"] == (None, None)

    class OneShort:
        @hookimpl
        def azul_deal_secrets(self):
            return [0]

    with pytest.raises(PluginError, match="expected one secret per seat"):
        new_game(plugins=[OneShort()]).deal(random.Random(0))


def test_hook_azul_offer_moves():
    game = new_game(plugins=[PassOnce()])
    set_table(game, ["BYRR"], centre="K")
    assert Move("pass") in game.legal_decisions()
    play(game, ["+pass"])                        # seat 0 passes: seat 1 to move
    assert game.to_move == 1 and game.memory["PassOnce"] == (True, False)
    play(game, ["1B1"])
    assert Move("pass") not in game.legal_decisions()   # seat 0 passed this round
    with pytest.raises(IllegalDecision, match=r"\+pass is not on offer now"):
        game.apply(Move("pass"))
    # Without the plugin the move is unknown.
    plain_game = new_game()
    set_table(plain_game, ["BYRR"])
    with pytest.raises(IllegalDecision, match=r"\+pass is not a move of this variant"):
        plain_game.apply(Move("pass"))


def test_an_exclusive_move_comes_before_the_drafts_and_may_keep_the_turn():
    class ChooseFirst:
        """Each round, every seat first says 'ready' (a choice before drafting)."""

        READY = Move("ready", label="Ready", exclusive=True)

        @hookimpl
        def azul_declare_moves(self):
            return [self.READY]

        @hookimpl
        def azul_round_start(self, game):
            return (False,) * game.players

        @hookimpl
        def azul_offer_moves(self, stage, seat, memory):
            return [Move("ready")] if stage == "turn" and not memory[seat] else None  # undeclared flag

        @hookimpl
        def azul_apply_move(self, seat, memory):
            return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:], ends_turn=False)

    game = new_game(plugins=[ChooseFirst()])
    set_table(game, ["BYRR", "KKWW"])
    assert game.legal_decisions() == [ChooseFirst.READY]      # exclusive as declared
    with pytest.raises(IllegalDecision, match=r"choose first: Ready \(\+ready\)"):
        play(game, ["1B1"])
    play(game, ["+ready"])
    assert game.to_move == 0 and (1, 0, 0) in game.legal_decisions()   # same seat, now drafts
    play(game, ["1B1"])
    assert game.legal_decisions() == [ChooseFirst.READY] and game.to_move == 1


def test_hook_azul_apply_move():
    class PaidPass(PassOnce):
        @hookimpl
        def azul_apply_move(self, seat, memory):
            return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:], points=-2)

    game = new_game(plugins=[PaidPass()])
    game.players[0].score = 5
    set_table(game, ["BYRR"])
    play(game, ["+pass"])
    assert scores(game) == [3, 0] and game.to_move == 1

    class BadShift(PassOnce):
        @hookimpl
        def azul_apply_move(self):
            return Outcome(shift=(0, 1, 1))  # line 1 is empty: nothing to move

    game = new_game(plugins=[BadShift()])
    set_table(game, ["BYRR"])
    before = game.clone()
    with pytest.raises(PluginError, match="pattern line 1 of seat 0 is empty"):
        game.apply(Move("pass"))
    assert game.memory == before.memory and game.to_move == 0   # nothing changed


class Lucky:
    """Instead of drafting, a seat may draw a tile from the bag onto its floor; a red one is
    worth 3 points, and the plugin remembers the last colour drawn."""

    DRAW_ONE = Move("lucky", label="Draw a tile")

    @hookimpl
    def azul_declare_moves(self):
        return [self.DRAW_ONE]

    @hookimpl
    def azul_offer_moves(self, stage):
        return [self.DRAW_ONE] if stage == "turn" else None

    @hookimpl
    def azul_apply_move(self, seat):
        return Outcome(draws=(Draw(floor(seat)),))

    @hookimpl
    def azul_tiles_drawn(self, drawn, target, seat):
        colour = drawn.index(1)
        return Outcome(memory=colour, points=3 if colour == RED else 0) if target == floor(seat) else None


def test_hook_azul_tiles_drawn():
    game = new_game(plugins=[Lucky()])
    set_table(game, ["BYRR"])
    game.bag = [RED] * 20
    play(game, ["+lucky"])
    assert game.phase == DRAW and game.to_move == 0       # the draw comes before the turn passes
    play(game, ["~R"])                                   # laid as a record gives it
    assert list(game.memory.values()) == [RED]           # the plugin learnt what was drawn
    assert (scores(game), floor_of(game, 0), game.to_move) == ([3, 0], "R", 1)
    # Drawn at random from the seeded generator, it is still a red: the bag holds only red.
    play(game, ["+lucky"])
    drawn = game.draw(random.Random(3))
    assert drawn.notation == "~R" and scores(game) == [3, 3] and game.to_move == 0

    class DrawsAgain(Lucky):
        @hookimpl
        def azul_tiles_drawn(self, seat):
            return Outcome(draws=(Draw(floor(seat)),))

    game = new_game(plugins=[DrawsAgain()])
    set_table(game, ["BYRR"])
    play(game, ["+lucky"])
    before = snapshot(game)
    with pytest.raises(PluginError, match="azul_tiles_drawn may not draw again"):
        game.draw(random.Random(1))
    assert snapshot(game) == before                      # nothing changed


class Gift:
    """A draft from factory 1 onto a line may move one of its tiles to the floor."""

    KEEP, DROP = Move("keep"), Move("drop")

    @hookimpl
    def azul_declare_moves(self):
        return [self.KEEP, self.DROP]

    @hookimpl
    def azul_after_draft(self, source, line):
        return (line,) if source == 1 and line != 5 else ()

    @hookimpl
    def azul_offer_moves(self, stage, memory):
        return [self.KEEP, self.DROP] if stage == "after_draft" and memory else None

    @hookimpl
    def azul_apply_move(self, move, memory):
        return Outcome(memory=(), shift=(memory[0], 5, 1) if move == self.DROP else None)


def test_hook_azul_after_draft():
    game = new_game(plugins=[Gift()])
    set_table(game, ["RRBY", "KKWW"])
    play(game, ["1R3"])
    assert game.phase == CHOOSE and game.to_move == 0 and game.memory["Gift"] == (2,)
    assert game.legal_decisions() == [Gift.KEEP, Gift.DROP]
    with pytest.raises(IllegalDecision, match="first"):
        play(game, ["2K1"])                      # the turn has not passed yet
    play(game, ["+drop"])
    assert lines_of(game, 0) == {3: "R"} and floor_of(game, 0) == "R"
    assert game.phase == DRAFT and game.to_move == 1 and game.memory["Gift"] == ()
    play(game, ["2K1"])                          # not factory 1: no gift
    assert game.to_move == 0 and game.phase == DRAFT


def test_hook_azul_round_start():
    game = new_game(plugins=[PassOnce()])
    set_table(game, ["BYRR"])
    play(game, ["+pass", "+pass"])
    assert game.memory["PassOnce"] == (True, True)
    run_round(game, seed=1)
    game.deal(random.Random(1))                  # round 2 starts: passes forgotten
    assert game.round == 2 and game.memory["PassOnce"] == (False, False)


def test_hook_azul_describe():
    from azul_core.players.plugin_words import plugin_words

    class TellingPass(PassOnce):
        @hookimpl
        def azul_describe(self, kind, value, seat, you):
            if kind != "memory" or seat is None:
                return None
            if you:
                return "You have passed this round" if value[seat] else "You may still pass this round"
            return "has passed this round" if value[seat] else "may still pass this round"

    class Goal:
        @hookimpl
        def azul_deal_secrets(self, players):
            return [BLACK, RED][:players]

        @hookimpl
        def azul_describe(self, kind, value, you):
            return f"Your goal: colour {value}" if you else f"had the goal colour {value}"

    names = ["Ann", "Bob"]
    game = new_game(plugins=[TellingPass(), Goal()])
    game.deal(random.Random(1))
    play(game, ["+pass"])
    told = plugin_words(game.for_seat(1))
    # Bob reads his own goal, never Ann's, and each seat's pass in words.
    assert [t.text(names, 1) for t in told] == [
        "Your goal: colour 2", "Ann has passed this round", "You may still pass this round"]
    assert [t.text(names, 0) for t in plugin_words(game.for_seat(0))] == [
        "Your goal: colour 3", "You have passed this round", "Bob may still pass this round"]
    assert [t.text(names, None) for t in plugin_words(game.for_seat(None))] == [
        "Ann has passed this round", "Bob may still pass this round"]
    # A plugin that says nothing is told plainly: in words, not as a repr.
    plain = new_game(plugins=[PassOnce()])
    assert [t.text(names, 0) for t in plugin_words(plain)] == ["PassOnce remembers: no, no"]

    class Mumbles(PassOnce):
        @hookimpl
        def azul_describe(self):
            return 42

    with pytest.raises(PluginError, match="Mumbles.*azul_describe.*printable text"):
        plugin_words(new_game(plugins=[Mumbles()]))


def test_situation_hooks_read_memory_and_the_seats_own_secret():
    class GoalBonus:
        @hookimpl
        def azul_deal_secrets(self, players):
            return [f"goal of {seat}" for seat in range(players)]

        @hookimpl
        def azul_end_bonuses(self, seat, secret, memory):
            return [("goal", 1)] if secret == f"goal of {seat}" and memory is None else [("wrong", 0)]

    game = play_out(new_game(plugins=[GoalBonus()]), seed=4)
    standard = play_out(new_game(), seed=4)
    assert all(("goal", 1) in board.bonuses for board in game.players)
    assert game.scores() == [score + 1 for score in standard.scores()]



class WildTiles:
    """Six wild tiles (letter J, kind 5); a draft takes one along; they stand in on lines."""

    @hookimpl
    def azul_game_setup(self, answer):
        return dataclasses.replace(answer, extra_tiles=(ExtraTile("J", "wild", 6),))

    @hookimpl
    def azul_draft_takes(self, tiles, colour):
        takes = [count if kind == colour else 0 for kind, count in enumerate(tiles)]
        takes[5] = min(tiles[5], 1)
        return takes

    @hookimpl
    def azul_stands_in(self, kind):
        return kind == 5


def test_hook_azul_draft_takes():
    class NoStandIns(WildTiles):
        azul_stands_in = None

    game = new_game(plugins=[NoStandIns()])
    assert game.table.kind_letters == "BYRKWJ" and game.tile_counts() == [20] * 5 + [6]
    set_table(game, ["RRJJ", "BYKW"])
    play(game, ["1R3"])                          # two red and one wild; the other wild to the centre
    assert lines_of(game, 0) == {3: "RR"} and floor_of(game, 0) == "J"
    assert table_of(game)["centre"] == "J"
    class OnlyTiles:
        azul_game_setup = WildTiles.azul_game_setup

    standard = new_game(plugins=[OnlyTiles()])
    set_table(standard, ["RRJJ", "BYKW"])
    play(standard, ["1R3"])                      # no azul_draft_takes: only the colour
    assert lines_of(standard, 0) == {3: "RR"} and floor_of(standard, 0) == ""
    assert table_of(standard)["centre"] == "JJ"

    class Greedy(WildTiles):
        @hookimpl
        def azul_draft_takes(self, tiles):
            return list(tiles)                     # every tile of the source

        azul_stands_in = None

    game = new_game(plugins=[Greedy()])
    set_table(game, ["RRJJ", "BYKW"])
    play(game, ["1R3"])                          # every tile of the factory: two wild to the floor
    assert floor_of(game, 0) == "JJ" and game.tile_counts() == [20] * 5 + [6]

    class Short(WildTiles):
        @hookimpl
        def azul_draft_takes(self, tiles, colour):
            return [0] * len(tiles)

    game = new_game(plugins=[Short()])
    set_table(game, ["RRJJ"])
    with pytest.raises(PluginError, match="a draft takes every tile of its colour"):
        play(game, ["1R3"])
    assert table_of(game)["factories"][0] == "RRJJ"   # nothing changed


@pytest.mark.parametrize("extra, why", [
    (ExtraTile("B", "wild", 5), "letter 'B'"),
    (ExtraTile("J", "red", 5), "name 'red' is a colour's"),
    (ExtraTile("J", "marker", 5), "the marker's"),
    (ExtraTile("J", "wild", 5, look="gold"), "look 'gold'"),
    (ExtraTile("J", "wild", 10_001), "out of range"),
])
def test_extra_tiles_are_checked_when_the_table_is_laid(extra, why):
    class Odd:
        @hookimpl
        def azul_game_setup(self, answer):
            return dataclasses.replace(answer, extra_tiles=(extra,))

    with pytest.raises(PluginError, match=why):
        new_game(plugins=[Odd()])


def test_hook_azul_stands_in():
    game = new_game(plugins=[WildTiles()])
    set_table(game, ["RRJJ", "RJBB", "KKYW"])
    play(game, ["1R3"])                          # RR + one wild standing in: line 3 is full
    assert lines_of(game, 0) == {3: "RRJ"} and floor_of(game, 0) == ""
    play(game, ["2R1"])                          # seat 1: R + J onto line 1, room for one
    assert lines_of(game, 1) == {1: "R"} and floor_of(game, 1) == "J"
    run_round(game, seed=3)
    # Tiled: the wall took a red tile; the wild tile went to the lid with the line's other red.
    assert game.players[0].wall[2].count(2) == 1
    assert game.tile_counts() == [20] * 5 + [6]


def test_every_hook_has_its_own_test():
    tests = set(vars(sys.modules[__name__]))
    missing = [hook.name for hook in hookdoc.hook_docs() if f"test_hook_{hook.name}" not in tests]
    assert not missing, f"hooks without a test_hook_<name> in tests/test_hooks.py: {missing}"


def test_the_reference_finds_every_hook():
    specs = [name for name in vars(hookspecs) if name.startswith("azul_")]
    assert [hook.name for hook in hookdoc.hook_docs()] == specs


def test_every_hook_is_documented():
    undocumented = [hook.name for hook in hookdoc.hook_docs() if not hook.doc]
    assert not undocumented, f"hooks without a docstring in azul_core/hookspecs.py: {undocumented}"


def test_every_hook_shows_an_example():
    without = [hook.name for hook in hookdoc.hook_docs() if "Example" not in hook.doc]
    assert not without, f"hooks without an example in their docstring: {without}"


def test_plugin_docs_match_the_hook_specifications():
    text = DOCS.read_text(encoding="utf-8")
    assert hookdoc.replace_reference(text) == text, \
        "docs/plugins.md is out of date: run python -m azul_core.hookdoc docs/plugins.md"


def test_the_reference_shows_signature_and_answer_rule():
    reference = hookdoc.render_reference()
    assert ("def azul_floor_penalty(floor: Sequence[int], seat: int, game: GameView, memory: Any, secret: Any, "
            "settings: Settings, answer: int | None) -> int: ...") in reference
    section = reference.split("#### `azul_end_bonuses`")[1].split("####")[0]
    assert "Every plugin is asked and every answer is used" in section


def test_the_reference_updates_a_stale_file(tmp_path):
    stale = tmp_path / "plugins.md"
    stale.write_text(f"# Intro\n\n{hookdoc.BEGIN}\nold text\n{hookdoc.END}\n\nOutro\n", encoding="utf-8")
    assert hookdoc.main(["--check", str(stale)]) == 1
    assert hookdoc.main([str(stale)]) == 0
    updated = stale.read_text(encoding="utf-8")
    assert "old text" not in updated and updated.startswith("# Intro") and updated.endswith("Outro\n")
    assert hookdoc.main(["--check", str(stale)]) == 0
