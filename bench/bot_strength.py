"""How strong the bots are: two bots play many 2-player games, seats swapped every game.

    python bench/bot_strength.py greedy random --games 200
    python bench/bot_strength.py mcts greedy --games 60 --think 0.25 --workers 2
    python bench/bot_strength.py mcts greedy --games 40 --playouts 300 --variant duel
    python bench/bot_strength.py mcts old-mcts --games 40 --think 0.15 --cpu
    python bench/bot_strength.py greedy old-greedy --games 400 --speed 200

Bots: ``random``, ``greedy``, ``mcts`` (the package's), ``old-greedy`` and
``old-mcts`` (the bots as they were before issue 22, frozen in
``bench/frozen_bots.py``), and options of the search bot as
``mcts:beyond=0``, ``mcts:whole_game=0``, ``mcts:iterations=900``
(``name:key=value,...``; ``iterations`` there is that bot's own playout budget).

Game i deals from ``random.Random(f"{seed}:{i}:deal")``; bot A takes seat 0 in
even games and seat 1 in odd ones. A shared victory counts half. Prints A's
win share with a 95% Wilson interval, the mean score difference (A - B) with
its 95% interval, and for each bot the mean points a game from the wall
(placements), the floor and the end bonuses (and each end bonus by the label
the variant's hooks give it: rows, columns, colours, a house rule's own), the
part of its floor points that the first-player marker cost (``marker``: taking
it is a choice, to start the next round, not a tile wasted), and its seconds
per move. With
``--playouts`` the search bots' games depend on the seed alone: the figures
reproduce on any machine, only the time differs. With ``--think S`` a search
bot thinks S seconds a move, measured by the wall clock, or with ``--cpu`` by
``time.process_time`` (equal CPU time per move, whatever else loads the
machine). ``--speed N``: also each bot's games per CPU-second, N games of the
bot against itself.

Long runs: ``--log FILE`` appends each game's result to FILE (a JSON line) as
soon as it ends, so a run stopped early keeps the games it played, and
``--summarise FILE`` prints the figures of the games logged there:

    nice -n 10 python bench/bot_strength.py mcts old-mcts --games 200 --think 0.15 --cpu \
        --workers 2 --log build/standard-015.jsonl --progress 2> build/standard-015.progress &
    python bench/bot_strength.py - - --summarise build/standard-015.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from azul_core.engine.state import DEAL, MARKER, GameState  # noqa: E402
from azul_core.players.registry import make_bot  # noqa: E402
from azul_core.variants.loading import load_variant  # noqa: E402


def _options(spec: str) -> tuple[str, dict]:
    name, _, rest = spec.partition(":")
    options = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = float(value) if "." in value else int(value)
    return name, options


def make(spec: str, seed, think, iterations, cpu: bool):
    """A bot by name (see the module's description)."""
    name, options = _options(spec)
    clock = time.process_time if cpu else time.perf_counter
    if name in ("mcts", "old-mcts"):
        if name == "mcts":
            from azul_core.players.search import MctsBot as Search
        else:
            from frozen_bots import OldMctsBot as Search
        settings = {"seed": seed, "think": think, "iterations": iterations, "clock": clock, **options}
        if "iterations" in options:  # a playout budget of its own: no time budget
            settings["think"] = None
        return Search(**settings)
    if name == "old-greedy":
        from frozen_bots import OldGreedyBot
        return OldGreedyBot(seed=seed)
    if name == "greedy":  # built here, not by name: finding bots by name reads the installed packages
        from azul_core.players.bots import GreedyBot
        return GreedyBot(seed=seed, **options)
    return make_bot(name, seed=seed, think=think)


def play_one(args) -> dict:
    """One game: A's result (1/0.5/0) and, per bot (A first), its score, wall, floor and bonus
    points, the part of its floor points the first-player marker cost, CPU seconds thinking and
    moves."""
    variant_ref, a_name, b_name, game, seed, think, iterations, cpu = args
    rules = load_variant(variant_ref).rules
    a_seat = game % 2
    bots = [None, None]
    bots[a_seat] = make(a_name, f"{seed}:{game}:a", think, iterations, cpu)
    bots[1 - a_seat] = make(b_name, f"{seed}:{game}:b", think, iterations, cpu)
    state = GameState(rules, 2)
    deal = random.Random(f"{seed}:{game}:deal")
    thinking, moves = [0.0, 0.0], [0, 0]
    marker = [0, 0]
    floor_penalty = rules.floor_penalty
    rules.floor_penalty = _counting_marker(floor_penalty, state, marker)
    try:
        while not state.over:
            if state.phase == DEAL:
                state.deal(deal)
                continue
            seat = state.to_move
            started = time.process_time()
            decision = bots[seat].choose(state.for_seat(seat))
            thinking[seat] += time.process_time() - started
            moves[seat] += 1
            state.apply(decision)
    finally:
        rules.floor_penalty = floor_penalty
    winners = state.winners
    seats = (a_seat, 1 - a_seat)
    boards = [state.players[seat] for seat in seats]
    return {
        "result": (1.0 / len(winners)) if a_seat in winners else 0.0,
        "score": [board.score for board in boards],
        "wall": [board.placement_points for board in boards],
        "floor": [board.penalty_points for board in boards],
        "marker": [marker[seat] for seat in seats],
        "bonus": [sum(points for _label, points in board.bonuses) for board in boards],
        "bonuses": [_by_label(board.bonuses) for board in boards],
        "thinking": [thinking[seat] for seat in seats],
        "moves": [moves[seat] for seat in seats],
    }


def _counting_marker(floor_penalty, state, marker: list[int]):
    """``floor_penalty`` that also adds to ``marker[seat]`` what the first-player marker costs
    the seat when ``state`` (the game, not a bot's copy of it) scores its floor: the penalty of
    the floor as it is less the penalty without the marker. Taking the marker is a choice (to
    start the next round) that the floor's total hides."""
    def counted(floor, *context):
        points = floor_penalty(floor, *context)
        if MARKER in floor and len(context) == 2 and context[1] is state:
            marker[context[0]] += points - floor_penalty([tile for tile in floor if tile != MARKER], *context)
        return points
    return counted


def _by_label(pairs) -> dict[str, int]:
    """An end bonus answer as points per label (a label named twice, added up)."""
    points: dict[str, int] = {}
    for label, value in pairs:
        points[label] = points.get(label, 0) + value
    return points


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return mean, mean - half, mean + half


def games_per_cpu_second(variant_ref: str, spec: str, games: int, seed) -> float:
    """Games of ``spec`` against itself per CPU-second of this process (variant loaded once)."""
    rules = load_variant(variant_ref).rules
    started = time.process_time()
    for game in range(games):
        bots = [make(spec, f"{seed}:{game}:{seat}", None, None, True) for seat in range(2)]
        state = GameState(rules, 2)
        deal = random.Random(f"{seed}:{game}:deal")
        while not state.over:
            if state.phase == DEAL:
                state.deal(deal)
                continue
            state.apply(bots[state.to_move].choose(state))
    return games / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0, metavar="K",
                        help="play games K to K+games-1 of the seed (to add games to an earlier run)")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--think", type=float, default=None, help="seconds per move of a search bot")
    parser.add_argument("--cpu", action="store_true", help="--think counts CPU time (time.process_time)")
    parser.add_argument("--playouts", "--iterations", dest="iterations", type=int, default=None,
                        help="playouts per move of a search bot (instead of a time)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--speed", type=int, default=0, metavar="N",
                        help="also each bot's games per CPU-second over N games against itself")
    parser.add_argument("--progress", action="store_true", help="a line on stderr after each game")
    parser.add_argument("--log", metavar="FILE",
                        help="append each game's result to FILE as a JSON line as soon as it ends")
    parser.add_argument("--summarise", metavar="FILE",
                        help="print the figures of the games logged in FILE (by --log) and stop")
    options = parser.parse_args()
    if options.summarise:
        lines = Path(options.summarise).read_text().splitlines()
        results = [json.loads(line) for line in lines if line.strip()]
        if not results:
            parser.error(f"no game in {options.summarise}")
        report(options, results, label="logged")
        return
    jobs = [(options.variant, options.a, options.b, game, options.seed, options.think, options.iterations,
             options.cpu) for game in range(options.start, options.start + options.games)]
    started = time.perf_counter()
    results = []
    log = open(options.log, "a") if options.log else None
    try:
        if options.workers > 1:
            with ProcessPoolExecutor(options.workers) as pool:
                futures = {pool.submit(play_one, job): job[3] for job in jobs}
                for future in as_completed(futures):
                    record(options, futures[future], future.result(), results, log)
        else:
            for job in jobs:
                record(options, job[3], play_one(job), results, log)
    finally:
        if log:
            log.close()
    elapsed = time.perf_counter() - started
    if results:
        report(options, results)
        print(f"  wall time {elapsed:.0f} s")
    if options.speed:
        for name in (options.a, options.b):
            rate = games_per_cpu_second(options.variant, name, options.speed, options.seed)
            print(f"  {name} against itself: {rate:.1f} games per CPU-second ({options.speed} games)")


