"""A plugin move on another seat's board (examples/take-a-tile, issue 40) in both RL adapters:
each take is an action, whole games with takes keep every tile and validate, and the
observation of the seat a tile was taken from shows its line one tile shorter. Also a move
whose transfer empties the bag: the PettingZoo observation's bag follows it."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_variants import ROOT, trust  # noqa: E402

import azul_core.rl as rl  # noqa: E402
import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.colours import COLOURS  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rules import Move  # noqa: E402

TAKE_A_TILE = str(ROOT / "examples" / "take-a-tile" / "take-a-tile.yaml")
#: every take the example declares: (seats ahead, row) for 3 seats ahead at most, 5 rows
TAKES = [Move("take", (ahead, row)) for ahead in (1, 2, 3) for row in range(5)]
EVERY_TILE = [20] * 5

BAG_TO_LID = '''"""Once a game, instead of drafting, a seat may tip two tiles of the bag's first colour
into the lid."""
from azul_core import hookimpl
from azul_core.rules import BAG, LID, Move, Outcome, Transfer

AZUL_API = 1
__version__ = "1.0"
TIP = Move("tip", label="Tip two tiles of the bag into the lid")


@hookimpl
def azul_declare_moves():
    return [TIP]


@hookimpl
def azul_initial_memory(players):
    return False


@hookimpl
def azul_offer_moves(stage, game, memory):
    return [TIP] if stage == "turn" and not memory and max(game.bag[:5]) >= 2 else None


@hookimpl
def azul_apply_move(game, memory):
    colour = next(kind for kind in range(5) if game.bag[kind] >= 2)
    return Outcome(memory=True, transfers=(Transfer(BAG, LID, colour, 2),))
'''


DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")


@pytest.mark.parametrize("players", [2, 3])
def test_pettingzoos_api_and_seed_tests_and_openspiels_random_simulation_pass(players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(TAKE_A_TILE, players), num_cycles=400)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}
    seed_test(lambda: rl.env(TAKE_A_TILE, players), num_cycles=300)
    game = pyspiel.load_game("python_azul", {"variant": TAKE_A_TILE, "players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def take_actions(rules) -> set[int]:
    return {encoding.encode(move, rules) for move in TAKES}


def lines_of(observation, layout, relative_seat: int) -> np.ndarray:
    """The pattern lines block of the seat ``relative_seat`` places after the viewer, as
    (row, colour) counts."""
    start, size = layout[f"seat+{relative_seat}.lines"]
    return observation[start:start + size].reshape(5, 5)


def test_each_take_is_an_action_named_by_its_notation():
    env = rl.env(TAKE_A_TILE, 3)
    env.reset(seed=1)
    rules = env.unwrapped.rules
    assert env.action_space("player_0").n == encoding.NUM_ACTIONS + len(TAKES)
    assert [encoding.encode(move, rules) for move in TAKES] == list(range(encoding.MOVE_BASE, encoding.MOVE_BASE + 15))
    assert encoding.action_name(encoding.encode(Move("take", (2, 3)), rules), rules) == "+take:2:3"
    assert encoding.decode(encoding.MOVE_BASE + 8, env.unwrapped.game) == Move("take", (2, 3))
    assert pyspiel.load_game("python_azul", {"variant": TAKE_A_TILE, "players": 3}).num_distinct_actions() == \
        encoding.NUM_ACTIONS + len(TAKES)


def prefer_a_take(actions, rules):
    takes = sorted(take_actions(rules) & set(int(a) for a in actions))
    return takes[0] if takes else None


@pytest.mark.parametrize("players", [2, 3])
def test_a_pettingzoo_game_with_takes_keeps_every_tile_and_its_record_validates(players, tmp_path):
    env = rl.env(TAKE_A_TILE, players)
    rules = env.unwrapped.rules
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    taken = []
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        take = prefer_a_take(legal, rules)
        if take is not None:
            taken.append((agent, encoding.action_name(take, rules)))
        env.step(take if take is not None else int(legal[rng.integers(len(legal))]))
        assert env.unwrapped.game.tile_counts() == EVERY_TILE
    game = env.unwrapped.game
    assert game.over and len(taken) == players, taken     # each seat once a game
    assert game.memory["take_a_tile"] == (True,) * players
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    assert sum(action.startswith("+take:") for entry in data["rounds"] for action in entry["actions"]) == players
    report = validate_record(path, trust=trust(TAKE_A_TILE))
    assert report["valid"] and report["finished"], report["errors"]
    assert report["scores"] == game.scores()


@pytest.mark.parametrize("players", [2, 3])
def test_an_openspiel_game_with_takes_keeps_every_tile_and_its_record_validates(players, tmp_path):
    game = pyspiel.load_game("python_azul", {"variant": TAKE_A_TILE, "players": players})
    state = game.new_initial_state()
    rules = state.engine_state.rules
    rng = np.random.RandomState(players)
    taken = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        legal = state.legal_actions()
        take = prefer_a_take(legal, rules)
        taken += take is not None
        state.apply_action(take if take is not None else int(rng.choice(legal)))
        assert state.engine_state.tile_counts() == EVERY_TILE
    assert taken == players and state.engine_state.memory["take_a_tile"] == (True,) * players
    path = tmp_path / "game.json"
    state.record(path)
    report = validate_record(path, trust=trust(TAKE_A_TILE))
    assert report["valid"] and report["finished"], report["errors"]


def first_take(env, seed: int):
    """Play randomly from ``seed`` until a take is on offer: (the take's action, the seat it
    takes from, the row)."""
    env.reset(seed=seed)
    rules = env.unwrapped.rules
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        legal = np.flatnonzero(env.last()[0]["action_mask"])
        take = prefer_a_take(legal, rules)
        if take is not None:
            move = encoding.decode(take, env.unwrapped.game)
            ahead, row = move.args
            return take, (env.unwrapped.game.to_move + ahead) % len(env.possible_agents), row
        env.step(int(legal[rng.integers(len(legal))]))
    raise AssertionError("no take was ever offered")


def test_the_observations_of_a_line_a_tile_was_taken_from_show_it_one_tile_shorter():
    env = rl.env(TAKE_A_TILE, 3)
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(3, env.unwrapped.rules)}
    take, victim, row = first_take(env, seed=4)
    game = env.unwrapped.game
    mover = game.to_move
    colour = game.players[victim].line_colour[row]
    before = {agent: env.observe(agent)["observation"] for agent in env.agents}
    env.step(take)
    after = {agent: env.observe(agent)["observation"] for agent in env.agents}
    for viewer in range(3):
        agent = f"player_{viewer}"
        was = lines_of(before[agent], layout, (victim - viewer) % 3)
        now = lines_of(after[agent], layout, (victim - viewer) % 3)
        assert now[row, colour] == was[row, colour] - 1, (viewer, victim, row)
        changed = np.argwhere(now != was).tolist()
        assert changed == [[row, colour]]
        # The tile reached the mover's board: its own line, or its floor.
        movers = (mover - viewer) % 3
        floor = layout[f"seat+{movers}.floor_tiles"][0]
        tiles_after = lines_of(after[agent], layout, movers).sum() + after[agent][floor]
        tiles_before = lines_of(before[agent], layout, movers).sum() + before[agent][floor]
        assert tiles_after - tiles_before == 1


def test_the_openspiel_observation_of_the_other_seat_changes_after_a_take():
    game = pyspiel.load_game("python_azul", {"variant": TAKE_A_TILE, "players": 2})
    state = game.new_initial_state()
    rules = state.engine_state.rules
    rng = np.random.RandomState(4)
    while True:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        take = prefer_a_take(state.legal_actions(), rules)
        if take is not None:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    mover = state.current_player()
    victim = 1 - mover
    row = encoding.decode(take, state.engine_state).args[1]
    count = state.engine_state.players[victim].line_count[row]
    text_before = state.observation_string(victim)
    tensor_before = np.asarray(state.observation_tensor(victim))
    state.apply_action(take)
    assert state.engine_state.players[victim].line_count[row] == count - 1
    assert state.observation_string(victim) != text_before
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(2, rules)}
    lines = lines_of(np.asarray(state.observation_tensor(victim)), layout, 0)
    assert lines.sum() == lines_of(tensor_before, layout, 0).sum() - 1


@pytest.fixture
def tip_variant(tmp_path):
    (tmp_path / "tip_bag.py").write_text(BAG_TO_LID)
    variant = tmp_path / "tip-bag.yaml"
    variant.write_text("name: tip-bag\ndescription: a move that tips tiles from the bag into the lid\n"
                       "extends: standard\nplugins: [standard, colour_wall, tip_bag.py]\n")
    return str(variant)


def test_the_pettingzoo_observation_of_the_bag_and_lid_follows_a_transfer_from_the_bag(tip_variant):
    """The bag's counts were kept from the deal to the next (a draft never changes the bag):
    a plugin's transfer does."""
    env = rl.env(tip_variant, 2)
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(2, env.unwrapped.rules)}
    env.reset(seed=1)
    env.step(encoding.MOVE_BASE)
    game = env.unwrapped.game
    observation = env.observe("player_1")["observation"]
    start, size = layout["bag"]
    assert observation[start:start + size].tolist() == [game.bag.count(c) for c in COLOURS]
    start, size = layout["lid"]
    assert observation[start:start + size].tolist() == list(game.lid) and sum(game.lid) == 2
