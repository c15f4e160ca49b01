"""Phases of choices a plugin adds (issue 40) in both RL adapters: examples/lid-market (a
phase at the round's end, each seat in turn) and examples/colour-bid (a phase at the round's
start chosen at once, in secret). Whole games keep every tile and validate; the phases'
moves are actions; a seat's sealed pick reaches no other seat's observation or information
state before the reveal; OpenSpiel declares a variant with a phase chosen at once a game of
imperfect information, and its resampling draws the other seats' sealed picks again."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from rl_variants import (  # noqa: E402
    COLOUR_BID,
    LID_MARKET,
    PHASES,
    PONDER,
    SECRET_GOAL_BID,
    label,
    play_with_ismcts,
    trust,
)

import azul_core.rl as rl  # noqa: E402
import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.engine.state import CHOOSE, DRAFT  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rules import Move  # noqa: E402

EVERY_TILE = [20] * 5
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")
PERFECT = pyspiel.GameType.Information.PERFECT_INFORMATION
IMPERFECT = pyspiel.GameType.Information.IMPERFECT_INFORMATION


def load_game(variant, players, **extra):
    return pyspiel.load_game("python_azul", {"variant": variant, "players": players, **extra})


def pick(colour: int) -> Move:
    return Move("pick", (colour,))


def random_policy(seed: int):
    rng = np.random.default_rng(seed)
    return lambda legal: int(legal[rng.integers(len(legal))])


def scripted_policy(legal) -> int:
    """The last move a phase offers (lid-market: a buy whenever one is offered; colour-bid:
    white), else the first draft or placement."""
    return int(legal[-1]) if legal[-1] >= encoding.MOVE_BASE else int(legal[0])


POLICIES = {"random": lambda: random_policy(7), "scripted": lambda: scripted_policy}


def layout_of(players, rules) -> dict[str, tuple[int, int]]:
    return {name: (start, size) for name, start, size in encoding.observation_layout(players, rules)}


def part(observation, layout, name):
    start, size = layout[name]
    return observation[start:start + size].tolist()


def to_first_decision(state, rng):
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probabilities)))
    return state


# ------------------------------------------------------------------ the APIs' own tests


@pytest.mark.parametrize("case", PHASES, ids=label)
def test_pettingzoos_api_and_seed_tests_and_openspiels_random_simulation_pass(case):
    variant, players = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(variant, players), num_cycles=400)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}
    seed_test(lambda: rl.env(variant, players), num_cycles=300)
    pyspiel.random_sim_test(load_game(variant, players), num_sims=2, serialize=True, verbose=False)


# ------------------------------------------------------------------ actions and observations


def test_the_phases_moves_are_actions_and_the_observation_follows_the_variant():
    market, bid = rl.env(LID_MARKET, 2), rl.env(COLOUR_BID, 2)
    market_rules, bid_rules = market.unwrapped.rules, bid.unwrapped.rules
    assert market.action_space("player_0").n == encoding.NUM_ACTIONS + 26    # +no-buy, 25 buys
    assert bid.action_space("player_0").n == encoding.NUM_ACTIONS + 5        # a pick per colour
    assert load_game(COLOUR_BID, 2).num_distinct_actions() == encoding.NUM_ACTIONS + 5
    assert encoding.encode(Move("buy", (2, 0)), market_rules) == encoding.MOVE_BASE + 1 + 2 * 5
    assert encoding.action_name(encoding.encode(pick(3), bid_rules), bid_rules) == "+pick:3"
    standard = encoding.observation_size(2)
    # lid-market: `choosing`, its (empty) memory, then the stage of its one phase; no part
    # for sealed choices
    layout = layout_of(2, market_rules)
    assert list(layout)[-4:] == ["choosing", "viewer_seat", "memory.lid_market", "stage"]
    assert market.observation_space("player_0")["observation"].shape == (standard + 20,)
    # colour-bid: `choosing`, its memory, the stage, the seats that have chosen, the own pick
    layout = layout_of(2, bid_rules)
    assert [layout[name][1] for name in ("choosing", "viewer_seat", "memory.colour_bid", "stage",
                                         "sealed_seats", "own_choice")] == [1, 2, 16, 1, 2, 5]
    assert bid.observation_space("player_0")["observation"].shape == (standard + 27,)
    assert encoding.observation_size(2, rl.env("standard", 2).unwrapped.rules) == standard


def test_the_observation_says_which_phase_is_under_way():
    env = rl.env(COLOUR_BID, 2)
    env.reset(seed=3)
    layout = layout_of(2, env.unwrapped.rules)
    game = env.unwrapped.game
    assert (game.phase, game.stage) == (CHOOSE, "round_start")
    observation = env.observe("player_0")["observation"]
    assert part(observation, layout, "stage") == [1] and part(observation, layout, "choosing") == [1]
    env.step(encoding.encode(pick(1), env.unwrapped.rules))
    env.step(encoding.encode(pick(1), env.unwrapped.rules))
    assert game.phase == DRAFT
    observation = env.observe("player_0")["observation"]
    assert part(observation, layout, "stage") == [0] and part(observation, layout, "choosing") == [0]
    assert part(observation, layout, "sealed_seats") == [0, 0] and part(observation, layout, "own_choice") == [0] * 5


# ------------------------------------------------------------------ whole games


def pettingzoo_game(variant, players, seed, policy, tmp_path):
    env = rl.env(variant, players)
    env.reset(seed=seed)
    low, high = encoding.observation_bounds(players, env.unwrapped.rules)
    for _agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        assert np.all(low <= observation["observation"]) and np.all(observation["observation"] <= high)
        if terminated or truncated:
            env.step(None)
            continue
        env.step(policy(np.flatnonzero(observation["action_mask"])))
        assert env.unwrapped.game.tile_counts() == EVERY_TILE
    game = env.unwrapped.game
    assert game.over
    path = tmp_path / "game.json"
    data = env.unwrapped.record(path)
    report = validate_record(path, trust=trust(variant))
    assert report["valid"] and report["finished"], report["errors"]
    assert report["scores"] == game.scores()
    return game, [action for entry in data["rounds"] for action in entry["actions"]]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", PHASES, ids=label)
def test_a_pettingzoo_game_plays_the_phases_to_the_end_keeps_every_tile_and_validates(case, policy, tmp_path):
    variant, players = case
    game, actions = pettingzoo_game(variant, players, 11, POLICIES[policy](), tmp_path)
    if variant == COLOUR_BID:   # every seat picks at every round's start
        assert sum(action.startswith("+pick:") for action in actions) == players * game.round
        if policy == "scripted":
            assert game.memory["colour_bid"] == (4,) * players
    elif policy == "scripted":  # a buy whenever one is offered
        assert any(action.startswith("+buy:") for action in actions)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", PHASES, ids=label)
def test_an_openspiel_game_plays_the_phases_to_the_end_keeps_every_tile_and_validates(case, policy, tmp_path):
    variant, players = case
    choose = POLICIES[policy]()
    state = load_game(variant, players).new_initial_state()
    rng = np.random.RandomState(11)
    chosen_in_phases = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
            continue
        chosen_in_phases += state.engine_state.stage is not None
        state.apply_action(choose(state.legal_actions()))
        assert state.engine_state.tile_counts() == EVERY_TILE
    assert state.engine_state.over and chosen_in_phases
    path = tmp_path / "game.json"
    state.record(path)
    report = validate_record(path, trust=trust(variant))
    assert report["valid"] and report["finished"], report["errors"]
    assert report["scores"] == state.engine_state.scores()


# ------------------------------------------------------------------ secrecy


def pettingzoo_after_picks(players, picks):
    """A colour-bid game (seed 5) after the seats in order have picked ``picks``: every agent's
    observation and the watcher's text."""
    env = rl.env(COLOUR_BID, players, render_mode="ansi")
    env.reset(seed=5)
    rules = env.unwrapped.rules
    for colour in picks:
        env.step(encoding.encode(pick(colour), rules))
    seen = {agent: env.observe(agent) for agent in env.agents}
    return env, seen


