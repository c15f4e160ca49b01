"""The phases of choices a plugin adds (``rules.Phase``), as players read them: which stage the
game is at, and in a phase chosen at once who has chosen, never what another seat chose.

Every front end (the web table, ``azul play``, ``azul play --join``) words the phases here, from
the game as its reader may know it (``state.for_seat(reader)``): there another seat's sealed
choice is ``None``, so nothing here can tell it.
"""

from __future__ import annotations

from typing import Sequence

from azul_core.engine.state import CHOOSE
from azul_core.players.move_words import declared
from azul_core.rules import Move

#: a stage's name, and when in the round its choices come
STAGE_NAMES = {"round_start": "Round's start", "after_turn": "After the turn",
               "round_end": "Round's end", "game_end": "Game's end"}
STAGE_WHEN = {"round_start": "before the first draft",
              "after_turn": "before the next turn",
              "round_end": "after the wall tiling, before the floors are paid",
              "game_end": "before the end bonuses"}


def stage_of(state) -> str | None:
    """The stage of the plugins' phase the game is in (None: not in one; the choices after a
    draft are not a phase)."""
    return state.stage if state.phase == CHOOSE else None


def in_secret(state) -> bool:
    """Whether the seat to move chooses in secret now: a phase chosen at once."""
    stage = stage_of(state)
    return stage is not None and state.rules.phases[stage].at_once


def phase_title(state) -> str | None:
    """"Round's end: choose after the wall tiling, before the floors are paid", with ", in
    secret" for a phase chosen at once, then the plugin's words for the phase (``Phase.words``)
    as a sentence of their own; None outside a plugin's phase."""
    stage = stage_of(state)
    if stage is None:
        return None
    secret = ", in secret: nobody sees a choice until everyone has chosen" if in_secret(state) else ""
    title = f"{STAGE_NAMES.get(stage, stage)}: choose {STAGE_WHEN.get(stage, 'now')}{secret}"
    words = state.rules.phases[stage].words  # the plugin's own, checked printable when declared
    return f"{title}. {words.rstrip('.')}" if words else title


def chosen_seats(state) -> list[int]:
    """The seats that have chosen in the phase chosen at once the game is in."""
    return [seat for seat, _move in state.sealed]


def own_choice(state, reader: int | None) -> Move | None:
    """The choice ``reader`` has made, sealed, in the phase chosen at once (with the label its
    plugin declared); None if it has made none, or for a watcher."""
    for seat, move in state.sealed:
        if seat == reader and move is not None:
            return declared(state, move)
    return None


def waiting_words(state, names: Sequence[str], reader: int | None) -> str | None:
    """What the reader waits for in a phase chosen at once: who has chosen (not what) and that
    the others are still choosing; None outside such a phase."""
    if not in_secret(state):
        return None
    you = "you" if reader is not None else None
    done = [you if seat == reader and you else names[seat] for seat in chosen_seats(state)]
    parts = []
    mine = own_choice(state, reader)
    if mine is not None:
        parts.append(f"You chose: {mine.label or mine.notation}.")
    others = [name for name in done if name != "you"]
    if others:
        parts.append(f"{_joined(others)} {'has' if len(others) == 1 else 'have'} chosen, in secret.")
    parts.append("Waiting for the others: the choices are shown when everyone has chosen."
                 if reader is None or reader != state.to_move else
                 "Your choice is sealed until everyone has chosen.")
    return " ".join(parts)


def with_sealed_choices(state, chosen: Sequence[int], yours: Move | None, seat: int | None):
    """The game as ``seat`` may know it in a phase chosen at once, from ``state``, the game
    before the phase's choices (where a record copy for the seat ends, ``sealed_for``), and who
    has chosen since (``chosen``, in order; ``yours``: the seat's own choice): each other
    seat's choice stands in as unknown (``for_seat``), so the seat to move is the one that is.
    ``ValueError`` if the choices don't follow from ``state``."""
    if not chosen:
        return state
    state = state.clone()
    for chooser in chosen:
        if not in_secret(state) or state.to_move != chooser or not state.choices:
            raise ValueError(f"seat {chooser + 1} is not choosing in secret here")
        if chooser == seat:
            if yours is None:
                raise ValueError("the seat's own choice is missing")
            state.apply(yours)
        else:
            # Any move on offer holds its place: nothing is carried out before every seat has
            # chosen, and the seat's view below keeps none of the others' choices.
            state.apply(state.choices[0])
    return state.for_seat(seat)


def sealed_choice_words(name: str) -> str:
    """A choice made in secret, as every other seat is told it: who, not what."""
    return f"{name} has chosen, in secret"


def revealed_words(state, choices: Sequence[tuple[int, Move]], names: Sequence[str]) -> str:
    """The choices of a phase chosen at once, told together once every seat has chosen (by the
    labels their plugins declared: words any seat may read)."""
    told = "; ".join(f"{names[seat]}: {_label(state, move)}" for seat, move in choices)
    return f"Everyone has chosen: {told}"


def _label(state, move: Move) -> str:
    found = declared(state, move)
    return f"{found.label} ({move.notation})" if found.label else move.notation


def _joined(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


__all__ = ["STAGE_NAMES", "chosen_seats", "in_secret", "own_choice", "phase_title", "revealed_words",
           "sealed_choice_words", "stage_of", "waiting_words", "with_sealed_choices"]
