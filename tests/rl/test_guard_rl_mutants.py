"""The survivors of the first mutation run of the ``rl`` scope (``bench/mutation.py rl``,
2026-12-06): what the PettingZoo environment tells an agent that calls out of order or steps
out of the mask, word for word; when round rewards are paid and when they are zero; which
agent steps out first when a game ends or is cut; an observation with plugins' memory in
blocks of another size; and the plain mask's other paths (no rules, a wall placement)."""

from __future__ import annotations

import re

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from rl_variants import BURN, GOODBYE, LID_MARKET, PASS_ONCE, SECRET_GOAL  # noqa: E402
from test_guard_rewards import never_ends  # noqa: E402
from test_rl_step_encoder import plain_mask, plain_observation  # noqa: E402

import azul_core.rl as rl  # noqa: E402
from azul_core.engine.state import PLACE  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rl.game import score_differences  # noqa: E402
from azul_core.rules import Move  # noqa: E402


def exactly(text: str) -> str:
    return f"^{re.escape(text)}$"


def random_step(env, rng) -> None:
    """The agent to move takes a random legal action (a dead one steps out)."""
    observation, _reward, terminated, truncated, _info = env.last()
    if terminated or truncated:
        env.step(None)
        return
    legal = np.flatnonzero(observation["action_mask"])
    env.step(int(legal[rng.integers(len(legal))]))


def floor_shy_step(env, rng) -> None:
    """As ``random_step``, drafting to the floor only when nothing else is legal: games whose
    rounds score points."""
    observation, _reward, terminated, truncated, _info = env.last()
    if terminated or truncated:
        env.step(None)
        return
    legal = np.flatnonzero(observation["action_mask"])
    kept = [action for action in legal if action >= encoding.PLACE_BASE or action % 6 != 5] or legal
    env.step(int(kept[rng.integers(len(kept))]))


def test_calls_out_of_order_are_told_word_for_word():
    env = rl.env("standard", 2)
    with pytest.raises(RuntimeError, match=exactly("reset() the environment before step()")):
        env.step(0)
    with pytest.raises(RuntimeError, match=exactly("reset() the environment before observe()")):
        env.observe("player_0")
    with pytest.raises(RuntimeError, match=exactly("reset() the environment before agent_iter()")):
        env.agent_iter()
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while env.agents:
        random_step(env, rng)
    with pytest.raises(RuntimeError, match=exactly(
            "the game is over and every agent has stepped out: reset() the environment")):
        env.step(None)


@pytest.mark.parametrize("variant, last_action", [("standard", 304), (PASS_ONCE, 305)])
def test_an_action_outside_the_space_is_told_with_the_agent_and_the_range(variant, last_action):
    env = rl.env(variant, 2)
    env.reset(seed=1)
    for action in (last_action + 1, -1):
        with pytest.raises(ValueError, match=exactly(
                f"player_0: action {action} is outside the action space (0 to {last_action})")):
            env.step(action)


def test_an_illegal_plugin_move_is_named_in_the_variants_notation():
    env = rl.env(PASS_ONCE, 2)
    env.reset(seed=1)
    passing = encoding.encode(Move("pass"), env.unwrapped.rules)
    env.step(passing)  # player_0 passes: once a round
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))  # player_1 drafts
    assert env.agent_selection == "player_0" and not env.last()[0]["action_mask"][passing]
    with pytest.raises(ValueError, match=re.escape(f"player_0: action {passing} (+pass) is not legal now")):
        env.step(passing)


def test_a_dead_agent_may_only_step_none():
    env = rl.env("standard", 2)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not any(env.terminations.values()):
        random_step(env, rng)
    with pytest.raises(ValueError, match="the only valid action is None"):
        env.step(0)
    env.step(None)
    assert len(env.agents) == 1