@pytest.mark.parametrize("players", [2, 3])
def test_a_sealed_pick_reaches_no_other_agents_pettingzoo_observation(players):
    # The seats before the last pick; seat 0's pick is what the games differ in.
    others = [0] * (players - 2)
    games = [pettingzoo_after_picks(players, [colour, *others]) for colour in range(5)]
    env, _seen = games[0]
    layout = layout_of(players, env.unwrapped.rules)
    assert env.unwrapped.game.stage == "round_start" and len(env.unwrapped.game.sealed) == players - 1
    for seat in range(1, players):
        agent = f"player_{seat}"
        for _env, seen in games[1:]:
            assert np.array_equal(seen[agent]["observation"], games[0][1][agent]["observation"])
            assert np.array_equal(seen[agent]["action_mask"], games[0][1][agent]["action_mask"])
    assert len({env.render() for env, _seen in games}) == 1     # the watcher's text
    # Seat 0 sees its own pick, and which seats have chosen (itself, and seat 1 with 3 players).
    for colour, (_env, seen) in enumerate(games):
        observation = seen["player_0"]["observation"]
        assert part(observation, layout, "own_choice") == [1 if c == colour else 0 for c in range(5)]
        assert part(observation, layout, "sealed_seats") == [1] * (players - 1) + [0]
    # The seat to pick sees that the seats before it have chosen, not what.
    last = games[0][1][f"player_{players - 1}"]["observation"]
    assert part(last, layout, "sealed_seats") == [0] + [1] * (players - 1)
    assert part(last, layout, "own_choice") == [0] * 5
    # Once the last seat has picked, the picks are revealed: in every seat's memory.
    revealed = []
    for env, _seen in games:
        env.step(encoding.encode(pick(0), env.unwrapped.rules))
        revealed.append(env.observe("player_1")["observation"])
    assert all(not np.array_equal(revealed[0], other) for other in revealed[1:])


