"""``azul simulate``: many bot games of a variant, reproducible from one seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from .app import app
from .common import INVALID, fail, load_variant_or_fail


@app.command("simulate")
def simulate_command(
    variant: Annotated[str, typer.Option(
        "--variant", metavar="NAME_OR_FILE", help="A built-in variant name or a variant file.")] = "standard",
    players: Annotated[int, typer.Option("--players", "-p", help="Players at the table.")] = 2,
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play (1 or more).")] = 100,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", "-s", help="Seed of the run: game i is seeded from (seed, i). "
                             "Default: a fresh seed, printed so the run can be repeated.")] = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="A bot for every seat ('random'), or one per seat ('greedy,random').")] = "random",
    record_dir: Annotated[Optional[Path], typer.Option(
        "--record-dir", metavar="DIR", help="Write each game's record there as game-NNNNN.json.")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", help="Processes to play in (0: one per CPU); results don't depend on it.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
) -> None:
    """Play bot games and summarise them: mean score and win share per seat, rounds per game."""
    import random
    import time

    from ..simulate import SimulationError, simulate

    if games < 1:
        fail(f"--games must be 1 or more, not {games}")
    if workers < 0:
        fail(f"--workers must be 0 (one per CPU) or more, not {workers}")
    loaded = load_variant_or_fail(variant)
    run_seed = _seed_value(seed) if seed is not None else random.SystemRandom().randrange(10**9)
    started = time.perf_counter()
    try:
        run = simulate(loaded, players, games, run_seed, bots, workers, record_dir)
    except SimulationError as exc:
        fail(_one_line(str(exc)), INVALID)
    elapsed = time.perf_counter() - started
    summary = run.summary()
    summary["variant_ref"] = variant
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print_summary(summary, elapsed)


def _seed_value(text: str):
    """A seed as given: a whole number stays a number (so --seed 7 and "seed": 7 agree)."""
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() and len(text) < 100 else text


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _print_summary(summary: dict, elapsed: float) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    games = summary["games"]
    console.print(f"{summary['variant']}: {games} game{'s' if games != 1 else ''}, "
                  f"{summary['players']} players, seed {summary['seed']}")
    table = Table(box=None, pad_edge=False)
    for heading in ("seat", "bot", "mean score", "wins", "win share", "placed", "penalties",
                    "bonuses"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for seat in summary["seats"]:
        table.add_row(str(seat["seat"]), seat["bot"], f"{seat['mean_score']:.2f}", str(seat["wins"]),
                      f"{seat['win_share']:.1%}", f"{seat['mean_placement_points']:.2f}",
                      f"{seat['mean_penalty_points']:.2f}", f"{seat['mean_bonus_points']:.2f}")
    console.print(table)
    console.print(f"rounds per game: mean {summary['mean_rounds']:.2f}, min {summary['min_rounds']}, "
                  f"max {summary['max_rounds']}; shared victories: {summary['shared_victories']}")
    if summary["record_dir"]:
        console.print(f"records written to {summary['record_dir']}")
    rate = games / elapsed if elapsed > 0 else float("inf")
    console.print(f"{elapsed:.2f} s ({rate:.0f} games/s)")
