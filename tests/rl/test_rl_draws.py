"""A rule's draws from the bag (issue 40: ``rules.Draw``, the engine's phase DRAW) in both RL
adapters, with examples/refill-factories (after a turn that leaves one factory holding
tiles, the player who just played may refill the empty ones from the bag).

OpenSpiel draws them at chance nodes, one tile at a time, each kind with its share of the
bag (the lid poured in when it runs out, stopping when both are empty); its records write
them (``~RRB``) and validate; a state copied in the middle of a draw goes on as the
original. PettingZoo draws them from the environment's generator, as its deals: no agent
ever acts in phase DRAW."""

from __future__ import annotations

import copy
import pickle

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from rl_variants import REFILL_FACTORIES, SECRET_GOAL_REFILL, play_openspiel, trust  # noqa: E402

import azul_core.rl as rl  # noqa: E402
import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.engine.state import DRAW  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rl.game import MAX_ROUNDS  # noqa: E402
from azul_core.rl.openspiel import max_decisions  # noqa: E402
from azul_core.rules import Move  # noqa: E402

EVERY_TILE = [20] * 5
REFILL = Move("refill")


def load_game(players=2):
    return pyspiel.load_game("python_azul", {"variant": REFILL_FACTORIES, "players": players})


def refill_when_offered(state) -> int:
    """Always refill; otherwise the first legal action."""
    refill = encoding.encode(REFILL, state.engine_state.rules)
    legal = state.legal_actions()
    return refill if refill in legal else legal[0]


def random_step(seed: int):
    rng = np.random.RandomState(seed)
    return lambda state: int(rng.choice(state.legal_actions()))


def drawn_actions(record: dict) -> list[str]:
    return [action for entry in record["rounds"] for action in entry["actions"] if action.startswith("~")]


def check_validates(state, tmp_path) -> dict:
    path = tmp_path / "game.json"
    data = state.record(path)
    report = validate_record(path, trust=trust(REFILL_FACTORIES))
    assert report["valid"] and report["finished"], report["errors"]
    assert report["scores"] == state.engine_state.scores() == data["result"]["scores"]
    return data


# ------------------------------------------------------------------ OpenSpiel


@pytest.mark.parametrize("players", [2, 3])
def test_an_openspiel_game_draws_the_refills_at_chance_nodes_and_its_record_validates(players, tmp_path):
    game = load_game(players)
    rng = np.random.RandomState(players)
    state = game.new_initial_state()
    rule_draw_nodes_seen = 0
    while not state.is_terminal():
        engine = state.engine_state
        if state.is_chance_node():
            rule_draw_nodes_seen += engine.phase == DRAW
            actions, probabilities = zip(*state.chance_outcomes())
            assert max(actions) < game.max_chance_outcomes()
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            assert engine.phase != DRAW and state.current_player() == engine.to_move
            state.apply_action(refill_when_offered(state))
        assert state.engine_state.tile_counts() == EVERY_TILE
    data = check_validates(state, tmp_path)
    drawn = drawn_actions(data)
    assert rule_draw_nodes_seen == sum(len(action) - 1 for action in drawn) > 0
    assert all(len(action) <= 5 for action in drawn)  # a factory's four tiles at most


def test_games_played_with_play_openspiel_end_validate_and_stay_within_the_length_bound(tmp_path):
    game = load_game()
    for seed, policy in ((1, random_step(1)), (2, refill_when_offered)):
        decisions = []

        def step(state, policy=policy, decisions=decisions):
            decisions.append(state.engine_state.phase)
            return policy(state)

        state = play_openspiel(game, step, np.random.RandomState(seed))
        assert state.engine_state.over and DRAW not in decisions
        assert drawn_actions(check_validates(state, tmp_path))
        assert len(decisions) <= game.max_game_length()