def record(options, game: int, result: dict, results: list, log) -> None:
    """Keep one game's result (and log it at once: a long run stopped early keeps its games)."""
    result = {"game": game, **result}
    results.append(result)
    if log:
        budget = (f"think {options.think}s" + (" CPU" if options.cpu else "")) if options.think is not None \
            else (f"{options.iterations} playouts" if options.iterations is not None else "default budget")
        log.write(json.dumps({"game": game, "a": options.a, "b": options.b, "variant": options.variant,
                              "budget": budget, "seed": options.seed, **result}) + "\n")
        log.flush()
    if options.progress:
        print(f"game {game}: {options.a} {result['score'][0]} - {result['score'][1]} {options.b} "
              f"({len(results)} done)", file=sys.stderr, flush=True)


def report(options, results: list[dict], label: str = "") -> None:
    """A's win share, the score difference and each bot's points, with 95% intervals."""
    n = len(results)
    share = sum(r["result"] for r in results) / n
    low, high = wilson(share, n)
    difference, diff_low, diff_high = mean_interval([r["score"][0] - r["score"][1] for r in results])
    budget = (f"think {options.think}s" + (" CPU" if options.cpu else "")) if options.think is not None else (
        f"{options.iterations} playouts" if options.iterations is not None else "default budget")
    if label:  # the bots and budget as the log says
        first = results[0]
        options.a, options.b, options.variant = first.get("a", "A"), first.get("b", "B"), first.get("variant", "?")
        budget, options.seed = first.get("budget", "?"), first.get("seed", "?")
    first_seat = sum(1 for r in results if r.get("game", 0) % 2 == 0)
    print(f"{options.variant}: {options.a} vs {options.b}, {n} games ({budget}), seed {options.seed}"
          f"{'' if not label else ', ' + label}; {options.a} first in {first_seat}")
    print(f"  {options.a} wins {share:.1%} (95% interval {low:.1%}-{high:.1%}); "
          f"score difference {difference:+.1f} (95% interval {diff_low:+.1f} to {diff_high:+.1f})")
    for index, name in enumerate((options.a, options.b)):
        def mean(part: str) -> float:
            return sum(r[part][index] for r in results) / n  # noqa: B023
        moves = sum(r["moves"][index] for r in results)
        thinking = sum(r["thinking"][index] for r in results)
        marker = f" (marker {mean('marker'):.1f})" if all("marker" in r for r in results) else ""
        print(f"  {name}: score {mean('score'):.1f} = wall {mean('wall'):.1f}, floor {mean('floor'):.1f}{marker}, "
              f"end bonus {mean('bonus'):.1f}{_bonus_parts(results, index)}; "
              f"{thinking / max(moves, 1):.4f} CPU s per move, {thinking / n:.1f} CPU s a game")


def _bonus_parts(results: list[dict], index: int) -> str:
    """The end bonus per label, mean points a game: ' (rows 1.2, columns 4.1, ...)'; empty for
    logs written before the labels were kept."""
    if not all("bonuses" in r for r in results):
        return ""
    totals: dict[str, int] = {}
    for r in results:
        for label, points in r["bonuses"][index].items():
            totals[label] = totals.get(label, 0) + points
    if not totals:
        return ""
    return " (" + ", ".join(f"{label} {points / len(results):.1f}" for label, points in totals.items()) + ")"


if __name__ == "__main__":
    main()
