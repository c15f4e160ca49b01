"""Invariants of standard.md checked over random games of every built-in variant.

Each example plays a whole game with seeded random bots and checks, after every
deal and every decision: all tiles are accounted for, no score is negative,
a clone given the same step ends up in the same state, and the game ends.
Hypothesis is derandomized so the suite is the same on every run.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from azul_core.engine.compiled import fields_of
from azul_core.engine.state import DEAL, OVER, GameState
from azul_core.players.bots import RandomBot
from azul_core.testing import new_game
from azul_core.variants.loading import builtin_variants

#: The shipped variants these invariants hold for (each is checked only if it is installed).
VARIANTS = ["standard"] + [name for name in ("grey-wall", "duel") if name in builtin_variants()]

#: Far above any real game (about 70 drafts and 7 rounds for two players), so a game
#: that loops is caught rather than left to run.
MAX_STEPS = 3000

EXAMPLES = settings(max_examples=50, deadline=None, derandomize=True)

#: Every house rule in examples/ (moves, memory, secrets, line sizes, discards included):
#: the same invariants hold for them, with fewer games each.
HOUSE_RULES = sorted(str(path) for path in
                     (Path(__file__).resolve().parent.parent / "examples").glob("*/*.yaml")
                     if path.parent.name != "plugin-package")  # needs a pip install first
HOUSE_RULE_EXAMPLES = settings(max_examples=12, deadline=None, derandomize=True)


def snapshot(game: GameState) -> tuple:
    """Every field of the game and its boards (the rules and table are shared, not compared)."""
    def fields(obj, skip=()):
        return tuple(repr(getattr(obj, name)) for name in fields_of(type(obj)) if name not in skip)
    return fields(game, skip=("rules", "table", "players")) + tuple(fields(b) for b in game.players)


def play_checked(variant: str, players: int, seed: int, check) -> GameState:
    """Play one game with seeded random bots, calling ``check(game, step)`` before each step.

    A step is a function that takes the next deal or decision on any copy of the game, so a
    check can give a clone the very same step.
    """
    game = new_game(variant, players=players, first_player=seed % players)
    bots = [RandomBot(seed=seed * 10 + seat) for seat in range(players)]
    for _ in range(MAX_STEPS):
        if game.phase == OVER:
            return game
        if game.phase == DEAL:
            deal_seed = random.Random(seed + game.round).random()
            step = lambda g, s=deal_seed: g.deal(random.Random(s))  # noqa: E731
        else:
            step = lambda g, d=bots[game.to_move].choose(game): g.apply(d)  # noqa: E731
        check(game, step)
        step(game)
    raise AssertionError(f"the game did not end within {MAX_STEPS} steps (seed {seed})")


def allowed_players(variant: str) -> tuple:
    return new_game(variant).rules.players


@pytest.mark.parametrize("variant", VARIANTS)
@EXAMPLES
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_every_tile_is_always_somewhere_and_no_score_goes_below_zero(variant, seed, players):
    assume(players in allowed_players(variant))
    per_colour = new_game(variant, players=players).table.tiles_per_colour

    def check(game, _step):
        assert game.tile_counts() == [per_colour] * 5
        assert min(game.scores()) >= 0

    game = play_checked(variant, players, seed, check)
    check(game, None)


@pytest.mark.parametrize("variant", VARIANTS)
@EXAMPLES
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_every_game_ends_with_winners_within_a_bounded_number_of_steps(variant, seed, players):
    assume(players in allowed_players(variant))
    game = play_checked(variant, players, seed, lambda game, step: None)
    assert game.phase == OVER
    # standard.md (and the other variants alike): the highest score wins; tied, the player
    # with more complete rows; still tied, they share the victory
    scores = game.scores()
    tied = [seat for seat in range(players) if scores[seat] == max(scores)]
    rows = {seat: sum(None not in row for row in game.players[seat].wall) for seat in tied}
    assert game.winners == [seat for seat in tied if rows[seat] == max(rows.values())]


@pytest.mark.parametrize("variant", VARIANTS)
@EXAMPLES
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_a_clone_given_the_same_step_ends_up_in_the_same_state(variant, seed, players):
    assume(players in allowed_players(variant))

    def check(game, step):
        twin = game.clone()
        before = snapshot(game)
        step(twin)
        assert snapshot(game) == before           # stepping the clone leaves the original alone
        expected = game.clone()
        step(expected)
        assert snapshot(twin) == snapshot(expected)

    play_checked(variant, players, seed, check)


def _conserves_tiles(variant: str, seed: int, players: int) -> None:
    assume(players in allowed_players(variant))
    kind_counts = list(new_game(variant, players=players).table.kind_counts)  # extra tiles too

    def check(game, step):
        assert game.tile_counts() == kind_counts
        assert min(game.scores()) >= 0
        twin = game.clone()
        before = snapshot(game)
        step(twin)
        assert snapshot(game) == before
        expected = game.clone()
        step(expected)
        assert snapshot(twin) == snapshot(expected)

    game = play_checked(variant, players, seed, check)
    assert game.tile_counts() == kind_counts and game.phase == OVER


@pytest.mark.parametrize("variant", HOUSE_RULES, ids=lambda path: Path(path).stem)
@HOUSE_RULE_EXAMPLES
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_house_rules_keep_every_tile_and_clone_cleanly_at_every_step(variant, seed, players):
    _conserves_tiles(variant, seed, players)
