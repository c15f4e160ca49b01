"""Text from input files, made safe for a terminal: no control characters, no lone surrogates,
no unbounded length.

A record's variant name or a player name is written by whoever sent the file:
printed raw, ``\\x1b]0;...`` sets the window title and ``\\r\\x1b[2K`` erases the
line to print a fake verdict. Every line the commands print from input goes
through ``safe_line``; so does every text ``azul play --join`` receives from a server (names,
the last move's words, reasons).
"""

from __future__ import annotations

import re

#: A message longer than this is cut (a 9 MB action string is not echoed whole).
MAX_LINE = 500

# C0 and C1 controls, DEL, and the Unicode line/paragraph separators and bidi overrides,
# which reorder what follows on the screen.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` with control characters shown as escapes (``\\x1b``), lone surrogates as
    ``\\udxxx``, newlines and tabs kept only as spaces, and cut to ``limit`` characters."""
    text = str(text)
    if len(text) > limit * 4:
        text = text[:limit * 4]  # escaping can't make the part we keep longer than this
    text = text.replace("\t", " ").replace("\n", " ").replace("\r", "\\r")
    text = _UNSAFE.sub(_escape, text)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > limit:
        text = text[:limit - 1] + "…"
    return text


def safe_lines(text: str, limit: int = MAX_LINE, max_lines: int = 20) -> list[str]:
    """Like ``safe_line`` for each line of ``text``; at most ``max_lines`` lines, then a count."""
    lines = str(text).splitlines() or [""]
    shown = [safe_line(line, limit) for line in lines[:max_lines]]
    if len(lines) > max_lines:
        shown.append(f"... and {len(lines) - max_lines} more lines")
    return shown