def test_the_length_bound_counts_every_tile_drafted_each_round_where_a_rule_may_draw():
    """A refill puts more tiles on the table than a round's fill: up to every tile of the game
    (100) may be drafted in a round. A variant without plugin moves draws no more than its
    fill (20 tiles with 2 players)."""
    refill, standard = load_game(), pyspiel.load_game("python_azul", {"variant": "standard", "players": 2})
    assert refill.max_game_length() == max_decisions(refill.rules, 2, 100, MAX_ROUNDS)
    assert refill.max_game_length() > max_decisions(refill.rules, 2, 20, MAX_ROUNDS)
    assert standard.max_game_length() == max_decisions(standard.rules, 2, 20, MAX_ROUNDS)


def test_a_rule_draws_chance_outcomes_are_the_bags_shares_and_the_lid_is_poured_in():
    """At every chance node of a rule's draw the outcomes are the kinds left to draw, each with
    its share: of the bag, less the tiles drawn so far in this draw; once the bag is drawn
    out, of the bag and the lid poured in. (Seeds 3 and 5 have a refill during which the bag
    runs out.)"""
    game = load_game()
    nodes = poured = 0
    for seed in range(6):
        state = game.new_initial_state()
        rng = np.random.RandomState(seed)
        taken, waiting = None, None  # the tiles drawn so far in the draw under way, by kind
        while not state.is_terminal():
            engine = state.engine_state
            if not state.is_chance_node():
                taken = None
                state.apply_action(int(rng.choice(state.legal_actions())))
                continue
            if engine.phase != DRAW:  # a fill
                taken = None
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probabilities)))
                continue
            if taken is None or waiting != len(engine.drawing):  # a draw begins
                taken, waiting = [0] * engine.kinds, len(engine.drawing)
            bag = [engine.bag.count(kind) for kind in range(engine.kinds)]
            if sum(taken) >= len(engine.bag):
                poured += sum(taken) == len(engine.bag) > 0
                pool = [held + more - n for held, more, n in zip(bag, engine.lid, taken)]
            else:
                pool = [held - n for held, n in zip(bag, taken)]
            outcomes = state.chance_outcomes()
            assert outcomes == [(kind, count / sum(pool)) for kind, count in enumerate(pool) if count]
            assert sum(p for _kind, p in outcomes) == pytest.approx(1.0)
            assert state.legal_actions() == [kind for kind, _p in outcomes]
            target = engine.drawing[0][2].target
            kind = int(rng.choice([k for k, _p in outcomes], p=[p for _k, p in outcomes]))
            assert state.action_to_string(kind) == f"draw {engine.table.kind_names[kind]} onto {target}"
            taken[kind] += 1
            state.apply_action(kind)
            nodes += 1
    assert nodes > 100 and poured >= 2


def to_a_rule_draw_under_way(game, seed: int, last: bool):
    """A game (seeded) played to the first rule's draw that has drawn a tile: with another draw
    waiting after it, or (``last``) the last of several, the others drawn; and the
    generator, to go on with."""
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while True:
        engine = state.engine_state
        if state.is_chance_node() and engine.phase == DRAW and state.episode.draw_count == 1 and (
                len(engine.drawing) == 1 and state.episode.history()[-1][0] == "drawn" if last
                else len(engine.drawing) > 1):
            return state, rng
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(refill_when_offered(state))


def play_on(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("seed, last", [(3, False), (4, False), (4, True)])
def test_a_state_copied_in_the_middle_of_a_rule_draw_goes_on_as_the_original(seed, last):
    """Cloned, deep-copied, pickled and serialised with a tile of a refill drawn and more
    draws waiting (seed 3: after the bag ran out and the lid was poured in), or in the last
    of a refill's draws."""
    game = load_game()
    state, _rng = to_a_rule_draw_under_way(game, seed, last)
    text, history, outcomes = str(state), state.history(), state.chance_outcomes()
    assert "refill_factories draws onto factory" in text
    copies = [state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state)),
              game.deserialize_state(state.serialize())]
    for other in copies:
        assert str(other) == text and other.history() == history
        assert other.chance_outcomes() == outcomes
        assert other.engine_state is not state.engine_state
    finals = [play_on(other, np.random.RandomState(seed)) for other in [state, *copies]]
    for final in finals[1:]:
        assert final.history() == finals[0].history() and final.returns() == finals[0].returns()
        assert final.record() == finals[0].record()


