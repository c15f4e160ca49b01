"""Plugin moves, plugin memory and per-seat secrets (issue 20) in both RL adapters: the
examples pass-once (a move instead of a draft, memory of who passed), factory-one-shift (a
choice after a draft, phase "choose") and secret-goal (a secret per seat), plus the test house
rules secret-words (a secret easy to look for in text) and secret-pass (a secret that decides
whether a seat may pass)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_variants import (  # noqa: E402
    FACTORY_ONE_SHIFT,
    PASS_ONCE,
    PLUGIN_MOVES,
    SECRET_GOAL,
    SECRET_PASS,
    SECRET_WORDS,
    label,
    play_openspiel,
    play_with_ismcts,
    trust,
)

import azul_core.rl as rl  # noqa: E402
import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.colours import COLOURS  # noqa: E402
from azul_core.engine.state import CHOOSE, DRAFT  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rl.openspiel import SECRET_DEALS  # noqa: E402
from azul_core.rules import Move  # noqa: E402

DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")
PASS = Move("pass")
KEEP = Move("keep")


def shift(line):
    return Move("shift", (line,))


def load_game(variant, players, **extra):
    return pyspiel.load_game("python_azul", {"variant": variant, "players": players, **extra})


def steps(env, seed, policy_seed=0, prefer=None):
    """Play one PettingZoo game with a seeded random policy over the mask, yielding
    ``(agent, observation)`` before each action; ``prefer(legal) -> action or None`` may pick."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, observation
        legal = np.flatnonzero(observation["action_mask"])
        chosen = prefer(legal) if prefer else None
        env.step(int(legal[rng.integers(len(legal))]) if chosen is None else chosen)


def play_spiel(state, rng, prefer=None):
    """Play an OpenSpiel state to the end: chance by its odds, players uniformly."""
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            legal = state.legal_actions()
            chosen = prefer(legal) if prefer else None
            state.apply_action(int(rng.choice(legal)) if chosen is None else chosen)
    return state


def part(layout, name):
    start, size = layout[name]
    return slice(start, start + size)


# ------------------------------------------------------------------ PettingZoo's own checks

@pytest.mark.parametrize("case", PLUGIN_MOVES + [(SECRET_PASS, 2)], ids=label)
def test_pettingzoos_api_test_passes(case):
    variant, players = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(variant, players), num_cycles=400)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}


@pytest.mark.parametrize("case", PLUGIN_MOVES, ids=label)
def test_pettingzoos_seed_test_passes(case):
    variant, players = case
    seed_test(lambda: rl.env(variant, players), num_cycles=300)


@pytest.mark.parametrize("case", PLUGIN_MOVES + [(SECRET_WORDS, 2), (SECRET_PASS, 3)], ids=label)
def test_openspiels_random_simulation_checks_pass(case):
    variant, players = case
    pyspiel.random_sim_test(load_game(variant, players), num_sims=2, serialize=True, verbose=False)


# ------------------------------------------------------------------ actions

def test_each_declared_move_has_its_own_action_after_the_usual_ones():
    assert rl.env(PASS_ONCE, 2).action_space("player_0").n == encoding.NUM_ACTIONS + 1
    env = rl.env(FACTORY_ONE_SHIFT, 2)
    rules = env.unwrapped.rules
    assert env.action_space("player_0").n == encoding.NUM_ACTIONS + 7 == 312
    assert encoding.encode(KEEP, rules) == 305
    assert [encoding.encode(shift(line), rules) for line in range(6)] == list(range(306, 312))
    game = env.unwrapped._start
    assert encoding.decode(308, game) == shift(2) and encoding.action_name(308, rules) == "+shift:2"
    assert load_game(FACTORY_ONE_SHIFT, 2).num_distinct_actions() == 312
    # Without plugin moves, today's action space exactly.
    for variant in ("standard", SECRET_GOAL):
        assert rl.env(variant, 2).action_space("player_0").n == encoding.NUM_ACTIONS
        assert load_game(variant, 2).num_distinct_actions() == encoding.NUM_ACTIONS
    with pytest.raises(ValueError, match="depends on the variant"):
        encoding.encode(PASS)
    with pytest.raises(ValueError, match="not a move of variant"):
        encoding.encode(PASS, rules)


