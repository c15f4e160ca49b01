"""The RL adapters' promises a slip would break unnoticed (issue 24): win rewards stay
zero-sum when a victory is shared (each winner gets its share, not a full win), and a game
that never ends is cut after exactly ``max_rounds`` rounds (the last one played, not one
round early)."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import azul_core.rl as rl  # noqa: E402
from azul_core.rl.game import score_differences  # noqa: E402


def house_rule(folder: Path, name: str, body: str) -> str:
    (folder / f"{name}.py").write_text(body)
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: standard\nplugins: [standard, colour_wall, {name}.py]\n")
    return str(path)


def winners_rule(folder: Path, winners: list[int]) -> str:
    """Whatever the scores, the game is won by ``winners``."""
    return house_rule(folder, "fixed_winners", f"def azul_winners(scores):\n    return {winners!r}\n")


def never_ends(folder: Path) -> str:
    return house_rule(folder, "endless", "def azul_game_over():\n    return False\n")


def play(env, seed: int = 1) -> dict:
    """One game with a seeded random policy over the mask: each agent's summed rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return returns


@pytest.mark.parametrize("players, winners, expected", [
    (2, [0, 1], [0.0, 0.0]),                 # a shared victory with 2 players: a draw
    (3, [0, 1], [0.25, 0.25, -0.5]),         # each winner's share is 1/2: (3 * 1/2 - 1) / 2
    (3, [0, 1, 2], [0.0, 0.0, 0.0]),
    (4, [2], [-1 / 3, -1 / 3, 1.0, -1 / 3]),  # a sole winner: a full win
])
def test_win_rewards_split_a_shared_victory_and_sum_to_zero(tmp_path, players, winners, expected):
    env = rl.env(winners_rule(tmp_path, winners), players, reward="win")
    returns = play(env)
    assert env.unwrapped.game.winners == winners
    assert list(returns.values()) == pytest.approx(expected)
    assert sum(returns.values()) == pytest.approx(0)


@pytest.mark.parametrize("max_rounds", [1, 3])
def test_a_game_that_never_ends_is_truncated_after_exactly_max_rounds(tmp_path, max_rounds):
    env = rl.env(never_ends(tmp_path), 2, max_rounds=max_rounds)
    returns = play(env)
    game = env.unwrapped.game
    assert len(game.round_scores) == max_rounds  # every round up to the limit was played
    assert game.round == max_rounds + 1 and game.phase == "deal"
    assert all(env.unwrapped.truncations.values()) and not any(env.unwrapped.terminations.values())
    assert list(returns.values()) == [0, 0]  # truncated: no final reward


def test_openspiel_splits_a_shared_victory_and_cuts_after_exactly_max_rounds(tmp_path):
    pyspiel = pytest.importorskip("pyspiel")
    from rl_variants import play_openspiel

    import azul_core.rl.openspiel  # noqa: F401  (registers python_azul)

    def play_out(game):
        rng = np.random.default_rng(3)
        return play_openspiel(game, lambda state: rng.choice(state.legal_actions()), rng)

    shared = play_out(pyspiel.load_game("python_azul", {"variant": winners_rule(tmp_path, [0, 1]),
                                                        "players": 3, "reward": "win"}))
    assert shared.returns() == pytest.approx([0.25, 0.25, -0.5])
    cut = play_out(pyspiel.load_game("python_azul", {"variant": never_ends(tmp_path), "players": 2,
                                                     "max_rounds": 2}))
    engine = cut.episode.state
    assert len(engine.round_scores) == 2 and engine.round == 3
    assert cut.returns() == pytest.approx(score_differences(engine.scores()))
