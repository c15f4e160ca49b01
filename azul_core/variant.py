"""Variants: choosing plugins and settings by file, with ``extends``, resolved into ``Rules``.

A variant file (YAML, or TOML with the same fields)::

    name: grey-wall
    description: Free placement on a wall with no printed colours.
    extends: standard            # a built-in name or a path relative to this file
    players: [2, 3, 4]
    plugins: [standard, grey_wall]
    decide: {wall: grey_wall}    # only where two plugins claim an exclusive rule
    settings: {floor_penalties: [-1, -1, -2, -2, -2, -3, -3]}

``extends`` merges mappings key by key; lists and scalars replace.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .plugins import LoadedPlugin, PluginError, ask_all, load_plugin, register_plugins, unknown_hooks
from .rules import Rules, VariantRulesError
from .settings import Setting, Settings
from .variant_files import Located, Problem, position, read_mapping

FIELDS = ("name", "description", "extends", "players", "plugins", "decide", "settings")
SUFFIXES = (".yaml", ".yml", ".toml")
MAX_EXTENDS_DEPTH = 32


class VariantError(Exception):
    """A variant that can't be used; ``problems`` lists every reason with its place."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


@dataclass
class Variant:
    """A variant resolved for play."""

    name: str
    description: str
    path: Path | None
    players: tuple[int, ...]
    plugins: list[LoadedPlugin]
    settings: Settings
    decide: dict[str, str]
    rules: Rules
    #: where each value came from: ``"settings.floor_penalties" -> "variants/duel.yaml:9"``
    origins: dict[str, str] = field(default_factory=dict)
    #: every declared setting, by name (owner, kind, default, help)
    declared: dict[str, Setting] = field(default_factory=dict)


# ---------------------------------------------------------------- finding variants


def builtin_variants() -> dict[str, Path]:
    """The variants shipped with azul-variants, by name."""
    folder = resources.files("azul_variants")
    found = {}
    for entry in folder.iterdir():
        if entry.name.endswith(SUFFIXES):
            found[entry.name.rsplit(".", 1)[0]] = Path(str(entry))
    return dict(sorted(found.items()))


def discovered_variants() -> dict[str, Path]:
    """Variant files found beside the built-in ones: ``./variants`` and ``$AZUL_VARIANTS_PATH``."""
    folders = [Path("variants")]
    folders += [Path(p) for p in os.environ.get("AZUL_VARIANTS_PATH", "").split(os.pathsep) if p]
    found: dict[str, Path] = {}
    builtin = {p.resolve() for p in builtin_variants().values()}
    for folder in folders:
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.suffix in SUFFIXES and path.resolve() not in builtin:
                    found.setdefault(path.stem, path)
    return found


def known_variants() -> dict[str, Path]:
    found = dict(discovered_variants())
    found.update(builtin_variants())
    return found


def looks_like_path(ref: str) -> bool:
    return ref.endswith(SUFFIXES) or "/" in ref or os.sep in ref


