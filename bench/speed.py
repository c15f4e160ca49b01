"""The speed benchmark: games per CPU-second, clone and apply costs, record validation, start-up.

    python bench/speed.py            # the table (under a minute)
    python bench/speed.py --json     # the same figures as one JSON object
    python bench/speed.py --bots     # only the bot lines: greedy games and search playouts per CPU-second

The bot lines use only what older commits have too, so the same file measures
an earlier commit in one run: ``PYTHONPATH=../earlier python bench/speed.py --bots``
with a worktree of that commit in ``../earlier`` (bench/README.md).

Run it on an otherwise idle machine: CPU time is what counts, but two busy
cores still slow each other. Figures and where the time goes: bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

from azul_core.engine.state import DEAL, DRAFT, GameState
from azul_core.lab.simulate import simulate
from azul_core.records.game_record import validate_record
from azul_core.variants.loading import load_variant

#: The issue's yardstick: the whole `azul simulate` process, start-up included.
HEADLINE = ["simulate", "--variant", "standard", "--players", "2", "--games", "6000",
            "--bots", "random", "--workers", "1", "--seed", "1", "--json"]
TABLE = [("standard", (2, 3, 4)), ("grey-wall", (2, 3, 4)), ("duel", (2,))]


def azul_command() -> list[str]:
    found = shutil.which("azul", path=os.path.dirname(sys.executable)) or shutil.which("azul")
    return [found] if found else [sys.executable, "-m", "azul_core.cli"]


def child_cpu(args: list[str]) -> float:
    """CPU seconds (user + system) that running ``args`` to the end took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def games_per_cpu_second(variant, players: int, bots: str, games: int) -> float:
    started = time.process_time()
    simulate(variant, players, games, seed=1, bots=bots)
    return games / (time.process_time() - started)


def state_costs() -> dict:
    """Microseconds to clone a mid-round state, apply a draft, list the legal drafts."""
    rules = load_variant("standard").rules
    rng = random.Random(5)
    state = GameState(rules, 2)
    state.deal(rng)
    for _ in range(3):
        state.apply_random(rng.random)
    draft = state.random_decision(rng.random)
    number = 20000
    clone = min(timeit.repeat(state.clone, number=number, repeat=5)) / number
    clone_apply = min(timeit.repeat(lambda: state.clone().apply(draft), number=number, repeat=5)) / number
    legal = min(timeit.repeat(state.legal_decisions, number=number, repeat=5)) / number
    fresh = GameState(rules, 2)
    deal = min(timeit.repeat(lambda: fresh.clone().deal(rng), number=number, repeat=5)) / number - clone
    assert state.phase == DRAFT and fresh.phase == DEAL
    return {"clone_us": clone * 1e6, "apply_draft_us": (clone_apply - clone) * 1e6,
            "legal_drafts_us": legal * 1e6, "deal_us": deal * 1e6}


def greedy_speed(games: int = 200) -> float:
    """2-player standard games between greedy bots per CPU-second (variant loaded once)."""
    variant = load_variant("standard")
    simulate(variant, 2, 2, seed=0, bots="greedy")  # warm the caches
    return games_per_cpu_second(variant, 2, "greedy", games)


def search_speed(playouts: int = 300, positions: int = 16) -> dict:
    """The search bot at a fixed budget: playouts per CPU-second over positions of 2-player
    standard games (greedy play from a seeded deal), and CPU-seconds per move."""
    from azul_core.players.bots import GreedyBot
    from azul_core.players.search import MctsBot
    rules = load_variant("standard").rules
    rng = random.Random(1)
    state, greedy, found = GameState(rules, 2), [GreedyBot(seed=0), GreedyBot(seed=1)], []
    while len(found) < positions and not state.over:
        if state.phase == DEAL:
            state.deal(rng)
            continue
        found.append(state.clone())
        state.apply(greedy[state.to_move].choose(state))
    started, done = time.process_time(), 0
    for index, position in enumerate(found):
        bot = MctsBot(seed=index, iterations=playouts)
        bot.choose(position)
        done += bot.last_iterations
    spent = time.process_time() - started
    return {"playouts_per_move": playouts, "playouts_per_cpu_second": round(done / spent),
            "cpu_seconds_per_move": round(spent / len(found), 3)}


