"""Tile kinds (issue 20) in both RL adapters: a variant's extra kinds of tile (the wild tile of
examples/wild-tiles, letter J) and its own counts per colour (the test house rule fewer-white:
16 white tiles), alone and together (wild-fewer-white), and a count beyond 1000 (many-blue)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_variants import (  # noqa: E402
    ALL,
    FEWER_WHITE,
    MANY_BLUE,
    PLUGIN_MOVES,
    TILE_KINDS,
    WILD_FEWER_WHITE,
    WILD_TILES,
    label,
    trust,
)

import azul_core.rl as rl  # noqa: E402
import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.colours import MARKER  # noqa: E402
from azul_core.engine.state import DEAL, OVER, PLACE  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402

DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")
WILD = 5  # the wild tile's kind in examples/wild-tiles


def load_game(variant, players, **extra):
    return pyspiel.load_game("python_azul", {"variant": variant, "players": players, **extra})


def layout_of(players, rules):
    return {name: (start, size) for name, start, size in encoding.observation_layout(players, rules)}


def steps(env, seed, policy_seed=0):
    """One PettingZoo game with a seeded random policy over the mask, yielding before each action."""
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, observation
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def spiel_steps(state, rng):
    """An OpenSpiel game to the end (chance by its odds, players uniformly), yielding each node."""
    while not state.is_terminal():
        yield state
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def reference(state, viewer, layout):
    """The observation of ``state`` from ``viewer``'s seat, worked out part by part from the
    engine's state, as docs/ai.md describes it (the encoding's fast path must agree)."""
    kinds = state.kinds
    players = len(state.players)
    playing = state.phase not in (DEAL, OVER)
    vector = np.zeros(sum(size for _start, size in layout.values()), np.float32)

    def put(name, values):
        start, size = layout[name]
        assert len(values) == size, name
        vector[start:start + size] = values

    factories = [count for source in state.sources[1:] for count in source]
    put("factories", factories + [0] * (encoding.MAX_FACTORIES * kinds - len(factories)))
    put("centre", state.sources[0])
    put("marker_in_centre", [int(state.marker_in_centre and playing)])
    put("bag", [state.bag.count(kind) for kind in range(kinds)])
    put("lid", state.lid)
    put("round", [min(state.round, 255)])
    put("placing_row", [int(state.phase == PLACE and state.placing[1] == row) for row in range(5)])
    put("to_move", [int(playing and (state.to_move - viewer) % players == k) for k in range(players)])
    for k in range(players):
        seat = (viewer + k) % players
        board = state.players[seat]
        put(f"seat+{k}.floor_tiles", [len(board.floor)])
        put(f"seat+{k}.marker_on_floor", [int(MARKER in board.floor)])
        put(f"seat+{k}.holds_marker", [int(state.marker_holder == seat)])
        put(f"seat+{k}.score", [board.score])
        put(f"seat+{k}.lines", [board.line_count[row] if board.line_count[row] and board.line_colour[row] == colour
                                else 0 for row in range(5) for colour in range(5)])
        put(f"seat+{k}.wall", [int(board.wall[row][column] == colour)
                               for row in range(5) for column in range(5) for colour in range(5)])
        if kinds > 5:
            put(f"seat+{k}.floor_extra", [board.floor.count(kind) for kind in range(5, kinds)])
            put(f"seat+{k}.line_extra", [board.line_extra[row].count(kind)
                                         for row in range(5) for kind in range(5, kinds)])
    return vector


def extra_totals(observation, layout, kinds, players):
    """Per extra kind, the tiles the observation counts anywhere (table, floors, lines)."""
    def part(name):
        start, size = layout[name]
        return observation[start:start + size]

    totals = []
    for extra in range(kinds - 5):
        kind = 5 + extra
        total = part("factories")[kind::kinds].sum() + part("centre")[kind] + part("bag")[kind] + part("lid")[kind]
        for k in range(players):
            total += part(f"seat+{k}.floor_extra")[extra] + part(f"seat+{k}.line_extra")[extra::kinds - 5].sum()
        totals.append(int(total))
    return totals


# ------------------------------------------------------------------ the libraries' own checks

@pytest.mark.parametrize("case", TILE_KINDS, ids=label)
def test_pettingzoos_api_test_passes(case):
    variant, players = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(variant, players), num_cycles=400)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}


@pytest.mark.parametrize("case", TILE_KINDS, ids=label)
def test_pettingzoos_seed_test_passes(case):
    variant, players = case
    seed_test(lambda: rl.env(variant, players), num_cycles=300)


@pytest.mark.parametrize("case", TILE_KINDS, ids=label)
def test_openspiels_random_simulation_checks_pass(case):
    variant, players = case
    pyspiel.random_sim_test(load_game(variant, players), num_sims=2, serialize=True, verbose=False)


# ------------------------------------------------------------------ observations

def test_the_layout_counts_every_kind_and_five_colours_keep_todays():
    for variant, players in (("standard", 2), (FEWER_WHITE, 2), (FEWER_WHITE, 4)):
        rules = rl.env(variant, players).unwrapped.rules
        assert encoding.observation_layout(players, rules) == encoding.observation_layout(players)
        assert rl.env(variant, players).observation_space("player_0")["observation"] == \
            rl.env("standard", players).observation_space("player_0")["observation"]
    rules = rl.env(WILD_TILES, 2).unwrapped.rules
    layout = layout_of(2, rules)
    assert encoding.table_kinds(2, rules) == 6
    assert [layout[name][1] for name in ("factories", "centre", "bag", "lid")] == [54, 6, 6, 6]
    assert layout["seat+0.floor_extra"] == (layout["seat+0.holds_marker"][0] + 1, 1)
    assert layout["seat+1.line_extra"][1] == 5
    # 12 more on the table (a wild count in 9 factories, centre, bag, lid), 6 more per seat
    assert encoding.observation_size(2, rules) == encoding.observation_size(2) + 12 + 2 * 6 == 401
    assert rl.env(WILD_TILES, 2).observation_space("player_0")["observation"].shape == (401,)
    assert load_game(WILD_TILES, 2).observation_tensor_size() == 401


@pytest.mark.parametrize("case", [*TILE_KINDS, ("standard", 2), ("grey-wall", 3)], ids=label)
def test_every_observation_is_the_engines_position_within_its_bounds(case):
    """At every step, each agent's observation is the position part by part (the reference),
    within ``observation_bounds`` (from the variant's tile counts) and the Box; every kind of
    tile adds up to the variant's count in the engine and in the observation."""
    variant, players = case
    env = rl.env(variant, players)
    rules = env.unwrapped.rules
    layout = layout_of(players, rules)
    low, high = encoding.observation_bounds(players, rules)
    space = env.observation_space("player_0")["observation"]
    kind_counts = list(env.unwrapped._start.table.kind_counts)
    seen = 0
    for _agent, _observation in steps(env, seed=8):
        game = env.unwrapped.game
        assert game.tile_counts() == kind_counts
        for other in env.agents:
            observation = env.observe(other)["observation"]
            seat = env.possible_agents.index(other)
            assert observation.tolist() == reference(game, seat, layout).tolist()
            assert (low <= observation).all() and (observation <= high).all(), \
                [(name, observation[s:s + n]) for name, (s, n) in layout.items()
                 if not ((low[s:s + n] <= observation[s:s + n]) & (observation[s:s + n] <= high[s:s + n])).all()]
            assert space.contains(observation)
            if game.kinds > 5:
                assert sum(game.removed) == 0
                assert extra_totals(observation, layout, game.kinds, players) == kind_counts[5:]
        seen += 1
    assert seen > 40


@pytest.mark.parametrize("case", [c for c in ALL + PLUGIN_MOVES if c[0] != "grey-wall" or c[1] != 3], ids=label)
def test_the_bounds_hold_in_every_variant(case):
    """The other variants (line sizes, floors, plugin memory and secrets): every number within
    ``observation_bounds`` at every step."""
    variant, players = case
    env = rl.env(variant, players)
    low, high = encoding.observation_bounds(players, env.unwrapped.rules)
    for _agent, _observation in steps(env, seed=5):
        for other in env.agents:
            observation = env.observe(other)["observation"]
            assert (low <= observation).all() and (observation <= high).all()


def test_the_bounds_come_from_the_variants_tile_counts():
    rules = rl.env(WILD_FEWER_WHITE, 3).unwrapped.rules
    layout = layout_of(3, rules)
    low, high = encoding.observation_bounds(3, rules)
    bag = slice(*(lambda s, n: (s, s + n))(*layout["bag"]))
    assert high[bag].tolist() == [20, 20, 20, 20, 16, 10] and low[bag].tolist() == [0] * 6
    start, _size = layout["factories"]
    assert high[start:start + 6 * 7].tolist() == [20, 20, 20, 20, 16, 10] * 7  # 3 players: 7 factories
    assert high[start + 6 * 7:start + 6 * 9].tolist() == [0] * 12  # the factories the table lacks
    assert high[layout["seat+2.floor_extra"][0]] == 7  # the floor's spaces
    line_extra = layout["seat+0.line_extra"][0]
    assert high[line_extra:line_extra + 5].tolist() == [1, 2, 3, 4, 5]  # the lines' capacities
    assert high[layout["seat+0.score"][0]] == encoding.OBS_HIGH
    # A kind of more than 1000 tiles raises the Box's bound: its count is kept, not clipped.
    env = rl.env(MANY_BLUE, 2)
    assert env.observation_space("player_0")["observation"].high.max() == 1200
    env.reset(seed=1)
    game = env.unwrapped.game
    observation = env.observe("player_0")["observation"]
    assert observation[layout_of(2, env.unwrapped.rules)["bag"][0]] == game.bag.count(0) > 1000
    assert env.observation_space("player_0")["observation"].contains(observation)
    assert rl.env("standard", 2).observation_space("player_0")["observation"].high.max() == encoding.OBS_HIGH


def test_wild_tiles_on_the_floor_and_on_the_lines_show_in_the_observation():
    env = rl.env(WILD_TILES, 2)
    rules = env.unwrapped.rules
    layout = layout_of(2, rules)
    env.reset(seed=3)
    game = env.unwrapped.game
    source = next(s for s in range(1, len(game.sources)) if game.sources[s][WILD])
    colour = next(c for c in range(5) if game.sources[source][c])
    taken = game.sources[source][colour]
    env.step(encoding.encode((source, colour, 4)))  # onto line 5: the wild tile stands in
    assert game.players[0].line_extra[4] == (WILD,) and game.players[0].line_count[4] == taken + 1
    observation = env.observe("player_0")["observation"]
    start, _size = layout["seat+0.line_extra"]
    assert observation[start + 4] == 1
    start, _size = layout["seat+0.lines"]
    assert observation[start + 4 * 5 + colour] == taken + 1  # the wild tile fills the line too
    assert env.observe("player_1")["observation"][layout["seat+1.line_extra"][0] + 4] == 1  # seen from seat 1
    text = encoding.observation_text(game, 0)
    assert f"{'BYRKW'[colour]}{taken + 1}:J" in text and "bag B" in text and " J" in text
    # A wild tile sent to the floor counts there.
    env.reset(seed=3)
    env.step(encoding.encode((source, colour, 5)))
    observation = env.observe("player_1")["observation"]
    assert observation[layout["seat+1.floor_extra"][0]] == 1  # seen from the next seat
    assert "J" in encoding.observation_text(env.unwrapped.game, 0).split("seat+0:")[1].split("floor")[1]


# ------------------------------------------------------------------ actions

@pytest.mark.parametrize("case", [(WILD_TILES, 2), (WILD_FEWER_WHITE, 3)], ids=label)
def test_actions_stay_drafts_of_the_five_colours(case):
    variant, players = case
    env = rl.env(variant, players)
    assert env.action_space("player_0").n == encoding.NUM_ACTIONS
    assert load_game(variant, players).num_distinct_actions() == encoding.NUM_ACTIONS
    for _agent, observation in steps(env, seed=2):
        game = env.unwrapped.game
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal == sorted(encoding.encode(d) for d in game.legal_decisions())
        assert all(encoding.decode(a, game)[1] < 5 for a in legal if a < encoding.PLACE_BASE)


# ------------------------------------------------------------------ OpenSpiel's chance nodes

def test_the_chance_nodes_deal_every_kind_by_its_share_of_the_bag():
    game = load_game(WILD_FEWER_WHITE, 2)
    assert game.max_chance_outcomes() == 6
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 20 / 106), (1, 20 / 106), (2, 20 / 106), (3, 20 / 106),
                                       (4, 16 / 106), (5, 10 / 106)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, WILD) == "draw wild"
    state.apply_action(WILD)
    assert state.chance_outcomes()[-1] == (5, 9 / 105)
    assert "filling: J" in str(state)
    for kind in (WILD, 4, 4, 0, 1, 2, 3):  # the rest of factory 1, then factory 2
        state.apply_action(kind)
    assert state.episode.drawn[:2] == [[0, 0, 0, 0, 2, 2], [1, 1, 1, 1, 0, 0]]
    assert "filling: WWJJ BYRK - -" in str(state)
    with pytest.raises(ValueError, match="no kind of tile 6"):
        state.episode.draw(6)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    engine = state.engine_state  # the fill laid by the engine
    assert engine.sources[1:3] == [[0, 0, 0, 0, 2, 2], [1, 1, 1, 1, 0, 0]]
    assert engine.tile_counts() == [20, 20, 20, 20, 16, 10]
    assert sum(source[WILD] for source in engine.sources) == 10  # the last kind, drawn while left
    assert "J" in state.observation_string(0).split("|")[0]
    assert standard_chance_outcomes() == [(colour, 0.2) for colour in range(5)]


