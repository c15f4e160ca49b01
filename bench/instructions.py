"""Instructions per game, counted by callgrind: the speed figure that a loaded machine can't blur.

    python bench/instructions.py                  # standard, grey-wall, duel: random, greedy, mcts
    python bench/instructions.py --only standard:random

For each variant and bot, ``valgrind --tool=callgrind`` runs this script's
``--play`` mode twice: once playing N seeded 2-player games (after one warm-up
game) and once playing none; the difference divided by N is the cost of a
game. Run it in two checkouts (each installed in its own environment) to
compare commits: the counts repeat to within about 0.1% for the same code.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

#: (variant, bots, games): random games are cheap, search games dear.
#: The bigger board is a variant file beside this script (a board of six colours).
SIX_COLOURS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "six-colours.yaml")
CASES = [("standard", "random", 100), ("grey-wall", "random", 100), ("duel", "random", 100),
         ("standard", "greedy", 4), ("standard", "mcts", 1), (SIX_COLOURS, "random", 100)]
SEARCH_PLAYOUTS = 100


def play(variant: str, bots: str, games: int) -> None:
    from azul_core.lab.simulate import simulate
    from azul_core.variants.loading import load_variant

    rules = load_variant(variant)
    playouts = SEARCH_PLAYOUTS if bots == "mcts" else None
    simulate(rules, 2, 1, seed="warm-up", bots=bots, playouts=playouts)
    if games:
        simulate(rules, 2, games, seed=1, bots=bots, playouts=playouts)


def instructions(variant: str, bots: str, games: int) -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                        __file__, "--play", variant, bots, str(games)],
                       check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        with open(out, encoding="utf-8") as stream:
            for line in stream:
                if line.startswith("summary:") or line.startswith("totals:"):
                    return int(re.findall(r"\d+", line)[0])
    raise RuntimeError("no total in callgrind's output")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one case, VARIANT:BOTS")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--play", nargs=3, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.play:
        variant, bots, games = options.play
        play(variant, bots, int(games))
        return 0
    cases = [case for case in CASES
             if options.only in (None, f"{case[0]}:{case[1]}", f"{os.path.basename(case[0])}:{case[1]}")]
    results = {}
    for variant, bots, games in cases:
        per_game = (instructions(variant, bots, games) - instructions(variant, bots, 0)) / games
        results[f"{os.path.basename(variant)}:{bots}"] = round(per_game)
        if not options.json:
            name = os.path.basename(variant)
            print(f"{name:10} {bots:7} {per_game / 1e6:10.3f} M instructions a game ({games} games)", flush=True)
    if options.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
