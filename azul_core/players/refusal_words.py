"""Why a move is refused, in a player's words, for every front end (the web page's refusals and
its reasons for a place that can't take the picked tiles, ``azul play``, ``azul play --join``).

The engine says why it refuses a decision twice: in its message, which records, validation
and tests read ("pattern line 4 holds white"), and as data (``IllegalDecision.kind`` and
``facts``). The rule is judged once, in the engine; the sentence a player reads is made here
from the data: short, starting with a capital, with no notation and no trailing full stop
("Line 4 already holds white"). A refusal the engine gives no kind is its message, capitalised.
"""

from __future__ import annotations

from typing import Callable, Sequence

from azul_core.colours import NAMES
from azul_core.engine.state import CENTRE, IllegalDecision


def _source(source: int) -> str:
    return "the centre" if source == CENTRE else f"factory {source}"


def _line(facts: dict) -> str:
    return f"line {facts['line'] + 1}"


def _colour(facts: dict) -> str:
    """The colour's name in the variant's words: ``names`` (the rules' ``colour_names``, on a
    board of any size) when the caller gave them, else the standard game's."""
    return facts.get("names", NAMES)[facts["colour"]]


def _either(items: list[str]) -> str:
    """'1', '1 or 4', '1, 4 or 5'."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _moves(moves) -> str:
    return _either([move.label or move.notation for move in moves]) if moves else "one of the moves on offer"


def _not_on_offer(facts: dict) -> str:
    move, offered = facts["move"], facts.get("offered") or ()
    what = f"{move.label} ({move.notation})" if move.label else move.notation
    if not offered:
        return f"{what} is not on offer now"
    return f"{what} is not on offer now; on offer: {_moves(offered)}"


def _no_source(facts: dict) -> str:
    factories = facts.get("factories")
    if facts["source"] and factories:
        return f"There is no factory {facts['source']}: the factories are numbered 1 to {factories}"
    return "There is no such factory"


def _placement_expected(facts: dict) -> str:
    row = facts.get("row")
    where = f"the tile of line {row + 1}" if row is not None else "a tile"
    return f"Place {where} on your wall first"


def _wall_column(facts: dict) -> str:
    columns = [str(column + 1) for column in facts["columns"]]
    return (f"Column {facts['column'] + 1} of the wall can't take the {_colour(facts)} tile "
            f"of line {facts['row'] + 1}: choose column {_either(columns)}")


#: kind -> the sentence, from the refusal's facts
_WORDS: dict[str, Callable[[dict], str]] = {
    # a pattern line that can't take the colour (GameState.line_refusal)
    "line_closed": lambda f: f"{_line(f).capitalize()} was tiled this round: it takes tiles again next round",
    "line_full": lambda f: f"{_line(f).capitalize()} is already full",
    "line_holds": lambda f: f"{_line(f).capitalize()} already holds {_colour(f)}",
    "wall_has": lambda f: f"The wall's row {f['line'] + 1} already has {_colour(f)}",
    "line_rule": lambda f: f"This variant's rules don't let {_colour(f)} go on {_line(f)}",
    # a draft
    "no_source": _no_source,
    "no_colour": lambda f: "There is no such colour",
    "no_tiles": lambda f: f"{_source(f['source']).capitalize()} has no {_colour(f)} tiles",
    "no_line": lambda f: f"There is no line {f['line'] + 1}",
    "draft_forbidden": lambda f: "This variant's rules forbid that draft now",
    # what the game waits for
    "choose_first": lambda f: f"Choose first: {_moves(f.get('moves'))}",
    "draft_expected": lambda f: "Take tiles now: choose a colour in a factory or the centre",
    "placement_expected": _placement_expected,
    "wall_column": _wall_column,
    "not_dealt": lambda f: "The factories are not filled yet",
    "game_over": lambda f: "The game is over",
    # a house rule's moves
    "move_not_on_offer": _not_on_offer,
    "move_unknown": lambda f: f"This variant has no move {f['move'].notation}",
}


def refusal_words(refusal: IllegalDecision, names: Sequence[str] | None = None) -> str:
    """The engine's refusal as a player reads it: one sentence, capitalised, no full stop.
    ``names``: the variant's colour names (``rules.colour_names``); without them a colour the
    standard game lacks is told in the engine's message, which names it."""
    words = _WORDS.get(refusal.kind) if refusal.kind else None
    if words is not None:
        try:
            return words(refusal.facts if names is None else {**refusal.facts, "names": names})
        except (KeyError, IndexError, TypeError, AttributeError):
            pass  # facts a subclass or an older caller left out: the engine's message still says it
    return capitalised(str(refusal))


def line_refusal_words(state, seat: int, colour: int, line: int, clause: bool = False) -> str:
    """Why pattern line ``line`` of ``seat`` can't take ``colour``, in a player's words
    (``clause``: to follow other words, "Careful: line 4 already holds white, so ...")."""
    kind, facts = state.line_refusal(seat, colour, line)
    words = _WORDS[kind]({**facts, "names": state.rules.colour_names})
    return words[:1].lower() + words[1:] if clause else words


def capitalised(text: str) -> str:
    """``text`` with a capital first letter and no trailing full stop."""
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:]


__all__ = ["refusal_words", "line_refusal_words", "capitalised"]
