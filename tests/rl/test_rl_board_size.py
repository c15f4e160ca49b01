"""The board's size (issue 40) in both RL adapters: n colours (4 to 8) make an n x n wall and n
pattern lines, and the action space and the observation's blocks follow n, while the standard
board's action numbers and observations stay exactly what they were (trained agents keep
working)."""

from __future__ import annotations

import hashlib
import random
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402
from rl_variants import (  # noqa: E402
    BOARD_SIZES,
    EIGHT_COLOURS,
    FOUR_COLOURS,
    GREY_WALL_SEVEN,
    PASS_ONCE,
    ROOT,
    SIXTH_COLOUR,
    WILD_SIX,
    label,
    trust,
)

import azul_core.rl as rl  # noqa: E402
import azul_core.rl.openspiel  # noqa: E402,F401  (registers python_azul)
from azul_core.engine.notation import parse_decision  # noqa: E402
from azul_core.engine.state import OVER, PLACE  # noqa: E402
from azul_core.records import validate_record  # noqa: E402
from azul_core.rl import encoding  # noqa: E402
from azul_core.rl.game import load  # noqa: E402
from azul_core.testing import set_lines, set_wall  # noqa: E402

DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")
PINK = 5  # examples/sixth-colour's sixth colour
WILD_TILES = str(ROOT / "examples" / "wild-tiles" / "wild-tiles.yaml")
LID_MARKET = str(ROOT / "examples" / "lid-market" / "lid-market.yaml")


def load_game(variant, players):
    return pyspiel.load_game("python_azul", {"variant": variant, "players": players})


def expected_sizes(size: int, extra: int, players: int) -> tuple[int, int]:
    """The action space and the observation of a board of ``size`` colours with ``extra`` extra
    kinds of tile, for ``players``, worked out here from the layout docs/ai.md gives."""
    actions = 10 * size * (size + 1) + size  # 10 sources x n colours x (n lines + the floor), n columns
    kinds = size + extra
    table = 9 * kinds + kinds + 1 + kinds + kinds + 1 + size + players  # ... placing_row n, to_move
    seats = players * (3 + extra) + players  # floor, marker flags (and extra kinds); scores
    boards = players * (size * size + size * extra + size ** 3)  # lines, line_extra, wall
    return actions, table + seats + boards


def random_game(variant, players, seed):
    """A PettingZoo game with a seeded random policy over the mask: yields (env, agent,
    observation) before each action."""
    env = rl.env(variant, players)
    env.reset(seed=seed)
    pick = random.Random(seed)
    for agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield env, agent, observation
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[int(pick.random() * len(legal))]))


# ---------------------------------------------------------------- the standard board stays as it was


def pettingzoo_digest(variant, players, seed):
    """Every observation and mask of a seeded PettingZoo game, hashed."""
    env = rl.env(variant, players)
    env.reset(seed=seed)
    pick = random.Random(seed)
    digest = hashlib.sha256()
    for _agent in env.agent_iter():
        observation, _reward, terminated, truncated, _info = env.last()
        digest.update(observation["observation"].tobytes())
        digest.update(observation["action_mask"].tobytes())
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[int(pick.random() * len(legal))]))
    return digest.hexdigest()[:16]


def openspiel_digest(variant, players, seed):
    """Every chance node's outcomes, and every observation tensor, legal action and action
    string of a seeded OpenSpiel game, hashed."""
    state = load_game(variant, players).new_initial_state()
    pick = random.Random(seed)
    digest = hashlib.sha256()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            digest.update(repr(outcomes).encode())
            state.apply_action(outcomes[int(pick.random() * len(outcomes))][0])
            continue
        player = state.current_player()
        legal = state.legal_actions()
        digest.update(np.asarray(state.observation_tensor(player), np.float32).tobytes())
        digest.update(repr(legal).encode())
        digest.update(" ".join(state.action_to_string(player, a) for a in legal).encode())
        state.apply_action(legal[int(pick.random() * len(legal))])
    return digest.hexdigest()[:16]


#: Taken with the adapters of f930a66, before the spaces followed the board's size: the same
#: games must give the same numbers (a change of the engine's deal or rules changes them too).
STANDARD_DIGESTS = [
    (("standard", 2), "acf9f9ee6de8a7d0", "2622807f46309159"),
    (("standard", 3), "b76d93fae70f2913", "17857e035bda2907"),
    (("standard", 4), "8c0c05e8ad50646e", "565592e2e7ff07ea"),
    (("grey-wall", 2), "124de883c04a79b9", "b173c2b87a8e3346"),
    (("duel", 2), "b226af552d5f95bb", "864271972ea7546b"),
    ((PASS_ONCE, 2), "523021ee5967a8f2", "26f0d0608df686e5"),
    ((WILD_TILES, 2), "c43724837c01f4f2", "dc4d676e8615cfb8"),
    ((LID_MARKET, 3), "f06815575c2661de", "57a92e92915fb378"),
]


