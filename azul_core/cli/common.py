"""What the commands share: user-error reporting, exit codes, variant lookup."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import typer

OK, INVALID, USAGE = 0, 1, 2


def debugging() -> bool:
    return os.environ.get("AZUL_DEBUG") == "1"


def fail(message: str, code: int = INVALID) -> NoReturn:
    """Report a user error in one line on stderr and exit (``--debug`` re-raises)."""
    if debugging() and sys.exc_info()[0] is not None:
        raise
    typer.echo(f"azul: {message}", err=True)
    raise typer.Exit(code)


def load_variant_or_fail(ref: str):
    """Load a variant by name or file, or exit 1 with every problem listed."""
    from ..plugins import PluginError
    from ..variant import VariantError, load_variant
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