@pytest.mark.parametrize("variant", [PASS_ONCE, FACTORY_ONE_SHIFT], ids=["pass-once", "factory-one-shift"])
def test_the_mask_is_the_engines_legal_decisions_in_draft_and_choose(variant):
    env = rl.env(variant, 2)
    rules = env.unwrapped.rules
    phases = {DRAFT: 0, CHOOSE: 0}
    moves_offered = 0
    for agent, observation in steps(env, seed=11, policy_seed=1):
        game = env.unwrapped.game
        assert agent == f"player_{game.to_move}"
        expected = sorted(encoding.encode(d, rules) for d in game.legal_decisions())
        assert np.flatnonzero(observation["action_mask"]).tolist() == expected
        if game.phase in phases:
            phases[game.phase] += 1
        if game.phase == CHOOSE:  # only the choices: no draft, no placement
            assert expected == sorted(encoding.encode(m, rules) for m in game.choices)
            assert min(expected) >= encoding.MOVE_BASE
        moves_offered += any(a >= encoding.MOVE_BASE for a in expected)
    assert phases[DRAFT] > 30 and moves_offered > 3
    if variant == FACTORY_ONE_SHIFT:
        assert phases[CHOOSE] > 0


def test_a_pass_is_offered_once_a_round_and_taking_it_passes_the_turn():
    env = rl.env(PASS_ONCE, 2)
    env.reset(seed=3)
    pass_action = encoding.MOVE_BASE
    assert env.observe("player_0")["action_mask"][pass_action] == 1
    env.step(pass_action)
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"][pass_action] == 1
    env.step(pass_action)
    assert env.agent_selection == "player_0"
    assert env.observe("player_0")["action_mask"][pass_action] == 0  # passed this round already
    with pytest.raises(ValueError, match=r"\+pass is not on offer now"):
        env.step(pass_action)
    assert env.unwrapped.record()["rounds"][0]["actions"] == ["+pass", "+pass"]


def test_in_the_choose_phase_only_the_choices_are_actions():
    """factory-one-shift: a draft from factory 1 onto a line offers keep / shift before the
    turn passes; the same seat chooses."""
    env = rl.env(FACTORY_ONE_SHIFT, 2)
    env.reset(seed=5)
    rules = env.unwrapped.rules
    game = env.unwrapped.game
    colour = next(c for c in range(5) if game.sources[1][c])
    env.step(encoding.encode((1, colour, 4), rules))  # factory 1 onto line 5
    assert game.phase == CHOOSE and env.agent_selection == "player_0"
    mask = env.observe("player_0")["action_mask"]
    assert np.flatnonzero(mask).tolist() == sorted(encoding.encode(m, rules) for m in game.choices)
    assert mask[encoding.encode(KEEP, rules)] and mask[encoding.encode(shift(5), rules)]
    with pytest.raises(ValueError, match="choose one of"):
        env.step(encoding.encode((0, colour, 0), rules) if game.sources[0][colour] else 0)
    env.step(encoding.encode(shift(0), rules))  # a tile to line 1
    assert game.players[0].line_count[0] == 1 and env.agent_selection == "player_1"
    assert env.unwrapped.record()["rounds"][0]["actions"][-2:] == [f"1{'BYRKW'[colour]}5", "+shift:0"]


def test_openspiel_legal_actions_are_the_engines_in_draft_and_choose():
    state = load_game(FACTORY_ONE_SHIFT, 2).new_initial_state()
    rules = state.engine_state.rules
    rng = np.random.RandomState(3)
    chose = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        engine = state.engine_state
        assert state.current_player() == engine.to_move
        assert state.legal_actions() == sorted(encoding.encode(d, rules) for d in engine.legal_decisions())
        if engine.phase == CHOOSE:
            chose += 1
            assert all(state.action_to_string(a).startswith("+") for a in state.legal_actions())
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert chose > 0


# ------------------------------------------------------------------ memory in the observation

def test_plugin_memory_changes_the_observation():
    env = rl.env(PASS_ONCE, 2)
    rules = env.unwrapped.rules
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(2, rules)}
    assert list(layout)[-2:] == ["viewer_seat", "memory.pass_once"]
    assert encoding.observation_size(2, rules) == encoding.observation_size(2) + 1 + 2 + encoding.MEMORY_SIZE
    env.reset(seed=2)
    memory = part(layout, "memory.pass_once")
    before = env.observe("player_1")["observation"]
    assert before[memory].tolist() == [2, 0, 0] + [0] * (encoding.MEMORY_SIZE - 3)  # two seats, nobody passed
    assert before[part(layout, "viewer_seat")].tolist() == [0, 1]
    env.step(encoding.MOVE_BASE)  # seat 0 passes: only the memory changes
    after = env.observe("player_1")["observation"]
    assert after[memory].tolist()[:3] == [2, 1, 0]
    changed = set(np.flatnonzero(before != after).tolist())
    to_move = part(layout, "to_move")
    assert changed == {to_move.start, to_move.start + 1, memory.start + 1}  # seat 1 to move; seat 0 passed


