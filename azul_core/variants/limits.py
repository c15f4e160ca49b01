"""Limits on input files (variant files and game records), checked before and after parsing.

Files come from strangers: only a regular file is read, its size is checked
before reading (``stat``, then a read of at most the limit), and what the
parser returns is walked once for values no game needs: numbers too large to
compute with, strings too long to show, nesting too deep, lone surrogates
(text that can't be printed or saved as UTF-8).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any, Callable, Iterator

#: Whole numbers in an input file stay within this (a score, a seed, a setting).
MAX_INT = 10**18
#: The longest string an input file may hold (a name, a description, an action).
MAX_STRING = 2_000
#: Lists and mappings inside lists and mappings, at most this deep.
MAX_DEPTH = 32

#: Control characters no name, description or action needs (tab, newline and CR are text).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class InputRefused(Exception):
    """A file that is not read at all: not a regular file, too large, unreadable."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _kind_of_file(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file of an unknown kind"  # another system's (a Solaris door, a BSD whiteout)


def read_regular_file(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``max_bytes``; else ``InputRefused``.

    A FIFO, a device or a socket is refused before it is opened for reading
    (opening a FIFO would wait for a writer; ``/dev/zero`` never ends), and
    the size is checked before the bytes are read, then again by reading at
    most one byte more than the limit (a file may grow in between).
    """
    try:
        before = os.stat(path)
    except FileNotFoundError:
        raise InputRefused("no such file") from None
    except OSError as exc:
        raise InputRefused(f"can't be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(before.st_mode):
        raise InputRefused(f"{_kind_of_file(before.st_mode)}, not a regular file: refused")
    if before.st_size > max_bytes:
        raise InputRefused(f"larger than {max_bytes} bytes ({before.st_size}): refused")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags)
    except OSError as exc:
        raise InputRefused(f"can't be read: {exc.strerror or exc}") from None
    try:
        now = os.fstat(handle)
        if not stat.S_ISREG(now.st_mode):  # swapped for something else since the stat
            raise InputRefused(f"{_kind_of_file(now.st_mode)}, not a regular file: refused")
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(handle, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputRefused(f"can't be read: {exc.strerror or exc}") from None
    finally:
        os.close(handle)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise InputRefused(f"larger than {max_bytes} bytes: refused")
    return data


def has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def value_problem(value: Any) -> str | None:
    """Why one scalar read from a file is refused (too large, too long, not text), or ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            return f"the number {_short_number(value)} is out of range (at most {MAX_INT:.0e} either way)"
        return None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return f"{value} is not a number a game can use"
        if abs(value) > MAX_INT:
            return f"the number {value!r} is out of range (at most {MAX_INT:.0e} either way)"
        return None
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            return f"a string of {len(value)} characters (at most {MAX_STRING})"
        if has_lone_surrogate(value):
            return "a string with a lone surrogate (\\ud800-\\udfff): not valid Unicode text"
        control = _CONTROL.search(value)
        if control:
            return (f"a string with the control character {ord(control.group()):#04x}: text in a "
                    "file can't drive the terminal it is shown on")
    return None


def _short_number(value: int) -> str:
    digits = len(str(abs(value))) if abs(value) < 10**4000 else None
    return f"with {digits} digits" if digits else "with thousands of digits"


def walk_problems(data: Any, where: Callable[[tuple], str] = lambda path: "",
                  max_depth: int = MAX_DEPTH) -> Iterator[tuple[tuple, str]]:
    """Every refused value in ``data`` as ``(key path, message)``; keys are checked as values too.

    Iterative, so a deep document can't exhaust the stack while it is checked.
    """
    stack: list[tuple[Any, tuple, int]] = [(data, (), 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= max_depth:
                yield path, f"nested more than {max_depth} levels deep"
                continue
            if isinstance(value, dict):
                items = list(value.items())
                for key, _ in items:
                    problem = value_problem(key)
                    if problem:
                        yield path + (key,), f"key: {problem}"
                stack.extend((item, path + (key,), depth + 1) for key, item in reversed(items))
            else:
                stack.extend((item, path + (index,), depth + 1) for index, item in reversed(list(enumerate(value))))
            continue
        problem = value_problem(value)
        if problem:
            yield path, problem
