"""Finding, loading and registering rule plugins, and compiling their hooks.

A plugin is named in a variant file as one of
* the name of an installed plugin (entry-point group ``azul.plugins``; the
  shipped plugins register there exactly as a third party's would),
* a dotted module importable from the current environment,
* a ``.py`` file, relative to the variant file.

Plugins are registered in the order the variant lists them, so the plugin
listed last is asked first by every first-result hook.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
import traceback
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

import pluggy

from azul_core import API_VERSION, hookspecs

ENTRY_POINT_GROUP = "azul.plugins"


class PluginError(Exception):
    """A plugin could not be found, loaded or used; the message says why."""

    def __init__(self, message: str, plugin: str = "", hook: str = "", location: str = ""):
        super().__init__(message)
        self.plugin = plugin
        self.hook = hook
        self.location = location


@dataclass(frozen=True)
class LoadedPlugin:
    """A plugin as registered: its name, module, where it came from, its version."""

    name: str
    module: Any
    origin: str
    version: str
    file: str


def installed_plugins() -> dict[str, metadata.EntryPoint]:
    """The plugins installed in this environment, by name."""
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _distribution_version(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.version if dist is not None else ""


def runs_code(ref: str) -> bool:
    """Whether loading the plugin ``ref`` runs code that no installation put here: a ``.py``
    file or a module from the Python path (an installed plugin was consented to by installing)."""
    return ref.endswith(".py") or ref not in installed_plugins()


def code_of(ref: str, base_dir: Path | None = None) -> str:
    """The code ``ref`` stands for, in words: ``the file /x/evil.py`` or ``the module evil``."""
    if ref.endswith(".py"):
        path = Path(ref)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        return f"the file {path}"
    return f"the Python module '{ref}'"


def load_plugin(ref: str, base_dir: Path | None = None) -> LoadedPlugin:
    """Load one plugin named by ``ref`` (entry-point name, dotted module or .py file)."""
    if ref.endswith(".py"):
        path = Path(ref)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        return _load_file(ref, path)
    installed = installed_plugins()
    if ref in installed:
        ep = installed[ref]
        try:
            module = ep.load()
        except BaseException as exc:  # third-party code: even SystemExit is its failure, not ours
            raise PluginError(
                f"plugin '{ref}' ({ep.value}) failed to import: {_import_reason(exc)}", plugin=ref
            ) from exc
        return LoadedPlugin(ref, module, f"entry point {ep.value}", _distribution_version(ep),
                            getattr(module, "__file__", "") or "")
    try:
        module = importlib.import_module(ref)
    except ModuleNotFoundError as exc:
        if exc.name and ref.startswith(exc.name):
            close = difflib.get_close_matches(ref, list(installed), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            known = ", ".join(sorted(installed)) or "none"
            raise PluginError(
                f"plugin '{ref}' not found: not an installed plugin (installed: {known}), "
                f"an importable module or a .py file{hint}", plugin=ref) from exc
        raise PluginError(f"plugin '{ref}' failed to import: {_import_reason(exc)}", plugin=ref) from exc
    except BaseException as exc:  # SystemExit, KeyboardInterrupt raised by the module itself
        raise PluginError(f"plugin '{ref}' failed to import: {_import_reason(exc)}", plugin=ref) from exc
    return LoadedPlugin(ref, module, f"module {ref}", _version_of(module, "plugin", ref),
                        getattr(module, "__file__", "") or "")


def _load_file(ref: str, path: Path) -> LoadedPlugin:
    if not path.is_file():
        raise PluginError(f"plugin file '{ref}' not found (looked for {path})", plugin=ref)
    module_name = f"azul_file_plugin_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PluginError(f"plugin file '{ref}' can't be imported as Python (looked at {path})", plugin=ref)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # SystemExit(0) at import must not end the program
        del sys.modules[module_name]
        if isinstance(exc, KeyboardInterrupt) and _UserInterrupts.seen:
            raise
        raise PluginError(f"plugin file '{ref}' failed to import: {_import_reason(exc)}",
                          plugin=ref, location=_location_in(exc, str(path))) from exc
    version = _version_of(module, "plugin file", ref)
    return LoadedPlugin(path.stem, module, f"file {path}", version, str(path))


def _version_of(module: ModuleType, kind: str, ref: str) -> str:
    """The module's ``__version__``, if it has one. A module-level ``__getattr__`` answering
    anything but ``AttributeError`` for a name it lacks is the plugin's failure, named as such."""
    try:
        return getattr(module, "__version__", "")
    except Exception as exc:
        raise PluginError(f"{kind} '{ref}' failed to load: its __version__ raised {type(exc).__name__}: "
                          f"{_short(exc)}", plugin=ref) from exc


