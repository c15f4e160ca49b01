"""Whether the search bot slows down over a long run that loads the variant again and again.

    python bench/bot_cache_growth.py --games 40 --playouts 300
    python bench/bot_cache_growth.py --games 40 --playouts 300 --variant grey-wall --mode fresh

The search bot plays N 2-player games against the greedy bot (seats swapped every
game), twice: ``fresh`` loads the variant afresh for every game (as
``bench/bot_strength.py`` does), ``once`` loads it once for the whole run. Each
mode runs in a process of its own, so neither inherits the other's memory. For
each it prints the search bot's mean CPU time per move over the whole run and
over its first and last quarter, the slowest move, how many ``Rules`` objects
are still alive at the end (a variant's caches belong to its rules: with only
the last game's rules alive, the old ones went with their caches), the time
the garbage collector took (in all, and its longest pass: it walks every live
object, the old caches too) and the process's peak resident memory. A flat run has about the same mean in its first
and last quarter, and the same peak memory, in both modes.

Game i deals from ``random.Random(f"{seed}:{i}:deal")`` and the bots are seeded
from the game, so both modes play the same games: their digest of the moves must
match (the caches change how fast a decision comes, never which one).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from azul_core.engine.rulebook import Rules  # noqa: E402
from azul_core.engine.state import DEAL, GameState  # noqa: E402
from azul_core.players.bots import GreedyBot  # noqa: E402
from azul_core.players.search import MctsBot  # noqa: E402
from azul_core.variants.loading import load_variant  # noqa: E402


def run(variant: str, games: int, playouts: int, seed: str, fresh: bool) -> dict:
    """The search bot's CPU seconds per move over ``games`` games, and a digest of every move."""
    rules = None if fresh else load_variant(variant).rules
    times: list[float] = []
    collecting = {"started": 0.0, "total": 0.0, "longest": 0.0}

    def timed_collection(phase: str, _info: dict) -> None:  # the collector's share of the moves
        if phase == "start":
            collecting["started"] = time.process_time()
        else:
            spent = time.process_time() - collecting["started"]
            collecting["total"] += spent
            collecting["longest"] = max(collecting["longest"], spent)

    gc.callbacks.append(timed_collection)
    digest = hashlib.sha256()
    for game in range(games):
        game_rules = load_variant(variant).rules if fresh else rules
        search_seat = game % 2
        bots = [None, None]
        bots[search_seat] = MctsBot(seed=f"{seed}:{game}:search", iterations=playouts)
        bots[1 - search_seat] = GreedyBot(seed=f"{seed}:{game}:greedy")
        state = GameState(game_rules, 2)
        deal = random.Random(f"{seed}:{game}:deal")
        while not state.over:
            if state.phase == DEAL:
                state.deal(deal)
                continue
            seat = state.to_move
            started = time.process_time()
            decision = bots[seat].choose(state.for_seat(seat))
            if seat == search_seat:
                times.append(time.process_time() - started)
            digest.update(repr(decision).encode())
            state.apply(decision)
        del state, bots, game_rules
    gc.callbacks.remove(timed_collection)
    gc.collect()
    quarter = max(1, len(times) // 4)
    return {
        "moves": len(times),
        "mean": statistics.fmean(times),
        "first_quarter": statistics.fmean(times[:quarter]),
        "last_quarter": statistics.fmean(times[-quarter:]),
        "slowest": max(times),
        "collecting": collecting["total"],
        "longest_collection": collecting["longest"],
        "rules_alive": sum(1 for thing in gc.get_objects() if isinstance(thing, Rules)),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "digest": digest.hexdigest()[:16],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=300, help="the search bot's playouts per move")
    parser.add_argument("--seed", default="cache")
    parser.add_argument("--mode", choices=("both", "fresh", "once"), default="both")
    parser.add_argument("--json", action="store_true", help="one mode's figures as JSON (used by --mode both)")
    options = parser.parse_args()
    if options.mode != "both":
        figures = run(options.variant, options.games, options.playouts, options.seed, options.mode == "fresh")
        if options.json:
            print(json.dumps(figures))
        else:
            show(options.mode, figures)
        return
    print(f"{options.variant}: mcts ({options.playouts} playouts) vs greedy, {options.games} games, "
          f"seed {options.seed}; the search bot's CPU time per move")
    found = {}
    for mode in ("once", "fresh"):
        command = [sys.executable, __file__, "--mode", mode, "--json", "--variant", options.variant,
                   "--games", str(options.games), "--playouts", str(options.playouts), "--seed", options.seed]
        found[mode] = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        show(mode, found[mode])
    same = found["once"]["digest"] == found["fresh"]["digest"]
    print("  the same moves in both modes" if same else "  THE MOVES DIFFER between the modes")


def show(mode: str, figures: dict) -> None:
    print(f"  {mode:5}: {figures['moves']} moves, mean {figures['mean'] * 1000:.1f} ms "
          f"(first quarter {figures['first_quarter'] * 1000:.1f}, last quarter "
          f"{figures['last_quarter'] * 1000:.1f}), slowest {figures['slowest'] * 1000:.0f} ms; "
          f"garbage collection {figures['collecting']:.1f} s in all, the longest "
          f"{figures['longest_collection'] * 1000:.0f} ms; "
          f"Rules alive at the end: {figures['rules_alive']}, peak memory {figures['peak_mb']:.0f} MB; "
          f"moves digest {figures['digest']}")


if __name__ == "__main__":
    main()