def test_the_choosing_flag_and_memory_show_a_choice_under_way():
    env = rl.env(FACTORY_ONE_SHIFT, 2)
    rules = env.unwrapped.rules
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(2, rules)}
    env.reset(seed=5)
    game = env.unwrapped.game
    assert env.observe("player_0")["observation"][layout["choosing"][0]] == 0
    colour = next(c for c in range(5) if game.sources[1][c])
    env.step(encoding.encode((1, colour, 2), rules))
    observation = env.observe("player_0")["observation"]
    assert observation[layout["choosing"][0]] == 1
    assert observation[part(layout, "memory.factory_one_shift")].tolist()[:2] == [1, 2]  # line 3 holds the gift
    assert observation[layout["to_move"][0]] == 1  # the chooser is still to move


def test_value_numbers_are_a_fixed_size_coding():
    size = 6
    assert encoding.value_numbers(None, size) == [0] * size
    assert encoding.value_numbers((), size) == [0] * size
    assert encoding.value_numbers(3, size) == [1, 3, 0, 0, 0, 0]
    assert encoding.value_numbers((True, (2, None), -7), size) == [4, 1, 2, 0, -7, 0]
    assert encoding.value_numbers(tuple(range(10)), size) == [10, 0, 1, 2, 3, 4]  # cut short
    assert encoding.value_numbers((10**9,), size)[1] == encoding.OBS_HIGH
    word = encoding.value_numbers("heron", size)
    assert word[0] == 1 and 1 <= word[1] <= 999 and word == encoding.value_numbers("heron", size)
    with pytest.raises(ValueError, match="memory_size"):
        rl.env(PASS_ONCE, 2, memory_size=0)


def test_memory_size_sets_the_numbers_per_plugin():
    small = rl.env(PASS_ONCE, 2, memory_size=3)
    assert small.observation_space("player_0")["observation"].shape == (encoding.observation_size(2) + 1 + 2 + 3,)
    game = load_game(PASS_ONCE, 2, memory_size=3)
    assert game.observation_tensor_size() == encoding.observation_size(2) + 1 + 2 + 3
    assert len(load_game(PASS_ONCE, 2).new_initial_state().observation_tensor(0)) == \
        encoding.observation_size(2) + 1 + 2 + encoding.MEMORY_SIZE


def test_variants_without_plugin_parts_keep_todays_observation():
    for variant, players in (("standard", 2), ("grey-wall", 3)):
        env = rl.env(variant, players)
        assert env.observation_space("player_0")["observation"].shape == (encoding.observation_size(players),)
        rules = env.unwrapped.rules
        assert encoding.observation_layout(players, rules) == encoding.observation_layout(players)


# ------------------------------------------------------------------ hidden information

def with_secret(state, plugin, seat, value):
    """``state`` (an engine state) with ``seat``'s secret of ``plugin`` replaced."""
    values = list(state.secrets[plugin])
    values[seat] = value
    state.secrets = {**state.secrets, plugin: tuple(values)}


def test_an_agent_sees_its_own_secret_word_and_never_another_seats():
    env = rl.env(SECRET_WORDS, 3)
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(3, env.unwrapped.rules)}
    for _agent, _observation in steps(env, seed=4):
        game = env.unwrapped.game
        if game.round > 1:
            break
        words = game.secrets["secret_words"]
        for other in env.agents:
            seat = int(other[-1])
            observation = env.observe(other)["observation"]
            own = observation[part(layout, "secret.secret_words")].tolist()
            assert own == encoding.value_numbers(words[seat])
            others = {encoding.value_numbers(words[k])[1] for k in range(3) if k != seat}
            assert not others & set(observation[part(layout, "secret.secret_words")].tolist())
        text = encoding.observation_text(game.for_seat(0), 0)
        assert words[0] in text and words[1] not in text and words[2] not in text
    render = rl.env(SECRET_WORDS, 2, render_mode="ansi")
    render.reset(seed=1)
    assert not any(word in render.render() for word in render.unwrapped.game.secrets["secret_words"])


