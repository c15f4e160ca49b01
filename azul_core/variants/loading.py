"""Variants: choosing plugins and settings by file, with ``extends``, resolved into ``Rules``.

A variant file (YAML, or TOML with the same fields)::

    name: grey-family
    description: Free placement, and a gentler floor.
    extends: standard            # a built-in name or a path relative to this file
    players: [2, 3, 4]
    plugins: [standard, colour_wall, grey_wall]
    decide: {wall: grey_wall}    # two plugins make the wall: say which one decides
    settings: {floor_penalties: [-1, -1, -1, -1, -1, -1, -1]}

``extends`` merges mappings key by key, at every depth (``settings``,
``decide``, and a setting whose value is a mapping, such as ``factories``);
lists and scalars replace the base's. ``name`` and ``description`` are never
inherited: they describe the file that says them.

Loading checks everything it can and reports every problem at once, each at
its place (``VariantError.problems``): it goes on past a problem as long as
what follows does not depend on it.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from azul_core.engine.notation import is_ascii_number
from azul_core.engine.plugins import (
    LoadedPlugin,
    PluginError,
    ask_all,
    code_of,
    load_plugin,
    new_manager,
    ordering_problems,
    register_plugin,
    register_plugins,
    runs_code,
    unknown_hooks,
)
from azul_core.engine.rulebook import Rules, VariantRulesError
from azul_core.hookspecs import EXCLUSIVE_RULES
from azul_core.settings import Setting, Settings
from azul_core.variants.files import Located, Problem, position, read_mapping, value_position
from azul_core.variants.packages import NOT_VARIANTS

FIELDS = ("name", "description", "extends", "players", "plugins", "decide", "settings")
#: Fields whose mappings ``extends`` merges key by key.
#: Fields whose entries get their own origin in ``Variant.origins``.
MERGED_FIELDS = ("settings", "decide")
SUFFIXES = (".yaml", ".yml", ".toml")
MAX_EXTENDS_DEPTH = 32
MAX_PLAYERS = 9


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
                if path.suffix in SUFFIXES and path.name not in NOT_VARIANTS and _resolved(path) not in builtin:
                    found.setdefault(path.stem, path)
    return found


def _resolved(path: Path) -> Path | None:
    """Where a link leads; None for a link that leads round in a loop (reading it then says why)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return None


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
        raise VariantError([Problem(ref, 0, 0, "variant file not found")])
    known = known_variants()
    if ref in known:
        return known[ref]
    raise VariantError([Problem("", 0, 0, f"unknown variant '{ref}' (known: {', '.join(known)})"
                                           f"{_did_you_mean(ref, known)}")])


def _did_you_mean(word: Any, choices) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


# ---------------------------------------------------------------- merging files

Place = tuple  # (file shown, line, column)


@dataclass
class _Merged:
    data: dict
    #: dotted key -> place of the key ("players", "settings.factories", ...)
    origins: dict
    #: dotted key of a list -> the place of each item (None where the file kept none: TOML)
    items: dict
    plugin_dir: Path | None = None
    #: False when a base variant could not be read: missing fields are then not the file's fault
    complete: bool = True
    #: dotted key -> place where its value began (a wrong value is pointed at there)
    values: dict = field(default_factory=dict)