def standard_chance_outcomes():
    return load_game("standard", 2).new_initial_state().chance_outcomes()


def test_the_draws_follow_the_bags_odds():
    """Over many first draws, each kind comes out about as often as its share of the bag."""
    state = load_game(WILD_TILES, 2).new_initial_state()
    rng = np.random.RandomState(0)
    actions, probabilities = zip(*state.chance_outcomes())
    drawn = rng.choice(actions, size=20000, p=probabilities)
    assert np.bincount(drawn, minlength=6)[WILD] / 20000 == pytest.approx(10 / 110, abs=0.01)


@pytest.mark.parametrize("case", [(WILD_TILES, 2), (WILD_FEWER_WHITE, 3)], ids=label)
def test_openspiel_observations_clone_and_serialize_keep_every_kind(case):
    variant, players = case
    game = load_game(variant, players)
    rules = game.rules
    layout = layout_of(players, rules)
    low, high = encoding.observation_bounds(players, rules)
    state = game.new_initial_state()
    kind_counts = list(state.engine_state.table.kind_counts)
    for at, node in enumerate(spiel_steps(state, np.random.RandomState(4))):
        engine = node.engine_state
        assert engine.tile_counts() == kind_counts
        for player in range(players):
            tensor = np.asarray(node.observation_tensor(player), np.float32)
            assert tensor.tolist() == reference(engine, player, layout).tolist()
            assert (low <= tensor).all() and (tensor <= high).all()
        if at % 37 == 0:  # in the middle of fills too
            for copy in (node.clone(), game.deserialize_state(node.serialize())):
                assert str(copy) == str(node) and copy.history() == node.history()
                if node.is_chance_node():
                    assert copy.chance_outcomes() == node.chance_outcomes()
    wild_letters = sum(f.count("J") for r in state.record()["rounds"] for f in r["factories"])
    assert wild_letters > 0


