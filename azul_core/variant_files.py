"""Reading variant files (YAML or TOML) with the line and column of every key.

A variant file is a mapping; errors are collected, never raised one by one,
so that a broken file gets every problem reported at once as
``file:line:col: message``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

#: Refuse documents whose aliases would expand past this many nodes (an alias bomb).
MAX_NODES = 20_000
MAX_FILE_BYTES = 1_000_000


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, at a place in it."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class Located(dict):
    """A mapping read from a file that remembers where each key stood: ``where[key] = (line, col)``."""

    where: dict
    start: tuple

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.where = {}
        self.start = (1, 1)


class _LocatingLoader(yaml.SafeLoader):
    """A safe loader that records key positions and reports duplicate keys."""

    def __init__(self, stream, problems: list, filename: str):
        super().__init__(stream)
        self.problems = problems
        self.filename = filename

    def construct_mapping(self, node, deep=False):
        mapping = Located()
        mapping.start = (node.start_mark.line + 1, node.start_mark.column + 1)
        self.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                self._problem(key_node, f"a key can't be {type(key).__name__}")
                continue
            where = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if key in mapping:
                first = mapping.where[key]
                self._problem(key_node, f"duplicate key '{key}' (first at line {first[0]}); "
                                        "YAML would silently keep only the last")
                continue
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.where[key] = where
        return mapping

    def _problem(self, node, message):
        self.problems.append(Problem(self.filename, node.start_mark.line + 1,
                                     node.start_mark.column + 1, message))


_LocatingLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LocatingLoader.construct_mapping)


def _node_count(node, limit: int) -> int:
    """Count nodes as the data would expand them (aliases counted every time), up to ``limit``."""
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
    problems: list[Problem] = []
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(shown, 1, 1, f"can't read the file: {exc.strerror or exc}")]
    if len(raw) > MAX_FILE_BYTES:
        return None, [Problem(shown, 1, 1, f"the file is larger than {MAX_FILE_BYTES} bytes")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(shown, 1, 1, f"not UTF-8 text ({exc.reason} at byte {exc.start})")]
    if path.suffix.lower() == ".toml":
        return _read_toml(text, shown)
    loader = _LocatingLoader(text, problems, shown)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, [Problem(shown, 1, 1, "the file is empty: a variant file is a mapping "
                                               "with at least 'name' and 'plugins' or 'extends'")]
        if _node_count(node, MAX_NODES) > MAX_NODES:
            return None, [Problem(shown, node.start_mark.line + 1, 1,
                                  f"the document expands to more than {MAX_NODES} values "
                                  "(nested aliases?): refused")]
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        reason = exc.problem or exc.context or "invalid YAML"
        return None, problems + [Problem(shown, line, column, f"YAML syntax error: {reason}")]
    except yaml.YAMLError as exc:
        return None, problems + [Problem(shown, 1, 1, f"YAML error: {exc}")]
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"a {type(data).__name__}"
        return None, problems + [Problem(shown, 1, 1, f"a variant file must be a mapping, not {kind}")]
    return data, problems


def _read_toml(text: str, shown: str) -> tuple[Located | None, list[Problem]]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - older Pythons
        import tomli as tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or _toml_line(str(exc))
        col = getattr(exc, "colno", None) or 1
        return None, [Problem(shown, line, col, f"TOML syntax error: {str(exc).split(' (at')[0]}")]
    if not data:
        return None, [Problem(shown, 1, 1, "the file is empty: a variant file is a mapping "
                                           "with at least 'name' and 'plugins' or 'extends'")]
    return _locate_toml(data, text.splitlines()), []


def _toml_line(message: str) -> int:
    import re
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else 1


def _locate_toml(data: dict, lines: list[str], prefix: str = "") -> Located:
    """TOML parsers keep no positions: find each key's line by its text (good enough for messages)."""
    located = Located(data)
    for key, value in data.items():
        line = 1
        section = f"[{prefix}{key}]"
        for number, text in enumerate(lines, 1):
            stripped = text.strip()
            if stripped.startswith(f"{key} ") or stripped.startswith(f"{key}=") \
                    or stripped.startswith(f'"{key}"') or stripped == section:
                line = number
                break
        located.where[key] = (line, 1)
        if isinstance(value, dict):
            located[key] = _locate_toml(value, lines, f"{prefix}{key}.")
            located[key].start = (line, 1)
    return located


def position(mapping: Any, key: Any) -> tuple[int, int]:
    """Where ``key`` stood in ``mapping`` (or where the mapping started)."""
    if isinstance(mapping, Located):
        return mapping.where.get(key, mapping.start)
    return (1, 1)