def _read_chain(path: Path, problems: list[Problem], chain: tuple[Path, ...] = (),
                via: Place | None = None) -> _Merged | None:
    """Read ``path`` and the variants it extends, merged; ``via``: the ``extends`` that led here."""
    shown = _shown(path)
    resolved = _resolved(path) or path.absolute()  # a link in a loop: reading it says so below
    if resolved in chain:
        cycle = " -> ".join(_shown(p) for p in chain + (resolved,))
        problems.append(Problem(*(via or (shown, 1, 1)), f"extends cycle: {cycle}"))
        return None
    if len(chain) > MAX_EXTENDS_DEPTH:
        problems.append(Problem(*(via or (shown, 1, 1)),
                                f"extends chain deeper than {MAX_EXTENDS_DEPTH} files"))
        return None
    data, found = read_mapping(path, shown)
    problems.extend(found)
    if data is None:
        return None
    for key in data:
        if key not in FIELDS:
            problems.append(Problem(shown, *position(data, key),
                                    f"unknown key '{key}'{_did_you_mean(key, FIELDS)} "
                                    f"(allowed: {', '.join(FIELDS)})"))
    own = _Merged({k: v for k, v in data.items() if k in FIELDS}, {}, {})
    _record_places(own, data, shown, "")
    if "plugins" in data:
        own.plugin_dir = path.parent
    if "extends" not in data:
        return own
    base_ref = data["extends"]
    here = (shown, *value_position(data, "extends"))
    if not isinstance(base_ref, str) or not base_ref:
        problems.append(Problem(*here, "'extends' must be a variant name or a file path"))
        own.complete = False
        return own
    try:
        base_path = find_variant(base_ref, path.parent)
    except VariantError as exc:
        if looks_like_path(base_ref):
            folder = (path.parent / base_ref).parent
            nearby = [p.name for p in folder.iterdir() if p.suffix in SUFFIXES] if folder.is_dir() else []
            message = (f"base variant file '{base_ref}' not found (looked in {_shown(folder)})"
                       f"{_did_you_mean(Path(base_ref).name, nearby)}")
        else:
            message = exc.problems[0].message
        problems.append(Problem(*here, message))
        own.complete = False
        return own
    base = _read_chain(base_path, problems, chain + (resolved,), here)
    if base is None:
        own.complete = False
        return own
    merged = _Merged(_merge(base.data, own.data), {**base.origins, **own.origins},
                     {**base.items, **own.items}, own.plugin_dir or base.plugin_dir,
                     base.complete, {**base.values, **own.values})
    merged.data.pop("extends", None)
    return merged


def _record_places(merged: _Merged, mapping: Any, shown: str, prefix: str) -> None:
    for key, value in mapping.items():
        dotted = f"{prefix}{key}"
        merged.origins[dotted] = (shown, *position(mapping, key))
        merged.values[dotted] = (shown, *value_position(mapping, key))
        if isinstance(value, list):
            # A TOML list keeps no places: None, not the items of a base's list it replaces.
            where = getattr(value, "where", None)
            merged.items[dotted] = [(shown, line, col) for line, col in where] if where else None
        if isinstance(value, dict) and key in MERGED_FIELDS and not prefix:
            _record_places(merged, value, shown, dotted + ".")


