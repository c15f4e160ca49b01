"""The ``azul`` application: every command registers itself from its own module.

Command modules import heavy modules inside their functions, so that
``azul --help`` stays fast.
"""

from __future__ import annotations

import os
import sys

import typer

app = typer.Typer(
    name="azul",
    help="Play, simulate and validate Azul and its variants. Every rule is a plugin; "
         "variants are chosen by name or YAML file.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    suggest_commands=True,
)

# Each module adds its command(s) to ``app`` when imported.
COMMAND_MODULES = ("play", "replay", "simulate", "compare", "validate", "variants", "plugins_cmd", "serve")


def _register() -> None:
    import importlib
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{name}":
                raise


def run() -> None:
    _register()
    if "--debug" in sys.argv:
        os.environ["AZUL_DEBUG"] = "1"
        sys.argv.remove("--debug")
    app()