@pytest.mark.parametrize("case, pettingzoo, openspiel", STANDARD_DIGESTS, ids=[label(c) for c, _p, _o in STANDARD_DIGESTS])
def test_five_colour_games_give_the_numbers_they_gave_before(case, pettingzoo, openspiel):
    variant, players = case
    assert pettingzoo_digest(variant, players, 7) == pettingzoo
    assert openspiel_digest(variant, players, 5) == openspiel


def test_the_standard_boards_action_numbers_and_layout_are_pinned():
    rules, _ref = load("standard")
    assert encoding.board_shape(rules) is encoding.STANDARD_SHAPE
    assert (encoding.PLACE_BASE, encoding.MOVE_BASE, encoding.num_actions(rules)) == (300, 305, 305)
    assert encoding.encode((2, 2, 3)) == encoding.encode((2, 2, 3), rules) == 75  # 2R4
    assert encoding.encode((0, 3, 5), rules) == 23  # CK-
    assert encoding.encode((9, 4, 5), rules) == 299 and encoding.encode((4, 4), rules) == 304
    assert encoding.observation_layout(2, rules) == [
        ("factories", 0, 45), ("centre", 45, 5), ("marker_in_centre", 50, 1), ("bag", 51, 5),
        ("lid", 56, 5), ("round", 61, 1), ("placing_row", 62, 5), ("to_move", 67, 2),
        ("seat+0.floor_tiles", 69, 1), ("seat+0.marker_on_floor", 70, 1), ("seat+0.holds_marker", 71, 1),
        ("seat+1.floor_tiles", 72, 1), ("seat+1.marker_on_floor", 73, 1), ("seat+1.holds_marker", 74, 1),
        ("seat+0.score", 75, 1), ("seat+1.score", 76, 1), ("seat+0.lines", 77, 25),
        ("seat+0.wall", 102, 125), ("seat+1.lines", 227, 25), ("seat+1.wall", 252, 125)]
    assert [encoding.observation_size(players, rules) for players in (2, 3, 4)] == [377, 532, 687]


# ---------------------------------------------------------------- other sizes


def test_the_spaces_of_six_colours_for_two_players():
    """examples/sixth-colour: 10 sources x 6 colours x 7 lines, then 6 wall columns; the
    observation's blocks sized by 6 (its table has 6 factories, 7 sources: within the 10)."""
    env = rl.env(SIXTH_COLOUR, 2)
    game = load_game(SIXTH_COLOUR, 2)
    assert env.action_space("player_0").n == game.num_distinct_actions() == 426
    assert env.observation_space("player_0")["observation"].shape == (594,)
    assert game.observation_tensor_shape() == [594]
    assert game.max_chance_outcomes() == 6
    layout = {name: (start, size) for name, start, size in encoding.observation_layout(2, env.unwrapped.rules)}
    assert layout["factories"] == (0, 54) and layout["placing_row"][1] == 6
    assert layout["seat+0.lines"][1] == 36 and layout["seat+0.wall"][1] == 216
    env.reset(seed=1)
    assert len(env.unwrapped.game.sources) == 7


@pytest.mark.parametrize("case", BOARD_SIZES, ids=label)
def test_the_spaces_follow_the_boards_size(case):
    variant, players = case
    env = rl.env(variant, players)
    rules = env.unwrapped.rules
    size = rules.size
    extra = len(rules.table(players).kind_counts) - size
    actions, numbers = expected_sizes(size, extra, players)
    shape = encoding.board_shape(rules)
    assert shape is encoding.board_shape(rules)  # worked out once, not per step
    assert (shape.place_base, shape.move_base) == (actions - size, actions)
    assert env.action_space("player_0").n == encoding.num_actions(rules) == actions
    assert env.observation_space("player_0")["observation"].shape == (numbers,)
    game = load_game(variant, players)
    assert game.num_distinct_actions() == actions
    assert game.observation_tensor_shape() == [numbers]
    assert game.max_chance_outcomes() == size + extra  # a tile of each kind: the colours, then extra
    state = game.new_initial_state()
    counts = rules.table(players).kind_counts
    assert state.chance_outcomes() == [(kind, count / sum(counts)) for kind, count in enumerate(counts)]


