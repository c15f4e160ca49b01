"""``azul compare``: the same seeded games under several variants, side by side
(the comparison itself is ``azul_core.lab.compare``)."""

from __future__ import annotations

import json
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
    fail,
    interrupted,
    load_variant_or_fail,
    seed_value,
    simulation_failed,
    text_console,
)
from azul_core.cli.simulate import GameProgress


@app.command("compare")
def compare_command(
    variants: Annotated[list[str], typer.Argument(
        metavar="VARIANT_OR_FILE...", help="Built-in variant names or variant files; the first is the "
                                           "baseline the others are tested against.")],
    players: PlayersOption = 2,
    bots: BotsOption = LAB_BOTS,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per variant (2 or more).")] = 1000,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", "-s", help="Seed of the run, the same for every variant. "
                             "Default: a fresh seed, printed so the run can be repeated.")] = None,
    workers: WorkersOption = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as one JSON object.")] = False,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", metavar="FILE.png", help="Draw score distributions and win shares (needs matplotlib).")] = None,
    html: Annotated[Optional[Path], typer.Option(
        "--html", metavar="FILE", help="Write a one-page report: the table and the pictures.")] = None,
    quiet: QuietOption = False,
    think: ThinkOption = None,
    playouts: PlayoutsOption = None,
    cluster: ClusterOption = None,
) -> None:
    """Play the same seeded games under each variant and show them side by side.

    Differences from the first variant that are statistically clear at 95% are marked.
    """
    import random
    import time

    from azul_core.lab.compare import compare_runs, variant_labels
    from azul_core.lab.plots import INSTALL_PLOT, draw_comparison, plotting_available
    from azul_core.lab.report import html_report
    from azul_core.lab.simulate import SimulationError, SimulationInterrupted, simulate

    check_run_options(games, 2, workers, think, playouts)
    check_cluster(cluster)
    for path in (plot, html):
        if path is not None and not path.parent.is_dir():
            fail(f"can't write {path}: no folder {path.parent}")
    can_plot = (plot is not None or html is not None) and plotting_available()
    if plot is not None and not can_plot:
        fail(f"--plot needs matplotlib, which is not installed ({INSTALL_PLOT})")
    loaded = [load_variant_or_fail(ref) for ref in variants]
    refused = [f"'{v.name}' is played by {', '.join(map(str, v.rules.players))} players"
               for v in loaded if players not in v.rules.players]
    if refused:
        fail(f"can't compare with {players} players: variant {'; variant '.join(refused)}")
    run_seed = seed_value(seed) if seed is not None else random.SystemRandom().randrange(10**9)
    labels = variant_labels(loaded, variants)
    runs, seconds = [], []
    label = labels[0]
    try:
        with GameProgress(quiet) as bar, cluster_session(cluster, workers) as session:
            for variant, label in zip(loaded, labels):
                started = time.perf_counter()
                runs.append(simulate(variant, players, games, run_seed, bots, workers,
                                     progress=bar.track(label, games), think=think, playouts=playouts,
                                     cluster=session))
                seconds.append(time.perf_counter() - started)
    except SimulationError as exc:
        simulation_failed(exc, f"{label}: ")
    except SimulationInterrupted as exc:
        interrupted(exc)
    comparison = compare_runs(runs, labels, variants)
    picture = None
    if can_plot:
        picture = draw_comparison(comparison, runs)
        if plot is not None:
            _write(plot, picture)
    if html is not None:
        _write(html, html_report(comparison, picture).encode("utf-8"))
        if picture is None:
            typer.echo(f"azul: the report has no pictures: matplotlib is not installed ({INSTALL_PLOT})",
                       err=True)
    if as_json:
        typer.echo(json.dumps(comparison))
        return
    _print_comparison(comparison, seconds)
    for path in (plot, html):
        if path is not None:
            typer.echo(f"wrote {path}")


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        fail(f"can't write {path}: {exc.strerror or exc}")



def _print_comparison(comparison: dict, seconds: list[float]) -> None:
    from rich.table import Table

    from azul_core.lab.compare import bots_in_words
    from azul_core.lab.report import table_rows, tests_used_note

    console = text_console()
    games = comparison["games"]
    console.print(f"{games} games per variant, {comparison['players']} players, bots {bots_in_words(comparison)}, "
                  f"seed {comparison['seed']} (the same seeds for every variant)")
    table = Table(box=None, pad_edge=False)
    table.add_column("", no_wrap=True)
    for entry in comparison["variants"]:
        table.add_column(entry["label"], justify="right", no_wrap=True)
    for label, cells in table_rows(comparison):
        table.add_row(label, *[text + (" *" if marked else "  ") for text, marked in cells])
    console.print(table)
    console.print(tests_used_note(comparison))
    timing = ", ".join(f"{entry['label']} {spent:.1f} s" for entry, spent in zip(comparison["variants"], seconds))
    console.print(f"time: {timing}")