def openspiel_after_picks(players, picks):
    state = to_first_decision(load_game(COLOUR_BID, players).new_initial_state(), np.random.RandomState(5))
    rules = state.engine_state.rules
    for colour in picks:
        state.apply_action(encoding.encode(pick(colour), rules))
    return state


def views(state, player, public):
    return (state.observation_string(player), state.information_state_string(player),
            tuple(state.observation_tensor(player)), tuple(state.information_state_tensor(player)),
            public.string_from(state, player))


@pytest.mark.parametrize("players", [2, 3])
def test_a_sealed_pick_reaches_no_other_players_openspiel_observation_or_information_state(players):
    others = [0] * (players - 2)
    states = [openspiel_after_picks(players, [colour, *others]) for colour in range(5)]
    game = states[0].get_game()
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    assert states[0].engine_state.stage == "round_start"
    for player in range(1, players):
        assert len({views(state, player, public) for state in states}) == 1
    # The player who picked sees its own pick; the whole state (str) holds it too.
    assert len({views(state, 0, public)[2] for state in states}) == 5      # the tensor
    assert len({views(state, 0, public)[1] for state in states}) == 5      # the text
    assert "\nsealed seat+0:+pick:3" in states[3].observation_string(0)
    sealed_line = next(line for line in states[3].observation_string(1).splitlines() if line.startswith("sealed"))
    # With 3 players, player 1 has picked too (its own pick, 0).
    assert sealed_line == f"sealed seat+{players - 1}:?" + (" seat+0:+pick:0" if players == 3 else "")
    assert "seat 0 +pick:3" in str(states[3])
    # After the reveal every player knows every pick.
    for state in states:
        state.apply_action(encoding.encode(pick(0), state.engine_state.rules))
    assert len({state.observation_string(1) for state in states}) == 5


