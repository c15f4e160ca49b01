"""What is installed, as data for any front end: the known variants, a variant's
configuration, the installed plugins and the hooks each implements."""

from __future__ import annotations

from typing import Any

from azul_core import API_VERSION, hookspecs
from azul_core.engine.plugins import PluginError, installed_plugins, load_plugin, new_manager, register_plugin
from azul_core.variants.loading import builtin_variants, describe_variant_file, known_variants


def variant_entries() -> list[dict]:
    """Every known variant (built-in first, then by name): its path, players and description,
    or why it can't be read. The files are read as YAML/TOML only: a listing imports no plugin
    (a folder's ``variants/evil.yaml`` must not run ``evil.py``); a plugin file is imported
    when its variant is used."""
    builtin = builtin_variants()
    entries = []
    for name, path in known_variants().items():
        entry = {"name": name, "path": str(path), "builtin": name in builtin and builtin[name] == path,
                 "players": [], "description": "", "valid": True}
        try:
            found = describe_variant_file(path)
        except Exception as exc:  # a reader's failure on one file must not break the listing
            entry.update(valid=False, error=f"{type(exc).__name__}: {' '.join(str(exc).split())}")
        else:
            if found["error"]:
                entry.update(valid=False, error=found["error"])
            else:
                entry.update(players=list(found["players"]), description=found["description"])
        entries.append(entry)
    entries.sort(key=lambda e: (not e["builtin"], e["name"]))
    return entries


def variant_configuration(variant, resolved: bool) -> dict:
    """A variant's merged configuration as JSON-ready data; ``resolved`` adds where each value
    came from and which plugin decides each rule."""
    document = {
        "name": variant.name,
        "description": variant.description,
        "path": str(variant.path) if variant.path else None,
        "players": list(variant.players),
        "plugins": [plugin.name for plugin in variant.plugins],
        "decide": dict(variant.decide),
        "settings": {name: jsonable(value) for name, value in variant.settings.items()},
    }
    if resolved:
        document["origins"] = dict(variant.origins)
        document["plugin_sources"] = {plugin.name: plugin.origin for plugin in variant.plugins}
        document["deciders"] = dict(variant.rules.deciders)
    return document


def jsonable(value):
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def installed_plugin_entries() -> list[dict[str, Any]]:
    """One description per installed plugin, sorted by name; a broken one carries its error."""
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
        entries.append(describe_plugin(plugin, distribution))
    return entries


def distribution_of(plugin) -> str | None:
    """``"name version"`` of the package that installed an entry-point plugin, else None."""
    if not plugin.origin.startswith("entry point "):
        return None
    dist = getattr(installed_plugins().get(plugin.name), "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else None


def describe_plugin(plugin, distribution: str | None = None) -> dict[str, Any]:
    """What ``azul plugins`` says about one loaded plugin (a ``LoadedPlugin``)."""
    wanted = getattr(plugin.module, "AZUL_API", None)
    accepted = wanted if isinstance(wanted, (tuple, list, set, frozenset)) else (wanted,)
    entry = _entry(plugin.name, plugin.version, plugin.origin, distribution, file=plugin.file,
                   api=list(accepted) if wanted is not None else None)
    if wanted is not None and API_VERSION not in accepted:
        entry["error"] = f"needs hook API {wanted}; this azul-variants offers {API_VERSION}"
    pm = new_manager()
    try:
        register_plugin(pm, plugin)
    except PluginError as exc:  # an argument its hook does not have, with a did-you-mean
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
    return [name for name in vars(hookspecs) if name.startswith("azul_")
            and hasattr(getattr(hookspecs, name), "azul_spec")]
