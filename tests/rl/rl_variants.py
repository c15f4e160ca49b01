"""The variants the RL adapters are tested with: the shipped ones and house rules."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAMILY_FLOOR = str(ROOT / "examples" / "family-floor" / "family-floor.yaml")
FIVE_ROUNDS = str(ROOT / "examples" / "five-rounds" / "five-rounds.yaml")
#: changes the legal drafts (tests/rl/house_rules/late_white.py, through azul_line_accepts)
LATE_WHITE = str(Path(__file__).resolve().parent / "house_rules" / "late-white.yaml")
#: pattern line 1 holds 2 tiles (azul_line_capacity)
SHORT_LINES = str(ROOT / "examples" / "short-lines" / "short-lines.yaml")
#: a draft from the centre takes at least two tiles (azul_draft_allowed)
CENTRE_PAIRS = str(ROOT / "examples" / "centre-pairs" / "centre-pairs.yaml")

SHIPPED = [("standard", 2), ("grey-wall", 3), ("duel", 2)]
HOUSE_RULES = [(FAMILY_FLOOR, 2), (FIVE_ROUNDS, 2), (LATE_WHITE, 2), (SHORT_LINES, 2), (CENTRE_PAIRS, 3)]
ALL = SHIPPED + [("standard", 4), ("grey-wall", 2)] + HOUSE_RULES


def label(case) -> str:
    variant, players = case
    return f"{Path(variant).stem}-{players}p"


def trust(variant: str):
    """What `azul validate --variant FILE` gives: consent to load a record's variant file and
    run its plugins (None for a built-in variant)."""
    from azul_core.variants.loading import Trust
    return Trust.of([variant]) if variant.endswith((".yaml", ".yml", ".toml")) else None

#: the examples of plugin moves, memory and secrets (issue 20)
PASS_ONCE = str(ROOT / "examples" / "pass-once" / "pass-once.yaml")
FACTORY_ONE_SHIFT = str(ROOT / "examples" / "factory-one-shift" / "factory-one-shift.yaml")
SECRET_GOAL = str(ROOT / "examples" / "secret-goal" / "secret-goal.yaml")
#: each seat's secret is a word (tests/rl/house_rules/secret_words.py): easy to look for in text
SECRET_WORDS = str(Path(__file__).resolve().parent / "house_rules" / "secret-words.yaml")
#: a rule's draws from the bag (issue 40): the player who just played may refill the empty
#: factories (tests/rl/test_rl_draws.py)
REFILL_FACTORIES = str(ROOT / "examples" / "refill-factories" / "refill-factories.yaml")
PLUGIN_MOVES = [(PASS_ONCE, 2), (FACTORY_ONE_SHIFT, 2), (SECRET_GOAL, 3), (REFILL_FACTORIES, 2)]
#: secret-goal's secrets and refill-factories' draws together
#: (tests/rl/house_rules/secret-goal-refill.yaml)
SECRET_GOAL_REFILL = str(Path(__file__).resolve().parent / "house_rules" / "secret-goal-refill.yaml")
#: a secret decides whether a seat may pass (tests/rl/house_rules/secret_pass.py)
SECRET_PASS = str(Path(__file__).resolve().parent / "house_rules" / "secret-pass.yaml")

#: tile kinds (issue 20): an extra kind of tile (a wild tile, letter J), other counts per colour
WILD_TILES = str(ROOT / "examples" / "wild-tiles" / "wild-tiles.yaml")
#: 16 white tiles instead of 20 (tests/rl/house_rules/fewer_white.py): the standard layout
FEWER_WHITE = str(Path(__file__).resolve().parent / "house_rules" / "fewer-white.yaml")
#: the wild tiles and 16 white tiles together
WILD_FEWER_WHITE = str(Path(__file__).resolve().parent / "house_rules" / "wild-fewer-white.yaml")
#: 1200 blue tiles (tests/rl/house_rules/many_blue.py): a count beyond 1000
MANY_BLUE = str(Path(__file__).resolve().parent / "house_rules" / "many-blue.yaml")
TILE_KINDS = [(WILD_TILES, 2), (FEWER_WHITE, 2), (WILD_FEWER_WHITE, 3)]

#: a seat drawn from the game's seed starts round 1 (azul_first_player)
SEEDED_START = str(ROOT / "examples" / "seeded-start" / "seeded-start.yaml")
#: secret-goal's secrets and seeded-start's first player together
#: (tests/rl/house_rules/seeded-secret-goal.yaml)
SEEDED_SECRET_GOAL = str(Path(__file__).resolve().parent / "house_rules" / "seeded-secret-goal.yaml")

#: phases of choices a plugin adds (issue 40): at the round's end, each seat in turn (a tile
#: bought from the lid), and at the round's start, at once in secret (a colour picked)
LID_MARKET = str(ROOT / "examples" / "lid-market" / "lid-market.yaml")
COLOUR_BID = str(ROOT / "examples" / "colour-bid" / "colour-bid.yaml")
PHASES = [(LID_MARKET, 2), (LID_MARKET, 3), (COLOUR_BID, 2), (COLOUR_BID, 3)]
#: every phase stage, each seat choosing as many times in a row as the engine lets it
#: (tests/rl/house_rules/ponder.py): the longest games a variant's phases make
PONDER = str(Path(__file__).resolve().parent / "house_rules" / "ponder.yaml")
#: the board's size (issue 40): n colours make an n x n wall and n pattern lines, and the RL
#: spaces follow it (the standard plugin's setting ``colours``; examples/sixth-colour adds pink)
FOUR_COLOURS = str(Path(__file__).resolve().parent / "house_rules" / "four-colours.yaml")
SIXTH_COLOUR = str(ROOT / "examples" / "sixth-colour" / "sixth-colour.yaml")
EIGHT_COLOURS = str(Path(__file__).resolve().parent / "house_rules" / "eight-colours.yaml")
#: the grey wall (the player chooses the column) on a board of seven
GREY_WALL_SEVEN = str(Path(__file__).resolve().parent / "house_rules" / "grey-wall-seven.yaml")
#: six colours and a wild tile (kind 6, after the colours; tests/rl/house_rules/wild_any_size.py)
WILD_SIX = str(Path(__file__).resolve().parent / "house_rules" / "wild-six.yaml")
BOARD_SIZES = [(FOUR_COLOURS, 2), (FOUR_COLOURS, 3), (SIXTH_COLOUR, 2), (EIGHT_COLOURS, 2), (EIGHT_COLOURS, 4),
               (GREY_WALL_SEVEN, 3), (WILD_SIX, 2)]
#: secret-goal's secrets and colour-bid's sealed picks together
#: (tests/rl/house_rules/secret-goal-bid.yaml)
SECRET_GOAL_BID = str(Path(__file__).resolve().parent / "house_rules" / "secret-goal-bid.yaml")


def play_with_ismcts(game, seed: int = 3):
    """Play an OpenSpiel ``game`` to its end, every seat an ISMCTS bot of a few simulations and
    chance drawn at random (both seeded); the final state."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), 2.0,
                           max_simulations=3, random_state=rng)
    return play_openspiel(game, bot.step, rng)


def play_openspiel(game, step, rng):
    """Play an OpenSpiel ``game`` to its end: each decision ``step(state)``, chance drawn with
    ``rng`` (numpy's) by the outcomes' probabilities; the final state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(step(state)))
    return state
#: every seat burns a tile from the bag into the box after its turn: a rule's draw that ends a round
BURN = str(Path(__file__).resolve().parent / "house_rules" / "burn.yaml")
#: seat 0 alone is offered a move in a phase at the game's end: two round payments in a row
GOODBYE = str(Path(__file__).resolve().parent / "house_rules" / "goodbye.yaml")
