"""How strong the bots are: two bots play many 2-player games, seats swapped every game.

    python bench/bot_strength.py greedy random --games 200
    python bench/bot_strength.py mcts greedy --games 60 --think 0.25 --workers 2
    python bench/bot_strength.py mcts greedy --games 40 --playouts 300 --variant duel

Game i deals from ``random.Random(f"{seed}:{i}:deal")``; bot A takes seat 0 in
even games and seat 1 in odd ones. A shared victory counts half. Prints A's
win share with a 95% Wilson interval, the mean scores and A's seconds per
move (the time a move took, so a time budget's overshoot shows). With
``--playouts`` the search bot's games depend on the seed alone: the figures
reproduce on any machine, only the time differs.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from azul_core.engine.state import DEAL, GameState  # noqa: E402
from azul_core.players.registry import make_bot  # noqa: E402
from azul_core.variants.loading import load_variant  # noqa: E402


def make(name: str, seed, think, iterations):
    if name == "mcts" and iterations is not None:
        from azul_core.players.search import MctsBot
        return MctsBot(seed=seed, iterations=iterations)
    return make_bot(name, seed=seed, think=think)


def play_one(args) -> tuple[float, int, int, float, int]:
    """One game: (A's result 1/0.5/0, A's score, B's score, A's seconds thinking, A's moves)."""
    variant_ref, a_name, b_name, game, seed, think, iterations = args
    rules = load_variant(variant_ref).rules
    a_seat = game % 2
    bots = [None, None]
    bots[a_seat] = make(a_name, f"{seed}:{game}:a", think, iterations)
    bots[1 - a_seat] = make(b_name, f"{seed}:{game}:b", think, iterations)
    state = GameState(rules, 2)
    deal = random.Random(f"{seed}:{game}:deal")
    thinking, moves = 0.0, 0
    while not state.over:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        seat = state.to_move
        started = time.perf_counter()
        decision = bots[seat].choose(state)
        if seat == a_seat:
            thinking += time.perf_counter() - started
            moves += 1
        state.apply(decision)
    winners = state.winners
    result = (1.0 / len(winners)) if a_seat in winners else 0.0
    scores = state.scores()
    return result, scores[a_seat], scores[1 - a_seat], thinking, moves


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--think", type=float, default=None, help="seconds per move of a search bot")
    parser.add_argument("--playouts", "--iterations", dest="iterations", type=int, default=None,
                        help="playouts per move of mcts (instead of a time)")
    parser.add_argument("--workers", type=int, default=1)
    options = parser.parse_args()
    jobs = [(options.variant, options.a, options.b, game, options.seed, options.think, options.iterations)
            for game in range(options.games)]
    started = time.perf_counter()
    if options.workers > 1:
        with ProcessPoolExecutor(options.workers) as pool:
            results = list(pool.map(play_one, jobs))
    else:
        results = [play_one(job) for job in jobs]
    elapsed = time.perf_counter() - started
    n = len(results)
    share = sum(r[0] for r in results) / n
    low, high = wilson(share, n)
    thinking = sum(r[3] for r in results)
    moves = sum(r[4] for r in results)
    budget = f"think {options.think}s" if options.think is not None else (
        f"{options.iterations} playouts" if options.iterations is not None else "default budget")
    print(f"{options.variant}: {options.a} vs {options.b}, {n} games ({budget}), seed {options.seed}")
    print(f"  {options.a} wins {share:.1%} (95% interval {low:.1%}-{high:.1%}); "
          f"mean score {sum(r[1] for r in results) / n:.1f} vs {sum(r[2] for r in results) / n:.1f}")
    print(f"  {options.a}: {thinking / max(moves, 1):.3f} s per move over {moves} moves; "
          f"wall time {elapsed:.0f} s")


if __name__ == "__main__":
    main()
