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
        "--variant", metavar="NAME_OR_FILE",
        help="List the plugins this variant loads (in its order) instead of the installed ones.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """List rule plugins: name, version, where from, and the hooks each implements.

    Without --variant: every plugin installed in the entry-point group
    'azul.plugins'. A plugin that fails to load is listed with the reason,
    and the command exits 1.
    """
    from azul_core.engine.plugins import ENTRY_POINT_GROUP
    from azul_core import API_VERSION

    if variant is None:
        entries = installed_entries()
        heading = (f"Installed plugins (entry-point group {ENTRY_POINT_GROUP}); "
                   f"this azul-variants offers hook API {API_VERSION}:")
        document: dict[str, Any] = {"kind": "plugins", "api_version": API_VERSION,
                                    "source": "installed", "plugins": entries}
    else:
        loaded = load_variant_or_fail(variant)
        entries = [describe(plugin, _distribution_of(plugin)) for plugin in loaded.plugins]
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


def installed_entries() -> list[dict[str, Any]]:
    """One description per installed plugin, sorted by name; a broken one carries its error."""
    from azul_core.engine.plugins import PluginError, installed_plugins, load_plugin

    entries = []
    for name, entry_point in sorted(installed_plugins().items()):
        dist = getattr(entry_point, "dist", None)
        distribution = f"{dist.name} {dist.version}" if dist is not None else None
        try:
            plugin = load_plugin(name)
        except PluginError as exc:
            entries.append(_entry(name, version=dist.version if dist else "",
                                  origin=f"entry point {entry_point.value}",
                                  distribution=distribution, error=str(exc)))
            continue
        entries.append(describe(plugin, distribution))
    return entries


def _distribution_of(plugin) -> str | None:
    """``"name version"`` of the package that installed an entry-point plugin, else None."""
    from azul_core.engine.plugins import installed_plugins

    if not plugin.origin.startswith("entry point "):
        return None
    dist = getattr(installed_plugins().get(plugin.name), "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else None


def describe(plugin, distribution: str | None = None) -> dict[str, Any]:
    """What ``azul plugins`` says about one loaded plugin (a ``LoadedPlugin``)."""
    from azul_core import API_VERSION
    from azul_core.engine.plugins import PluginError, new_manager, register_plugin

    wanted = getattr(plugin.module, "AZUL_API", None)
    accepted = wanted if isinstance(wanted, (tuple, list, set, frozenset)) else (wanted,)
    entry = _entry(plugin.name, plugin.version, plugin.origin, distribution, file=plugin.file,
                   api=list(accepted) if wanted is not None else None)
    if wanted is not None and API_VERSION not in accepted:
        entry["error"] = f"needs hook API {wanted}; this azul-variants offers {API_VERSION}"
    pm = new_manager()
    try:
        register_plugin(pm, plugin)
    except PluginError as exc:
        entry["error"] = entry["error"] or str(exc)
        return entry
    except Exception as exc:  # pluggy refuses malformed implementations (wrong arguments, ...)
        entry["error"] = entry["error"] or f"can't be registered: {exc}"
        return entry
    implemented = {caller.name: caller.spec is not None for caller in pm.get_hookcallers(plugin.module)}
    entry["hooks"] = [name for name in _spec_order() if implemented.get(name)]
    entry["unknown_hooks"] = sorted(name for name, known in implemented.items() if not known)
    return entry


def _entry(name: str, version: str = "", origin: str = "", distribution: str | None = None,
           file: str = "", api: list | None = None, error: str | None = None) -> dict[str, Any]:
    return {"name": name, "version": version or None, "origin": origin,
            "distribution": distribution, "file": file or None, "api": api,
            "hooks": [], "unknown_hooks": [], "error": error}


def _spec_order() -> list[str]:
    from azul_core import hookspecs
    return [name for name in vars(hookspecs) if name.startswith("azul_")
            and hasattr(getattr(hookspecs, name), "azul_spec")]


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