def _merge(base: dict, own: dict) -> dict:
    merged = Located(base)
    merged.where = {**getattr(base, "where", {}), **getattr(own, "where", {})}
    merged.value_where = {**getattr(base, "value_where", {}), **getattr(own, "value_where", {})}
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _shown(path: Path) -> str:
    """A path as messages show it: relative below the working directory, else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(Path(path).absolute()) if relative.startswith("..") else relative


# ---------------------------------------------------------------- resolving


def load_variant(ref: str | Path, code: "CodeRule | None" = None) -> Variant:
    """Load a variant by built-in name or file path: every problem at once in a ``VariantError``.

    ``code``: ``None`` when the user named this variant (its plugin files and
    modules may run), else the rule for code that nobody named (see ``CodeRule``).
    """
    path = ref if isinstance(ref, Path) else find_variant(ref)
    problems: list[Problem] = []
    merged = _read_chain(path, problems)
    if merged is None:
        raise VariantError(_in_file_order(problems))
    variant = _Resolver(path, merged, problems, code).resolve()
    if problems or variant is None:
        raise VariantError(_in_file_order(problems))
    return variant


# ---------------------------------------------------------------- what code may run


@dataclass(frozen=True)
class CodeRule:
    """What plugin code a variant that the user did not name may run.

    Installed plugins (entry points) always load: installing them was the
    consent. A plugin ``.py`` file or a module from the Python path is code
    that the variant file points to; it runs only when ``allowed``. Otherwise
    it is not imported: ``refused`` (how to allow it, for the message) makes
    it a problem of the variant; with ``skip`` it is only listed in
    ``CodeRule.skipped`` (``azul validate --no-code``).
    """

    allowed: bool = False
    refused: str = ""
    skip: bool = False
    skipped: list = field(default_factory=list, compare=False, hash=False)


@dataclass(frozen=True)
class Trust:
    """The consent a user gave for the code that game records point to.

    ``variant_files``: variant files named on the command line (``--variant
    FILE``): a record naming one of them may load it, wherever it is, and run
    its plugins. ``everything`` (``--trust``): any record variant inside the
    record's folder may run its plugins.
    """

    variant_files: frozenset = frozenset()
    everything: bool = False

    @classmethod
    def of(cls, files=(), everything: bool = False) -> "Trust":
        return cls(frozenset(_resolved(Path(f)) or Path(f).absolute() for f in files), everything)

    def names(self, path: Path) -> bool:
        return (_resolved(path) or path.absolute()) in self.variant_files

    def rule_for(self, path: Path) -> CodeRule:
        if self.everything or self.names(path):
            return CodeRule(allowed=True)
        return CodeRule(refused=f"allow it with --variant {_shown(path)} or --trust")


def record_variant_path(ref: str, folder: Path, trust: Trust | None = None) -> Path:
    """The file of a variant that a game record names: a known variant by name, or a file inside
    the record's own folder (no absolute path, no '..', no symlink out), unless the user named
    that very file (``trust.variant_files``). ``VariantError`` says why not."""
    if not looks_like_path(ref):
        return find_variant(ref)
    candidate = Path(ref)
    target = candidate if candidate.is_absolute() else folder / candidate
    if trust is not None and target.exists() and trust.names(target):
        return target
    allow = f"name it with --variant {_shown(Path(os.path.normpath(target)))} to use it anyway"
    if candidate.is_absolute() or candidate.drive:
        raise VariantError([Problem(ref, 0, 0, "a record may name a variant file only inside its own "
                                               f"folder, not an absolute path: refused; {allow}")])
    if ".." in candidate.parts:
        raise VariantError([Problem(ref, 0, 0, "a record may name a variant file only inside its own "
                                               f"folder, not through '..': refused; {allow}")])
    if not target.is_file():
        raise VariantError([Problem(ref, 0, 0, "variant file not found")])
    inside = folder.resolve()
    resolved = target.resolve()
    if inside not in resolved.parents:
        raise VariantError([Problem(ref, 0, 0, f"a symbolic link out of the record's folder "
                                               f"(to {resolved}): refused; {allow}")])
    return target


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    """Each file's problems by line, the files in the order they were first reported."""
    files = list(dict.fromkeys(p.file for p in problems))
    return sorted(problems, key=lambda p: (files.index(p.file), p.line, p.column))


