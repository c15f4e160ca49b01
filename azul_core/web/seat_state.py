"""Who plays each seat of a table and why, its clock, and its rematch, followed event by event.

``Table`` keeps one ``SeatState`` and tells it every event it commits (live, replayed after a
restart, or heard from another process), so all of it survives a restart: a seat handed to a
bot by the creator (``bot``) or to the stand-in by the clock (``standin``), taken back by its
owner (``reclaim``), the clock (``clock``, the table's first event), each seat's first arrival
(``arrive``) and the creator's **Start now** (``start``), and the rematch (``rematch``). Who
has a page open is not stored: it is counted again from the pages that reconnect.
"""

from __future__ import annotations

from azul_core.web.clocks import ClockRule, Clocks
from azul_core.web.store import (
    ARRIVE,
    BOT,
    CLOCK,
    DEAL,
    DRAWN,
    MOVE,
    RECLAIM,
    REMATCH,
    STANDIN,
    START,
    Event,
    SeatRow,
    seat_bot_change,
)


class SeatState:
    def __init__(self, seats: list[SeatRow]):
        #: seats a bot plays now: those made for a bot (no secret), those handed over since
        self.bots = {seat.seat for seat in seats if seat.secret_hash is None}
        #: why a person's seat is played by a bot: "creator", "clock" or "away"
        self.why: dict[int, str] = {}
        self.clocks: Clocks | None = None
        #: the id of the table made for the rematch
        self.rematch: str | None = None
        #: since when each seat has had no page open (in this process's knowledge)
        self.left_at: dict[int, float] = {}
        self.players = len(seats)
        #: what the pages were last told of the seats (``SeatService.tell``)
        self.told: str | None = None

    def after(self, event: Event, state) -> None:
        """``event`` was committed and led to ``state``."""
        changes, bot = seat_bot_change(event)
        if changes and event.seat is not None:
            if bot is None:
                self.bots.discard(event.seat)
                self.why.pop(event.seat, None)
            else:
                self.bots.add(event.seat)
                self.why[event.seat] = "creator" if event.kind == BOT else event.text.partition(" ")[2] or "clock"
        elif event.kind == CLOCK:
            self.clocks = Clocks(ClockRule.from_text(event.text), self.players)
        elif event.kind == REMATCH:
            self.rematch = event.text
        if self.clocks is not None:
            # Taking a seat back takes its owner's link: they have arrived too.
            if event.kind in (ARRIVE, RECLAIM) and event.seat is not None:
                self.clocks.arrived.add(event.seat)
            elif event.kind == START and self.clocks.begun is None:
                self.clocks.begun = event.at if event.at is not None else 0.0
        if self.clocks is not None:
            self.clocks.after(event.at, state, self.bots, decision=event.kind in (MOVE, DEAL, DRAWN),
                              stand_in=event.kind == STANDIN)
