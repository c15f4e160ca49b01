"""OpenSpiel's MCTS against the project's greedy bot, through the python_azul game.

    pip install ".[rl]"
    python bench/rl_match.py --variant standard --games 10 --simulations 200
    python bench/rl_match.py --evaluator board --games 10 --simulations 200

OpenSpiel's ``MCTSBot`` (UCT constant 2, score-difference returns) plays
every other game from seat 0; the greedy bot (``azul_core.players``, the best
immediate gain) plays the other seat. Factory fills are sampled from the
game's chance nodes with a seeded generator. The search's leaves are judged by
OpenSpiel's ``RandomRolloutEvaluator`` (``--evaluator rollout``: one random
game to the end) or by the boards as they stand (``--evaluator board``: each
seat's score, the floor's cost and the worth of its lines, the greedy bot's
own yardstick, as score differences). Results in docs/ai.md.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import azul_core.rl.openspiel  # noqa: F401  (registers python_azul)
from azul_core.players.bots import GreedyBot, board_value
from azul_core.rl import encoding
from azul_core.rl.game import score_differences


class BoardValueEvaluator(mcts.Evaluator):
    """No rollout: the seats' board values now, as score differences (the returns at the end)."""

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        engine = state.engine_state
        return np.array(score_differences([board_value(engine.rules, b) for b in engine.players]))

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


def play(game, mcts_seat: int, simulations: int, seed: int, evaluator: str) -> list[int]:
    """One game; the final scores by seat."""
    rng = np.random.RandomState(seed)
    judge = BoardValueEvaluator() if evaluator == "board" else \
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=judge,
                       random_state=rng)
    greedy = GreedyBot(seed=seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        elif state.current_player() == mcts_seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(encoding.encode(greedy.choose(state.engine_state)))
    return state.engine_state.scores()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations per move")
    parser.add_argument("--evaluator", choices=["rollout", "board"], default="rollout",
                        help="how the search judges a leaf (see above)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = pyspiel.load_game("python_azul", {"variant": args.variant, "players": 2})
    wins = draws = 0
    margins = []
    began = time.time()
    for number in range(args.games):
        seat = number % 2
        scores = play(game, seat, args.simulations, args.seed + number, args.evaluator)
        margin = scores[seat] - scores[1 - seat]
        margins.append(margin)
        wins += margin > 0
        draws += margin == 0
        if not args.json:
            print(f"game {number + 1}: mcts seat {seat}, scores {scores[seat]} - {scores[1 - seat]}",
                  flush=True)
    result = {"variant": args.variant, "games": args.games, "simulations": args.simulations,
              "evaluator": args.evaluator,
              "mcts_wins": wins, "draws": draws, "losses": args.games - wins - draws,
              "mean_margin": round(sum(margins) / len(margins), 1),
              "seconds": round(time.time() - began)}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"MCTS ({args.simulations} simulations a move, {args.evaluator} evaluator) vs greedy, {args.variant}: "
              f"{wins} wins, {draws} draws, {result['losses']} losses in {args.games} games; "
              f"mean margin {result['mean_margin']:+} points ({result['seconds']} s)")


if __name__ == "__main__":
    main()
