"""A page's questions, answered without changing anything: why a move would be refused, and
the move box's ``?`` and ``help``.

``{"type": "check", "version": N, "move": "2R4"}``: the reason the server would give if that
move were sent (``Table.refusal``: the same judge as a sent move), or none when it would be
taken. A page asks it when a line or a wall space that can't take the picked tiles is clicked.

``{"type": "help", "query": "? 3", "width": 44}``: the
terminal's own text: ``?`` lists the seat's legal moves and what each does
(``render.draw_legal``, with the same filters: ``? 3``, ``? C``, ``? red``), ``help``
explains how a move is typed (``session.help_text``, with the commands of the move box in
place of the terminal's). Worked out from the game as the asking seat may know it. ``width``
(optional) is how many characters a line of the page's box holds: the moves are listed in
one column where two don't fit in it (kept between ``MIN_WIDTH`` and the terminal's 80).
"""

from __future__ import annotations

from azul_core.players.render import WIDTH, LegalFilterError, draw_legal, legal_filter, render_text
from azul_core.players.session import help_text

#: What the move box answers besides moves (the terminal's ``board``, ``undo`` and ``quit``
#: have no place on the page).
COMMANDS = """\
Commands:
  ?        list your legal moves and what each does; '? 3' only factory 3,
           '? C' only the centre, '? red' only red tiles
  help     this text"""

#: The longest question answered (a move box holds 40 characters).
MAX_QUERY = 40
#: The narrowest list laid out for a page (a phone's box holds about 50 characters).
MIN_WIDTH = 30


def is_question(text: str) -> bool:
    """Whether what was typed in a move box asks for the legal moves or for help."""
    word = text.strip().lower()
    first = word.split(" ", 1)[0]
    return word.startswith("?") or first in ("moves", "list") or word in ("help", "h")


def answer(table, seat: int | None, query: object, width: int = WIDTH) -> str:
    """The answer to ``query`` (``?``, ``? 3``, ``help``...) for the client at ``seat`` (None:
    watching) of ``table``: plain text, the moves in as many columns as fit in ``width``."""
    if not isinstance(query, str) or len(query) > MAX_QUERY or not is_question(query):
        return "Ask '?' for your legal moves (e.g. '? 3', '? C', '? red') or 'help'."
    word = query.strip().lower()
    state = table.state
    if word in ("help", "h"):
        return help_text(state.rules, COMMANDS)
    if table.over:
        return "The game is over: no move is legal."
    if seat is None:
        return "This link can watch but not move: no move is yours."
    if seat != state.to_move:
        return f"It is {table.seats[state.to_move].name}'s turn: '?' lists your moves on your turn."
    first, _space, rest = word.partition(" ")
    filters = word[1:] if first.startswith("?") and first != "?" else rest
    try:
        source, colour = legal_filter(filters, state.rules.colour_letters, state.rules.colour_names)
    except LegalFilterError as exc:
        return str(exc)
    # Only the columns follow the width: a sentence stays one line, for the page to wrap.
    return render_text(draw_legal(table.seen_by(seat), source, colour, width)).rstrip()


def asked_width(value: object) -> int:
    """The width a page asked its list laid out for, kept between MIN_WIDTH and WIDTH."""
    if not isinstance(value, int) or isinstance(value, bool):
        return WIDTH
    return max(MIN_WIDTH, min(WIDTH, value))


def reply(table, seat: int | None, message: dict) -> dict:
    """The answer to a ``check`` or ``help`` message of the client at ``seat``."""
    if message.get("type") == "check":
        move = message.get("move")
        return {"type": "checked", "move": move if isinstance(move, str) else None, "version": table.version,
                "reason": table.refusal(seat, message.get("version"), move)}
    query = message.get("query")
    return {"type": "help", "query": query if isinstance(query, str) and len(query) <= MAX_QUERY else None,
            "text": answer(table, seat, query, asked_width(message.get("width")))}


__all__ = ["answer", "reply", "is_question", "COMMANDS"]