def test_another_seats_secret_does_not_change_an_agents_observation():
    """secret-goal: changing seat k's secret changes seat k's observation and nobody else's."""
    env = rl.env(SECRET_GOAL, 3)
    for _step, (_agent, _observation) in zip(range(25), steps(env, seed=6)):
        pass
    game = env.unwrapped.game
    before = {agent: env.observe(agent)["observation"] for agent in env.agents}
    for seat in range(3):
        saved = game.secrets
        with_secret(game, "secret_goal", seat, (game.secrets["secret_goal"][seat] + 1) % 5)
        for agent in env.agents:
            changed = not np.array_equal(env.observe(agent)["observation"], before[agent])
            assert changed == (agent == f"player_{seat}"), (seat, agent)
        game.secrets = saved


def test_openspiel_hides_the_others_secrets_in_every_view():
    game = load_game(SECRET_WORDS, 3)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    rng = np.random.RandomState(8)
    for _ in range(80):
        actions, probabilities = (zip(*state.chance_outcomes()) if state.is_chance_node()
                                  else (state.legal_actions(), None))
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    words = state.engine_state.secrets["secret_words"]
    public = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    for player in range(3):
        texts = [state.information_state_string(player), state.observation_string(player)]
        assert all(words[player] in text for text in texts)
        for other in range(3):
            if other != player:
                assert not any(words[other] in text for text in texts)
        assert not any(word in observer.string_from(state, player) for word in words)
        assert words[0] in str(state) and words[2] in str(state)  # the whole position


def test_openspiel_tensors_and_strings_change_only_with_the_players_own_secret():
    state = load_game(SECRET_GOAL, 3).new_initial_state()
    play_until = 60
    rng = np.random.RandomState(4)
    while len(state.history()) < play_until:
        actions, probabilities = (zip(*state.chance_outcomes()) if state.is_chance_node()
                                  else (state.legal_actions(), None))
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    engine = state.engine_state

    def views():
        return [(state.information_state_string(p), state.information_state_tensor(p),
                 state.observation_string(p), state.observation_tensor(p)) for p in range(3)]

    before = views()
    for seat in range(3):
        saved = engine.secrets
        with_secret(engine, "secret_goal", seat, (engine.secrets["secret_goal"][seat] + 1) % 5)
        after = views()
        for player in range(3):
            for seen, was in zip(after[player], before[player]):
                assert (seen != was) == (player == seat), (seat, player)
        engine.secrets = saved


def test_the_secrets_are_dealt_at_a_chance_node_of_seeds():
    game = load_game(SECRET_GOAL, 2)
    assert game.max_chance_outcomes() == SECRET_DEALS
    state = game.new_initial_state()
    assert state.is_chance_node() and state.engine_state.secrets == {}
    outcomes = state.chance_outcomes()
    assert [a for a, _p in outcomes] == list(range(SECRET_DEALS))
    assert sum(p for _a, p in outcomes) == pytest.approx(1)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 17) == "deal the secrets with seed 17"
    state.apply_action(17)
    rng = random.Random(17)  # what secret_goal.py draws from it: a colour per seat
    expected = tuple(rng.choice(COLOURS) for _ in range(2))
    assert state.engine_state.secrets == {"secret_goal": expected}
    assert state.is_chance_node() and state.chance_outcomes()[0] == (0, 0.2)  # the first fill
    # Perfect information stays so, with the tiles' chance nodes only.
    standard = load_game("standard", 2)
    assert standard.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert standard.max_chance_outcomes() == 5
    assert load_game(PASS_ONCE, 2).get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION


def test_clone_and_serialize_keep_the_secrets_and_the_memory():
    game = load_game(SECRET_GOAL, 2)
    state = play_spiel_steps(game.new_initial_state(), 70, np.random.RandomState(5))
    clone = state.clone()
    restored = game.deserialize_state(state.serialize())
    for copy in (clone, restored):
        assert copy.engine_state.secrets == state.engine_state.secrets
        assert str(copy) == str(state) and copy.history() == state.history()
    a = play_spiel(state, np.random.RandomState(9))
    b = play_spiel(restored, np.random.RandomState(9))
    assert a.returns() == b.returns()
    passing = play_spiel_steps(load_game(PASS_ONCE, 2).new_initial_state(), 30, np.random.RandomState(1),
                               prefer=lambda legal: encoding.MOVE_BASE if encoding.MOVE_BASE in legal else None)
    again = passing.get_game().deserialize_state(passing.serialize())
    assert again.engine_state.memory == passing.engine_state.memory == {"pass_once": (True, True)}


