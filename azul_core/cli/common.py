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
        if debugging():
            raise
        for problem in exc.problems:
            typer.echo(f"azul: {problem}", err=True)
        raise typer.Exit(INVALID)
    except PluginError as exc:
        fail(str(exc))
