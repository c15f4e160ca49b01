"""Where each player's points came from: the wall, the floor, each end bonus, a house rule's moves.

A finished game's board keeps the placement points, the floor's nominal penalties and the end
bonuses, but not what a score that never goes below 0 kept from the floor, nor the points a
plugin's move gave or cost (``Outcome.points`` and ``scores``). So the breakdown is worked out
from the record, step by step: each step's change of every seat's score is split into

* ``wall``: the points of the tiles placed on the wall in it;
* ``floor``: what the round's floor actually took (at most the score the seat had: a score
  never goes below 0, so the nominal penalty may be more);
* ``move``: what a plugin's move carried out in it gave or cost, by the plugin that declared it
  (asked of the engine: ``GameState.with_outcome`` on the state before the step), and what
  the plugin gave or cost for the tiles its move drew from the bag (``azul_tiles_drawn``:
  the step of the drawn tiles, ``~RB``, by the plugin whose draw it was);
* ``bonus``: each end bonus, by the label its plugin gave (``rows``, ``columns``, ``colours``, a
  house rule's own);
* ``other``: whatever the rest could not explain, so the sources always add up to the score
  (no shipped rule leaves any; the tests check that).

The online table's end screen and ``azul replay`` can both show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from azul_core.engine.draws import DRAWN_MARK
from azul_core.engine.notation import parse_decision
from azul_core.engine.state import GameState
from azul_core.records.game_record import GameRecord, iter_replay
from azul_core.rules import Move

WALL, FLOOR, MOVE, BONUS, OTHER = "wall", "floor", "move", "bonus", "other"


@dataclass(frozen=True)
class ScoreSource:
    """Points one seat got from one source. ``kind``: ``wall``, ``floor``, ``bonus``, ``move``
    or ``other``; ``name``: the same word for the wall, the floor and other, the bonus's label,
    the plugin whose moves they were."""

    kind: str
    name: str
    points: int

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "points": self.points}


class _Tally:
    """Each seat's points by (kind, name), in the order the sources first appear."""

    def __init__(self, players: int):
        self.points: list[dict[tuple[str, str], int]] = [
            {(WALL, WALL): 0, (FLOOR, FLOOR): 0} for _ in range(players)]

    def add(self, seat: int, kind: str, name: str, points: int) -> None:
        key = (kind, name)
        # Every bonus is listed, 0 too (what could have been won); a move or other only once
        # it gave or cost something.
        if points or key in self.points[seat] or kind == BONUS:
            self.points[seat][key] = self.points[seat].get(key, 0) + points

    def sources(self) -> list[list[ScoreSource]]:
        return [[ScoreSource(kind, name, points) for (kind, name), points in seat.items()
                 if kind != OTHER or points] for seat in self.points]


def score_sources(record: GameRecord, variant: Any = None) -> list[list[ScoreSource]]:
    """Each seat's points by source, replaying ``record`` (``variant``: a ``Variant`` or
    ``Rules``, default the record's own). They add up to each seat's score at the record's end,
    finished or not. ``ReplayError`` as ``iter_replay`` at a record that does not replay."""
    tally: _Tally | None = None
    before: GameState | None = None
    for step in iter_replay(record, variant):
        after = step.state
        if tally is None:
            tally = _Tally(after.num_players)
        if before is not None:
            _split_step(before, after, step.text if step.action else None, tally)
        before = after
    return tally.sources() if tally is not None else [[] for _ in record.players]


def _split_step(before: GameState, after: GameState, action: str | None, tally: _Tally) -> None:
    """Add to ``tally`` what the step from ``before`` to ``after`` (by ``action``; None: a deal)
    gave each seat, by source."""
    moves = _move_points(before, after, action)
    # tiles a plugin's draw brought: what its azul_tiles_drawn gave is the rest of the step
    drawer = before.drawing[0][0] if action is not None and action.startswith(DRAWN_MARK) and before.drawing \
        else None
    paid = len(after.round_scores) > len(before.round_scores)
    ended = after.over and not before.over
    for seat, (old, new) in enumerate(zip(before.players, after.players)):
        wall = new.placement_points - old.placement_points
        moved = sum(points for _owner, points in moves.get(seat, ()))
        if paid:
            # The floor is paid after the step's placements and moves: what it took is the
            # score before it (worked out from them) down to the score the round ended with.
            floor = after.round_scores[-1][seat] - (old.score + wall + moved)
        else:
            floor = new.penalty_points - old.penalty_points
        bonuses = new.bonuses if ended else []
        explained = wall + floor + moved + sum(points for _label, points in bonuses)
        tally.add(seat, WALL, WALL, wall)
        tally.add(seat, FLOOR, FLOOR, floor)
        for owner, points in moves.get(seat, ()):
            tally.add(seat, MOVE, owner, points)
        for label, points in bonuses:
            tally.add(seat, BONUS, str(label), points)
        if drawer is not None:
            tally.add(seat, MOVE, drawer, new.score - old.score - explained)
        else:
            tally.add(seat, OTHER, OTHER, new.score - old.score - explained)


def _move_points(before: GameState, after: GameState, action: str | None) -> dict[int, list[tuple[str, int]]]:
    """The points the plugins' moves carried out in the step gave each seat: seat -> (the
    plugin that declared the move, points) pairs. Each move is carried out again, as the
    engine did, on a copy of the state before the step, in the same order."""
    if action is None or not action.startswith("+"):
        return {}
    move = parse_decision(action)
    if not isinstance(move, Move):
        return {}
    seat = before.to_move
    rules = before.rules
    stage = before.stage
    if stage is not None and rules.phases[stage].at_once:
        if after.sealed and after.stage == stage:
            return {}  # kept sealed: carried out once every seat has chosen
        carried = [*before.sealed, (seat, move)]
    else:
        carried = [(seat, move)]
    points: dict[int, list[tuple[str, int]]] = {}
    so_far = before
    for chooser, chosen in carried:
        if chosen is None:
            continue
        start = so_far.clone()
        start.current = chooser  # the seat whose choice it is: with_outcome carries it out for the seat to move
        done = start.with_outcome(chosen)
        owner = rules.plugin_hooks.declared.get(chosen, "plugin")
        for other, (was, now) in enumerate(zip(start.players, done.players)):
            if now.score != was.score:
                points.setdefault(other, []).append((owner, now.score - was.score))
        so_far = done
    return points


def total(sources: list[ScoreSource]) -> int:
    return sum(source.points for source in sources)


__all__ = ["ScoreSource", "score_sources", "total", "WALL", "FLOOR", "MOVE", "BONUS", "OTHER"]
