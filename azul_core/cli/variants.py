"""``azul variants`` (list, ``show``) and ``azul rules``: what the variants are and how they play."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from azul_core.cli.app import app
from azul_core.cli.common import load_variant_or_fail
from azul_core.cli.safe_text import safe_line

variants_app = typer.Typer(
    name="variants",
    help="List the built-in and discovered variants, or show one (azul variants show VARIANT_OR_FILE).",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(variants_app)

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
VariantArgument = Annotated[str, typer.Argument(metavar="VARIANT_OR_FILE",
                                                help="A built-in variant name or a variant file.")]


@variants_app.callback()
def variants_command(ctx: typer.Context, as_json: JsonOption = False) -> None:
    """List the variants: built-in ones, then files found in ./variants and $AZUL_VARIANTS_PATH."""
    if ctx.invoked_subcommand is not None:
        return
    from azul_core.variants.catalogue import variant_entries

    entries = variant_entries()
    if as_json:
        typer.echo(json.dumps({"variants": entries}, indent=2))
        return
    from pathlib import Path

    from azul_core.variants.packages import uninstalled_package
    rows = [("name", "players", "from", "description")]
    for entry in entries:
        description = entry["description"] if entry["valid"] else f"INVALID: {entry['error']}"
        package = None if entry["builtin"] else uninstalled_package(Path(entry["path"]))
        if package is not None:
            description += f" (its plugin package not installed: pip install {package})"
        # Names, paths and descriptions come from files: escaped and cut before they are shown.
        rows.append((safe_line(entry["name"], 60), ", ".join(str(p) for p in entry["players"]) or "-",
                     "built-in" if entry["builtin"] else safe_line(entry["path"], 200), safe_line(description)))
    import shutil
    import sys
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    for line in listing_lines(rows, width):
        typer.echo(line)


def listing_lines(rows: list[tuple[str, ...]], width: int | None = None) -> list[str]:
    """Rows in aligned columns; with ``width``, the last column wraps between words and
    goes on under itself."""
    import textwrap

    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    indent = sum(widths) + 2 * len(widths)
    room = width - indent if width else 0
    lines = []
    for row in rows:
        head = "  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  "
        if room < 20:  # no terminal, or too narrow to wrap usefully: each row on one line
            lines.append(head + row[-1])
            continue
        wrapped = textwrap.wrap(row[-1], room, break_long_words=False, break_on_hyphens=False) or [""]
        lines.append(head + wrapped[0])
        lines += [" " * indent + part for part in wrapped[1:]]
    return lines


@variants_app.command("show")
def show_command(
    ref: VariantArgument,
    resolved: Annotated[bool, typer.Option(
        "--resolved", help="Also say which file each value came from and which plugin decides each rule.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Show a variant's merged configuration (after extends), default settings included."""
    variant = load_variant_or_fail(ref)
    from azul_core.variants.catalogue import variant_configuration

    document = variant_configuration(variant, resolved)
    if as_json:
        typer.echo(json.dumps(document, indent=2))
        return
    for line in _configuration_lines(variant, resolved):
        typer.echo(line)


def _configuration_lines(variant, resolved: bool) -> list[str]:
    from azul_core.variants.differences import format_value

    origins = variant.origins

    def line(text: str, key: str, indent: str = "") -> str:
        if not resolved:
            return indent + text
        origin = origins.get(key, "")
        return f"{indent}{text}  # {origin}" if origin else indent + text

    lines = [
        line(f"name: {variant.name}", "name"),
        line(f"description: {variant.description}", "description"),
        line(f"players: {format_value(list(variant.players))}", "players"),
        line(f"plugins: {format_value([p.name for p in variant.plugins])}", "plugins"),
    ]
    if variant.decide:
        lines.append(line("decide:", "decide"))
        lines += [line(f"{rule}: {plugin}", f"decide.{rule}", "  ") for rule, plugin in variant.decide.items()]
    lines.append(line("settings:", "settings"))
    lines += [line(f"{name}: {format_value(value)}", f"settings.{name}", "  ")
              for name, value in variant.settings.items()]
    if resolved:
        lines.append("plugin sources:")
        lines += [f"  {plugin.name}: {plugin.origin}" + (f" (version {plugin.version})" if plugin.version else "")
                  for plugin in variant.plugins]
        lines.append("rules decided by (plugins in the order they are asked):")
        lines += [f"  {hook}: {plugins or '-'}" for hook, plugins in variant.rules.deciders.items()]
    return lines


@app.command("rules")
def rules_command(ref: VariantArgument, as_json: JsonOption = False) -> None:
    """Explain a variant's rules in words, as differences from the standard game."""
    from azul_core.variants.differences import differences, explain, setting_notes
    from azul_core.variants.loading import builtin_variants

    variant = load_variant_or_fail(ref)
    standard = load_variant_or_fail("standard")
    if as_json:
        typer.echo(json.dumps({
            "name": variant.name,
            "description": variant.description,
            "path": str(variant.path) if variant.path else None,
            "builtin": variant.path in builtin_variants().values(),
            "plugins": [plugin.name for plugin in variant.plugins],
            "differences": [{"rule": d.rule, "variant": d.variant, "standard": d.standard}
                            for d in differences(variant, standard)],
            "settings": [{"name": n.name, "value": n.value, "standard": n.standard, "plugin": n.owner,
                          "only_here": n.only_here, "help": n.help}
                         for n in setting_notes(variant, standard)],
        }, indent=2))
        return
    for line in explain(variant, standard):
        typer.echo(line)
