"""The PettingZoo environment: PettingZoo's own checks, masks and rewards from the variant's
plugins, seeding, and records that `azul validate` accepts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_variants import (  # noqa: E402
    ALL,
    CENTRE_PAIRS,
    FAMILY_FLOOR,
    FIVE_ROUNDS,
    HOUSE_RULES,
    LATE_WHITE,
    SHIPPED,
    SHORT_LINES,
    label,
    trust,
)

import azul_core.rl as rl  # noqa: E402
from azul_core.colours import WHITE  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rl.game import score_differences  # noqa: E402

#: What api_test says of every environment whose observation is a dict with an action mask
#: (it knows only PettingZoo's own such environments by name): expected, nothing else is.
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")


def play_random(env, seed: int, policy_seed: int = 0) -> list[int]:
    """Play one game with a seeded random policy over the mask; the actions taken."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    actions = []
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        actions.append(action)
        env.step(action)
    return actions


@pytest.mark.parametrize("case", SHIPPED + HOUSE_RULES, ids=label)
def test_pettingzoos_api_test_passes(case):
    variant, players = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(variant, players), num_cycles=400)
    unexpected = {str(w.message) for w in caught
                  if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}
    assert not unexpected


def test_api_test_passes_inside_pettingzoos_order_enforcing_wrapper():
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(OrderEnforcingWrapper(rl.env("grey-wall", 2)), num_cycles=200)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}


def test_calls_out_of_order_are_clear_errors():
    env = rl.env("standard", 2)
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.agent_iter()):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    play_random(env, seed=1)
    assert not env.agents
    with pytest.raises(RuntimeError, match="the game is over"):
        env.step(None)


def test_agent_iter_stops_after_max_iter_agents_as_pettingzoos_does():
    env = rl.env("standard", 2)
    env.reset(seed=2)
    seen = []
    for agent in env.agent_iter(max_iter=7):
        seen.append(agent)
        env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))
    assert len(seen) == 7 and seen[0] == "player_0"
    env.reset(seed=2)
    assert [agent for agent in env.agent_iter(max_iter=0)] == []


@pytest.mark.parametrize("case", SHIPPED + HOUSE_RULES, ids=label)
def test_pettingzoos_seed_test_passes(case):
    variant, players = case
    seed_test(lambda: rl.env(variant, players), num_cycles=300)


def test_a_game_is_a_function_of_the_seed():
    env = rl.env("grey-wall", 2)
    first = (play_random(env, seed=3), env.unwrapped.game.scores())
    assert (play_random(env, seed=3), env.unwrapped.game.scores()) == first
    assert play_random(env, seed=4)[:40] != first[0][:40]


@pytest.mark.parametrize("case", ALL, ids=label)
def test_the_mask_is_the_engines_legal_decisions_at_every_step(case):
    variant, players = case
    env = rl.env(variant, players)
    env.reset(seed=11)
    rng = np.random.default_rng(1)
    checked = 0
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        assert agent == f"player_{game.to_move}"
        expected = sorted(encoding.encode(d) for d in game.legal_decisions())
        assert np.flatnonzero(observation["action_mask"]).tolist() == expected
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        checked += 1
    assert checked > 30


def test_a_house_rule_that_changes_legal_drafts_changes_the_masks():
    """late-white: line 1 takes white only once its wall row holds a tile."""
    white_on_top = {encoding.encode((source, WHITE, 0)) for source in range(encoding.SOURCES)}

    def offered(variant):
        env = rl.env(variant, 2)
        env.reset(seed=5)
        rng = np.random.default_rng(2)
        seen = []
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            game = env.unwrapped.game
            mask = observation["action_mask"]
            if game.phase == "draft" and not game.players[game.to_move].wall_rows[0]:
                seen.append(any(mask[a] for a in white_on_top))
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
        return seen

    assert any(offered("standard"))
    late_white = offered(LATE_WHITE)
    assert late_white and not any(late_white)