def _import_reason(exc: BaseException) -> str:
    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if isinstance(exc, SyntaxError) and exc.filename:
        where = f" ({exc.filename}:{exc.lineno})"
    elif frames:
        where = f" ({frames[-1].filename}:{frames[-1].lineno})"
    return f"{type(exc).__name__}: {_short(exc)}{where}"


def _short(exc: BaseException, limit: int = 300) -> str:
    """An exception's message on one line, cut: plugin text is not trusted to be short."""
    try:
        text = " ".join(str(exc).split())
    except BaseException:  # a __str__ that raises
        text = "(its message can't be shown)"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _location_in(exc: BaseException, filename: str) -> str:
    """The deepest ``file:line`` of the traceback inside ``filename`` (or the deepest at all)."""
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if f.filename == filename]
    chosen = inside or frames
    return f"{chosen[-1].filename}:{chosen[-1].lineno}" if chosen else ""


def _check_api(plugin: LoadedPlugin) -> None:
    wanted = getattr(plugin.module, "AZUL_API", None)
    if wanted is None:
        return
    accepted = wanted if isinstance(wanted, (tuple, list, set, frozenset)) else (wanted,)
    if API_VERSION not in accepted:
        raise PluginError(
            f"plugin '{plugin.name}' needs hook API {wanted}, but this azul-variants offers "
            f"API {API_VERSION}: update the plugin or azul-variants", plugin=plugin.name)


class _Manager(pluggy.PluginManager):
    """Also takes unmarked functions named ``azul_*`` as hook implementations,
    so a forgotten ``@hookimpl`` is not a silent no-op."""

    def parse_hookimpl_opts(self, plugin: Any, name: str):
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is None and name.startswith("azul_") and callable(getattr(plugin, name, None)) \
                and not isinstance(getattr(plugin, name), type):
            opts = pluggy.HookimplOpts(wrapper=False, hookwrapper=False, optionalhook=False, tryfirst=False,
                                       trylast=False, specname=None)
        return opts


def new_manager() -> pluggy.PluginManager:
    pm = _Manager("azul")
    pm.add_hookspecs(hookspecs)
    return pm


def register_plugins(plugins: Sequence[LoadedPlugin]) -> pluggy.PluginManager:
    """Register ``plugins`` in order; refuse API mismatches, hooks that don't exist, arguments
    a hook does not have, orderings other than the file's, and a hook function registered twice."""
    pm = new_manager()
    for plugin in plugins:
        _check_api(plugin)
        if pm.is_registered(plugin.module):
            raise PluginError(f"plugin '{plugin.name}' is listed twice", plugin=plugin.name)
        register_plugin(pm, plugin)
    problems = unknown_hooks(pm) + ordering_problems(pm) + shared_functions(pm)
    if problems:
        raise PluginError(problems[0][1], plugin=problems[0][0])
    return pm


def register_plugin(pm: pluggy.PluginManager, plugin: LoadedPlugin) -> None:
    """Register one plugin, after checking its hook functions' arguments."""
    _check_arguments(plugin)
    try:
        pm.register(plugin.module, name=plugin.name)
    except (ValueError, pluggy.PluginValidationError) as exc:  # the latter: a bad hook signature
        raise PluginError(f"plugin '{plugin.name}' could not be registered: "
                          f"{'; '.join(str(exc).splitlines())}",
                          plugin=plugin.name) from exc


def hook_location(pm: pluggy.PluginManager, hook_name: str, plugin: str) -> str:
    """Where ``plugin``'s implementation of ``hook_name`` is defined (``file:line``), or ``""``."""
    return next((_where(impl.function) for impl in implementations(pm, hook_name)
                 if impl.plugin_name == plugin), "")


def _where(function: Any) -> str:
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code else ""


