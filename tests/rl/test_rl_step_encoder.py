"""The PettingZoo environment's fast encoding (``encoding.StepEncoder``: pieces kept between
steps, a draft's mask by table) gives exactly the numbers of a plain encoding written from
``observation_layout``, and the mask of the engine's ``legal_decisions()``, at every step of
seeded games and for every seat, in variants that take each of its paths (issue 44)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from rl_variants import (  # noqa: E402
    CENTRE_PAIRS,
    COLOUR_BID,
    EIGHT_COLOURS,
    MANY_BLUE,
    PASS_ONCE,
    SECRET_GOAL,
    SIXTH_COLOUR,
    WILD_TILES,
    label,
)

import azul_core.rl as rl  # noqa: E402
from azul_core.colours import MARKER  # noqa: E402
from azul_core.engine.state import DEAL, OVER, PLACE  # noqa: E402
from azul_core.rl import encoding  # noqa: E402

CASES = [
    ("standard", 2), ("standard", 4), ("grey-wall", 3), ("duel", 2),
    (SIXTH_COLOUR, 2),  # six colours: a 6 x 6 wall
    (EIGHT_COLOURS, 3),
    (PASS_ONCE, 2),  # a plugin move: the drafts are listed by the engine
    (SECRET_GOAL, 3),  # plugin moves and a secret per seat
    (COLOUR_BID, 3),  # a phase chosen at once, in secret
    (CENTRE_PAIRS, 2),  # a plugin may forbid a draft
    (WILD_TILES, 2),  # an extra kind of tile
    (MANY_BLUE, 2),  # counts beyond a byte
]


def plain_observation(state, viewer: int, memory_size: int = encoding.MEMORY_SIZE) -> np.ndarray:
    """The observation written part by part from ``observation_layout``, one number at a time
    (the plugins' part is ``plugin_numbers``'s)."""
    rules = state.rules
    players = len(state.players)
    size = rules.size
    kinds = state.kinds
    playing = state.phase not in (DEAL, OVER)
    values: dict[str, list[float]] = {
        "factories": [state.sources[factory][kind] if factory < len(state.sources) else 0
                      for factory in range(1, encoding.MAX_FACTORIES + 1) for kind in range(kinds)],
        "centre": list(state.sources[0]),
        "marker_in_centre": [1 if state.marker_in_centre and playing else 0],
        "bag": [state.bag.count(kind) for kind in range(kinds)],
        "lid": list(state.lid),
        "round": [min(state.round, 255)],
        "placing_row": [1 if state.phase == PLACE and state.placing[1] == row else 0 for row in range(size)],
        "to_move": [1 if playing and (state.to_move - viewer) % players == k else 0 for k in range(players)],
    }
    for k in range(players):
        seat = (viewer + k) % players
        board = state.players[seat]
        values[f"seat+{k}.floor_tiles"] = [len(board.floor)]
        values[f"seat+{k}.marker_on_floor"] = [1 if MARKER in board.floor else 0]
        values[f"seat+{k}.holds_marker"] = [1 if state.marker_holder == seat else 0]
        values[f"seat+{k}.floor_extra"] = [board.floor.count(kind) for kind in range(size, kinds)]
        values[f"seat+{k}.score"] = [min(max(board.score, encoding.OBS_LOW), encoding.OBS_HIGH)]
        values[f"seat+{k}.lines"] = [board.line_count[row] if board.line_count[row] and board.line_colour[row] == colour
                                     else 0 for row in range(size) for colour in range(size)]
        values[f"seat+{k}.line_extra"] = [board.line_extra[row].count(kind)
                                          for row in range(size) for kind in range(size, kinds)]
        values[f"seat+{k}.wall"] = [1 if board.wall[row][column] == colour else 0
                                    for row in range(size) for column in range(size) for colour in range(size)]
    vector: list[float] = []
    for name, _start, length in encoding.observation_layout(players, rules, memory_size):
        if name in values:
            assert len(values[name]) == length, name
            vector += values[name]
    vector += encoding.plugin_numbers(state, viewer, memory_size)
    assert len(vector) == encoding.observation_size(players, rules, memory_size)
    return np.asarray(vector, np.float32)


def plain_mask(state) -> np.ndarray:
    """1 at the action number of each of the engine's legal decisions."""
    mask = np.zeros(encoding.num_actions(state.rules), np.int8)
    for decision in state.legal_decisions():
        mask[encoding.encode(decision, state.rules)] = 1
    return mask


@pytest.mark.parametrize("case", CASES, ids=label)
def test_every_observation_and_mask_is_the_plain_encodings(case):
    variant, players = case
    env = rl.env(variant, players)
    for seed in (1, 2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0
        for agent in env.agent_iter():
            state = env.game
            # every seat's view, the seat to move last (its mask is the one the step checks)
            for other in sorted(env.agents, key=lambda name: name == agent):
                seen = env.observe(other)
                viewer = env.possible_agents.index(other)
                np.testing.assert_array_equal(seen["observation"], plain_observation(state, viewer),
                                              err_msg=f"{other}'s observation at step {steps}")
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            np.testing.assert_array_equal(observation["action_mask"], plain_mask(state),
                                          err_msg=f"the mask at step {steps}")
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        assert steps > 20


def test_an_agent_writing_to_its_mask_or_observation_changes_nothing_the_environment_keeps():
    env = rl.env("standard", 2)
    env.reset(seed=4)
    first = env.last()[0]
    legal = np.flatnonzero(first["action_mask"])
    first["action_mask"][:] = 1
    first["observation"][:] = 7
    again = env.last()[0]
    np.testing.assert_array_equal(np.flatnonzero(again["action_mask"]), legal)
    np.testing.assert_array_equal(again["observation"], plain_observation(env.game, 0))
    illegal = int(np.flatnonzero(again["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)


def test_the_draft_codes_kept_start_afresh_when_full_and_the_masks_stay_right():
    env = rl.env("standard", 2)
    env.reset(seed=3)
    kept = env.unwrapped._encoder.codes_kept
    kept.update({-1 - n: b"" for n in range(encoding._CODES_KEPT)})  # keys no accept key has
    rng = np.random.default_rng(3)
    for _step in range(40):
        observation = env.last()[0]
        np.testing.assert_array_equal(observation["action_mask"], plain_mask(env.game))
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert 0 < len(kept) < 40 and all(key >= 0 for key in kept)