def test_the_sizes_tested_are_four_six_and_eight_and_a_placement_of_seven():
    assert sorted({load(variant)[0].size for variant, _players in BOARD_SIZES}) == [4, 6, 7, 8]
    assert load(GREY_WALL_SEVEN)[0].size == 7 and len(load(WILD_SIX)[0].table(2).kind_counts) == 7


@pytest.mark.parametrize("case", BOARD_SIZES, ids=label)
def test_pettingzoos_api_test_passes(case):
    variant, players = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.env(variant, players), num_cycles=200)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_NOTES)}


@pytest.mark.parametrize("case", BOARD_SIZES, ids=label)
def test_openspiels_random_simulation_checks_pass(case):
    variant, players = case
    pyspiel.random_sim_test(load_game(variant, players), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("case", BOARD_SIZES, ids=label)
def test_every_legal_action_is_a_legal_decision_and_back(case):
    """A whole game: at every step the mask is the engine's legal decisions, each action decodes
    to one of them and encodes back, its name is the decision in the variant's notation, and the
    observation lies within its bounds."""
    variant, players = case
    steps = placements = drafts_of_the_last_line = 0
    for env, _agent, observation in random_game(variant, players, seed=3):
        game = env.unwrapped.game
        rules = game.rules
        shape = encoding.board_shape(rules)
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        decisions = game.legal_decisions()
        assert legal == encoding.legal_actions(game)
        assert sorted(encoding.decode(a, game) for a in legal) == sorted(decisions)
        for action in legal:
            decision = encoding.decode(action, game)
            assert encoding.encode(decision, rules) == action
            if len(decision) == 3:
                assert action < shape.place_base and decision[0] < len(game.sources)
                assert parse_decision(encoding.action_name(action, rules), rules.colour_letters) == decision
                drafts_of_the_last_line += decision[2] == rules.size - 1
            else:
                assert shape.place_base <= action < shape.move_base
                placements += 1
        low, high = encoding.observation_bounds(players, rules)
        assert ((low <= observation["observation"]) & (observation["observation"] <= high)).all()
        steps += 1
    assert game.phase == OVER and steps > 30
    assert drafts_of_the_last_line  # the line the standard board lacks (or, on 4, its last) is offered
    assert placements or rules.size != 7  # the grey wall of seven: the player chooses the columns


@pytest.mark.parametrize("case", [(FOUR_COLOURS, 2), (EIGHT_COLOURS, 3), (GREY_WALL_SEVEN, 2)], ids=label)
def test_openspiels_legal_actions_are_the_engines_decisions(case):
    variant, players = case
    state = load_game(variant, players).new_initial_state()
    pick = random.Random(4)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(pick.random() * len(outcomes))][0])
            continue
        engine = state.engine_state
        legal = state.legal_actions()
        assert legal == sorted(encoding.encode(d, engine.rules) for d in engine.legal_decisions())
        state.apply_action(legal[int(pick.random() * len(legal))])
        decisions += 1
    assert decisions > 30


def test_the_observation_shows_the_sixth_line_and_the_sixth_column():
    env = rl.env(SIXTH_COLOUR, 2)
    env.reset(seed=1)
    game = env.unwrapped.game
    set_lines(game, 0, {6: "PPPP"})
    set_wall(game, 0, "\n".join(". . . . . ." if row < 5 else ". . . . P ." for row in range(6)))
    layout = {name: start for name, start, _size in encoding.observation_layout(2, game.rules)}
    seen = env.observe("player_0")["observation"]
    lines, wall = layout["seat+0.lines"], layout["seat+0.wall"]
    assert seen[lines + 5 * 6 + PINK] == 4  # line 6, pink: four tiles
    assert seen[lines:lines + 36].sum() == 4
    assert seen[wall + (5 * 6 + 4) * 6 + PINK] == 1  # row 6, column 5: pink
    assert seen[wall:wall + 216].sum() == 1
    other = env.observe("player_1")["observation"]
    assert other[layout["seat+1.lines"] + 5 * 6 + PINK] == 4  # the same board, one seat on
    assert "P4" in encoding.observation_text(game, 0).split("lines ")[1].split(" wall")[0].split(",")[5]