def find_variant(ref: str, relative_to: Path | None = None) -> Path:
    """The file of a variant named by built-in name or path; ``VariantError`` with a did-you-mean."""
    if looks_like_path(ref):
        path = Path(ref)
        if not path.is_absolute() and relative_to is not None:
            path = relative_to / path
        if path.is_file():
            return path
        raise VariantError([Problem(ref, 1, 1, "variant file not found")])
    known = known_variants()
    if ref in known:
        return known[ref]
    close = difflib.get_close_matches(ref, list(known), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    raise VariantError([Problem(ref, 1, 1, f"unknown variant '{ref}' (known: {', '.join(known)}){hint}")])


# ---------------------------------------------------------------- merging files


@dataclass
class _Merged:
    data: dict
    origins: dict  # dotted key -> (file, line, col)
    plugin_dir: Path | None = None


def _read_chain(path: Path, problems: list[Problem], chain: tuple[Path, ...] = ()) -> _Merged | None:
    shown = _shown(path)
    resolved = path.resolve()
    if resolved in chain:
        cycle = " -> ".join(_shown(p) for p in chain + (resolved,))
        problems.append(Problem(shown, 1, 1, f"extends cycle: {cycle}"))
        return None
    if len(chain) > MAX_EXTENDS_DEPTH:
        problems.append(Problem(shown, 1, 1, "extends chain too deep"))
        return None
    data, found = read_mapping(path, shown)
    problems.extend(found)
    if data is None:
        return None
    for key in data:
        if key not in FIELDS:
            line, col = position(data, key)
            close = difflib.get_close_matches(str(key), FIELDS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problems.append(Problem(shown, line, col, f"unknown key '{key}'{hint} "
                                                      f"(allowed: {', '.join(FIELDS)})"))
    own = _Merged({k: v for k, v in data.items() if k in FIELDS}, {}, None)
    _record_origins(own.origins, data, shown, "")
    if "plugins" in data:
        own.plugin_dir = path.parent
    base_ref = data.get("extends")
    if base_ref is None:
        return own
    line, col = position(data, "extends")
    if not isinstance(base_ref, str):
        problems.append(Problem(shown, line, col, "'extends' must be a variant name or a file path"))
        return own
    try:
        base_path = find_variant(base_ref, path.parent)
    except VariantError as exc:
        problems.append(Problem(shown, line, col, exc.problems[0].message
                                if not looks_like_path(base_ref)
                                else f"base variant file '{base_ref}' not found"))
        return own
    base = _read_chain(base_path, problems, chain + (resolved,))
    if base is None:
        return own
    merged = _Merged(_merge(base.data, own.data), {**base.origins, **own.origins},
                     own.plugin_dir or base.plugin_dir)
    merged.data.pop("extends", None)
    return merged


def _record_origins(origins: dict, mapping: Any, shown: str, prefix: str) -> None:
    for key, value in mapping.items():
        line, col = position(mapping, key)
        dotted = f"{prefix}{key}"
        origins[dotted] = (shown, line, col)
        if isinstance(value, dict) and key in ("settings", "decide"):
            _record_origins(origins, value, shown, dotted + ".")


def _merge(base: dict, own: dict) -> dict:
    merged = Located(base)
    if isinstance(base, Located):
        merged.where = dict(base.where)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- resolving


def load_variant(ref: str | Path) -> Variant:
    """Load a variant by built-in name or file path: every problem at once in a ``VariantError``."""
    path = ref if isinstance(ref, Path) else find_variant(ref)
    problems: list[Problem] = []
    merged = _read_chain(path, problems)
    if merged is None:
        raise VariantError(problems)
    variant = _resolve(path, merged, problems)
    if problems or variant is None:
        raise VariantError(problems)
    return variant


def _where(merged: _Merged, key: str, fallback: Path) -> tuple[str, int, int]:
    while key:
        if key in merged.origins:
            return merged.origins[key]
        key = key.rpartition(".")[0]
    return (_shown(fallback), 1, 1)


def _resolve(path: Path, merged: _Merged, problems: list[Problem]) -> Variant | None:
    data = merged.data

    def problem(key: str, message: str) -> None:
        problems.append(Problem(*_where(merged, key, path), message))

    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name:
        problem("name", "'name' must be a non-empty string")
    description = data.get("description", "")
    if not isinstance(description, str):
        problem("description", "'description' must be a string")
        description = ""
    players = data.get("players", [2, 3, 4])
    if isinstance(players, int) and not isinstance(players, bool):
        players = [players]
    if not isinstance(players, list) or not players or \
            any(not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= 9 for p in players):
        problem("players", "'players' must be a list of player counts from 1 to 9, e.g. [2, 3, 4]")
        players = []
    plugin_refs = data.get("plugins")
    if plugin_refs is None:
        problem("plugins", "no 'plugins' list: name the rule plugins, e.g. [standard, colour_wall]")
        plugin_refs = []
    elif not isinstance(plugin_refs, list) or any(not isinstance(p, str) for p in plugin_refs):
        problem("plugins", "'plugins' must be a list of plugin names, modules or .py files")
        plugin_refs = []
    decide = data.get("decide", {})
    if not isinstance(decide, dict) or any(not isinstance(v, str) for v in decide.values()):
        problem("decide", "'decide' must map a rule to the plugin that decides it, e.g. {wall: grey_wall}")
        decide = {}
    raw_settings = data.get("settings", {})
    if not isinstance(raw_settings, dict):
        problem("settings", "'settings' must be a mapping of setting names to values")
        raw_settings = {}

    plugins: list[LoadedPlugin] = []
    for ref in plugin_refs:
        try:
            plugins.append(load_plugin(ref, merged.plugin_dir))
        except PluginError as exc:
            problem("plugins", str(exc))
    if problems or not plugins:
        return None
    names = [p.name for p in plugins]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        problem("plugins", f"plugin '{dup}' is listed twice")
    try:
        pm = register_plugins(plugins)
    except PluginError as exc:
        problem("plugins", str(exc))
        return None
    declared = _declared_settings(pm, merged, problem)
    values = {name: setting.default for name, setting in declared.items()}
    for key, value in raw_settings.items():
        setting = declared.get(key)
        if setting is None:
            close = difflib.get_close_matches(str(key), list(declared), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problem(f"settings.{key}", f"unknown setting '{key}'{hint} (no listed plugin declares it)")
            continue
        value = _normalise(setting, value)
        reason = setting.problem(value)
        if reason:
            problem(f"settings.{key}", reason)
            continue
        values[key] = value
    from .hookspecs import EXCLUSIVE_RULES
    for rule in decide:
        if rule not in EXCLUSIVE_RULES:
            close = difflib.get_close_matches(str(rule), list(EXCLUSIVE_RULES), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problem(f"decide.{rule}", f"'{rule}' is not a rule that 'decide' chooses{hint} "
                                      f"(rules: {', '.join(EXCLUSIVE_RULES)})")
    if problems:
        return None
    settings = Settings(values)
    try:
        rules = Rules(pm, settings, name=name, decide=dict(decide), players=players)
    except (PluginError, VariantRulesError) as exc:
        problem("decide" if "decide" in str(exc) else "plugins", str(exc))
        return None
    for count in players:
        try:
            table = rules.table(count)
        except (PluginError, VariantRulesError) as exc:
            problem("players", f"{count} players: {exc}")
            continue
        needed = table.factories * table.tiles_per_factory
        if table.factories > 9:
            problem("settings.factories", f"{count} players: {table.factories} factories; "
                                          "there can be at most 9")
        if needed > table.tiles_per_colour * 5:
            problem("settings", f"{count} players: {table.factories} factories of "
                                f"{table.tiles_per_factory} need {needed} tiles, but there are only "
                                f"{table.tiles_per_colour * 5}")
    if problems:
        return None
    origins = {key: f"{file}:{line}" for key, (file, line, _col) in merged.origins.items()}
    for key in values:
        origins.setdefault(f"settings.{key}", f"default of plugin '{declared[key].owner}'")
    return Variant(name, description, path, tuple(players), plugins, settings, dict(decide),
                   rules, origins, declared)


def _declared_settings(pm, merged, problem) -> dict[str, Setting]:
    declared: dict[str, Setting] = {}
    try:
        answers = ask_all(pm, "azul_declare_settings")
    except PluginError as exc:
        problem("plugins", str(exc))
        return declared
    for answer, plugin in answers:
        for setting in answer:
            if not isinstance(setting, Setting):
                problem("plugins", f"plugin '{plugin}' declared {setting!r}, not a Setting")
                continue
            if setting.name in declared:
                problem("plugins", f"setting '{setting.name}' is declared by both "
                                   f"'{declared[setting.name].owner}' and '{plugin}'")
                continue
            declared[setting.name] = Setting(**{**setting.__dict__, "owner": plugin})
    return declared


def _normalise(setting: Setting, value: Any) -> Any:
    """TOML keys are always strings: read '2' as 2 in a mapping of numbers."""
    if setting.kind == "int_map" and isinstance(value, dict):
        return {int(k) if isinstance(k, str) and k.lstrip("-").isdigit() else k: v for k, v in value.items()}
    return value


__all__ = ["Variant", "VariantError", "load_variant", "find_variant", "builtin_variants",
           "discovered_variants", "known_variants", "unknown_hooks"]