def _required_arguments(function: Any) -> list[str]:
    """The arguments a function must be given (no default, not ``*args``/``**kwargs``), read
    from its code object (``inspect.signature`` costs ten times more at every start)."""
    bound = hasattr(function, "__self__")
    function = getattr(function, "__func__", function)
    code = getattr(function, "__code__", None)
    if code is None:  # a callable object, a builtin: leave it to pluggy
        return []
    positional = list(code.co_varnames[:code.co_argcount])
    positional = positional[1:] if bound else positional
    with_default = len(getattr(function, "__defaults__", None) or ())
    keyword_only = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    keyword_defaults = getattr(function, "__kwdefaults__", None) or {}
    return (positional[:len(positional) - with_default]
            + [name for name in keyword_only if name not in keyword_defaults])


def _check_arguments(plugin: LoadedPlugin) -> None:
    """Refuse a hook implementation that asks for an argument its hook does not have,
    with the arguments it may take, a did-you-mean and the function's file:line."""
    for name in hookspecs.SPEC_NAMES:
        function = getattr(plugin.module, name, None)
        if function is None or not callable(function) or isinstance(function, type):
            continue
        spec_code = getattr(hookspecs, name).__code__
        allowed = spec_code.co_varnames[:spec_code.co_argcount]
        for argument in _required_arguments(function):
            if argument in allowed:
                continue
            close = difflib.get_close_matches(argument, allowed, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            location = _where(function)
            raise PluginError(
                f"plugin '{plugin.name}': {name} has no argument '{argument}'{hint} "
                f"(it may take {', '.join(allowed)}) at {location}",
                plugin=plugin.name, hook=name, location=location)


def ordering_problems(pm: pluggy.PluginManager) -> list[tuple[str, str]]:
    """Implementations that would change the order the variant file gives (tryfirst, trylast,
    wrappers): the file's order is the only one."""
    problems = []
    for name in hookspecs.SPEC_NAMES:
        for impl in getattr(pm.hook, name).get_hookimpls():
            marks = [mark for mark in ("tryfirst", "trylast", "hookwrapper", "wrapper")
                     if getattr(impl, mark, False)]
            if marks:
                problems.append((impl.plugin_name, (
                    f"plugin '{impl.plugin_name}' marks {name} {marks[0]}=True at "
                    f"{_where(impl.function)}: the variant file's order decides who is asked first "
                    f"(list the plugin later to be asked earlier), and a plugin builds on another's "
                    f"answer with an 'answer' argument")))
    return problems


def shared_functions(pm: pluggy.PluginManager) -> list[tuple[str, str]]:
    """A hook function registered by two plugins (one imported it from the other): it would
    be asked twice, and a collected answer (end bonuses) counted twice."""
    problems = []
    for name in hookspecs.SPEC_NAMES:
        owners: dict[Any, str] = {}
        for impl in getattr(pm.hook, name).get_hookimpls():  # registration order
            function = getattr(impl.function, "__func__", impl.function)
            if function in owners:
                problems.append((impl.plugin_name, (
                    f"plugin '{impl.plugin_name}' implements {name} with the function of plugin "
                    f"'{owners[function]}' ({getattr(function, '__module__', '?')}, "
                    f"{_where(function)}), imported: it would be asked twice. To call it, import "
                    f"its module instead ('import {getattr(function, '__module__', 'module')} as "
                    f"other'); to build on its answer, take an 'answer' argument")))
            owners.setdefault(function, impl.plugin_name)
    return problems


def unknown_hooks(pm: pluggy.PluginManager) -> list[tuple[str, str]]:
    """Implementations of hooks that don't exist, as (plugin, message) with a did-you-mean."""
    known = [name for name in dir(hookspecs) if name.startswith("azul_")]
    problems = []
    for name in dir(pm.hook):
        if name.startswith("_"):
            continue
        caller = getattr(pm.hook, name, None)
        if not isinstance(caller, pluggy.HookCaller) or caller.spec is not None:
            continue
        for impl in caller.get_hookimpls():
            if impl.optionalhook:
                continue
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            problems.append((impl.plugin_name,
                             f"plugin '{impl.plugin_name}' implements '{name}', which is not a hook{hint}"))
    return problems


def plugin_name_of(pm: pluggy.PluginManager, module: Any) -> str:
    return pm.get_name(module) or str(getattr(module, "__name__", repr(module)))


# --------------------------------------------------------------------------
# Compiling situation hooks into plain functions
# --------------------------------------------------------------------------


def implementations(pm: pluggy.PluginManager, hook_name: str, only: str | None = None) -> list:
    """The implementations of a hook in call order (first asked first)."""
    impls = list(reversed(getattr(pm.hook, hook_name).get_hookimpls()))
    if only is not None:
        impls = [impl for impl in impls if impl.plugin_name == only]
    return impls


def compile_hook(pm: pluggy.PluginManager, hook_name: str, settings: Any,
                 check: Callable[..., str | None] | None = None,
                 only: str | None = None, suspect: str | None = None) -> Callable:
    """Turn a situation hook into one plain function.

    The function takes the hook's arguments (``settings`` bound now)
    positionally, then, for a hook with context, ``seat`` and ``state`` (the
    ``GameState``, or ``None``); a ``GameView`` of the state is built only
    when an implementation asks for ``game``. It asks each implementation in
    call order and returns the first result that is not ``None`` (or
    ``None``). An implementation taking ``answer`` is given the answer of the
    implementations after it and returns the answer (``None``: unchanged).
    A collecting hook asks all of them in registration order and returns
    their answers joined in one list (one taking ``answer`` gets that list
    so far and returns its replacement). An exception raised in a plugin, or
    a result ``check`` refuses, becomes a ``PluginError`` naming the plugin,
    the hook and the plugin's file and line. ``suspect``, a Python
    expression over ``r``, is a quick test that must be true of every result
    ``check`` would refuse: ``check`` then runs only for suspect results.
    """
    from azul_core.engine.view import GameView

    params = hookspecs.SITUATION_HOOKS[hook_name]
    context = hookspecs.CONTEXT_ARGUMENTS.get(hook_name, ())
    collecting = hook_name in hookspecs.COLLECTING_HOOKS
    impls = implementations(pm, hook_name, only)
    if collecting:
        impls.reverse()
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        raise PluginError(f"hook '{hook_name}' does not support wrappers (plugin "
                          f"'{[i.plugin_name for i in impls if i.hookwrapper or i.wrapper][0]}')",
                          hook=hook_name)
    namespace: dict[str, Any] = {"_settings": settings, "_fail": _hook_failure, "_refuse": _refused,
                                 "_View": GameView, "_check": check, "_secret": _secret_of}
    optional = hookspecs.OPTIONAL_ARGUMENTS.get(hook_name, ())
    own = [p + "=None" if p in optional else p for p in params]
    inner = list(params) + (["seat"] if "seat" in context else []) + (["game", "state"] if context else [])
    top = own + (["seat=None"] if "seat" in context else []) + (["state=None"] if context else [])
    wants_game = any("game" in impl.argnames for impl in impls)
    modifies = any(hookspecs.ANSWER in impl.argnames for impl in impls)
    namespace["_materialise"] = _materialise

    def call(i: int, impl: Any, answer: str = "a") -> list[str]:
        namespace[f"_f{i}"] = impl.function
        namespace[f"_impl{i}"] = impl
        # Positional, in the implementation's own parameter order: the cheapest call.
        name = impl.plugin_name
        context_values = {"settings": "_settings", hookspecs.ANSWER: answer,
                          "memory": f"(None if state is None else state.memory.get({name!r}))",
                          "secret": f"_secret(state, {name!r}, seat)"}
        args = ", ".join(context_values.get(a, a) for a in impl.argnames)
        # Walls are tuples of row tuples: a plugin that tries to change one fails at once, in
        # its own call, and _hook_failure names it (no copy to compare, so it costs nothing).
        lines = ["    try:",
                 f"        r = _f{i}({args})",
                 "    except BaseException as e:",  # SystemExit from a plugin must not end the program
                 f"        raise _fail(_impl{i}, {hook_name!r}, e) from e"]
        if hook_name in SEQUENCE_ANSWERS:
            # A generator is read once, here: checking it must not consume what the engine gets.
            lines.append(f"    if r is not None and r.__class__ is not list and r.__class__ is not tuple: "
                         f"r = _materialise(_impl{i}, {hook_name!r}, r)")
        return lines

    def checked(i: int, indent: str) -> list[str]:
        if check is None:
            return []
        out = []
        if suspect:
            out.append(f"{indent}if {suspect}:")
            indent += "    "
        return out + [f"{indent}why = _check(r, {', '.join(params)})",
                      f"{indent}if why: raise _refuse(_impl{i}, {hook_name!r}, r, why)"]

    def prelude(name: str, first: bool) -> list[str]:
        lines = [f"def {name}({', '.join(top if first else inner)}):"]
        if first and context and (wants_game or modifies):
            lines.append("    game = None if state is None else _View(state)"
                         if wants_game else "    game = None")
        return lines

    if collecting:
        lines = prelude(hook_name, True) + ["    answers = []"]
        for i, impl in enumerate(impls):
            replaces = hookspecs.ANSWER in impl.argnames
            lines += call(i, impl, "list(answers)") + ["    if r is not None:"] + checked(i, "        ")
            lines.append("        answers = list(r)" if replaces else "        answers.extend(r)")
        lines.append("    return answers")
        source = "\n".join(lines)
    else:
        # One function per stretch of implementations ending at one that takes ``answer``:
        # that one is given the answer of the next stretch.
        functions, lines, stretch = [], prelude(hook_name, True), 0
        for i, impl in enumerate(impls):
            if hookspecs.ANSWER in impl.argnames:
                stretch += 1
                lines += [f"    a = _rest{stretch}({', '.join(inner)})"] + call(i, impl)
                lines += ["    if r is None:", "        return a"] + checked(i, "    ") + ["    return r"]
                functions.append(lines)
                lines = prelude(f"_rest{stretch}", False)
                continue
            lines += call(i, impl) + ["    if r is not None:"] + checked(i, "        ")
            lines.append("        return r")
        lines.append("    return None")
        functions.append(lines)
        source = "\n\n".join("\n".join(f) for f in reversed(functions))
    exec(source, namespace)  # generated code: a plain call chain, no pluggy per call
    return namespace[hook_name]


def _secret_of(state: Any, plugin: str, seat: int | None) -> Any:
    """The secret ``plugin`` dealt to ``seat`` in ``state`` (``None``: none, or hidden)."""
    if state is None or seat is None:
        return None
    secrets = state.secrets.get(plugin)
    return None if secrets is None else secrets[seat]


#: Hooks answered with a sequence: an iterator answer is read into a list once.
SEQUENCE_ANSWERS = ("azul_wall_spaces", "azul_winners", "azul_end_bonuses")
#: The most items a plugin's sequence answer may have (no game needs more).
MAX_ANSWER_ITEMS = 1000


def _materialise(impl: Any, hook_name: str, answer: Any) -> Any:
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__iter__"):
        return answer  # the hook's check says why it is refused
    items = []
    try:
        for item in answer:
            items.append(item)
            if len(items) > MAX_ANSWER_ITEMS:
                raise _refused(impl, hook_name, answer, f"more than {MAX_ANSWER_ITEMS} items")
    except PluginError:
        raise
    except BaseException as exc:
        raise _hook_failure(impl, hook_name, exc) from exc
    return items


class _UserInterrupts:
    """Ctrl-C from the user, told apart from a ``KeyboardInterrupt`` a plugin raises itself:
    while active, SIGINT sets ``seen`` and the plugin boundary lets that interrupt through."""

    seen = False

    def __init__(self):
        self.previous: Any = None

    def _handler(self, signum, frame):
        _UserInterrupts.seen = True
        raise KeyboardInterrupt

    def __enter__(self) -> "_UserInterrupts":
        import signal
        import threading
        _UserInterrupts.seen = False
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc_info) -> None:
        import signal
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def user_interrupts() -> _UserInterrupts:
    """``with user_interrupts() as interrupts:`` a Ctrl-C while plugin code runs stops the work
    (``interrupts.seen``) instead of being reported as that plugin's failure."""
    return _UserInterrupts()