def test_a_placement_on_the_grey_wall_of_seven_names_the_row_and_column():
    for env, agent, observation in random_game(GREY_WALL_SEVEN, 2, seed=5):
        game = env.unwrapped.game
        if game.phase == PLACE:
            break
    row = game.placing[1]
    shape = encoding.board_shape(game.rules)
    assert shape.place_base == 560
    start = {name: s for name, s, _size in encoding.observation_layout(2, game.rules)}["placing_row"]
    assert observation["observation"][start:start + 7].tolist() == [1.0 if r == row else 0.0 for r in range(7)]
    legal = np.flatnonzero(observation["action_mask"]).tolist()
    assert legal == [560 + column for column in sorted(c for _r, c in game.legal_decisions())]
    assert env.unwrapped.agent_selection == agent
    # OpenSpiel names the same action after the row being tiled
    state = load_game(GREY_WALL_SEVEN, 2).new_initial_state()
    pick = random.Random(5)
    while state.is_chance_node() or state.engine_state.phase != PLACE:
        outcomes = state.chance_outcomes() if state.is_chance_node() else [(a, 0) for a in state.legal_actions()]
        state.apply_action(outcomes[int(pick.random() * len(outcomes))][0])
    engine = state.engine_state
    column = state.legal_actions()[-1] - 560
    assert state.action_to_string(state.current_player(), 560 + column) == f"w{engine.placing[1] + 1}:{column + 1}"


def test_openspiel_names_a_draft_in_the_variants_letters():
    state = load_game(SIXTH_COLOUR, 2).new_initial_state()
    assert state.action_to_string(0, encoding.encode((1, PINK, 5), state.engine_state.rules)) == "1P6"
    assert state.action_to_string(0, 1 * 42 + PINK * 7 + 6) == "1P-"  # the floor: line 7 of 7
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, PINK) == "draw pink"


@pytest.mark.parametrize("variant", [SIXTH_COLOUR, EIGHT_COLOURS, WILD_SIX], ids=lambda v: Path(v).stem)
def test_records_of_other_sizes_validate_with_the_same_scores(variant, tmp_path):
    """A draft onto line 6 is written ``6``, not as the floor; a sixth colour has its letter."""
    for env, _agent, _observation in random_game(variant, 2, seed=2):
        pass
    path = tmp_path / "pettingzoo.json"
    data = env.unwrapped.record(path)
    report = validate_record(path, trust=trust(variant))
    assert report["valid"], report["errors"]
    assert report["scores"] == env.unwrapped.game.scores() == data["result"]["scores"]
    assert any(action[-1] == "6" for entry in data["rounds"] for action in entry["actions"])
    state = load_game(variant, 2).new_initial_state()
    pick = random.Random(2)
    while not state.is_terminal():
        outcomes = state.chance_outcomes() if state.is_chance_node() else [(a, 0) for a in state.legal_actions()]
        state.apply_action(outcomes[int(pick.random() * len(outcomes))][0])
    state.record(tmp_path / "openspiel.json")
    report = validate_record(tmp_path / "openspiel.json", trust=trust(variant))
    assert report["valid"], report["errors"]
    assert report["scores"] == state.engine_state.scores()


def test_the_docs_figures_are_the_adapters():
    """docs/ai.md, "Board size": the action space per size, the observation's formula, and the
    six colours' figures."""
    text = (ROOT / "docs" / "ai.md").read_text().split("## Board size", 1)[1].split("\n## ", 1)[0]
    text = " ".join(text.split())
    sizes = re.search(r"plus the plugin moves: (.*?)\. Give", text).group(1)
    shown = {int(n): int(count) for count, n in re.findall(r"(\d+) for (\d)", sizes)}
    assert shown == {n: encoding.BoardShape(n).move_base for n in range(4, 9)}
    formula = re.search(r"That is `(.*?)` numbers", text).group(1)
    for variant, players in BOARD_SIZES + [("standard", 2), ("standard", 4), (WILD_TILES, 3)]:
        rules = load(variant)[0]
        n, kinds = rules.size, len(rules.table(players).kind_counts)
        worked_out = eval(re.sub(r"(\d)\(", r"\1*(", formula), {"n": n, "E": kinds - n, "players": players})
        assert worked_out == encoding.observation_size(players, rules), (variant, players)
    assert "426 actions (drafts 0-419, placements 420-425), 594 numbers" in text
    assert "`1P6`, action `1 * 42 + 5 * 7 + 5 = 82`" in text
    rules = load(SIXTH_COLOUR)[0]
    assert encoding.encode((1, PINK, 5), rules) == 82 and encoding.action_name(82, rules) == "1P6"
