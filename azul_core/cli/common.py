"""What the commands share: user-error reporting, exit codes, variant lookup."""

from __future__ import annotations

import os
import sys
from typing import Annotated, NoReturn, Optional

import typer

OK, INVALID, USAGE = 0, 1, 2


def text_console(**options):
    """A rich console for a command's text: at a terminal it wraps long lines between words
    (never in the middle of one); written to a file or a pipe, each line stays whole."""
    from rich.console import Console

    console = Console(highlight=False, **options)
    console.soft_wrap = not console.is_terminal
    return console

# Options that every command playing bot games takes, spelled the same everywhere.
PlayersOption = Annotated[int, typer.Option("--players", "-p", help="Players at the table.")]
BotsOption = Annotated[str, typer.Option(
    "--bots", "-b", help="A bot for every seat ('random'), or one per seat ('greedy,random').")]
WorkersOption = Annotated[int, typer.Option(
    "--workers", "-w", help="Processes to play in (0: one per CPU); results don't depend on it.")]
ThinkOption = Annotated[Optional[float], typer.Option(
    "--think", metavar="SECONDS", help="Thinking time per move of a search bot (mcts: 0.5).")]
QuietOption = Annotated[bool, typer.Option(
    "--quiet", "-q", help="No progress bar (there is none anyway when stderr is not a terminal).")]


def debugging() -> bool:
    return os.environ.get("AZUL_DEBUG") == "1"


def fail(message: str, code: int = INVALID) -> NoReturn:
    """Report a user error in one line on stderr and exit (``--debug`` re-raises)."""
    if debugging() and sys.exc_info()[0] is not None:
        raise
    typer.echo(f"azul: {message}", err=True)
    raise typer.Exit(code)


def check_run_options(games: int, least_games: int, workers: int, think: float | None) -> None:
    """Refuse, in one line each, run options no run can use."""
    if games < least_games:
        fail(f"--games must be {least_games} or more, not {games}")
    if workers < 0:
        fail(f"--workers must be 0 (one per CPU) or more, not {workers}")
    if think is not None and not think > 0:
        fail(f"--think must be a positive number of seconds, not {think}", USAGE)


def seed_value(text: str | None):
    """A seed as given: a whole number stays a number (so --seed 7 and "seed": 7 agree).
    ``None`` stays ``None``."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() and len(text) < 100 else text


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
    for problem in exc.problems:
        typer.echo(f"azul: {prefix}{problem}", err=True)
    raise typer.Exit(INVALID)
