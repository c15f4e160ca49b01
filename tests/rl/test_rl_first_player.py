"""Who starts round 1 in the RL adapters: the variant's ``azul_first_player`` (examples/seeded-start
draws the seat from the game's seed), as ``rules.opening_seat`` names it everywhere else.

PettingZoo starts ``reset(seed=s)`` with ``rules.opening_seat(players, s)``; OpenSpiel opens with
a chance node of seeds whose outcome ``k`` starts with ``rules.opening_seat(players, k)``. Both
records say who started and replay to the same scores; a variant without the rule is unchanged.
"""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_variants import SECRET_GOAL, SEEDED_SECRET_GOAL, SEEDED_START, trust  # noqa: E402
from test_rl_pettingzoo import DICT_OBSERVATION_NOTES, play_random  # noqa: E402

import azul_core.rl as rl  # noqa: E402
import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.engine.state import GameState  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rl.game import load  # noqa: E402
from azul_core.rl.openspiel import OPENING_SEEDS  # noqa: E402

SEEDS = range(40)


def opening_seat(variant, players, seed) -> int:
    rules, _ref = load(variant)
    return rules.opening_seat(players, seed)


def load_game(variant, players):
    return pyspiel.load_game("python_azul", {"variant": variant, "players": players})


def fill(state, rng):
    """Draw the factories' tiles (by the chance node's odds) until a player is to act."""
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    return state


def play_spiel(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            fill(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def seed_starting(variant, players, seat) -> int:
    return next(seed for seed in range(OPENING_SEEDS) if opening_seat(variant, players, seed) == seat)


# ---------------------------------------------------------------- PettingZoo


def test_pettingzoo_starts_with_the_seat_the_rule_draws_from_the_seed():
    env = rl.env(SEEDED_START, 3)
    starters = []
    for seed in SEEDS:
        env.reset(seed=seed)
        seat = opening_seat(SEEDED_START, 3, seed)
        assert env.agent_selection == f"player_{seat}", seed
        assert env.unwrapped.game.to_move == env.unwrapped.game.first_player == seat
        starters.append(seat)
    assert set(starters) == {0, 1, 2}


def test_pettingzoos_api_and_seed_tests_pass():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(SEEDED_START, 3), num_cycles=300)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}
    seed_test(lambda: rl.env(SEEDED_START, 3), num_cycles=300)


def test_pettingzoo_observations_show_the_first_player_from_each_seat():
    env = rl.env(SEEDED_START, 3)
    env.reset(seed=seed_starting(SEEDED_START, 3, 2))
    layout = {name: (start, size) for name, start, size in
              encoding.observation_layout(3, env.unwrapped.rules)}
    start, size = layout["first_player"]
    for seat in range(3):
        observation = env.observe(f"player_{seat}")["observation"]
        assert list(observation[start:start + size]) == [1 if k == (2 - seat) % 3 else 0 for k in range(3)]


def test_unseeded_resets_draw_the_first_player_from_the_generator():
    def starters(env):
        env.reset(seed=5)
        seats = []
        for _ in range(30):
            env.reset()
            seats.append(env.agent_selection)
        return seats

    seats = starters(rl.env(SEEDED_START, 3))
    assert len(set(seats)) == 3  # unseeded games don't all start with one seat
    assert starters(rl.env(SEEDED_START, 3)) == seats  # from the generator seeded by reset(seed=5)


def test_a_variant_without_the_rule_starts_with_seat_0_and_its_generator_draws_nothing_more():
    env = rl.env("standard", 2)
    rules, _ref = load("standard")
    rng = random.Random(3)
    for seed in (3, None, None):  # reset(seed=3), then resets that go on with its generator
        env.reset(seed=seed)
        assert env.agent_selection == "player_0"
        expected = GameState(rules, 2)
        expected.deal(rng)  # the same fills as the generator alone makes them
        assert env.unwrapped.game.sources == expected.sources
        assert "first_player" not in env.unwrapped.record()
    observation = env.observe("player_0")["observation"]
    assert observation.shape == (encoding.observation_size(2),)


@pytest.mark.parametrize("seat", [1, 2])
def test_a_pettingzoo_record_says_who_started_and_replays_to_the_same_scores(seat, tmp_path):
    env = rl.env(SEEDED_START, 3)
    seed = seed_starting(SEEDED_START, 3, seat)
    play_random(env, seed)
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    assert data["first_player"] == seat and data["seed"] == seed
    report = validate_record(path, trust=trust(SEEDED_START))
    assert report["valid"], report["errors"]
    assert report["finished"]
    assert report["scores"] == env.unwrapped.game.scores() == data["result"]["scores"]


def test_an_unseeded_pettingzoo_record_says_who_started(tmp_path):
    env = rl.env(SEEDED_START, 3)
    env.reset(seed=0)
    for _ in range(10):
        env.reset()
        if env.agent_selection != "player_0":
            break
    seat = int(env.agent_selection.removeprefix("player_"))
    assert seat and env.unwrapped.record()["first_player"] == seat
    assert "seed" not in env.unwrapped.record()


# ---------------------------------------------------------------- OpenSpiel