def test_rewards_are_the_final_score_difference_by_the_variants_scoring():
    standard, family = rl.env("standard", 2), rl.env(FAMILY_FLOOR, 2)
    totals = {}
    for env in (standard, family):
        returns = dict.fromkeys(env.possible_agents, 0.0)
        env.reset(seed=8)
        rng = np.random.default_rng(3)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            returns[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        scores = env.unwrapped.game.scores()
        assert [returns[a] for a in env.possible_agents] == score_differences(scores)
        totals[env.unwrapped.rules.name] = (scores, env.unwrapped.record()["rounds"])
    # The same moves (the family floor changes no legal move), scored by each variant's floor.
    (standard_scores, standard_rounds), (family_scores, family_rounds) = totals.values()
    assert [r["actions"] for r in standard_rounds] == [r["actions"] for r in family_rounds]
    assert standard_scores != family_scores


def test_round_rewards_add_up_to_the_final_difference_and_come_each_round():
    env = rl.env(FAMILY_FLOOR, 2, reward="round")
    env.reset(seed=2)
    rng = np.random.default_rng(4)
    paid = {agent: [] for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        if reward:
            paid[agent].append(reward)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    game = env.unwrapped.game
    # Each round's change when it ends; the last round's comes with the end bonuses.
    standings = [score_differences(scores) for scores in game.round_scores[:-1]]
    standings.append(score_differences(game.scores()))
    for seat, agent in enumerate(env.possible_agents):
        before, expected = 0.0, []
        for standing in standings:
            if standing[seat] != before:
                expected.append(standing[seat] - before)
            before = standing[seat]
        assert paid[agent] == pytest.approx(expected)
        assert sum(paid[agent]) == pytest.approx(score_differences(game.scores())[seat])
    assert max(len(p) for p in paid.values()) > 1


def test_win_rewards_follow_the_variants_winners():
    env = rl.env("standard", 3, reward="win")
    returns = dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=9)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    winners = env.unwrapped.game.winners
    assert sum(returns.values()) == pytest.approx(0)
    for seat, agent in enumerate(env.possible_agents):
        assert (returns[agent] > 0) == (seat in winners)


def test_five_rounds_ends_the_episode_after_round_5():
    env = rl.env(FIVE_ROUNDS, 2)
    for seed in range(3):
        play_random(env, seed)
        assert env.unwrapped.game.round <= 5
        assert all(env.unwrapped.terminations.values()) or not env.unwrapped.agents


def test_each_agent_sees_the_game_from_its_own_seat():
    env = rl.env("standard", 3)
    env.reset(seed=1)
    game = env.unwrapped.game
    game.players[1].score = 7
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(3)}
    own_score = layout["seat+0.score"][0]
    assert env.observe("player_1")["observation"][own_score] == 7
    assert env.observe("player_0")["observation"][layout["seat+1.score"][0]] == 7
    assert env.observe("player_2")["observation"][layout["seat+2.score"][0]] == 7
    to_move = layout["to_move"][0]
    assert env.observe("player_0")["observation"][to_move] == 1  # seat 0 moves first
    assert env.observe("player_2")["observation"][to_move + 1] == 1  # ... one seat after seat 2


def test_an_action_outside_the_mask_is_refused_with_the_reason():
    env = rl.env("standard", 2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(encoding.NUM_ACTIONS)
    first = next(d for d in env.unwrapped.game.legal_decisions() if d[2] == 0)
    env.step(encoding.encode(first))  # seat 0 fills pattern line 1
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    source, colour = next((s, c) for s, counts in enumerate(env.unwrapped.game.sources)
                          for c in range(5) if counts[c])
    with pytest.raises(ValueError, match="pattern line 1 is full"):
        env.step(encoding.encode((source, colour, 0)))
    with pytest.raises(ValueError, match="players"):
        rl.env("duel", 3)
    with pytest.raises(ValueError, match="reward"):
        rl.env("standard", 2, reward="points")


def test_the_action_space_is_the_same_for_every_variant():
    sizes = {rl.env(v, p).action_space("player_0").n for v, p in ALL}
    assert sizes == {encoding.NUM_ACTIONS}


@pytest.mark.parametrize("case", SHIPPED + HOUSE_RULES, ids=label)
def test_a_saved_record_validates_with_the_same_scores(case, tmp_path):
    variant, players = case
    env = rl.env(variant, players)
    play_random(env, seed=21)
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    report = validate_record(path, trust=trust(variant))
    assert report["valid"], report["errors"]
    assert report["finished"]
    assert report["scores"] == env.unwrapped.game.scores() == data["result"]["scores"]
    assert [r["scores"] for r in data["rounds"]] == report["round_scores"]


@pytest.mark.parametrize("variant", ["grey-wall", LATE_WHITE], ids=["grey-wall", "late-white"])
def test_azul_validate_accepts_the_record(variant, tmp_path):
    env = rl.env(variant, 2)
    play_random(env, seed=4)
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    command = [sys.executable, "-m", "azul_core.cli", "validate", "--json", str(path)]
    if variant == LATE_WHITE:
        assert data["variant"] == os.path.relpath(LATE_WHITE, tmp_path)  # as simulate --record-dir
        command[4:4] = ["--variant", LATE_WHITE]  # a record runs a variant's plugin files only so
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.splitlines()[0])
    assert report["valid"] and report["scores"] == env.unwrapped.game.scores()