def test_round_rewards_are_paid_when_a_round_ends_and_are_zero_in_every_other_step():
    """lid-market's purchases cost points in the middle of a round: paid with the round, not
    when bought."""
    env = rl.env(LID_MARKET, 2, reward="round")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    game = env.unwrapped.game
    standing = [0.0, 0.0]
    purchases, paid = 0, []
    while not game.over:
        ended, score = len(game.round_scores), [board.score for board in game.players]
        floor_shy_step(env, rng)  # the first round scores points
        if len(game.round_scores) > ended or game.over:
            now = score_differences(game.scores())
            assert list(env.rewards.values()) == pytest.approx([n - b for n, b in zip(now, standing)])
            standing = now
            paid.append(list(env.rewards.values()))
        else:
            assert list(env.rewards.values()) == [0, 0]
            purchases += [board.score for board in game.players] != score
    assert purchases > 0 and len(paid) == len(game.round_scores) == 5
    assert paid[0] == [2, -2]  # the first round's change, paid when it ends


@pytest.mark.parametrize("ends", ["over", "cut"])
def test_when_a_game_ends_or_is_cut_the_seat_after_the_last_mover_steps_out_first(tmp_path, ends):
    env = rl.env("standard", 3) if ends == "over" else rl.env(never_ends(tmp_path), 3, max_rounds=1)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    last_mover = None
    while not any(env.terminations.values()) and not any(env.truncations.values()):
        last_mover = env.possible_agents.index(env.agent_selection)
        random_step(env, rng)
    assert env.agent_selection == env.possible_agents[(last_mover + 1) % 3]
    assert (env.unwrapped.game.over, any(env.truncations.values())) == (ends == "over", ends == "cut")


def test_plugins_memory_in_blocks_of_another_size_is_encoded_step_by_step():
    env = rl.env(SECRET_GOAL, 3, memory_size=4)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _step in range(30):
        state = env.unwrapped.game
        viewer = env.possible_agents.index(env.agent_selection)
        np.testing.assert_array_equal(env.last()[0]["observation"], plain_observation(state, viewer, memory_size=4))
        random_step(env, rng)


def test_the_plain_mask_without_rules_is_the_standard_boards_and_marks_wall_placements():
    env = rl.env("standard", 2)
    env.reset(seed=1)
    state = env.unwrapped.game
    np.testing.assert_array_equal(encoding.mask_of(state.legal_decisions()), plain_mask(state))
    grey = rl.env("grey-wall", 2)
    grey.reset(seed=1)
    rng = np.random.default_rng(1)
    while grey.unwrapped.game.phase != PLACE:
        random_step(grey, rng)
    state = grey.unwrapped.game
    mask = encoding.action_mask(state)
    np.testing.assert_array_equal(mask, plain_mask(state))
    assert set(np.flatnonzero(mask)) == {encoding.PLACE_BASE + column for column in state.placing[2]}


def test_a_variant_that_does_not_draw_its_first_player_starts_with_seat_0():
    env = rl.env("standard", 2)
    env.reset()
    assert env.unwrapped.opening_seat == 0


def test_round_rewards_add_up_for_a_seat_that_does_not_act_between_two_payments():
    """A phase at the game's end offered to seat 0 alone: the last round's change and the end
    bonuses are paid in two steps, and seat 1 does not act between them."""
    env = rl.env(GOODBYE, 2, reward="round")
    for seed in (1, 4):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        returns = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            returns[env.agent_selection] += env.last()[1]
            floor_shy_step(env, rng)
        game = env.unwrapped.game
        assert list(returns.values()) == pytest.approx(score_differences(game.scores()))
        # both payments count: the last round changed the standing, and so did the bonuses
        standings = [score_differences(scores) for scores in game.round_scores[-2:]]
        assert standings[0] != standings[1] != score_differences(game.scores())


def test_a_draw_that_ends_the_round_deals_the_next():
    """After each turn the seat burns a tile from the bag into the box (a house rule): after the
    last turn of a round, the round ends once the tile is drawn, and the environment deals the
    next."""
    env = rl.env(BURN, 2)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    game = env.unwrapped.game
    burnt_last = 0
    while env.agents:
        round_before, empty_before = game.round, not any(map(any, game.sources))
        random_step(env, rng)
        burnt_last += empty_before and game.round == round_before + 1
    assert game.over and burnt_last >= 4  # each round ended by a burn after its last draft
