"""Turn clocks: how long a seat may think, counted from the times of the table's events.

A table may have a clock, chosen when it is created (none by default: friends' games have
none): ``move``, so many seconds for each decision, or ``game``, so many seconds for all of a
seat's decisions. It runs only while a person's seat is to move (never for a bot). Nothing
but the events is stored: each event has the time it was committed, so a restarted server
counts every clock again from them; the time a server was down is not held against anyone
(after a restart the seat to move has at least ``RESTART_GRACE`` seconds left).

A seat's clock runs only once its player has arrived (opened their link: an ``arrive``
event) or once the table's creator has started the game (a ``start`` event, the page's
**Start now**): a friend who has not opened the link yet is waited for, not replaced. After
**Start now**, a seat nobody opened is handed to the stand-in like one whose player left, and
the log says the player has not arrived (``NOT_ARRIVED``), never that they left.

When a clock runs out, or when the seat to move has had nobody at the table for the clock's
``away`` seconds (unless away is off, ``AWAY_OFF``: a slow game's players close the page
between moves), the table's stand-in bot (chosen at creation) plays the seat until its
owner takes it back (``web.seats``). Taken back before the stand-in moved, the turn goes on
with ``RECLAIM_GRACE`` seconds at most, not a clock afresh: else taking the seat back within
the bot delay, again and again, would hold the table for good. When that runs out too, the
stand-in takes the seat again and its owner may take it back only once it has moved
(``must_stand_in``).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable

from azul_core.engine.state import CHOOSE, DRAFT, PLACE

MODES = ("move", "game")
#: seconds the owner of the seat to move may be away (no page open) before the stand-in plays
DEFAULT_AWAY = 60.0
#: a game clock that has run out: each later turn of that seat (once taken back) has this long
OVERTIME = 30.0
#: after a server restart, no clock runs out within this many seconds
RESTART_GRACE = 30.0
#: a seat taken back from the stand-in before it moved has this long (at most its turn's
#: allowance) to finish the turn, then the stand-in takes it again and moves
RECLAIM_GRACE = 10.0
DAY = 86400.0
#: the longest clock: two weeks a move (a slow game among friends), sixty days a game
LONGEST = {"move": 14 * DAY, "game": 60 * DAY}
LONGEST_AWAY = 14 * DAY
#: the ``away`` of a clock whose stand-in plays only when the time runs out ("away": "off")
AWAY_OFF = 0.0
#: why the stand-in took a seat nobody has opened yet (a ``standin`` event's second word)
NOT_ARRIVED = "not-arrived"


@dataclass(frozen=True)
class ClockRule:
    """A table's clock: ``mode`` "move" or "game", its ``seconds``, the stand-in ``bot``, and
    how long (``away``, seconds; ``AWAY_OFF``: for ever) the seat to move may have nobody at the table."""

    mode: str
    seconds: float
    bot: str
    away: float = DEFAULT_AWAY

    def to_text(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_text(cls, text: str) -> "ClockRule":
        data = json.loads(text)
        return cls(str(data["mode"]), float(data["seconds"]), str(data["bot"]), float(data.get("away", DEFAULT_AWAY)))


def parse_clock(value: Any, bots: Iterable[str]) -> ClockRule | None:
    """The ``clock`` of a ``POST /api/tables`` body: None, "off" or {"mode": "off"} for no
    clock, else {"mode": "move"|"game", "seconds": N, "bot": NAME, "away": N or "off"}.
    ``ValueError`` says what is wrong, in words."""
    if value is None or value == "off":
        return None
    if not isinstance(value, dict):
        raise ValueError("'clock' is {\"mode\": \"move\" or \"game\", \"seconds\": N, \"bot\": NAME} or \"off\"")
    mode = value.get("mode", "off")
    if mode == "off":
        return None
    if mode not in MODES:
        raise ValueError(f"clock mode {str(mode)[:20]!r}: 'off', 'move' (seconds a move) or 'game' (seconds a game)")
    seconds = _number(value.get("seconds"), "clock seconds", 1, LONGEST[mode], f" a {mode}")
    away = value.get("away", DEFAULT_AWAY)
    away = AWAY_OFF if away == "off" else _number(away, "clock away", 1, LONGEST_AWAY, ', or "off"')
    offered = list(bots)
    bot = value.get("bot")
    if bot is None:
        bot = "greedy" if "greedy" in offered else offered[0]
    if bot not in offered:
        raise ValueError(f"unknown stand-in bot {str(bot)[:40]!r} (bots: {', '.join(offered)})")
    return ClockRule(mode, seconds, bot, away)


def _number(value: Any, what: str, least: float, most: float, after: str = "") -> float:
    # An int is never converted before it is compared: a JSON integer of 400 digits has no float.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise ValueError(f"{what}: a number of seconds")
    if not least <= value <= most:
        days = f" ({most / DAY:g} days)" if most >= DAY else ""
        raise ValueError(f"{what}: from {least:g} to {most:.15g} seconds{days}{after}")
    return float(value)


class Clocks:
    """The clocks of one table, followed event by event (``after``)."""

    def __init__(self, rule: ClockRule, seats: int):
        self.rule = rule
        #: seconds each seat has thought (a game clock spends them)
        self.used = [0.0] * seats
        #: the seat whose clock runs (a person's seat to move), and since when
        self.mover: int | None = None
        self.started: float | None = None
        #: no clock runs out before this time (a restart's grace)
        self.floor = 0.0
        #: how many times the stand-in took the seat to move during this turn
        self.stand_ins = 0
        #: the seats whose player has opened their link (a clock runs for these only)...
        self.arrived: set[int] = set()
        #: ...until the creator starts the game for every seat (when: away is counted from then)
        self.begun: float | None = None

    def runs_for(self, seat: int) -> bool:
        """Whether the seat's clock may run: its player arrived, or the creator started the game."""
        return seat in self.arrived or self.begun is not None

    def after(self, at: float | None, state, bots: set[int], decision: bool = True,
              stand_in: bool = False) -> None:
        """An event committed at ``at`` made ``state``: the running clock is charged up to
        then, and the clock of whoever is to move now starts. An event that is no decision
        (a seat handed over or taken back) leaves the turn of the seat to move running;
        ``stand_in``: the clock's stand-in took the seat to move."""
        if at is None:  # an event from before events had times: the clock can't be told
            at = self.started
        mover = state.to_move if state.phase in (DRAFT, PLACE, CHOOSE) else None
        if mover in bots or (mover is not None and not self.runs_for(mover)):
            mover = None
        if decision:
            self.stand_ins = 0
        elif stand_in:
            self.stand_ins += 1
        if not decision and mover == self.mover:
            return
        if self.mover is not None and self.started is not None and at is not None:
            self.used[self.mover] += max(0.0, at - self.started)
        self.floor = 0.0
        self.mover = mover
        self.started = at if mover is not None else None

    def allowance(self, seat: int) -> float:
        """Seconds the seat has for its turn when the turn starts (or, taken back from the
        stand-in during its turn, when it was taken back)."""
        if self.rule.mode == "move":
            seconds = self.rule.seconds
        else:
            left = self.rule.seconds - self.used[seat]
            seconds = left if left > 0 else min(OVERTIME, self.rule.seconds)
        return min(seconds, RECLAIM_GRACE) if self.stand_ins else seconds

    def must_stand_in(self, seat: int, state) -> bool:
        """Whether the stand-in plays this turn of ``seat`` whoever asks: its owner took the
        seat back from it once this turn already, and ran out of time again."""
        return self.stand_ins >= 2 and state.to_move == seat

    def deadline(self) -> float | None:
        """When the running clock runs out (None: none runs)."""
        if self.mover is None or self.started is None:
            return None
        return max(self.started + self.allowance(self.mover), self.floor)

    def restarted(self, now: float) -> None:
        """The table was loaded again (a restart): the seat to move keeps some time."""
        self.floor = now + RESTART_GRACE

    def public(self, now: float) -> dict:
        """What the page shows: the rule, whose clock runs, and each seat's seconds left
        (a game clock's bank; a move clock's turn for the seat to move)."""
        deadline = self.deadline()
        left: list[float | None] = []
        for used in self.used:
            left.append(max(0.0, self.rule.seconds - used) if self.rule.mode == "game" else None)
        turn = None
        if deadline is not None and self.mover is not None and self.started is not None:
            turn = max(0.0, deadline - now)
            if self.rule.mode == "game":
                spent = self.used[self.mover] + max(0.0, now - self.started)
                left[self.mover] = max(0.0, self.rule.seconds - spent)
        return {"mode": self.rule.mode, "seconds": self.rule.seconds, "bot": self.rule.bot,
                "away": self.rule.away, "running": self.mover,
                "arrived": [seat in self.arrived for seat in range(len(self.used))],
                "begun": self.begun is not None,
                "turn_left": None if turn is None else round(turn, 1),
                "left": [None if x is None else round(x, 1) for x in left]}
