"""``azul plugins``: the rule plugins found, where each comes from and which hooks it implements."""

from __future__ import annotations

import json
import textwrap
from typing import Annotated, Any, Optional

import typer

from azul_core.cli.app import app
from azul_core.cli.common import INVALID, fail, load_variant_or_fail

INDENT = "    "


@app.command("plugins")
def plugins_command(
    variant: Annotated[Optional[str], typer.Option(
        "--variant", metavar="VARIANT_OR_FILE",
        help="List the plugins this variant loads (in its order) instead of the installed ones.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """List rule plugins: name, version, where from, and the hooks each implements.

    Without --variant: every plugin installed in the entry-point group
    'azul.plugins'. A plugin that fails to load is listed with the reason,
    and the command exits 1.
    """
    from azul_core import API_VERSION
    from azul_core.engine.plugins import ENTRY_POINT_GROUP
    from azul_core.variants.catalogue import describe_plugin, distribution_of, installed_plugin_entries

    if variant is None:
        entries = installed_plugin_entries()
        heading = (f"Installed plugins (entry-point group {ENTRY_POINT_GROUP}); "
                   f"this azul-variants offers hook API {API_VERSION}:")
        document: dict[str, Any] = {"kind": "plugins", "api_version": API_VERSION,
                                    "source": "installed", "plugins": entries}
    else:
        loaded = load_variant_or_fail(variant)
        entries = [describe_plugin(plugin, distribution_of(plugin)) for plugin in loaded.plugins]
        where = f" ({loaded.path})" if loaded.path else ""
        heading = (f"Plugins of variant '{loaded.name}'{where}, in its order "
                   "(for a first-result hook the last one is asked first):")
        document = {"kind": "plugins", "api_version": API_VERSION, "source": "variant",
                    "variant": loaded.name, "path": str(loaded.path) if loaded.path else None,
                    "plugins": entries}

    if as_json:
        typer.echo(json.dumps(document, indent=2))
    else:
        typer.echo(heading)
        for entry in entries:
            typer.echo(_text(entry))
        if not entries:
            typer.echo(f"{INDENT}(none)")
    broken = [entry["name"] for entry in entries if entry["error"]]
    if broken:
        fail(f"{len(broken)} plugin(s) failed to load: {', '.join(broken)}", INVALID)


def _text(entry: dict[str, Any]) -> str:
    version = entry["version"] or "-"
    origin = entry["origin"]
    if entry["distribution"]:
        origin += f" (package {entry['distribution']})"
    lines = [f"{entry['name']}  {version}  {origin}"]
    if entry["hooks"]:
        lines += textwrap.wrap("hooks: " + ", ".join(entry["hooks"]), width=100,
                               initial_indent=INDENT, subsequent_indent=INDENT + "       ")
    if entry["unknown_hooks"]:
        lines.append(f"{INDENT}not hooks (typos?): {', '.join(entry['unknown_hooks'])}")
    if entry["error"]:
        lines.append(f"{INDENT}error: {entry['error']}")
    return "\n".join(lines)
