"""Reading variant files (YAML or TOML) with the line and column of every key.

A variant file is a mapping; errors are collected, never raised one by one,
so that a broken file gets every problem reported at once as
``file:line:col: message``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from azul_core.variants.limits import MAX_DEPTH, InputRefused, read_regular_file, value_problem, walk_problems

#: Refuse documents whose aliases would expand past this many nodes (an alias bomb).
MAX_NODES = 20_000
#: A variant file is a page of settings: anything larger is refused unread.
MAX_FILE_BYTES = 64 * 1024
#: Lines plus commas: the pure-Python YAML parser takes about 0.2 ms per item, so a
#: file of many small items (a 1 MB flow list took 8.7 s) is refused before parsing.
MAX_ITEMS = 4_000
#: Parts of one dotted TOML key or table header (the TOML parser is quadratic in them).
MAX_KEY_PARTS = 32
#: The longest digit string read as a number (a 5000-digit integer is not a setting).
MAX_NUMBER_CHARS = 40

EMPTY_FILE = "the file is empty: a variant file is a mapping with at least 'plugins' or 'extends'"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, at a place in it."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        if not self.line:  # about a name or a whole file, not a place in one
            return f"{self.file}: {self.message}" if self.file else self.message
        return f"{self.file}:{self.line}:{self.column}: {self.message}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "message": self.message}


class Located(dict):
    """A mapping read from a file that remembers where each key stood: ``where[key] = (line, col)``,
    and where its value began: ``value_where[key]``."""

    where: dict
    value_where: dict
    start: tuple

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.where = {}
        self.value_where = {}
        self.start = (1, 1)


class LocatedList(list):
    """A list read from a file that remembers where each item stood: ``where[i] = (line, col)``."""

    where: list
    start: tuple

    def __init__(self, *args):
        super().__init__(*args)
        self.where = []
        self.start = (1, 1)


def _mark(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _LocatingLoader(yaml.SafeLoader):
    """A safe loader that records key and item positions and reports duplicate keys."""

    def __init__(self, stream, problems: list, filename: str):
        super().__init__(stream)
        self.problems = problems
        self.filename = filename

    def construct_mapping(self, node, deep=False):
        mapping = Located()
        mapping.start = _mark(node)
        as_text: dict = {}  # {3: 7, "3": 8} would become one setting: refused
        self.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                kind = ("a list" if isinstance(key, list) else "a mapping" if isinstance(key, dict)
                        else type(key).__name__)
                self._problem(key_node, f"a key can't be {kind}")
                continue
            if key in mapping:
                first = mapping.where[key]
                self._problem(key_node, f"duplicate key '{key}' (first at line {first[0]}); "
                                        "YAML would silently keep only the last")
                continue
            same = as_text.setdefault(str(key), key)
            if same is not key:
                first = mapping.where[same]
                self._problem(key_node, f"keys {same!r} (line {first[0]}) and {key!r} are the same "
                                        "key once read as text: write it once")
                continue
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.where[key] = _mark(key_node)
            mapping.value_where[key] = _mark(value_node)
        return mapping

    def construct_yaml_int(self, node):
        if len(node.value) > MAX_NUMBER_CHARS:
            raise yaml.constructor.ConstructorError(
                None, None, f"a number of {len(node.value)} characters is out of range", node.start_mark)
        return super().construct_yaml_int(node)

    def construct_located_sequence(self, node):
        items = LocatedList(self.construct_object(child, deep=True) for child in node.value)
        items.where = [_mark(child) for child in node.value]
        items.start = _mark(node)
        return items

    def _problem(self, node, message):
        self.problems.append(Problem(self.filename, *_mark(node), message))


_LocatingLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LocatingLoader.construct_mapping)
_LocatingLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _LocatingLoader.construct_located_sequence)
_LocatingLoader.add_constructor("tag:yaml.org,2002:int", _LocatingLoader.construct_yaml_int)


def _scalar_problems(node, shown: str) -> list[Problem]:
    """Strings too long, lone surrogates and nesting too deep, at their line, before building."""
    problems = []
    stack = [(node, 0)]
    seen = set()
    while stack and len(problems) < 20:
        current, depth = stack.pop()
        if id(current) in seen:  # an alias: checked where it was defined
            continue
        seen.add(id(current))
        if isinstance(current, yaml.ScalarNode):
            if current.tag != "tag:yaml.org,2002:int":
                reason = value_problem(current.value)
                if reason:
                    problems.append(Problem(shown, *_mark(current), reason))
            continue
        if depth >= MAX_DEPTH:
            problems.append(Problem(shown, *_mark(current), f"nested more than {MAX_DEPTH} levels deep"))
            continue
        # Pushed last first, so that the walk (and the first 20 problems) follows the file.
        if isinstance(current, yaml.MappingNode):
            for key, value in reversed(current.value):
                stack.append((value, depth + 1))
                stack.append((key, depth + 1))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in reversed(current.value))
    return problems


def _node_count(node, limit: int) -> int:
    """Count nodes as the data would expand them (aliases counted every time), up to ``limit``.

    Composing keeps an alias as a reference to one node, so this walk sees an
    alias bomb (or a recursive alias) before anything is built, and stops at
    ``limit`` whatever the expansion would be.
    """
    count = 0
    stack = [node]
    while stack:
        current = stack.pop()
        count += 1
        if count > limit:
            return count
        if isinstance(current, yaml.MappingNode):
            for key, value in current.value:
                stack.append(key)
                stack.append(value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
    return count


def read_mapping(path: Path, shown: str | None = None) -> tuple[Located | None, list[Problem]]:
    """Read a variant file into a ``Located`` mapping, with every problem found."""
    shown = shown or str(path)
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES)
    except InputRefused as exc:
        return None, [Problem(shown, 1, 1, f"the file is {exc.reason}" if exc.reason.startswith(
            ("larger", "a ")) else exc.reason)]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(shown, 1, 1, f"not UTF-8 text ({exc.reason} at byte {exc.start})")]
    toml = path.suffix.lower() == ".toml"
    refused = _shape_problem(text, shown, toml)
    if refused:
        return None, [refused]
    if toml:
        return _read_toml(text, shown)
    return _read_yaml(text, shown)


def _shape_problem(text: str, shown: str, toml: bool) -> Problem | None:
    """Refuse, before parsing, shapes that would take the parser seconds: no variant needs them."""
    items = text.count("\n") + text.count(",")
    if items > MAX_ITEMS:
        return Problem(shown, 1, 1, f"more than {MAX_ITEMS} lines and list items: "
                                    "too many for a variant file, refused unparsed")
    if toml:
        for number, line in enumerate(text.splitlines(), 1):
            key = line.split("=", 1)[0] if "=" in line else line
            if key.count(".") >= MAX_KEY_PARTS and (line.lstrip().startswith("[") or "=" in line):
                return Problem(shown, number, 1, f"a dotted key of more than {MAX_KEY_PARTS} parts: "
                                                 "refused unparsed")
    return None


def _read_yaml(text: str, shown: str) -> tuple[Located | None, list[Problem]]:
    problems: list[Problem] = []
    try:
        loader = _LocatingLoader(text, problems, shown)
    except yaml.reader.ReaderError as exc:  # the reader checks every character up front
        line, column = _line_and_column(text, exc.position)
        return None, [Problem(shown, line, column, f"not a text file: character {exc.character:#06x} "
                                                   "is not allowed in YAML")]
    try:
        node = loader.get_single_node()
        if node is None:
            return None, [Problem(shown, 1, 1, EMPTY_FILE)]
        if _node_count(node, MAX_NODES) > MAX_NODES:
            return None, [Problem(shown, *_mark(node),
                                  f"the document expands to more than {MAX_NODES} values "
                                  "(nested aliases?): refused")]
        found = _scalar_problems(node, shown)
        if found:
            return None, problems + found
        data = loader.construct_document(node)
    except RecursionError:
        return None, [Problem(shown, 1, 1, f"nested more than {MAX_DEPTH} levels deep: refused")]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if exc.context_mark and (exc.context or "").startswith("while parsing a flow"):
            mark = exc.context_mark  # an unclosed [ or {: where it was opened, not where it broke
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        reason = " ".join(part for part in (exc.context, exc.problem) if part) or "invalid YAML"
        kind = "YAML error" if isinstance(exc, yaml.constructor.ConstructorError) else "YAML syntax error"
        return None, problems + [Problem(shown, line, column, f"{kind}: {reason}")]
    except yaml.YAMLError as exc:
        return None, problems + [Problem(shown, 1, 1, f"YAML error: {' '.join(str(exc).split())}")]
    finally:
        loader.dispose()
    if data is None:
        return None, problems + [Problem(shown, *_mark(node), EMPTY_FILE)]
    if not isinstance(data, dict):
        return None, problems + [Problem(shown, *_mark(node),
                                         f"a variant file must be a mapping (key: value lines), "
                                         f"not {_kind_of(data)}")]
    return data, problems


def _line_and_column(text: str, position: int) -> tuple[int, int]:
    before = text[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1


def _kind_of(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    name = type(value).__name__  # int, float, bool, date, datetime, bytes
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


# ------------------------------------------------------------------ TOML

def _read_toml(text: str, shown: str) -> tuple[Located | None, list[Problem]]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - older Pythons
        import tomli as tomllib
    positions, duplicates = _toml_positions(text)
    try:
        data = tomllib.loads(text, parse_float=_bounded_float)
    except RecursionError:
        return None, [Problem(shown, 1, 1, f"nested more than {MAX_DEPTH} levels deep: refused")]
    except ValueError as exc:
        if not isinstance(exc, tomllib.TOMLDecodeError):  # a number too long to convert
            return None, [Problem(shown, 1, 1, f"TOML error: {str(exc).splitlines()[0][:200]}")]
        if duplicates:  # the parser names only the end of the document for these
            return None, [Problem(shown, line, col, message) for line, col, message in duplicates]
        message = str(exc)
        line, col = _toml_error_place(message, text)
        line, col = _unclosed_bracket(text, line, col)
        return None, [Problem(shown, line, col, f"TOML syntax error: {message.split(' (at ')[0]}")]
    if not data:
        return None, [Problem(shown, 1, 1, EMPTY_FILE)]
    located = _locate_toml(data, positions, ())
    found = [Problem(shown, *_toml_place(located, path), f"{'.'.join(map(str, path))}: {message}")
             for path, message in walk_problems(located)]
    if found:
        return None, found[:20]
    return located, []


def _bounded_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(f"a number of {len(text)} characters is out of range")
    return float(text)


def _toml_place(located: Located, path: tuple) -> tuple[int, int]:
    """The place of the deepest key of ``path`` that has one."""
    place, mapping = located.start, located
    for key in path:
        if not isinstance(mapping, Located):
            break
        place = mapping.where.get(key, place)
        mapping = mapping.get(key) if isinstance(mapping.get(key), Located) else None
    return place


def _toml_error_place(message: str, text: str) -> tuple[int, int]:
    match = re.search(r"line (\d+), column (\d+)", message)
    if match:
        return int(match.group(1)), int(match.group(2))
    if "end of document" in message:
        return max(1, len(text.splitlines())), 1
    return 1, 1


def _unclosed_bracket(text: str, line: int, column: int) -> tuple[int, int]:
    """Where a ``[`` or ``{`` that is never closed was opened, when that is before (line,
    column), the place the parser complained about; else that place.

    A parser notices a missing ``]`` only where the text stops making sense,
    often lines later: the opening bracket is what the writer must fix.
    Table headers, strings and comments are skipped.
    """
    opened: list[tuple[int, int]] = []
    for number, content in enumerate(text.splitlines(), 1):
        if not opened and _TOML_HEADER.match(content):
            continue
        quote = None
        for index, char in enumerate(content):
            if quote:
                if char == quote:
                    quote = None
            elif char in "\"'":
                quote = char
            elif char == "#":
                break
            elif char in "[{":
                opened.append((number, index + 1))
            elif char in "]}" and opened:
                opened.pop()
    before = [place for place in opened if place < (line, column)]
    return before[0] if before else (line, column)


_TOML_KEY = r'(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')'
_TOML_HEADER = re.compile(r"^\s*\[\s*(" + _TOML_KEY + r"(?:\s*\.\s*" + _TOML_KEY + r")*)\s*\]\s*(?:#.*)?$")
_TOML_ASSIGN = re.compile(r"^(\s*)(" + _TOML_KEY + r"(?:\s*\.\s*" + _TOML_KEY + r")*)\s*=")
_TOML_INLINE_KEY = re.compile(r"[{,]\s*(" + _TOML_KEY + r")\s*=")


def _toml_key_path(dotted: str) -> tuple[str, ...]:
    parts = re.findall(_TOML_KEY, dotted)
    return tuple(p[1:-1] if p[:1] in "\"'" else p for p in parts)


def _toml_positions(text: str) -> tuple[dict, list]:
    """Where each key path stands, and duplicate keys: TOML parsers keep no positions.

    Good enough for messages: headers, ``key = value`` lines and one level of
    inline tables; a key found again in the same table is a duplicate.
    """
    positions: dict[tuple, tuple[int, int]] = {}
    values: dict[tuple, tuple[int, int]] = {}
    #: the tables a dotted key or header makes on the way (`a` of `a.b = 1`): where first named
    parents: dict[tuple, tuple[int, int]] = {}
    duplicates: list[tuple[int, int, str]] = []
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), 1):
        header = _TOML_HEADER.match(line)
        if header:
            table = _toml_key_path(header.group(1))
            positions.setdefault(table, (number, line.index("[") + 2))
            for end in range(1, len(table)):
                parents.setdefault(table[:end], positions[table])
            continue
        assign = _TOML_ASSIGN.match(line)
        if not assign:
            continue
        path = table + _toml_key_path(assign.group(2))
        column = len(assign.group(1)) + 1
        if path in positions:
            first = positions[path][0]
            duplicates.append((number, column, f"duplicate key '{'.'.join(path)}' "
                                               f"(first at line {first})"))
            continue
        positions[path] = (number, column)
        for end in range(len(table) + 1, len(path)):
            parents.setdefault(path[:end], (number, column))
        rest = line[assign.end():]
        values[path] = (number, assign.end() + len(rest) - len(rest.lstrip()) + 1)
        if rest.lstrip().startswith("{"):
            for inner in _TOML_INLINE_KEY.finditer(rest):
                inner_path = path + _toml_key_path(inner.group(1))
                positions.setdefault(inner_path, (number, assign.end() + inner.start(1) + 1))
    for path, place in parents.items():
        positions.setdefault(path, place)
    positions[_VALUES] = values
    return positions, duplicates


#: The key of ``_toml_positions``' answer under which the values' places are kept.
_VALUES = ("<values>",)


def _locate_toml(data: dict, positions: dict, prefix: tuple) -> Located:
    located = Located(data)
    located.start = positions.get(prefix, (1, 1))
    values = positions.get(_VALUES, {})
    for key, value in data.items():
        located.where[key] = positions.get(prefix + (key,), located.start)
        located.value_where[key] = values.get(prefix + (key,), located.where[key])
        if isinstance(value, dict):
            located[key] = _locate_toml(value, positions, prefix + (key,))
    return located


def position(mapping: Any, key: Any) -> tuple[int, int]:
    """Where ``key`` stood in ``mapping`` (or where the mapping started)."""
    if isinstance(mapping, Located):
        return mapping.where.get(key, mapping.start)
    return (1, 1)


def value_position(mapping: Any, key: Any) -> tuple[int, int]:
    """Where the value of ``key`` began in ``mapping`` (or where its key stood)."""
    if isinstance(mapping, Located):
        return mapping.value_where.get(key, position(mapping, key))
    return (1, 1)