class _Resolver:
    """Checks a merged variant field by field and builds its ``Rules``, collecting problems."""

    def __init__(self, path: Path, merged: _Merged, problems: list[Problem],
                 code: CodeRule | None = None):
        self.path = path
        self.merged = merged
        self.data = merged.data
        self.problems = problems
        self.code = code
        #: the settings ``setting_values`` accepted (defaults for the refused) and those it refused
        self.accepted: dict | None = None
        self.refused: set[str] = set()
        #: each loaded plugin's place in the file's 'plugins' (those before it may have failed)
        self.listed_at: dict[str, int] = {}

    def place(self, key: str, index: int | None = None, value: bool = False) -> Place:
        """Where dotted ``key`` was written (its value with ``value``; item ``index`` of a list)."""
        if index is not None:
            items = self.merged.items.get(key)
            if items and index < len(items):
                return items[index]
        if value and key in self.merged.values:
            return self.merged.values[key]
        while key:
            if key in self.merged.origins:
                return self.merged.origins[key]
            key = key.rpartition(".")[0]
        return (_shown(self.path), 1, 1)

    def problem(self, key: str, message: str, index: int | None = None, value: bool = False) -> None:
        self.problems.append(Problem(*self.place(key, index, value), message))

    # ------------------------------------------------------------ fields

    def resolve(self) -> Variant | None:
        name = self.check_name()
        description = self.check_description()
        players = self.check_players()
        plugin_refs = self.check_plugin_refs()
        decide = self.check_decide()
        raw_settings = self.check_settings_mapping()
        if plugin_refs is None:
            return None  # what follows needs the plugin list
        plugins, every_plugin = self.load_plugins(plugin_refs)
        try:
            pm = register_plugins(plugins)
        except PluginError as exc:
            self.problem("plugins", str(exc), self.plugin_index(exc.plugin))
            return None
        declared = self.declared_settings(pm)
        if not every_plugin or not self.merged.complete:
            # A missing plugin may own any unknown setting, but the values of the settings the
            # loaded plugins declare can still be judged: report those too, all at once.
            self.setting_values(declared, raw_settings, judge_unknown=False)
            return None
        values = self.setting_values(declared, raw_settings)
        decide_ok = self.check_decide_rules(decide)
        if values is None or not decide_ok:
            # The tables are judged all the same, from the settings that were accepted: every
            # mistake at once, not the player counts' only once the others are fixed.
            self.check_tables_anyway(pm, name, decide if decide_ok else {}, players)
            return None
        settings = Settings(values)
        try:
            rules = Rules(pm, settings, name=name, decide=decide, players=players)
        except (PluginError, VariantRulesError) as exc:
            self.rules_problem(exc, decide)
            return None
        self.check_tables(rules, players)
        if self.problems:
            return None
        origins = {key: f"{file}:{line}" for key, (file, line, _col) in self.merged.origins.items()}
        # Name and description are never inherited: a base's line is not where they came from.
        inherited = " (a base's is not inherited)"
        if self.own("name") is None:
            origins["name"] = f"the file name of {_shown(self.path)}" + (inherited if "name" in origins else "")
        if self.own("description") is None and "description" in origins:
            origins["description"] = f"none in {_shown(self.path)}" + inherited
        for key in values:
            origins.setdefault(f"settings.{key}", f"default of plugin '{declared[key].owner}'")
        return Variant(name, description, self.path, tuple(players), plugins, settings, decide,
                       rules, origins, declared)

    def own(self, key: str) -> Any:
        """The value of ``key`` if this file (not a base) sets it."""
        written_here = self.merged.origins.get(key, ("",))[0] == _shown(self.path)
        return self.data.get(key) if written_here else None

    def check_name(self) -> str:
        # Name and description are never inherited: a file extending 'duel' is not 'duel'.
        own_name = self.own("name")
        if own_name is None:
            return self.path.stem
        if not isinstance(own_name, str) or not own_name.strip():
            self.problem("name", f"'name' must be a non-empty string, not {_describe(own_name)}", value=True)
            return self.path.stem
        return own_name

    def check_description(self) -> str:
        description = self.own("description")
        if description is None:
            return ""
        if not isinstance(description, str):
            self.problem("description", f"'description' must be a string, not {_describe(description)}", value=True)
            return ""
        return " ".join(description.split())

    def check_players(self) -> list[int]:
        players = self.data.get("players", [2, 3, 4])
        if _is_int(players):
            players = [players]
        if not isinstance(players, list) or not players:
            self.problem("players", f"'players' must be a list of player counts, e.g. [2, 3, 4], "
                                    f"not {_describe(players)}", value=True)
            return []
        good = []
        for index, count in enumerate(players):
            if not _is_int(count):
                self.problem("players", f"players: {_describe(count)} is not a player count", index)
            elif not 1 <= count <= MAX_PLAYERS:
                self.problem("players", f"players: {count} is out of range (1 to {MAX_PLAYERS})", index)
            elif count in good:
                self.problem("players", f"players: {count} is listed twice", index)
            else:
                good.append(count)
        return sorted(good)

    def check_plugin_refs(self) -> list[str] | None:
        refs = self.data.get("plugins")
        if refs is None:
            if self.merged.complete:
                self.problem("plugins", "no 'plugins' list: name the rule plugins, "
                                        "e.g. [standard, colour_wall], or extend a variant")
            return None
        if not isinstance(refs, list) or not refs:
            self.problem("plugins", "'plugins' must be a non-empty list of plugin names, modules or "
                                    f".py files, not {_describe(refs)}", value=True)
            return None
        bad = [i for i, ref in enumerate(refs) if not isinstance(ref, str) or not ref]
        for index in bad:
            self.problem("plugins", f"plugins: {_describe(refs[index])} is not a plugin name", index)
        return None if bad else refs

    def check_decide(self) -> dict[str, str]:
        decide = self.data.get("decide", {})
        if not isinstance(decide, dict):
            self.problem("decide", "'decide' must map a rule to the plugin that decides it, "
                                   f"e.g. {{wall: grey_wall}}, not {_describe(decide)}", value=True)
            return {}
        good = {}
        for rule, plugin in decide.items():
            if not isinstance(plugin, str):
                self.problem(f"decide.{rule}", f"decide: {rule}: expected a plugin name, "
                                               f"not {_describe(plugin)}", value=True)
            else:
                good[str(rule)] = plugin
        return good

    def check_decide_rules(self, decide: dict[str, str]) -> bool:
        ok = True
        for rule in decide:
            if rule not in EXCLUSIVE_RULES:
                ok = False
                self.problem(f"decide.{rule}", f"'{rule}' is not a rule that 'decide' chooses"
                                               f"{_did_you_mean(rule, EXCLUSIVE_RULES)} "
                                               f"(rules: {', '.join(EXCLUSIVE_RULES)})")
        return ok

    def check_settings_mapping(self) -> dict:
        raw = self.data.get("settings", {})
        if not isinstance(raw, dict):
            self.problem("settings", "'settings' must be a mapping of setting names to values, "
                                     f"not {_describe(raw)}", value=True)
            return {}
        return raw

    # ------------------------------------------------------------ plugins

    def load_plugins(self, refs: list[str]) -> tuple[list[LoadedPlugin], bool]:
        """The plugins that load and pass their own checks, and whether all of them did
        (each failure reported)."""
        plugins: list[LoadedPlugin] = []
        failed = False
        for index, ref in enumerate(refs):
            if self.code is not None and not self.code.allowed and runs_code(ref):
                what = code_of(ref, self.merged.plugin_dir)
                listed = "{}:{}".format(*self.place("plugins", index)[:2])
                if self.code.skip:
                    self.code.skipped.append(f"{listed}: plugin {ref!r} ({what}) was not run")
                else:
                    self.problem("plugins", f"plugin {ref!r} would run the code of {what}: not run, "
                                            f"since no one named this variant; {self.code.refused}", index)
                failed = True
                continue
            try:
                plugin = load_plugin(ref, self.merged.plugin_dir)
            except PluginError as exc:
                self.problem("plugins", str(exc), index)
                failed = True
                continue
            if any(p.name == plugin.name for p in plugins):
                self.problem("plugins", f"plugin '{plugin.name}' is listed twice", index)
                failed = True
                continue
            problems = _plugin_problems(plugin)
            for message in problems:
                self.problem("plugins", message, index)
            failed = failed or bool(problems)
            if not problems:
                plugins.append(plugin)
                self.listed_at[plugin.name] = index
        return plugins, not failed

    def plugin_index(self, name: str) -> int | None:
        """Where the loaded plugin ``name`` is listed in 'plugins', to point at it."""
        return self.listed_at.get(name)

    def declared_settings(self, pm) -> dict[str, Setting] | None:
        declared: dict[str, Setting] = {}
        try:
            answers = ask_all(pm, "azul_declare_settings")
        except PluginError as exc:
            self.problem("plugins", str(exc), self.plugin_index(exc.plugin))
            return None
        ok = True
        for answer, plugin in answers:
            index = self.plugin_index(plugin)
            if isinstance(answer, (str, bytes)) or not hasattr(answer, "__iter__"):
                self.problem("plugins", f"plugin '{plugin}' returned {answer!r} from "
                                        "azul_declare_settings: expected a list of Setting", index)
                ok = False
                continue
            for setting in answer:
                if not isinstance(setting, Setting):
                    self.problem("plugins", f"plugin '{plugin}' declared {setting!r}, not a Setting", index)
                    ok = False
                elif setting.name in declared:
                    self.problem("plugins", f"setting '{setting.name}' is declared by both "
                                            f"'{declared[setting.name].owner}' and '{plugin}'", index)
                    ok = False
                else:
                    declared[setting.name] = Setting(**{**setting.__dict__, "owner": plugin})
        return declared if ok else None

    def setting_values(self, declared: dict[str, Setting] | None, raw: dict,
                       judge_unknown: bool = True) -> dict | None:
        """Defaults overridden by the file's values; ``None`` when any value is refused.
        ``judge_unknown``: report settings no plugin declares (not when a plugin is missing)."""
        if declared is None:
            return None
        values = {name: setting.default for name, setting in declared.items()}
        self.accepted, self.refused = values, set()
        ok = True
        for key, value in raw.items():
            setting = declared.get(key)
            if setting is None and not judge_unknown:
                ok = False
                continue
            if setting is None:
                owners = ", ".join(sorted({s.owner for s in declared.values()})) or "none"
                self.problem(f"settings.{key}", f"unknown setting '{key}'{_did_you_mean(key, declared)} "
                                                f"(no listed plugin declares it; plugins with settings: {owners})")
                ok = False
                continue
            value = _normalise(setting, value)
            reason = setting.problem(value)
            if reason:
                self.problem(f"settings.{key}", reason, _first_refused_item(setting, value), value=True)
                self.refused.add(key)
                ok = False
                continue
            values[key] = value
        return values if ok else None

    def rules_problem(self, exc: Exception, decide: dict) -> None:
        message = str(exc)
        chosen = [rule for rule in decide if message.startswith(f"decide: {rule}:")]
        if chosen:
            self.problem(f"decide.{chosen[0]}", message)
            return
        name = getattr(exc, "plugin", "")
        self.problem("plugins", message, self.plugin_index(name) if name else None)

    def check_tables_anyway(self, pm, name: str, decide: dict, players: list[int]) -> None:
        """``check_tables`` for a file with other mistakes: with its accepted settings (the
        refused ones at their defaults). A player count whose table reads a refused setting is
        not judged: its problem could be the default's, not the file's."""
        if self.accepted is None:
            return
        settings = _ReadSettings(self.accepted)
        try:
            rules = Rules(pm, settings, name=name, decide=decide, players=players)
        except (PluginError, VariantRulesError):
            return  # the rules can't be made of what was accepted: nothing more to judge
        for count in players:
            settings.read.clear()
            found = len(self.problems)
            self.check_tables(rules, [count])
            if settings.read & self.refused:
                del self.problems[found:]

    def check_tables(self, rules: Rules, players: list[int]) -> None:
        """Every player count must get a table the tiles can fill."""
        listed = self.data.get("players")
        for count in players:
            index = listed.index(count) if isinstance(listed, list) and count in listed else None
            try:
                table = rules.table(count)
            except (PluginError, VariantRulesError) as exc:
                # A plugin's own table is the plugin's fault: point at where it is listed.
                listed_at = self.plugin_index(exc.plugin) if isinstance(exc, PluginError) else None
                if listed_at is not None:
                    self.problem("plugins", f"{count} players: {exc}", listed_at)
                else:
                    self.problem("players", f"{count} players: {exc}", index)
                continue
            needed = table.factories * table.tiles_per_factory
            available = sum(table.kind_counts)
            # Point at the setting that makes the table, where the file writes one.
            written = [key for key in ("settings.factories", "settings.tiles_per_factory",
                                       "settings.tiles_per_colour") if key in self.merged.origins]
            written.sort(key=lambda key: self.merged.origins[key][0] != _shown(self.path))  # this file's first
            if needed > available:
                self.problem(written[0] if written else "settings",
                             f"{count} players: {table.factories} factories of "
                             f"{table.tiles_per_factory} tiles need {needed} tiles, but there are "
                             f"only {available} ({_tile_counts_in_words(table)})",
                             value=bool(written))


