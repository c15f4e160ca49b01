"""Text from input files, made safe for a terminal: see ``azul_core.safe_text`` (kept there, below
every layer, so the terminal client of the web table escapes a server's text the same way)."""

from azul_core.safe_text import MAX_LINE, safe_line, safe_lines

__all__ = ["MAX_LINE", "safe_line", "safe_lines"]