def _hook_failure(impl: Any, hook_name: str, exc: BaseException) -> PluginError:
    if isinstance(exc, KeyboardInterrupt) and _UserInterrupts.seen:
        raise exc  # the user's Ctrl-C, not the plugin's doing
    filename = getattr(getattr(impl.function, "__code__", None), "co_filename", "")
    location = _location_in(exc, filename)
    changed = _read_only_arguments_changed(impl, hook_name, exc)
    if changed:
        kinds = list(dict.fromkeys(_READ_ONLY[name] for name in changed))
        why = " and ".join(kinds) + (" is" if kinds == ["the game view"] else " are") + " read-only"
        return PluginError(
            f"plugin '{impl.plugin_name}' tried to change the {' or the '.join(changed)} it was given "
            f"({hook_name}) at {location}: {why}", plugin=impl.plugin_name, hook=hook_name, location=location)
    return PluginError(
        f"plugin '{impl.plugin_name}' raised {type(exc).__name__} in {hook_name} at {location}: {_short(exc)}",
        plugin=impl.plugin_name, hook=hook_name, location=location)


def _refused(impl: Any, hook_name: str, result: Any, why: str) -> PluginError:
    code = getattr(impl.function, "__code__", None)
    location = f"{code.co_filename}:{code.co_firstlineno}" if code else ""
    return PluginError(
        f"plugin '{impl.plugin_name}' returned {_short_repr(result)} from {hook_name} ({location}): {why}",
        plugin=impl.plugin_name, hook=hook_name, location=location)


