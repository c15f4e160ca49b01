"""Click's own usage errors (an unknown option, a missing argument, a value of the wrong type)
told like the commands' own: one line on stderr, ``azul: ...``, exit 2; not a box."""

from __future__ import annotations

import sys

from typer import Abort
from typer.core import TyperGroup

try:  # Typer 0.2x carries its own copy of Click; its exceptions are that copy's
    from typer._click import exceptions as click_errors
    from typer._click.utils import echo
except ImportError:
    from click import exceptions as click_errors  # type: ignore[no-redef]
    from click.utils import echo

from azul_core.cli.common import INVALID, USAGE


def usage_error_line(exc: click_errors.ClickException) -> str:
    """``azul: <Click's message> (see 'azul COMMAND -h')``, on one line."""
    from azul_core.cli.safe_text import safe_line
    message = " ".join(exc.format_message().split()).removesuffix(".")
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, click_errors.UsageError) and ctx is not None:
        message += f" (see '{ctx.command_path} -h')"
    return f"azul: {safe_line(message)}"


class OneLineErrors(TyperGroup):
    """The ``azul`` group: runs as Click's standalone mode would, but tells a usage error in
    one line. (In standalone mode Typer prints the usage and the error in a box itself.)"""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            result = super().main(args, prog_name, complete_var, False, **extra)
        except click_errors.NoArgsIsHelpError:
            sys.exit(USAGE)  # the help is printed already
        except click_errors.ClickException as exc:
            echo(usage_error_line(exc), err=True)
            sys.exit(exc.exit_code)
        except Abort:  # end of input at a prompt
            echo("azul: aborted", err=True)
            sys.exit(INVALID)
        # Outside standalone mode an exit code comes back as the result; a command returns None.
        sys.exit(result if isinstance(result, int) else 0)