class _ReadSettings(Settings):
    """Settings that note which of them are read (``read``): what a table is made from."""

    def __init__(self, values):
        super().__init__(values)
        object.__setattr__(self, "read", set())

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_") and name in object.__getattribute__(self, "_values"):
            object.__getattribute__(self, "read").add(name)
        return object.__getattribute__(self, name)

    def __getitem__(self, name: str) -> Any:
        self.read.add(name)
        return super().__getitem__(name)


def _tile_counts_in_words(table) -> str:
    counts = table.kind_counts
    # the colours in words, then the extra tiles (kind_names has them too: counted once)
    colours = len(table.colours)
    words = (f"{counts[0]} of each colour" if len(set(counts[:colours])) == 1
             else ", ".join(f"{count} {name}" for count, name in zip(counts[:colours], table.kind_names[:colours])))
    return words + "".join(f", {extra.count} {extra.name}" for extra in table.extra_tiles)


def _plugin_problems(plugin: LoadedPlugin) -> list[str]:
    """What is wrong with one plugin on its own: hooks that don't exist, bad signatures."""
    pm = new_manager()
    try:
        register_plugin(pm, plugin)
    except PluginError as exc:
        return [str(exc)]
    except Exception as exc:  # the plugin's own code failing while pluggy looks at it (a module's __dir__)
        return [f"plugin '{plugin.name}' could not be registered: {type(exc).__name__}: {' '.join(str(exc).split())}"]
    return [message for _plugin, message in unknown_hooks(pm) + ordering_problems(pm)]