def _short_repr(value: Any, limit: int = 120) -> str:
    try:
        text = repr(value)
    except BaseException:
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit - 4] + "...>"


#: The arguments a plugin is given read-only, and what they are called when one tries a change.
_READ_ONLY = {"wall": "walls", "walls": "walls", "lines": "pattern lines", "game": "the game view"}


def _read_only_arguments_changed(impl: Any, hook_name: str, exc: BaseException) -> list[str]:
    """The read-only arguments the plugin may have tried to change, if ``exc`` says it tried."""
    from azul_core.engine.view import ReadOnlyView

    given = [name for name in hookspecs.SITUATION_HOOKS.get(hook_name, ()) + ("game",)
             if name in _READ_ONLY and name in impl.argnames]
    if isinstance(exc, ReadOnlyView):  # only a view and its pattern lines raise it
        return [name for name in given if name in ("lines", "game")]
    return given if _changes_a_tuple(exc) else []


#: What a list has and a tuple lacks: calling one of these on a wall is an attempt to change it.
_LIST_CHANGES = frozenset(("append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"))


def _changes_a_tuple(exc: BaseException) -> bool:
    """Whether ``exc`` is what changing a tuple raises (``wall[0][0] = 1``, ``del wall[0]``,
    ``wall[0].append(1)``), or pattern lines (``lines[0] = ...``): walls and what a game view
    returns are the only tuples the hooks are given."""
    if type(exc) is TypeError:
        text = str(exc)
        return (text.startswith(("'tuple' object ", "'PatternLines' object "))
                and text.endswith(("item assignment", "item deletion")))
    if type(exc) is AttributeError:
        return isinstance(getattr(exc, "obj", None), tuple) and getattr(exc, "name", None) in _LIST_CHANGES
    return False