def test_a_rule_draw_stops_when_the_bag_and_the_lid_are_empty():
    """A refill with two tiles left in the bag and none in the lid (the others set aside in the
    box): two chance nodes, then the game goes on; the empty draws are records' bare ``~``."""
    game = load_game()
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    refill = encoding.encode(REFILL, game.rules)
    while state.is_chance_node() or refill not in state.legal_actions():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(rng.choice([a for a in state.legal_actions() if a != refill])))
    engine = state.engine_state
    blue_and_yellow = [0, 1]
    for kind in range(engine.kinds):
        engine.removed[kind] += engine.bag.count(kind) + engine.lid[kind] - blue_and_yellow.count(kind)
    engine.bag, engine.lid = blue_and_yellow[:], [0] * engine.kinds
    empty = [number for number, tiles in enumerate(engine.sources[1:], start=1) if not any(tiles)]
    state.apply_action(refill)
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    assert state.chance_outcomes() == [(0, 1.0)]
    state.apply_action(0)
    assert not state.is_chance_node() and state.engine_state.phase != DRAW
    factories = state.engine_state.sources[1:]
    assert factories[empty[0] - 1] == [1, 1, 0, 0, 0]
    assert all(not any(factories[number - 1]) for number in empty[1:])
    actions = state.record()["rounds"][-1]["actions"]
    assert actions[-len(empty):] == ["~BY"] + ["~"] * (len(empty) - 1)


def test_resampling_with_secrets_keeps_the_draws_and_deals_the_others_secrets_again():
    """secret-goal-refill (a test house rule): after refills, the worlds a player can't tell
    from the game replay its every action, the tiles the refills drew included; only the
    other seat's secret may differ, and each world plays on to the end."""
    game = pyspiel.load_game("python_azul", {"variant": SECRET_GOAL_REFILL, "players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while not (state.current_player() == 0 and drawn_actions(state.record())):
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(refill_when_offered(state))
    engine = state.engine_state
    sampler = np.random.RandomState(2).random_sample
    others = set()
    for _ in range(6):
        world = state.resample_from_infostate(0, sampler)
        seen = world.engine_state
        assert world.history()[1:] == state.history()[1:]
        assert drawn_actions(world.record()) == drawn_actions(state.record())
        assert seen.secrets["secret_goal"][0] == engine.secrets["secret_goal"][0]
        assert (seen.bag, seen.lid, seen.sources) == (engine.bag, engine.lid, engine.sources)
        others.add(seen.secrets["secret_goal"][1])
        assert play_on(world, np.random.RandomState(3)).engine_state.over
    assert len(others) > 1


# ------------------------------------------------------------------ PettingZoo


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_a_pettingzoo_game_plays_to_the_end_with_the_draws_drawn_by_the_environment(seed, tmp_path):
    env = rl.env(REFILL_FACTORIES, 2)
    env.reset(seed=seed)
    rules = env.unwrapped.rules
    refill = encoding.encode(REFILL, rules)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        assert game.phase != DRAW and agent == f"player_{game.to_move}"
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.tolist() == sorted(encoding.encode(d, rules) for d in game.legal_decisions())
        env.step(refill if refill in legal and seed != 4 else int(legal[rng.integers(len(legal))]))
        assert env.unwrapped.game.tile_counts() == EVERY_TILE
    game = env.unwrapped.game
    assert game.over
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    assert drawn_actions(data)
    report = validate_record(path, trust=trust(REFILL_FACTORIES))
    assert report["valid"] and report["finished"], report["errors"]
    assert report["scores"] == game.scores() == data["result"]["scores"]


def test_pettingzoos_draws_are_a_function_of_the_seed():
    def actions(seed):
        env = rl.env(REFILL_FACTORIES, 2)
        env.reset(seed=seed)
        refill = encoding.encode(REFILL, env.unwrapped.rules)
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            legal = np.flatnonzero(observation["action_mask"])
            env.step(None if terminated or truncated else refill if refill in legal else int(legal[0]))
        return drawn_actions(env.unwrapped.record())

    assert actions(5) == actions(5) != actions(6)
