"""Decisions as text: the record notation (``2R4``, ``CK-``, ``w1:3``) and plain words.

``2R4`` takes every red tile of factory 2 onto pattern line 4; ``CK-`` every
black tile of the centre onto the floor; ``w1:3`` places the tile of pattern
line 1 in wall column 3; ``+pass`` or ``+shift:2:4`` is a plugin's move (its
name, then its arguments). Words are accepted too: ``2 red 4``,
``centre black floor``, ``wall 1 3``.

A variant of other colours (``azul_colours``) has its own letters: the
functions take them as ``letters`` (``rules.colour_letters``; the standard
game's ``BYRKW`` when not given), and its pattern lines are numbered 1 to
n, the floor ``-``.
"""

from __future__ import annotations

import re

from mypy_extensions import mypyc_attr

from azul_core.colours import LETTERS, NAMES
from azul_core.engine.draws import DRAWN_MARK, Drawn, parse_drawn
from azul_core.engine.state import CENTRE
from azul_core.rules import MAX_MOVE_ARGS, MOVE_NAME_PATTERN, Move

_DRAFT = re.compile(r"^([Cc1-9])([A-Za-z])([1-9-])$")
_PLACEMENT = re.compile(r"^[wW]([1-9]):([1-9])$")
#: A plugin's move: ``+name`` and up to four arguments of one or two digits (ASCII only).
PLUGIN_MOVE = re.compile(rf"^\+({MOVE_NAME_PATTERN})((?::[0-9]{{1,2}}){{0,{MAX_MOVE_ARGS}}})$")
_SOURCE_WORDS = {"c": CENTRE, "centre": CENTRE, "center": CENTRE, "middle": CENTRE}
_FLOOR_WORDS = ("-", "f", "floor")


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled by mypyc, still open to subclasses
class NotationError(ValueError):
    """Text that is not a decision; the message says what was expected."""


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits. ``str.isdigit`` also says yes to
    "²" (which ``int`` refuses) and to "٣" (which ``int`` reads as 3): a number typed in a
    move, or read from a file, is 0-9 only."""
    return text.isascii() and text.isdigit()


def format_decision(decision: tuple | Move | Drawn, letters: str = LETTERS) -> str:
    """A decision in record notation (``letters``: the variant's colour letters); the tiles a
    plugin's draw brought (a chance event, ``~RRB``) in their own letters."""
    if isinstance(decision, (Move, Drawn)):
        return decision.notation
    if len(decision) == 2:
        row, column = decision
        return f"w{row + 1}:{column + 1}"
    source, colour, line = decision
    return f"{'C' if source == CENTRE else source}{letters[colour]}{'-' if line == len(letters) else line + 1}"


def parse_decision(text: str, letters: str = LETTERS, names: tuple[str, ...] | None = None) -> tuple | Move:
    """A decision from record notation or words; ``NotationError`` says why not.

    ``letters`` and ``names``: the variant's colours (``rules.colour_letters``,
    ``rules.colour_names``); a draft names a pattern line 1 to ``len(letters)``
    or the floor."""
    cleaned = text.strip()
    if cleaned.startswith("+"):
        return parse_plugin_move(cleaned)
    size = len(letters)
    match = _DRAFT.match(cleaned)
    if match:
        source, colour, line = match.groups()
        if colour.upper() in letters and (line == "-" or int(line) <= size):
            return (CENTRE if source in "Cc" else int(source), letters.index(colour.upper()),
                    size if line == "-" else int(line) - 1)
    match = _PLACEMENT.match(cleaned)
    if match and int(match.group(1)) <= size and int(match.group(2)) <= size:
        return (int(match.group(1)) - 1, int(match.group(2)) - 1)
    return _parse_words(cleaned, letters, names if names is not None else NAMES[:size])


def parse_record_action(text: str, letters: str, kind_letters: str,
                        names: tuple[str, ...] | None = None) -> tuple | Move | Drawn:
    """An action of a game record: a decision (``parse_decision``), or the tiles a rule drew
    from the bag (``~RRB``, in the variant's ``kind_letters``: ``table.kind_letters``), which
    only a record gives: a player never chooses what is drawn."""
    if text.startswith(DRAWN_MARK):
        drawn = parse_drawn(text.strip(), kind_letters)
        if drawn is None:
            raise NotationError(f"'{text}' names a tile this variant doesn't have (its tiles: "
                                f"{' '.join(kind_letters)})")
        return drawn
    return parse_decision(text, letters, names)


def parse_plugin_move(text: str) -> Move:
    """A plugin's move from its notation (``+pass``, ``+shift:2:4``)."""
    match = PLUGIN_MOVE.match(text)
    if not match:
        raise NotationError(f"'{text}' is not a move: a plugin's move is written + and its name, "
                            "then its arguments, like +pass or +shift:2:4")
    name, args = match.groups()
    return Move(name, tuple(int(arg) for arg in args.split(":")[1:]))


def _parse_words(text: str, letters: str, names: tuple[str, ...]) -> tuple:
    size = len(letters)
    words = [w for w in re.split(r"[\s,]+", text.lower()) if w and w not in ("to", "line", "onto", "from", "factory")]
    if len(words) == 3 and words[0] in ("w", "wall"):
        row, column = words[1], words[2]
        if is_ascii_number(row) and is_ascii_number(column) and 1 <= int(row) <= size and 1 <= int(column) <= size:
            return (int(words[1]) - 1, int(words[2]) - 1)
    if len(words) == 3:
        source_word, colour_word, line_word = words
        source = _SOURCE_WORDS.get(source_word)
        if source is None and is_ascii_number(source_word) and 1 <= int(source_word) <= 9:
            source = int(source_word)
        colour_words = {**{name: colour for colour, name in enumerate(names)},
                        **{letter.lower(): colour for colour, letter in enumerate(letters)}}
        colour = colour_words.get(colour_word)
        line = size if line_word in _FLOOR_WORDS else None
        if line is None and is_ascii_number(line_word) and 1 <= int(line_word) <= size:
            line = int(line_word) - 1
        if source is not None and colour is not None and line is not None:
            return (source, colour, line)
    raise NotationError(
        f"'{text}' is not a move: type a draft like 2R4 (factory 2, red, line 4), CK- "
        "(centre, black, floor) or '2 red 4', or a placement like w1:3")