def _call(impl: Any, hook_name: str, kwargs: dict) -> Any:
    try:
        return impl.function(**{a: kwargs[a] for a in impl.argnames})
    except BaseException as exc:  # SystemExit, KeyboardInterrupt: the plugin's failure, named
        raise _hook_failure(impl, hook_name, exc) from exc


def ask_first(pm: pluggy.PluginManager, hook_name: str, only: str | None = None,
              **kwargs: Any) -> tuple[Any, str]:
    """Ask a first-result setup hook: ``(result, plugin name)``, or ``(None, "")``.

    An implementation taking ``answer`` is given the answer of the ones after it
    in call order, and its own answer (unless ``None``) replaces it."""
    return _ask_from(implementations(pm, hook_name, only), hook_name, kwargs)


def _ask_from(impls: list, hook_name: str, kwargs: dict) -> tuple[Any, str]:
    for index, impl in enumerate(impls):
        if hookspecs.ANSWER in impl.argnames:
            answer, plugin = _ask_from(impls[index + 1:], hook_name, kwargs)
            result = _call(impl, hook_name, {**kwargs, hookspecs.ANSWER: answer})
            return (answer, plugin) if result is None else (result, impl.plugin_name)
        result = _call(impl, hook_name, kwargs)
        if result is not None:
            return result, impl.plugin_name
    return None, ""


def ask_all(pm: pluggy.PluginManager, hook_name: str, **kwargs: Any) -> list[tuple[Any, str]]:
    """Ask every implementation of a collecting hook, in registration order."""
    answers = []
    for impl in reversed(implementations(pm, hook_name)):
        result = _call(impl, hook_name, kwargs)
        if result is not None:
            answers.append((result, impl.plugin_name))
    return answers