def test_a_variant_with_a_phase_chosen_at_once_is_a_game_of_imperfect_information():
    assert load_game(COLOUR_BID, 2).get_type().information == IMPERFECT
    assert load_game(LID_MARKET, 2).get_type().information == PERFECT     # chosen in turn, openly
    assert load_game("standard", 2).get_type().information == PERFECT


def test_resampling_draws_the_other_seats_sealed_picks_again_and_keeps_the_players_own():
    state = openspiel_after_picks(3, [2, 4])   # seat 2 is to pick
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    picks_of_others = set()
    for _ in range(20):
        world = state.resample_from_infostate(2, sampler)
        assert world.information_state_string(2) == state.information_state_string(2)
        assert world.legal_actions() == state.legal_actions()
        assert world.history()[:-2] == state.history()[:-2]
        picks_of_others.add(tuple(move for _seat, move in world.engine_state.sealed))
    assert len(picks_of_others) > 5
    kept = {state.resample_from_infostate(1, sampler).engine_state.sealed for _ in range(20)}
    assert {sealed[1] for sealed in kept} == {(1, pick(4))} and len({sealed[0] for sealed in kept}) > 1
    kept = {state.resample_from_infostate(0, sampler).engine_state.sealed for _ in range(20)}
    assert {sealed[0] for sealed in kept} == {(0, pick(2))} and len({sealed[1] for sealed in kept}) > 1
    # Before a pick, and once all are revealed, a player knows every choice made: a clone.
    first = openspiel_after_picks(3, [])
    assert str(first.resample_from_infostate(1, sampler)) == str(first)


def test_with_secrets_too_resampling_deals_them_again_and_draws_the_sealed_picks_again():
    game = load_game(SECRET_GOAL_BID, 2)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = to_first_decision(game.new_initial_state(), np.random.RandomState(2))
    state.apply_action(encoding.encode(pick(3), state.engine_state.rules))   # seat 0 picks black
    assert game.get_type().information == IMPERFECT
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    own_secret = state.engine_state.secrets["secret_goal"][1]
    others = set()
    for _ in range(20):
        world = state.resample_from_infostate(1, sampler)
        assert world.information_state_string(1) == state.information_state_string(1)
        assert world.engine_state.secrets["secret_goal"][1] == own_secret
        others.add((world.engine_state.secrets["secret_goal"][0], world.engine_state.sealed))
    assert len({secret for secret, _sealed in others}) > 1 and len({sealed for _secret, sealed in others}) > 1
    # Seat 0 knows its pick and its secret; only seat 1's secret is drawn again.
    for _ in range(5):
        world = state.resample_from_infostate(0, sampler)
        assert world.engine_state.sealed == ((0, pick(3)),)
        assert world.engine_state.secrets["secret_goal"][0] == state.engine_state.secrets["secret_goal"][0]


def test_ismcts_plays_rounds_of_sealed_picks():
    state = play_with_ismcts(load_game(COLOUR_BID, 2, max_rounds=2))
    assert state.engine_state.round == 3


# ------------------------------------------------------------------ the game's length


def tiles_taken(engine, action) -> int:
    """How many tiles ``action`` drafts (0 for anything else)."""
    if action >= encoding.PLACE_BASE:
        return 0
    source, colour, _line = encoding.decode(action, engine)
    return engine.sources[source][colour]


def test_the_longest_phases_stay_within_openspiels_bound_on_a_games_length():
    """ponder: every seat chooses 16 times at every stage; drafts that take as few tiles as
    they can make as many turns, each followed by a phase, as a round may have."""
    game = load_game(PONDER, 3, max_rounds=1)
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            to_first_decision(state, rng)
            continue
        engine = state.engine_state
        state.apply_action(min(state.legal_actions(), key=lambda action: tiles_taken(engine, action)))
        decisions += 1
    assert decisions <= game.max_game_length()