def bot_figures() -> dict:
    return {"greedy_games_per_cpu_second": round(greedy_speed(), 1), "search": search_speed()}


def print_bots(bots: dict) -> None:
    search = bots["search"]
    print(f"greedy: {bots['greedy_games_per_cpu_second']} games per CPU-second (standard, 2 players)")
    print(f"search (mcts): {search['playouts_per_cpu_second']} playouts per CPU-second at "
          f"{search['playouts_per_move']} a move ({search['cpu_seconds_per_move']} CPU s a move)")


def validation_speed(records: int = 300) -> float:
    """Full 2-player standard records validated per second (variant loaded once, as azul validate)."""
    with tempfile.TemporaryDirectory() as folder:
        simulate("standard", 2, records, seed=2, bots="random", record_dir=folder)
        paths = sorted(Path(folder).glob("*.json"))
        validate_record(paths[0])  # loads the variant, as the first file of a run would
        started = time.process_time()
        for path in paths:
            report = validate_record(path)
            assert report["valid"] and report["finished"], report
        return len(paths) / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--bots", action="store_true", help="only the greedy and search lines")
    options = parser.parse_args()
    if options.bots:
        bots = bot_figures()
        if options.json:
            print(json.dumps(bots, indent=2))
        else:
            print_bots(bots)
        return
    azul = azul_command()
    figures: dict = {"machine": f"{platform.machine()}, {os.cpu_count()} CPUs, "
                                f"Python {platform.python_version()}"}
    headline = min(child_cpu(azul + HEADLINE) for _ in range(2))
    figures["headline"] = {"command": "azul " + " ".join(HEADLINE), "cpu_seconds": round(headline, 3),
                           "games_per_cpu_second": round(6000 / headline)}
    figures["startup_cpu_seconds"] = {
        "azul --help": round(min(child_cpu(azul + ["--help"]) for _ in range(3)), 3),
        "azul simulate --games 1 --bots random": round(min(
            child_cpu(azul + HEADLINE[:6] + ["1", "--bots", "random", "--seed", "1"]) for _ in range(3)), 3)}
    rows = []
    for name, counts in TABLE:
        variant = load_variant(name)
        for players in counts:
            rows.append({"variant": name, "players": players,
                         "random": round(games_per_cpu_second(variant, players, "random", 1500)),
                         "greedy": round(games_per_cpu_second(variant, players, "greedy", 30), 1)})
    figures["games_per_cpu_second"] = rows
    figures["state_us"] = {k: round(v, 2) for k, v in state_costs().items()}
    figures["records_validated_per_second"] = round(validation_speed())
    figures["bots"] = bot_figures()
    if options.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"machine: {figures['machine']}")
    print(f"{figures['headline']['command']}\n  {headline:.2f} CPU s -> "
          f"{figures['headline']['games_per_cpu_second']} games per CPU-second (target 2,500)")
    for command, seconds in figures["startup_cpu_seconds"].items():
        print(f"start-up, {command}: {seconds:.3f} CPU s")
    print(f"\n{'variant':<10} {'players':>7} {'random g/s':>11} {'greedy g/s':>11}")
    for row in rows:
        print(f"{row['variant']:<10} {row['players']:>7} {row['random']:>11} {row['greedy']:>11}")
    costs = figures["state_us"]
    print(f"\nclone {costs['clone_us']:.2f} us, apply a draft {costs['apply_draft_us']:.2f} us, "
          f"list legal drafts {costs['legal_drafts_us']:.2f} us, deal {costs['deal_us']:.2f} us")
    print(f"records validated: {figures['records_validated_per_second']} per second (2 players)")
    print_bots(figures["bots"])


if __name__ == "__main__":
    main()