def play_spiel_steps(state, count, rng, prefer=None):
    while len(state.history()) < count and not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            legal = state.legal_actions()
            chosen = prefer(legal) if prefer else None
            state.apply_action(int(rng.choice(legal)) if chosen is None else chosen)
    return state


@pytest.mark.parametrize("variant", [PASS_ONCE, SECRET_GOAL], ids=["pass-once", "secret-goal"])
def test_mcts_plays_whole_games_and_the_record_validates(variant, tmp_path):
    game = load_game(variant, 2)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=rng)
    state = play_openspiel(game, bot.step, rng)
    path = tmp_path / "mcts.json"
    state.record(path)
    report = validate_record(path, trust=trust(variant))
    assert report["valid"], report["errors"]
    assert report["scores"] == state.engine_state.scores()


def test_resampling_deals_the_others_secrets_again_and_keeps_the_players_own():
    game = load_game(SECRET_GOAL, 2)
    state = play_spiel_steps(game.new_initial_state(), 60, np.random.RandomState(1))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    others = set()
    for _ in range(15):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        assert world.history()[1:] == state.history()[1:]
        secrets = world.engine_state.secrets["secret_goal"]
        assert secrets[player] == state.engine_state.secrets["secret_goal"][player]
        others.add(secrets[1 - player])
    assert len(others) > 1
    plain = play_spiel_steps(load_game("standard", 2).new_initial_state(), 30, np.random.RandomState(1))
    assert str(plain.resample_from_infostate(0, sampler)) == str(plain)


def test_resampling_keeps_only_the_deals_under_which_the_moves_taken_were_legal():
    """secret-pass: a seat may pass only if its secret says so, so once seat 1 has passed,
    every world seat 0 imagines gives seat 1 that right."""
    game = load_game(SECRET_PASS, 2)
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    for seed in range(SECRET_DEALS):
        secrets = game.secret_deals()[seed]["secret_pass"]
        if secrets == (False, True):
            break
    state = game.new_initial_state()
    state.apply_action(seed)
    rng = np.random.RandomState(0)
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    assert encoding.MOVE_BASE not in state.legal_actions()  # seat 0 may not pass
    state.apply_action(int(state.legal_actions()[0]))  # seat 0 drafts
    assert encoding.MOVE_BASE in state.legal_actions()
    state.apply_action(encoding.MOVE_BASE)  # seat 1 passes
    worlds = [state.resample_from_infostate(0, sampler).engine_state.secrets["secret_pass"]
              for _ in range(20)]
    assert worlds == [(False, True)] * 20
    # Before the pass, seat 1's right was unknown to seat 0.
    before = game.new_initial_state()
    for action in state.history()[:-1]:
        before.apply_action(action)
    assert {before.resample_from_infostate(0, sampler).engine_state.secrets["secret_pass"][1]
            for _ in range(20)} == {False, True}


def test_ismcts_plays_a_whole_game_with_secrets():
    assert play_with_ismcts(load_game(SECRET_GOAL, 2)).engine_state.over


# ------------------------------------------------------------------ records

def azul_validate(variant, path):
    done = subprocess.run([sys.executable, "-m", "azul_core.cli", "validate", "--json", "--variant",
                           variant, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.splitlines()[0])


@pytest.mark.parametrize("case", PLUGIN_MOVES, ids=label)
def test_records_from_pettingzoo_validate_with_the_variant_file(case, tmp_path):
    variant, players = case
    env = rl.env(variant, players)
    for _ in steps(env, seed=21):
        pass
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    game = env.unwrapped.game
    if variant == SECRET_GOAL:
        assert data["secrets"] == {"secret_goal": list(game.secrets["secret_goal"])}
    moves = [a for r in data["rounds"] for a in r["actions"] if a.startswith("+")]
    assert bool(moves) == (variant != SECRET_GOAL)
    report = azul_validate(variant, path)
    assert report["valid"] and report["finished"]
    assert report["scores"] == game.scores() == data["result"]["scores"]


@pytest.mark.parametrize("case", PLUGIN_MOVES, ids=label)
def test_records_from_openspiel_validate_with_the_variant_file(case, tmp_path):
    variant, players = case
    state = play_spiel(load_game(variant, players).new_initial_state(), np.random.RandomState(12))
    path = tmp_path / "game.json"
    data = state.record(path)
    if variant == SECRET_GOAL:
        assert data["secrets"] == {"secret_goal": list(state.engine_state.secrets["secret_goal"])}
    report = azul_validate(variant, path)
    assert report["valid"] and report["finished"]
    assert report["scores"] == state.engine_state.scores() == data["result"]["scores"]
