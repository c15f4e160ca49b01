"""Who plays first at a rematch: the creator's setting, and the opening seat it gives.

A rematch keeps every person in their seat (their links open the same seat), so fairness moves
the first player instead: with "rotate" (the default) the rematch starts one seat earlier than
the finished game did, so whoever played first plays second, the second third, and the last
first; over as many rematches as players, each seat starts once. With "draw" the first seat is
drawn from the rematch's own seed (``azul serve --seed`` makes it foreseeable, as the deals).
A variant whose own rule decides who starts (``azul_first_player``, e.g. seeded-start) keeps
that rule at a rematch too.
"""

from __future__ import annotations

import random
from typing import Any

ROTATE, DRAW = "rotate", "draw"
CHOICES = (ROTATE, DRAW)


def rematch_first_of(body: dict) -> str:
    """The creation's ``rematch_first`` (``rotate`` unless given); ``ValueError`` with the reason
    for anything else."""
    value = body.get("rematch_first", ROTATE)
    if value not in CHOICES:
        raise ValueError("'rematch_first' is \"rotate\" (the first player moves on one seat at "
                         "each rematch) or \"draw\" (drawn at random)")
    return value


def opening_seat(row: Any, rules: Any) -> int:
    """The seat that starts round 1 at the table of ``row``: the one its rematch chose
    (``row.first_seat``), else the variant's rules' choice from the table's seed."""
    players = len(row.seats)
    if row.first_seat is not None and 0 <= row.first_seat < players:
        return row.first_seat
    return rules.opening_seat(players, row.seed)


def rematch_first_seat(finished: Any, rules: Any, seed: str) -> int | None:
    """The seat that starts the rematch of the finished table of row ``finished``, dealt from
    ``seed``; None where the variant's own rule chooses."""
    told = rematch_first_told(finished, rules)
    if told["rule"] == DRAW:
        return random.Random(f"rematch first seat:{seed}").randrange(len(finished.seats))
    return told["seat"]


def rematch_first_told(row: Any, rules: Any) -> dict:
    """What the end screen says of the rematch's first player: ``rule`` (``rotate``, ``draw``,
    or ``variant`` where the variant's own rule chooses) and, for ``rotate``, the ``seat``."""
    if rules.first_player is not None:
        return {"rule": "variant", "seat": None}
    if row.rematch_first == DRAW:
        return {"rule": DRAW, "seat": None}
    return {"rule": ROTATE, "seat": (opening_seat(row, rules) - 1) % len(row.seats)}