def _first_refused_item(setting: Setting, value: Any) -> int | None:
    """For a list setting, the first item refused alone (to point at it), if any."""
    if not isinstance(value, list):
        return None
    for index, item in enumerate(value):
        if _is_int(item) and ((setting.minimum is not None and item < setting.minimum)
                              or (setting.maximum is not None and item > setting.maximum)):
            return index
        if setting.kind == "int_list" and not _is_int(item):
            return index
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list" if value else "an empty list"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return f"{type(value).__name__} {value}"  # a TOML date or time, as written


def _normalise(setting: Setting, value: Any) -> Any:
    """TOML keys are always strings: read '2' as 2 in a mapping of numbers."""
    if setting.kind == "int_map" and isinstance(value, dict):
        return {int(k) if isinstance(k, str) and is_ascii_number(k.removeprefix("-")) else k: v
                for k, v in value.items()}
    return value


__all__ = ["Variant", "VariantError", "Problem", "CodeRule", "Trust", "record_variant_path",
           "check_without_code", "describe_variant_file", "load_variant", "find_variant", "builtin_variants",
           "discovered_variants", "known_variants", "read_mapping", "unknown_hooks"]


def check_without_code(path: Path) -> tuple[list[Problem], list[str]]:
    """Check a variant file running none of its plugin files or modules: syntax, keys,
    ``extends``, and the settings of installed plugins. Returns the problems and a line for
    each plugin that was not run."""
    problems: list[Problem] = []
    merged = _read_chain(path, problems)
    rule = CodeRule(skip=True)
    if merged is not None:
        _Resolver(path, merged, problems, rule).resolve()
    return _in_file_order(problems), list(rule.skipped)


def describe_variant_file(path: Path) -> dict:
    """What a listing shows of a variant file, read as YAML/TOML only (no plugin is imported):
    name, description, players, and the first problem of reading it, if any."""
    problems: list[Problem] = []
    merged = _read_chain(path, problems)
    entry = {"name": path.stem, "description": "", "players": [], "error": None}
    if merged is not None:
        resolver = _Resolver(path, merged, problems, CodeRule(skip=True))
        entry.update(name=resolver.check_name(), description=resolver.check_description(),
                     players=resolver.check_players())
        resolver.check_plugin_refs()
    if problems:
        problems = _in_file_order(problems)
        entry["error"] = str(problems[0]) + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
    return entry
