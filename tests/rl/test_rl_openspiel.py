"""The OpenSpiel game python_azul: OpenSpiel's random-simulation checks, chance nodes that draw
from the bag and then the lid, MCTS playing whole games, and records `azul validate` accepts."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import mcts  # noqa: E402
from rl_variants import FAMILY_FLOOR, HOUSE_RULES, LATE_WHITE, SHIPPED, label, play_openspiel, trust  # noqa: E402

import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.colours import COLOURS  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rl.game import score_differences  # noqa: E402


def load(variant, players, **extra):
    return pyspiel.load_game("python_azul", {"variant": variant, "players": players, **extra})


def play_random(state, rng):
    """Play ``state`` to the end: chance by its probabilities, players uniformly."""
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("case", SHIPPED + HOUSE_RULES, ids=label)
def test_openspiels_random_simulation_checks_pass(case):
    variant, players = case
    pyspiel.random_sim_test(load(variant, players), num_sims=1, serialize=True, verbose=False)


def test_random_simulation_checks_pass_with_win_returns():
    pyspiel.random_sim_test(load("standard", 3, reward="win"), num_sims=1, serialize=False,
                            verbose=False)


@pytest.mark.parametrize("case", SHIPPED + [(LATE_WHITE, 2)], ids=label)
def test_legal_actions_are_the_engines_legal_decisions(case):
    variant, players = case
    state = load(variant, players).new_initial_state()
    rng = np.random.RandomState(3)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            assert state.legal_actions() == [a for a, _p in state.chance_outcomes()]
        else:
            engine = state.engine_state
            assert state.current_player() == engine.to_move
            assert state.legal_actions() == sorted(encoding.encode(d) for d in engine.legal_decisions())
            decisions += 1
        actions, probabilities = (zip(*state.chance_outcomes()) if state.is_chance_node()
                                  else (state.legal_actions(), None))
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    assert decisions > 30


def test_a_round_starts_with_one_chance_node_per_tile_drawn_from_the_bag():
    state = load("standard", 2).new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(colour, 0.2) for colour in COLOURS]
    for colour in [0, 0, 1, 2]:  # factory 1: two blue, a yellow, a red
        state.apply_action(colour)
    assert state.chance_outcomes() == [(0, 18 / 96), (1, 19 / 96), (2, 19 / 96), (3, 20 / 96),
                                       (4, 20 / 96)]
    draws = 4
    rng = np.random.RandomState(0)
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probabilities)))
        draws += 1
    assert draws == 20  # 5 factories of 4
    engine = state.engine_state
    assert engine.sources[1] == [2, 1, 1, 0, 0]
    assert len(engine.bag) == 80


def test_when_the_bag_runs_out_the_lid_is_poured_in():
    state = load("standard", 2).new_initial_state()
    episode = state.episode
    engine = episode.state
    # Before the fill: 2 red and 1 black tile in the bag, 10 blue and 5 white in the lid.
    engine.bag = [2, 2, 3]
    engine.lid = [10, 0, 0, 0, 5]
    episode.start_fill()
    assert state.chance_outcomes() == [(2, 2 / 3), (3, 1 / 3)]
    for colour in (2, 3, 2):
        state.apply_action(colour)
    assert state.chance_outcomes() == [(0, 10 / 15), (4, 5 / 15)]  # the lid, poured in
    drawn = 3
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        drawn += 1
    assert drawn == 18  # every tile of bag and lid: 4 full factories and 2 tiles in the fifth
    assert engine.sources[1] == [1, 0, 2, 1, 0]
    assert engine.sources[5] == [0, 0, 0, 0, 2]
    assert engine.lid == [0] * 5 and engine.bag == []


def test_clone_is_independent_and_serialize_round_trips():
    game = load("grey-wall", 2)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    for _ in range(60):
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    clone = state.clone()
    assert clone.engine_state is not state.engine_state
    assert clone.engine_state.rules is state.engine_state.rules  # the engine's clone, no deep copy
    text = str(state)
    play_random(clone, np.random.RandomState(1))
    assert str(state) == text
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == text and restored.history() == state.history()
    assert restored.legal_actions() == state.legal_actions()
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == text
    a = play_random(state, np.random.RandomState(9))
    b = play_random(restored, np.random.RandomState(9))
    assert a.returns() == b.returns() and str(a) == str(b)


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_a_fill_that_pours_the_lid_in_within_a_factory_deserializes(seed):
    """The bag ran out in the middle of a factory: its tiles drawn again factory by factory must
    come from the bag first (with these seeds, colour order failed: "no blue tile is left")."""
    game = load("standard", 3)
    state = play_random(game.new_initial_state(), np.random.RandomState(seed))
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state) and restored.returns() == state.returns()
    # ... and in the middle of such a fill: a state whose fill has begun, each draw on the way.
    partial = game.new_initial_state()
    for action in state.history()[:len(state.history()) // 2]:
        partial.apply_action(action)
        if partial.is_chance_node():
            assert str(game.deserialize_state(partial.serialize())) == str(partial)


def test_observation_tensors_are_the_encoding_from_each_players_seat():
    game = load("standard", 3)
    state = play_random(game.new_initial_state(), np.random.RandomState(2))
    for player in range(3):
        expected = encoding.observation(state.engine_state, player)
        assert state.observation_tensor(player) == pytest.approx(expected.tolist())
        assert state.information_state_tensor(player) == pytest.approx(expected.tolist())
    assert len(state.observation_tensor(0)) == encoding.observation_size(3)


def test_returns_follow_the_variants_scoring():
    rng_seed = 4
    standard = play_random(load("standard", 2).new_initial_state(), np.random.RandomState(rng_seed))
    family = play_random(load(FAMILY_FLOOR, 2).new_initial_state(), np.random.RandomState(rng_seed))
    # The family floor changes no legal move or chance: the same game, scored by each floor.
    assert standard.history() == family.history()
    for state in (standard, family):
        assert state.returns() == score_differences(state.engine_state.scores())
    assert standard.engine_state.scores() != family.engine_state.scores()


@pytest.mark.parametrize("variant", ["standard", "grey-wall", "duel"])
def test_mcts_plays_whole_games_and_the_record_validates(variant, tmp_path):
    game = load(variant, 2)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=rng)
    state = play_openspiel(game, bot.step, rng)
    path = tmp_path / "mcts.json"
    path.write_text(json.dumps(state.record(names=["mcts", "mcts"])))
    report = validate_record(path)
    assert report["valid"], report["errors"]
    assert report["finished"]
    assert report["scores"] == state.engine_state.scores()
    assert state.returns() == score_differences(report["scores"])


@pytest.mark.parametrize("case", SHIPPED + HOUSE_RULES, ids=label)
def test_a_record_of_a_random_game_validates_with_the_same_scores(case, tmp_path):
    variant, players = case
    state = play_random(load(variant, players).new_initial_state(), np.random.RandomState(12))
    path = tmp_path / "game.json"
    data = state.record(path)
    report = validate_record(path, trust=trust(variant))
    assert report["valid"], report["errors"]
    assert report["scores"] == state.engine_state.scores() == data["result"]["scores"]


def test_bad_parameters_are_clear_errors():
    with pytest.raises(Exception, match="players"):
        load("duel", 3)
    with pytest.raises(Exception, match="unknown variant"):
        load("no-such-variant", 2)
    with pytest.raises(Exception, match="reward"):
        load("standard", 2, reward="points")


def test_azul_validate_accepts_the_record(tmp_path):
    state = play_random(load("duel", 2).new_initial_state(), np.random.RandomState(6))
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(state.record()))
    done = subprocess.run([sys.executable, "-m", "azul_core.cli", "validate", "--json", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.splitlines()[0])
    assert report["valid"] and report["scores"] == state.engine_state.scores()


def test_an_empty_bag_is_refilled_from_the_lid_before_the_first_draw():
    state = load("standard", 2).new_initial_state()
    episode = state.episode
    engine = episode.state
    engine.bag = []
    engine.lid = [0, 4, 0, 0, 2]
    episode.start_fill()
    assert state.chance_outcomes() == [(1, 4 / 6), (4, 2 / 6)]
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    assert engine.sources[1] == [0, 2, 0, 0, 2] and engine.sources[2] == [0, 2, 0, 0, 0]
    assert state.current_player() == 0


def test_nothing_to_draw_ends_the_game_without_a_chance_node():
    state = load("standard", 2).new_initial_state()
    episode = state.episode
    episode.state.bag, episode.state.lid = [], [0] * 5
    episode.start_fill()
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_a_floor_only_game_ends_at_the_round_limit_within_openspiels_length_bound():
    """Issue 41: every draft to the floor, no tile reaches a wall. The game ends by the
    variant's round limit (the standard plugin's ``max_rounds``, 50), before the adapter's
    own cut (``max_rounds`` 100) and within the ``max_game_length`` it declares."""
    game = load("standard", 2)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            to_floor = [a for a in state.legal_actions() if encoding.action_name(a).endswith("-")]
            state.apply_action(to_floor[0])
            decisions += 1
    engine = state.episode.state
    assert engine.phase == "over" and engine.round == 50 and not state.episode.cut_short
    assert decisions <= game.max_game_length()