def test_reset_without_a_seed_goes_on_with_the_generator():
    env = rl.env("standard", 2)
    env.reset(seed=1)
    first = env.unwrapped.game.sources
    assert env.unwrapped.record()["seed"] == 1
    env.reset()
    assert env.unwrapped.game.sources != first
    assert "seed" not in env.unwrapped.record()  # this game is not a function of a seed


def test_scores_beyond_a_byte_are_kept_and_huge_ones_clipped():
    env = rl.env("standard", 2)
    env.reset(seed=1)
    layout = {name: start for name, start, _size in encoding.observation_layout(2)}
    game = env.unwrapped.game
    game.players[0].score, game.players[1].score = 300, 5000
    observation = env.observe("player_0")["observation"]
    assert observation[layout["seat+0.score"]] == 300
    assert observation[layout["seat+1.score"]] == encoding.OBS_HIGH
    assert observation[layout["seat+0.lines"]:].sum() == 0  # the blocks after stay in place
    assert env.observation_space("player_0")["observation"].contains(observation)
    game.players[1].score = -4  # a house rule's negative bonus
    assert env.observe("player_1")["observation"][layout["seat+0.score"]] == -4


def test_a_draft_rule_of_the_variant_shapes_the_masks():
    """centre-pairs: a draft from the centre takes at least two tiles (unless nothing else is
    left); standard Azul offers single tiles from the centre."""
    def single_centre_offers(variant):
        env = rl.env(variant, 3)
        env.reset(seed=7)
        rng = np.random.default_rng(7)
        offered = forced = 0
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            game = env.unwrapped.game
            legal = np.flatnonzero(observation["action_mask"])
            decisions = [encoding.decode(int(a), game) for a in legal]
            singles = [d for d in decisions if len(d) == 3 and d[0] == 0 and game.sources[0][d[1]] == 1]
            if singles and len(singles) == len(decisions):
                forced += 1  # nothing else left: the engine allows them
            elif singles:
                offered += 1
            env.step(int(legal[rng.integers(len(legal))]))
        return offered

    assert single_centre_offers("standard") > 0
    assert single_centre_offers(CENTRE_PAIRS) == 0


def test_line_sizes_of_the_variant_show_in_the_observation():
    """short-lines: pattern line 1 holds two tiles; the observation shows them."""
    def most_on_line_1(variant):
        env = rl.env(variant, 2)
        env.reset(seed=3)
        rng = np.random.default_rng(3)
        start = {name: s for name, s, _size in encoding.observation_layout(2)}["seat+0.lines"]
        most = 0
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            most = max(most, observation["observation"][start:start + 5].sum())
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
        return most

    assert most_on_line_1("standard") == 1
    assert most_on_line_1(SHORT_LINES) == 2


def test_render_mode_human_prints_the_position_after_every_step_and_ansi_returns_it(capsys):
    env = rl.env("standard", 2, render_mode="human")
    env.reset(seed=5)
    capsys.readouterr()
    env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))
    printed = capsys.readouterr().out
    assert printed.strip() and printed.strip() == encoding.observation_text(env.game.for_seat(None), 0).strip()
    quiet = rl.env("standard", 2, render_mode="ansi")
    quiet.reset(seed=5)
    quiet.step(int(quiet.last()[0]["action_mask"].nonzero()[0][0]))
    assert capsys.readouterr().out == "" and quiet.render().strip() == printed.strip()
    with pytest.raises(ValueError, match="render_mode"):
        rl.env("standard", 2, render_mode="rgb_array")
