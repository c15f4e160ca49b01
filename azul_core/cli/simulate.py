"""``azul simulate``: many bot games of a variant, reproducible from one seed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from azul_core.cli.app import app
from azul_core.cli.common import (
    LAB_BOTS,
    BotsOption,
    ClusterOption,
    PlayersOption,
    PlayoutsOption,
    QuietOption,
    ThinkOption,
    WorkersOption,
    check_cluster,
    check_run_options,
    cluster_session,
    interrupted,
    load_variant_or_fail,
    seed_value,
    simulation_failed,
    text_console,
)


@app.command("simulate")
def simulate_command(
    variant: Annotated[str, typer.Option(
        "--variant", metavar="VARIANT_OR_FILE", help="A built-in variant name or a variant file.")] = "standard",
    players: PlayersOption = 2,
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play (1 or more).")] = 100,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", "-s", help="Seed of the run: game i is seeded from (seed, i). "
                             "Default: a fresh seed, printed so the run can be repeated.")] = None,
    bots: BotsOption = LAB_BOTS,
    record_dir: Annotated[Optional[Path], typer.Option(
        "--record-dir", metavar="DIR", help="Write each game's record there as game-NNNNN.json.")] = None,
    workers: WorkersOption = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    quiet: QuietOption = False,
    think: ThinkOption = None,
    playouts: PlayoutsOption = None,
    cluster: ClusterOption = None,
) -> None:
    """Play bot games and summarise them: scores, win shares, rounds, where the points came from.

    Also the start player's advantage and floor tiles per round, with 95% intervals.
    """
    import random
    import time

    from azul_core.lab.simulate import SimulationError, SimulationInterrupted, simulate

    check_run_options(games, 1, workers, think, playouts)
    check_cluster(cluster)
    loaded = load_variant_or_fail(variant)
    run_seed = seed_value(seed) if seed is not None else random.SystemRandom().randrange(10**9)
    started = time.perf_counter()
    try:
        with GameProgress(quiet) as bar:
            with cluster_session(cluster, workers) as session:
                run = simulate(loaded, players, games, run_seed, bots, workers, record_dir,
                               progress=bar.track(loaded.name, games), think=think, playouts=playouts,
                               cluster=session)
    except SimulationError as exc:
        simulation_failed(exc)
    except SimulationInterrupted as exc:
        interrupted(exc)
    elapsed = time.perf_counter() - started
    summary = run.summary()
    summary["variant_ref"] = variant
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print_summary(summary, elapsed)


class GameProgress:
    """A progress bar on stderr for runs of games, one line per ``track``ed run; nothing at
    all when ``quiet`` or when stderr is not a terminal (a pipe, a file, a test runner)."""

    def __init__(self, quiet: bool = False):
        self._bar = None
        if quiet or not sys.stderr.isatty():
            return  # before importing rich: a piped run starts faster
        from rich.console import Console
        console = Console(stderr=True)
        if not console.is_terminal:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeRemainingColumn(), console=console, transient=True)

    def __enter__(self) -> "GameProgress":
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *_exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def track(self, label: str, games: int):
        """A ``progress(done, total)`` callback for ``simulate``, or ``None`` with no bar."""
        bar = self._bar
        if bar is None:
            return None
        task = bar.add_task(label, total=games)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)
        return update


def _print_summary(summary: dict, elapsed: float) -> None:
    from rich.table import Table

    from azul_core.lab.report import number, share_with_interval, summary_lines

    console = text_console()
    games = summary["games"]
    console.print(f"{summary['variant']}: {games} game{'s' if games != 1 else ''}, "
                  f"{summary['players']} players, seed {summary['seed']}")
    table = Table(box=None, pad_edge=False)
    for heading in ("seat", "bot", "mean score", "median", "sd", "quartiles", "wins",
                    "win share (95%)"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for seat in summary["seats"]:
        score = seat["score"]
        table.add_row(str(seat["seat"] + 1), seat["bot"], f"{seat['mean_score']:.2f}", number(score["median"]),
                      f"{score['stdev']:.2f}", f"{number(score['q1'])}-{number(score['q3'])}",
                      str(seat["wins"]), share_with_interval(seat))
    console.print(table)
    points = Table(box=None, pad_edge=False, title="points per game", title_justify="left")
    for heading in ("seat", "placed", "bonuses", "penalties", "spared", "floor tiles/round"):
        points.add_column(heading, justify="right")
    for seat in summary["seats"]:
        parts = seat["points"]
        points.add_row(str(seat["seat"] + 1), f"{parts['placements']:.2f}", f"{parts['bonuses']:.2f}",
                       f"{parts['penalties']:.2f}", f"{parts['penalties_waived']:.2f}",
                       f"{seat['floor_tiles_per_round']:.2f}")
    console.print(points)
    for line in summary_lines(summary):
        console.print(line)
    if summary["record_dir"]:
        console.print(f"records written to {summary['record_dir']}")
    rate = games / elapsed if elapsed > 0 else float("inf")
    shown = f"{rate:.0f}" if rate >= 10 else f"{rate:.2g}"  # a slow search bot: 0.31, not 0
    console.print(f"{elapsed:.2f} s ({shown} games/s)")