def test_openspiel_opens_with_a_chance_node_of_seeds_that_names_the_first_player():
    game = load_game(SEEDED_START, 3)
    assert game.max_chance_outcomes() == OPENING_SEEDS
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(seed, 1 / OPENING_SEEDS) for seed in range(OPENING_SEEDS)]
    seat = opening_seat(SEEDED_START, 3, 17)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 17) == f"open with seed 17: seat {seat} starts"
    starters = []
    for seed in SEEDS:
        state = game.new_initial_state()
        state.apply_action(seed)
        assert state.is_chance_node()  # the factories are filled next
        fill(state, np.random.RandomState(seed))
        seat = opening_seat(SEEDED_START, 3, seed)
        assert state.current_player() == seat, seed
        assert state.history()[0] == seed
        starters.append(seat)
    assert set(starters) == {0, 1, 2}


def test_every_player_sees_who_started():
    game = load_game(SEEDED_START, 3)
    state = game.new_initial_state()
    state.apply_action(seed_starting(SEEDED_START, 3, 1))
    fill(state, np.random.RandomState(0))
    assert [state.observation_string(p).splitlines()[-1] for p in range(3)] == \
        ["first player seat+1", "first player seat+0", "first player seat+2"]
    assert state.information_state_string(2) == state.observation_string(2)
    start = dict((name, start) for name, start, _size in encoding.observation_layout(3, game.rules))["first_player"]
    assert state.observation_tensor(0)[start:start + 3] == [0.0, 1.0, 0.0]


@pytest.mark.parametrize("variant", [SEEDED_START, SEEDED_SECRET_GOAL], ids=["seeded-start", "seeded-secret-goal"])
def test_openspiels_random_simulation_checks_pass(variant):
    pyspiel.random_sim_test(load_game(variant, 3), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("seat", [1, 2])
def test_an_openspiel_record_says_who_started_and_replays_to_the_same_scores(seat, tmp_path):
    game = load_game(SEEDED_START, 3)
    state = game.new_initial_state()
    state.apply_action(seed_starting(SEEDED_START, 3, seat))
    play_spiel(state, np.random.RandomState(seat))
    path = tmp_path / "game.json"
    data = state.record(path)
    assert data["first_player"] == seat
    report = validate_record(path, trust=trust(SEEDED_START))
    assert report["valid"], report["errors"]
    assert report["finished"]
    assert report["scores"] == state.engine_state.scores() == data["result"]["scores"]


def test_serialize_and_clone_keep_the_first_player():
    game = load_game(SEEDED_START, 3)
    state = game.new_initial_state()
    state.apply_action(seed_starting(SEEDED_START, 3, 2))
    fill(state, np.random.RandomState(4))
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    for copy in (state.clone(), game.deserialize_state(state.serialize())):
        assert copy.history() == state.history()
        assert str(copy) == str(state)
        assert copy.record()["first_player"] == 2


def test_with_secrets_one_opening_outcome_deals_them_and_names_the_first_player():
    game = load_game(SEEDED_SECRET_GOAL, 3)
    assert game.max_chance_outcomes() == OPENING_SEEDS
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    for seed in (0, 17, 999):
        state = game.new_initial_state()
        seat = opening_seat(SEEDED_SECRET_GOAL, 3, seed)
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, seed) == \
            f"deal the secrets with seed {seed}: seat {seat} starts"
        state.apply_action(seed)
        assert state.engine_state.secrets == game.secret_deals()[seed]
        fill(state, np.random.RandomState(seed))
        assert state.current_player() == seat


def test_resampling_keeps_who_started_and_the_players_own_secret():
    game = load_game(SEEDED_SECRET_GOAL, 3)
    state = game.new_initial_state()
    state.apply_action(seed_starting(SEEDED_SECRET_GOAL, 3, 2))
    rng = np.random.RandomState(2)
    fill(state, rng)
    for _ in range(7):
        fill(state, rng).apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    others = set()
    for _ in range(15):
        world = state.resample_from_infostate(player, sampler)
        assert opening_seat(SEEDED_SECRET_GOAL, 3, world.history()[0]) == 2
        assert world.history()[1:] == state.history()[1:]
        assert world.information_state_string(player) == state.information_state_string(player)
        secrets = world.engine_state.secrets["secret_goal"]
        assert secrets[player] == state.engine_state.secrets["secret_goal"][player]
        others.add(secrets)
    assert len(others) > 1


def test_a_variant_without_the_rule_has_no_opening_node_for_it():
    standard = load_game("standard", 2)
    state = standard.new_initial_state()
    assert state.chance_outcomes() == [(kind, 20 / 100) for kind in range(5)]  # a tile drawn
    assert standard.max_chance_outcomes() == 5
    fill(state, np.random.RandomState(0))
    assert state.current_player() == 0
    assert "first player" not in state.observation_string(0)
    assert "first_player" not in state.record()
    # secret-goal's opening deals the secrets only: seat 0 starts whatever the seed
    secret_goal = load_game(SECRET_GOAL, 2)
    for seed in (0, 1, 2, 3):
        state = secret_goal.new_initial_state()
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, seed) == f"deal the secrets with seed {seed}"
        state.apply_action(seed)
        fill(state, np.random.RandomState(seed))
        assert state.current_player() == 0
