"""Bots that play for the whole game (issue 22): a house rule's end bonus changes what they do,
the search looks past the round's end and stays deterministic at a playout budget."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from compiled_build import patches_internals_of

from azul_core.colours import BLACK, BLUE, YELLOW
from azul_core.engine.state import DEAL, OVER, PLACE, GameState
from azul_core.players.bots import GreedyBot, position_value, tried_gains
from azul_core.players.evaluation import for_rules
from azul_core.players.search import MctsBot
from azul_core.testing import new_game, set_lines, set_table, set_wall
from azul_core.variants.loading import load_variant

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DOUBLE_COLUMNS = EXAMPLES / "double-columns" / "double-columns.yaml"


def column_or_colour(variant) -> GameState:
    """The game's last round (seat 1 completes wall row 1 at its end). Seat 0 can finish its
    first column with one yellow on line 5 (5 points, and the column's bonus), or its black
    set with one black on line 4 (3 points, and the colour's 10): the standard game pays
    more for the black, the doubled column bonus more for the yellow."""
    game = new_game(variant)
    set_wall(game, 0, ["B..K.", "W...K", "K....", "R.W..", "..K.."])
    set_wall(game, 1, ["BYRK.", ".....", ".....", ".....", "....."])
    set_lines(game, 0, {4: "KKK", 5: "YYYY"})
    set_lines(game, 1, {1: "W"})
    set_table(game, ["YRRR", "KBBB"])
    return game


YELLOW_TO_LINE_5 = (1, YELLOW, 4)
BLACK_TO_LINE_4 = (2, BLACK, 3)


def test_greedy_goes_for_the_column_when_a_house_rule_doubles_its_bonus():
    standard = column_or_colour("standard")
    doubled = column_or_colour(DOUBLE_COLUMNS)
    for seed in range(5):
        assert GreedyBot(seed=seed).choose(standard) == BLACK_TO_LINE_4
        assert GreedyBot(seed=seed).choose(doubled) == YELLOW_TO_LINE_5


def test_without_the_whole_game_greedy_does_not_see_the_house_rule():
    """The choice above comes from the end bonuses: judged by the round alone, both
    variants look the same and the bot takes the same draft."""
    standard = column_or_colour("standard")
    doubled = column_or_colour(DOUBLE_COLUMNS)
    plain = [GreedyBot(seed=1, whole_game=False).choose(game) for game in (standard, doubled)]
    assert plain[0] == plain[1]


def test_the_doubled_column_is_worth_seven_more_to_the_bot():
    standard = dict((d, g) for g, d in tried_gains(column_or_colour("standard"), [YELLOW_TO_LINE_5]))
    doubled = dict((d, g) for g, d in tried_gains(column_or_colour(DOUBLE_COLUMNS), [YELLOW_TO_LINE_5]))
    # The last tile of a line of five: a fifth of the column's bonus (the four tiles already
    # there count for the rest), 7 / 5 more under the house rule.
    assert doubled[YELLOW_TO_LINE_5] - standard[YELLOW_TO_LINE_5] == pytest.approx(7 / 5)


def test_search_goes_for_the_column_when_a_house_rule_doubles_its_bonus():
    standard = column_or_colour("standard")
    doubled = column_or_colour(DOUBLE_COLUMNS)
    assert MctsBot(seed=3, iterations=400).choose(standard) == BLACK_TO_LINE_4
    assert MctsBot(seed=3, iterations=400).choose(doubled) == YELLOW_TO_LINE_5


def test_the_position_value_counts_the_bonus_when_the_game_ends():
    """Ending the game turns the expected bonus into points: a finished game's value is its
    score, end bonuses included."""
    game = column_or_colour("standard")
    game.apply(BLACK_TO_LINE_4)
    while not game.over:
        game.apply(GreedyBot(seed=2).choose(game))
    assert game.phase == OVER
    board = game.players[0]
    assert ("colours", 10) in board.bonuses
    assert position_value(game, 0) == board.score


def playouts_game(seed: int, beyond: int) -> list:
    state = GameState(load_variant("standard").rules, 2)
    deal = random.Random(seed)
    bots = [MctsBot(seed=f"{seed}:{seat}", iterations=40, beyond=beyond) for seat in range(2)]
    decisions = []
    while not state.over and state.round <= 2:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        decision = bots[state.to_move].choose(state)
        decisions.append(decision)
        state.apply(decision)
    return decisions


def test_search_past_the_round_is_deterministic_at_a_playout_budget():
    assert playouts_game(5, beyond=1) == playouts_game(5, beyond=1)


def test_search_past_the_round_draws_its_deals_from_its_own_seed():
    """Playouts past the round deal the next round at random: a different bot seed may
    choose differently, the game's own deals are untouched."""
    state = GameState(load_variant("standard").rules, 2)
    state.deal(random.Random(1))
    bag = list(state.bag)
    for seed in range(3):
        MctsBot(seed=seed, iterations=60, beyond=1).choose(state)
    assert state.bag == bag and state.phase != DEAL


@pytest.mark.parametrize("variant", ["standard", "grey-wall", "duel", str(DOUBLE_COLUMNS),
                                     str(EXAMPLES / "diagonals" / "diagonals.yaml"),
                                     str(EXAMPLES / "five-rounds" / "five-rounds.yaml")])
def test_greedy_games_end_in_every_variant(variant):
    """Hoping for bonuses never makes a bot put the game's end off for ever."""
    rules = load_variant(variant).rules
    for game in range(4):
        state = GameState(rules, 2)
        deal = random.Random(game)
        bots = [GreedyBot(seed=f"{game}:{seat}") for seat in range(2)]
        while not state.over:
            assert state.round < 30
            if state.phase == DEAL:
                state.deal(deal)
                continue
            state.apply(bots[state.to_move].choose(state))


def grey_wall_placement() -> GameState:
    """A grey-wall game, greedy against itself, at its first wall placement with a choice."""
    state = GameState(load_variant("grey-wall").rules, 2)
    deal = random.Random(7)
    bots = [GreedyBot(seed=seat) for seat in range(2)]
    while True:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        if state.phase == PLACE and len(state.legal_decisions()) > 1:
            return state
        state.apply(bots[state.to_move].choose(state))


def test_within_a_round_a_placement_is_judged_on_the_outlook_of_the_round():
    """The end bonuses expected are worked out once per decision, not per candidate: moving a
    full line's tile to the wall keeps its slot's share, so a grey-wall placement gains its
    points and what it does to the other lines, the same with or without the whole game."""
    state = grey_wall_placement()
    decisions = state.legal_decisions()
    whole = [gain for gain, _d in tried_gains(state, decisions)]
    round_only = [gain for gain, _d in tried_gains(state, decisions, whole_game=False)]
    assert whole == pytest.approx(round_only)


def test_a_tile_tiled_at_once_brings_its_slots_whole_share():
    """Duel tiles a line in the turn that fills it: the draft's gain counts the slot's whole
    share of the bonus expected (the line's tiles held part of it), as worked out on the
    state's own outlook."""
    game = new_game("duel")
    set_wall(game, 0, [".....", ".....", ".....", ".....", "....."])
    set_lines(game, 0, {2: "B"})
    set_table(game, ["BRRY", "KKWW"])
    outlook = for_rules(game.rules).for_state(game)[0]
    draft = (1, BLUE, 1)  # the blue to line 2: full, tiled at once
    whole = dict((d, g) for g, d in tried_gains(game, [draft]))[draft]
    round_only = dict((d, g) for g, d in tried_gains(game, [draft], whole_game=False))[draft]
    assert whole - round_only == pytest.approx(outlook.slot_bonus[1 * 5 + BLUE] / 2)


@patches_internals_of("azul_core.players.search")
def test_the_rounds_past_this_one_count_by_their_weight(monkeypatch):
    """A playout's verdict blends the position at the round's end and the one after the
    next round, by ``beyond_weight``."""
    import azul_core.players.search as search
    verdicts = iter([[0.0, 1.0], [1.0, 0.0]])
    monkeypatch.setattr(search, "seat_rewards", lambda *a: next(verdicts))
    state = GameState(load_variant("standard").rules, 2)
    state.deal(random.Random(4))
    bot = MctsBot(seed=2, iterations=1, beyond=1, beyond_weight=0.25)
    bot.memo = search.Memo(state.rules)
    assert bot._evaluate(state) == pytest.approx([0.25, 0.75])


def phases_whose_outlook_is_worked_out(monkeypatch, variant: str) -> set:
    import azul_core.players.evaluation as evaluation
    asked = set()
    work_out = evaluation.Outlooks._work_out

    def recording(self, state, walls):
        asked.add(state.phase)
        return work_out(self, state, walls)

    monkeypatch.setattr(evaluation.Outlooks, "_work_out", recording)
    state = GameState(load_variant(variant).rules, 2)
    state.deal(random.Random(3))
    MctsBot(seed=1, iterations=40, beyond=1).choose(state)
    return asked


@patches_internals_of("azul_core.players.evaluation")
def test_where_an_outlook_is_asked_of_the_hooks_a_playout_carries_the_one_of_its_sampled_round(monkeypatch):
    """On a grey wall a new wall's groups cost tens of hook calls: the walls after a playout's
    sampled round are valued from the outlooks at that round's start (``after_round``), so no
    outlook is worked out for a position between rounds. A printed wall's outlook is a few
    lookups and is worked out afresh."""
    assert DEAL not in phases_whose_outlook_is_worked_out(monkeypatch, "grey-wall")
    monkeypatch.undo()
    assert DEAL in phases_whose_outlook_is_worked_out(monkeypatch, "standard")


def test_the_seats_reward_uses_the_outlooks_it_is_given():
    from azul_core.players.evaluation import Outlook
    from azul_core.players.search import Memo, seat_rewards
    state = GameState(load_variant("grey-wall").rules, 2)
    state.deal(random.Random(3))
    memo = Memo(state.rules)
    assert seat_rewards(state, 6.0, memo) == pytest.approx([0.5, 0.5])
    hopes = [Outlook(0.0, 30.0, [0.0] * 25), Outlook(0.0, 0.0, [0.0] * 25)]
    first, second = seat_rewards(state, 6.0, memo, hopes)
    assert first > 0.99 and second < 0.01


def judged_states(monkeypatch) -> tuple[list, list]:
    """Record, while a test runs, each state a deal was made on (after the deal) and each
    state ``seat_rewards`` judged with the outlooks it was given (copies)."""
    import azul_core.players.search as search
    dealt, judged = [], []
    deal, seat_rewards = GameState.deal, search.seat_rewards

    def recording_deal(self, rng):
        deal(self, rng)
        dealt.append(self.clone())

    def recording_seat_rewards(state, scale, memo=None, outlooks=None):
        judged.append((state.clone(), outlooks))
        return seat_rewards(state, scale, memo, outlooks)

    monkeypatch.setattr(GameState, "deal", recording_deal)
    monkeypatch.setattr(search, "seat_rewards", recording_seat_rewards)
    return dealt, judged


@patches_internals_of("azul_core.engine.state", "azul_core.players.search")
def test_a_carried_outlook_adds_only_the_slots_placed_since_its_sampled_round_began(monkeypatch):
    """On a grey wall the outlook after a playout's sampled round is the one at that round's
    start plus the bonus of each slot filled during it: not the tiles this round's end
    places (already in the start's outlook), not nothing."""
    from azul_core.players.search import Memo
    state = GameState(load_variant("grey-wall").rules, 2)
    state.deal(random.Random(3))
    for seat in (0, 1):
        set_lines(state, seat, {1: "B"})  # full: a tile reaches each wall at this round's end
    bot = MctsBot(seed=5, iterations=1, beyond=1)
    bot.memo = Memo(state.rules)
    dealt, judged = judged_states(monkeypatch)
    bot._evaluate(state)
    [start], [(end, carried)] = dealt, judged
    at_start = bot.memo.outlooks.for_state(start)
    for seat in (0, 1):
        before, after = start.players[seat].wall, end.players[seat].wall
        assert state.players[seat].wall != before  # this round's end placed a tile
        placed = [row * 5 + colour for row in range(5) for colour in range(5)
                  if colour in after[row] and colour not in before[row]]
        added = sum(at_start[seat].slot_bonus[slot] for slot in placed)
        assert placed and added > 0  # the sampled round placed tiles worth a bonus
        assert carried[seat].expected == pytest.approx(at_start[seat].expected + added)


@patches_internals_of("azul_core.engine.state", "azul_core.players.search")
@pytest.mark.parametrize("beyond", [0, 1])
def test_a_leaf_at_a_rounds_end_is_played_as_many_rounds_further_as_the_bot_plays_past(monkeypatch, beyond):
    from azul_core.players.search import Memo
    from azul_core.testing import run_round
    state = GameState(load_variant("standard").rules, 2)
    run_round(state, seed=4)
    assert state.phase == DEAL and state.round == 2  # the leaf: round 1 over, round 2 not dealt
    bot = MctsBot(seed=2, iterations=1, beyond=beyond)
    bot.memo = Memo(state.rules)
    dealt, judged = judged_states(monkeypatch)
    bot._evaluate(state)
    [(end, _outlooks)] = judged
    assert len(dealt) == beyond
    assert end.round == 2 + beyond and end.phase == DEAL