# ------------------------------------------------------------------ records

def azul_validate(variant, path):
    done = subprocess.run([sys.executable, "-m", "azul_core.cli", "validate", "--json", "--variant",
                           variant, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.splitlines()[0])


@pytest.mark.parametrize("case", TILE_KINDS, ids=label)
def test_records_from_pettingzoo_validate_with_the_variant_file(case, tmp_path):
    variant, players = case
    env = rl.env(variant, players)
    for _ in steps(env, seed=21):
        pass
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    factories = "".join(f for r in data["rounds"] for f in r["factories"])
    assert ("J" in factories) == (variant != FEWER_WHITE)
    report = azul_validate(variant, path)
    assert report["valid"] and report["finished"]
    assert report["scores"] == env.unwrapped.game.scores() == data["result"]["scores"]


@pytest.mark.parametrize("case", TILE_KINDS, ids=label)
def test_records_from_openspiel_validate_with_the_variant_file(case, tmp_path):
    variant, players = case
    state = load_game(variant, players).new_initial_state()
    for _ in spiel_steps(state, np.random.RandomState(12)):
        pass
    path = tmp_path / "game.json"
    data = state.record(path)
    factories = "".join(f for r in data["rounds"] for f in r["factories"])
    assert ("J" in factories) == (variant != FEWER_WHITE)
    report = azul_validate(variant, path)
    assert report["valid"] and report["finished"]
    assert report["scores"] == state.engine_state.scores() == data["result"]["scores"]
    assert validate_record(path, trust=trust(variant))["valid"]
