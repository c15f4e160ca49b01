"""The bots: greedy's judgement, the search bot, bot lookup; every bot plays every variant."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from azul_core.colours import BLUE, COLOUR_OF_LETTER, RED, YELLOW
from azul_core.engine.state import DEAL, FLOOR, PLACE, GameState
from azul_core.players import registry as bots_module
from azul_core.players.bots import GreedyBot, RandomBot, board_value, draft_gains, tried_gains
from azul_core.players.registry import available_bots, broken_bots, make_bot
from azul_core.players.search import MctsBot, quick_gains
from azul_core.testing import set_lines
from azul_core.variants.loading import load_variant

VARIANTS = ("standard", "grey-wall", "duel")


@pytest.fixture(scope="module")
def variants():
    return {name: load_variant(name) for name in VARIANTS}


def counts(letters: str) -> list[int]:
    found = [0] * 5
    for letter in letters:
        found[COLOUR_OF_LETTER[letter]] += 1
    return found


def dealt(variant, factories: list[str], players: int = 2) -> GameState:
    state = GameState(variant.rules, players)
    state.deal_tiles([counts(f) for f in factories])
    return state


def rightful_winners(state: GameState) -> list[int]:
    """standard.md: the highest score wins; tied, the one with more complete rows; then shared."""
    scores = state.scores()
    tied = [seat for seat, score in enumerate(scores) if score == max(scores)]
    rows = {seat: sum(None not in row for row in state.players[seat].wall) for seat in tied}
    return [seat for seat in tied if rows[seat] == max(rows.values())]


def play_out(state: GameState, seats, deal_seed: int = 0) -> GameState:
    """Play to the end; every decision a bot takes must be legal (apply raises otherwise)."""
    deal = random.Random(deal_seed)
    while not state.over:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        decision = seats[state.to_move].choose(state)
        if state.phase == PLACE:
            assert decision in state.legal_decisions()
        state.apply(decision)
        assert state.tile_counts() == [state.table.tiles_per_colour] * 5
    return state


# ------------------------------------------------------------------ greedy


def test_greedy_gains_count_the_line_worth_and_the_floor(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    gains = dict((d, g) for g, d in GreedyBot(seed=1, whole_game=False).scored_decisions(state))
    assert gains[(1, BLUE, 3)] == 1            # line 4 full: one point on an empty wall
    assert gains[(1, BLUE, 0)] == 1 - 4        # line 1 full, three tiles on the floor: -1 -1 -2
    assert gains[(1, BLUE, FLOOR)] == -6       # four tiles straight to the floor
    assert gains[(1, BLUE, 4)] == pytest.approx(4 / 5)   # four fifths of line 5's point
    assert gains[(2, YELLOW, 1)] == 1          # line 2 full


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HOUSE_RULES = ("family-floor/family-floor.yaml", "free-marker/free-marker.yaml",
               "diagonals/diagonals.yaml", "five-rounds/five-rounds.yaml")


@pytest.mark.parametrize("name", VARIANTS + HOUSE_RULES)
def test_greedy_draft_gains_equal_the_gains_of_applying_each_draft(name):
    """Greedy works a draft's gain out without building the state it leads to: in every
    variant, house rules included, it must be the gain measured after ``apply``."""
    variant = load_variant(str(EXAMPLES / name) if "/" in name else name)
    checked = 0
    for players in variant.rules.players:
        rng = random.Random(players)
        seats = [GreedyBot(seed=seat) for seat in range(players)]
        state = GameState(variant.rules, players)
        while not state.over:
            if state.phase == DEAL:
                state.deal(rng)
                continue
            decisions = state.legal_decisions()
            if state.phase != PLACE:
                fast = draft_gains(state, decisions)
                slow = [gain for gain, _decision in tried_gains(state, decisions)]
                if fast is not None:
                    assert fast == pytest.approx(slow, abs=1e-9), state.round
                    checked += len(decisions)
            # Mix greedy and random moves: greedy alone rarely overflows a line or the floor.
            bot = seats[state.to_move]
            state.apply(bot.choose(state) if rng.random() < 0.6 else state.random_decision(rng.random))
    assert checked > 300


def test_greedy_plays_the_games_it_played_by_applying_each_draft(variants, monkeypatch):
    """The same choices as trying every draft on a clone: the same games for the same seed."""
    from azul_core.lab.simulate import simulate
    from azul_core.players import bots
    fast = {name: simulate(variants[name], 2, 6, seed=4, bots="greedy").results for name in VARIANTS}
    monkeypatch.setattr(bots, "draft_gains", lambda state, decisions, whole_game=True: None)
    for name in VARIANTS:
        slow = simulate(variants[name], 2, 6, seed=4, bots="greedy").results
        assert [r.to_json() for r in fast[name]] == [r.to_json() for r in slow]


def test_greedy_takes_a_best_gain_and_breaks_ties_by_its_seed(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    scored = GreedyBot(seed=0, whole_game=False).scored_decisions(state)
    best = max(g for g, _ in scored)
    top = {d for g, d in scored if g == best}
    assert len(top) > 1
    choices = {GreedyBot(seed=seed, whole_game=False).choose(state) for seed in range(30)}
    assert choices <= top and len(choices) > 1
    assert GreedyBot(seed=5, whole_game=False).choose(state) == GreedyBot(seed=5, whole_game=False).choose(state)


def test_greedy_avoids_the_floor_when_a_line_takes_the_tiles(variants):
    # Line 1 holds a red tile (full, waiting for the tiling): red can't go there. Four reds
    # overflow lines 2 and 3 but fit line 4 (full: 1 point) and line 5; factory 5's three reds
    # fit line 3 (full) and its yellow any line from 2 to 5.
    state = GameState(variants["standard"].rules, 2)
    set_lines(state, 0, {1: "R"})
    state.deal_tiles([counts(f) for f in ["RRRR", "RRRR", "RRRR", "RRRR", "RRRY"]])
    assert (1, RED, 0) not in state.legal_decisions()
    chosen = {GreedyBot(seed=seed).choose(state) for seed in range(20)}
    for source, colour, line in chosen:
        assert line != FLOOR
        taken = state.sources[source][colour]
        assert taken <= line + 1, (source, colour, line)   # nothing overflows to the floor


def test_board_value_is_the_score_less_the_floor_plus_the_lines(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    state.apply((1, BLUE, 0))  # line 1 full, 3 blue on the floor
    board = state.players[0]
    assert board_value(state.rules, board) == 0 - 4 + 1


def test_greedy_placements_on_the_grey_wall_score_the_most_for_a_last_line(variants):
    """Judged by the round alone; the whole-game greedy may give up a point for a column
    (tests/test_bots_grey_wall.py)."""
    state = GameState(variants["grey-wall"].rules, 2)
    bot = GreedyBot(seed=2, whole_game=False)
    deal = random.Random(4)
    checked = 0
    from azul_core.players.render import placement_points
    while not state.over and checked < 20:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        if state.phase == PLACE and len(state.legal_decisions()) > 1 and len(state.pending) == 1:
            points = {d: placement_points(state, d) for d in state.legal_decisions()}
            assert points[bot.choose(state)] == max(points.values())
            checked += 1
        state.apply(bot.choose(state))
    assert checked > 0


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_greedy_beats_random(variants, variant_name):
    wins = 0
    for game in range(6):
        greedy, rand = GreedyBot(seed=game), RandomBot(seed=game)
        seats = [greedy, rand] if game % 2 == 0 else [rand, greedy]
        state = play_out(GameState(variants[variant_name].rules, 2), seats, deal_seed=game)
        wins += (game % 2) in state.winners
    assert wins == 6


# ------------------------------------------------------------------ the search bot


def test_quick_gains_match_greedy_on_a_fresh_round(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    quick = dict((d, g) for g, d in quick_gains(state))
    slow = dict((d, g) for g, d in GreedyBot(seed=0).scored_decisions(state))
    assert quick.keys() == slow.keys()
    for decision in quick:
        assert quick[decision] == pytest.approx(slow[decision]), decision


def test_mcts_with_iterations_is_deterministic_for_a_seed(variants):
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    first = MctsBot(seed=9, iterations=150).choose(state)
    assert first == MctsBot(seed=9, iterations=150).choose(state)
    assert first in state.legal_decisions()


def test_mcts_takes_the_lone_decision_without_searching():
    lone = SimpleNamespace(legal_decisions=lambda: [(2, 3)])
    bot = MctsBot(seed=1, iterations=50)
    assert bot.choose(lone) == (2, 3)
    assert bot.last_iterations == 0


def test_mcts_with_a_time_budget_stops_when_the_budget_is_spent(variants):
    """A clock that advances 0.25 s per search iteration: a 1 s budget allows exactly 4.
    (The bot's own clock and a subclass: the compiled engine's module and objects can't be
    patched.)"""
    state = dealt(variants["standard"], ["BBBB", "YYRR", "KKWW", "BYRK", "WWWB"])
    clock = SimpleNamespace(now=0.0)

    class QuarterSecondIterations(MctsBot):
        def _iterate(self, root):
            assert clock.now < 10, "the search overran its budget"
            super()._iterate(root)
            clock.now += 0.25

    bot = QuarterSecondIterations(seed=1, think=1.0, clock=lambda: clock.now)
    assert bot.choose(state) in state.legal_decisions()
    assert bot.last_iterations == 4 and clock.now == 1.0
    bot.think = 0.1                     # a budget shorter than one iteration: still one
    clock.now = 0.0
    bot.choose(state)
    assert bot.last_iterations == 1


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_mcts_plays_every_variant_to_the_end(variants, variant_name):
    seats = [MctsBot(seed=1, iterations=25), GreedyBot(seed=2)]
    state = play_out(GameState(variants[variant_name].rules, 2), seats, deal_seed=7)
    assert state.over and state.winners == rightful_winners(state)


def test_mcts_plays_three_and_four_players(variants):
    for players in (3, 4):
        seats = [MctsBot(seed=seat, iterations=10) for seat in range(players)]
        state = play_out(GameState(variants["grey-wall"].rules, players), seats, deal_seed=players)
        assert state.over and len(state.players) == players
        assert state.winners == rightful_winners(state)


def test_mcts_beats_greedy_in_fixed_games(variants):
    wins = 0.0
    for game in range(4):
        mcts, greedy = MctsBot(seed=game, iterations=200), GreedyBot(seed=game)
        seats = [mcts, greedy] if game % 2 == 0 else [greedy, mcts]
        state = play_out(GameState(variants["standard"].rules, 2), seats, deal_seed=100 + game)
        if game % 2 in state.winners:
            wins += 1 / len(state.winners)
    assert wins >= 3


# ------------------------------------------------------------------ finding bots


def test_builtin_bots_are_available_and_made_by_name(variants):
    names = available_bots(variants["standard"].rules)
    assert {"random", "greedy", "mcts"} <= set(names)
    assert isinstance(make_bot("greedy", seed=1), GreedyBot)
    assert isinstance(make_bot("mcts", seed=1, think=0.01), MctsBot)
    with pytest.raises(KeyError, match="unknown bot 'nobody'.*greedy"):
        make_bot("nobody")


class _EntryPoint:
    def __init__(self, name, target=None, error=None):
        self.name, self.target, self.error = name, target, error

    def load(self):
        if self.error:
            raise self.error
        return self.target


def test_bots_installed_under_the_entry_point_group_are_found(monkeypatch):
    class Lazy(RandomBot):
        name = "lazy"

    def entry_points(group):
        assert group == "azul.bots"
        return [_EntryPoint("lazy", Lazy), _EntryPoint("broken", error=ImportError("no module x"))]

    monkeypatch.setattr(bots_module.metadata, "entry_points", entry_points)
    found = available_bots()
    assert found["lazy"] is Lazy and "broken" not in found
    assert broken_bots() == {"broken": "ImportError: no module x"}
    assert isinstance(make_bot("lazy", seed=1), Lazy)


def test_bots_registered_by_a_plugin_hook_are_found(tmp_path):
    (tmp_path / "house_bots.py").write_text(textwrap.dedent("""
        from azul_core.players.bots import RandomBot

        class Stubborn(RandomBot):
            name = "stubborn"

        def azul_register_bots():
            return {"stubborn": Stubborn}
    """))
    (tmp_path / "house.yaml").write_text(
        "name: house\nextends: standard\nplugins: [standard, colour_wall, house_bots.py]\n")
    rules = load_variant(str(tmp_path / "house.yaml")).rules
    assert "stubborn" in available_bots(rules)
    bot = make_bot("stubborn", rules, seed=3)
    assert type(bot).__name__ == "Stubborn"


def test_seat_rewards_are_exact_at_the_end():
    from azul_core.players.search import seat_rewards
    over = SimpleNamespace(num_players=2, phase="over", winners=[1])
    assert seat_rewards(over, 6.0) == [0.0, 1.0]
    shared = SimpleNamespace(num_players=2, phase="over", winners=[0, 1])
    assert seat_rewards(shared, 6.0) == [0.5, 0.5]
