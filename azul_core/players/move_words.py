"""The moves a variant's plugins add (``azul_core.rules.Move``), as players read and type them.

A plugin's move is written ``+pass`` or ``+shift:3`` in a record; at the
terminal a player may also type its name (``pass``) or words of its label
("floor" for "Move a tile to the floor") when they name one move only.
"""

from __future__ import annotations

import re

from azul_core.engine.notation import NotationError
from azul_core.engine.state import CHOOSE, DRAFT
from azul_core.rules import Move

_WORD = re.compile(r"[a-z0-9]+(?:[:-][a-z0-9]+)*")


def moves_on_offer(state) -> list[Move]:
    """The plugins' moves the seat to move may take now (with their labels): beside the
    drafts, or the choices after a draft."""
    if state.phase == CHOOSE:
        return list(state.choices)
    if state.phase == DRAFT and state.rules.offers_moves:
        return [decision for decision in state.legal_decisions() if isinstance(decision, Move)]
    return []


def labelled(state, move: Move) -> Move:
    """``move`` with the label it is offered with now, else the one its plugin declared
    (a move read from a record or typed carries none). The label offered may be made from
    the mover's secret: for the mover's eyes only (others read ``declared``)."""
    for offered in moves_on_offer(state):
        if offered == move:
            return offered
    return declared(state, move)


def declared(state, move: Move) -> Move:
    """``move`` with the label its plugin declared: words any seat may read."""
    return state.rules.plugin_hooks.by_notation.get(move.notation, move)


def move_text(move: Move) -> str:
    """A move for a list or a message: ``+pass (Pass this turn)``."""
    return f"{move.notation} ({move.label})" if move.label else move.notation


def match_move(text: str, state) -> Move | None:
    """The plugin's move ``text`` names: its notation without the ``+`` (``pass``,
    ``shift:3``) or words of its label, looked for among the moves on offer; then by its
    notation among every move the variant declares (so that a move not on offer is refused
    for that reason). ``None`` when it names none; ``NotationError`` when it could be several."""
    words = _WORD.findall(text.lower())
    if not words:
        return None
    for moves, by_label in ((moves_on_offer(state), True), (state.rules.plugin_hooks.moves, False)):
        found = _named(words, moves, by_label)
        if len(found) == 1:
            return found[0]
        if found:
            shown = ", ".join(move_text(move) for move in found[:8])
            more = f" and {len(found) - 8} more" if len(found) > 8 else ""
            raise NotationError(f"'{text.strip()}' could be {shown}{more}: type one of these")
    return None


def _named(words: list[str], moves, by_label: bool) -> list[Move]:
    """The moves ``words`` name: by notation (or name) first, else by words of the label."""
    typed = " ".join(words)
    by_notation = [move for move in moves if typed == move.notation[1:]]
    if by_notation:
        return by_notation
    by_name = [move for move in moves if typed == move.name]
    if by_name or not by_label:
        return by_name
    return [move for move in moves
            if move.label and set(words) <= set(_WORD.findall(move.label.lower()))]


__all__ = ["moves_on_offer", "labelled", "declared", "move_text", "match_move"]
