"""The ``azul`` application: every command registers itself from its own module.

Command modules import heavy modules inside their functions, so that
``azul --help`` stays fast.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer

from azul_core.cli.errors import OneLineErrors

app = typer.Typer(
    name="azul",
    cls=OneLineErrors,
    help="Play, simulate and validate Azul and its variants. Every rule is a plugin; "
         "variants are chosen by name or YAML file.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion, as Typer provides them
    pretty_exceptions_enable=False,
    suggest_commands=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        from azul_core import API_VERSION, __version__
        from azul_core.engine.compiled import engine_kind
        typer.echo(f"azul-variants {__version__} (hook API {API_VERSION})")
        typer.echo(f"engine: {engine_kind()}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_show_version, help="Print the version and exit.")] = False,
    debug: Annotated[bool, typer.Option(
        "--debug", help="Show the traceback of an unexpected error (allowed anywhere on the "
                        "command line).")] = False,
) -> None:
    """Play, simulate and validate Azul and its variants."""
    if debug:
        os.environ["AZUL_DEBUG"] = "1"

# Each module adds its command(s) to ``app`` when imported.
COMMAND_MODULES = ("play", "replay", "simulate", "compare", "validate", "variants", "plugins_cmd", "serve", "tune")


def _register() -> None:
    import importlib
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__package__}.{name}":
                raise
    reflow_help(app)


def reflow(text: str) -> str:
    """A docstring as help: each paragraph on one line, for the help to wrap at the terminal's
    width. (Typer keeps the line breaks of the paragraphs after the first: a paragraph wrapped
    at 72 in the source came out ragged at 80 columns.) A paragraph that starts with \\b keeps
    its lines, as in Click."""
    import inspect
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split()) for p in paragraphs)


def reflow_help(typer_app: typer.Typer) -> None:
    """``reflow`` the docstrings of a Typer application's commands (and of its groups')."""
    for info in typer_app.registered_commands:
        if info.help is None and info.callback is not None and info.callback.__doc__:
            info.help = reflow(info.callback.__doc__)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            reflow_help(group.typer_instance)


def run() -> None:
    _register()
    if "--debug" in sys.argv:
        os.environ["AZUL_DEBUG"] = "1"
        sys.argv.remove("--debug")
    app()
