"""What the commands share: user-error reporting, exit codes, variant lookup."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

OK, INVALID, USAGE = 0, 1, 2


def text_console(**options):
    """A rich console for a command's text: at a terminal it wraps long lines between words
    (never in the middle of one); written to a file or a pipe, each line stays whole."""
    from rich.console import Console

    options.setdefault("markup", False)  # names and variant names are text, never markup
    console = Console(highlight=False, **options)
    console.soft_wrap = not console.is_terminal
    return console

# Options that every command playing bot games takes, spelled the same everywhere.
PlayersOption = Annotated[int, typer.Option("--players", "-p", help="Players at the table.")]
#: The lab plays greedy bots unless told otherwise: random bots score about 3 points a game, so
#: their games say what a rule does to careless play, not to players who play for points.
LAB_BOTS = "greedy"
BotsOption = Annotated[str, typer.Option(
    "--bots", "-b", help="A bot for every seat ('greedy'), or one per seat ('greedy,random'). "
                         "Default greedy: it plays for points and end bonuses; random bots score "
                         "about 3 points a game, too few to show what a rule changes for players.")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", "-w", help="Processes to play in (0: one per CPU); results don't depend on it.")]
ThinkOption = Annotated[Optional[float], typer.Option(
    "--think", metavar="SECONDS", help="Thinking time per move of a search bot (mcts: 0.5).")]
PlayoutsOption = Annotated[Optional[int], typer.Option(
    "--playouts", metavar="N",
    help="Playouts per move of a search bot instead of a time: its games then depend on the seed "
         "alone, on any machine.")]
ClusterOption = Annotated[Optional[str], typer.Option(
    "--cluster", metavar="ADDRESS",
    help="Play on a Dask cluster: 'local' (--workers processes here) or tcp://HOST:PORT of a "
         "running scheduler. Results don't depend on it. Needs Dask: the 'cluster' extra.")]
QuietOption = Annotated[bool, typer.Option(
    "--quiet", "-q", help="No progress bar (there is none anyway when stderr is not a terminal).")]

# Consent for code that a game record points to (see docs/security.md): none by default.
TrustOption = Annotated[bool, typer.Option(
    "--trust", help="Let the variant file a record names (inside the record's folder) run its "
                    "plugin files; by default a record never runs code.")]
TrustedVariantOption = Annotated[Optional[list[Path]], typer.Option(
    "--variant", metavar="FILE", help="A variant file you trust: a record naming it may use it, "
                                      "wherever it is, and run its plugin files.")]


def sealed_note(seats) -> str:
    """Why a per-seat copy of a record (``records.game_record.sealed_for``) may not replay."""
    listed = ", ".join(str(seat + 1) for seat in seats)
    return (f"this is a copy for one seat: the secrets of seat{'s' if len(seats) > 1 else ''} {listed} "
            "are sealed until the game is over, and the replay can't check what depends on them; "
            "check the full record")


def debugging() -> bool:
    return os.environ.get("AZUL_DEBUG") == "1"


def fail(message: str, code: int = INVALID) -> NoReturn:
    """Report a user error in one line on stderr and exit (``--debug`` re-raises)."""
    if debugging() and sys.exc_info()[0] is not None:
        raise
    from azul_core.cli.safe_text import safe_line  # text from input files: escaped and cut
    typer.echo(f"azul: {safe_line(message)}", err=True)
    raise typer.Exit(code)


def check_run_options(games: int, least_games: int, workers: int, think: float | None,
                      playouts: int | None = None) -> None:
    """Refuse, in one line each, run options no run can use."""
    if games < least_games:
        fail(f"--games must be {least_games} or more, not {games}", USAGE)
    if workers < 0:
        fail(f"--workers must be 0 (one per CPU) or more, not {workers}", USAGE)
    check_budget(think, playouts)


def check_budget(think: float | None, playouts: int | None) -> None:
    """A search bot's budget: a time or a number of playouts, not both."""
    if think is not None and not think > 0:
        fail(f"--think must be a positive number of seconds, not {think}", USAGE)
    if playouts is not None and playouts < 1:
        fail(f"--playouts must be 1 or more, not {playouts}", USAGE)
    if think is not None and playouts is not None:
        fail("give --think or --playouts, not both: a search bot's budget is a time or a number "
             "of playouts", USAGE)


INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C


def simulation_failed(exc, prefix: str = "") -> NoReturn:
    """Report a run that failed in one line. After SIGTERM the process ends at once: the
    workers are gone, and interpreter clean-up must not wait on their broken pool."""
    from azul_core.lab.simulate import SimulationTerminated
    if isinstance(exc, SimulationTerminated):
        typer.echo(f"azul: {prefix}{one_line(str(exc))}", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(INVALID)
    fail(f"{prefix}{one_line(str(exc))}", INVALID)


def interrupted(exc) -> NoReturn:
    """Report a run stopped by Ctrl-C: how far it got and where the finished games are."""
    kept = f"; the records of the finished games are in {exc.record_dir}" if exc.record_dir else ""
    typer.echo(f"azul: interrupted: {exc.finished} of {exc.games} games finished{kept}", err=True)
    raise typer.Exit(INTERRUPTED)


def check_cluster(cluster: str | None) -> None:
    """Refuse ``--cluster`` in one line when Dask is missing or the address can't be one."""
    if cluster is None:
        return
    from azul_core.lab.cluster import INSTALL_CLUSTER, dask_available
    if cluster != "local" and not cluster.startswith(("tcp://", "tls://")):
        fail(f"--cluster takes 'local' or a scheduler's address like tcp://HOST:8786, not '{cluster}'",
             USAGE)
    if not dask_available():
        fail(f"--cluster needs Dask, which is not installed: {INSTALL_CLUSTER}")


def cluster_session(address: str | None, workers: int):
    """The Dask cluster ``--cluster`` names, opened for the runs of one command (a local one
    starts once and stops after), or nothing to enter when there is none."""
    import contextlib

    from azul_core.lab.cluster import ClusterError, open_cluster
    if address is None:
        return contextlib.nullcontext()
    try:
        return open_cluster(address, workers)
    except ClusterError as exc:
        fail(str(exc))


def seed_value(text: str | None):
    """A seed as given: a whole number stays a number (so --seed 7 and "seed": 7 agree).
    ``None`` stays ``None``."""
    if text is None:
        return None
    from azul_core.engine.notation import is_ascii_number
    text = text.strip()
    return int(text) if is_ascii_number(text.removeprefix("-")) and len(text) < 100 else text


def one_line(message: str) -> str:
    return " ".join(message.split())


def load_variant_or_fail(ref: str):
    """Load a variant by name or file, or exit 1 with every problem listed."""
    from azul_core.engine.plugins import PluginError
    from azul_core.variants.loading import VariantError, load_variant
    try:
        return load_variant(ref)
    except VariantError as exc:
        fail_with_problems(exc)
    except PluginError as exc:
        fail(str(exc))


def fail_with_problems(exc, prefix: str = "") -> NoReturn:
    """Report every problem of a ``VariantError``, one line each, and exit 1."""
    if debugging():
        raise exc
    from azul_core.cli.safe_text import safe_line
    for problem in exc.problems[:20]:
        typer.echo(f"azul: {safe_line(f'{prefix}{problem}')}", err=True)
    if len(exc.problems) > 20:
        typer.echo(f"azul: ... and {len(exc.problems) - 20} more problems", err=True)
    raise typer.Exit(INVALID)
