"""A rematch: at the end of a game, a new table with the same seats, bots and variant.

The new table keeps the old one's secret hashes (each seat's, the watch and the admin
secret), so every link of the finished table opens the same seat at the new one: a page
moves over by keeping its own URL fragment and changing the table id. No secret is made,
sent or shown: a seat's secret never reaches anyone but its holder. A seat a bot played at
the end (handed over, or the clock's stand-in) starts the rematch with that bot, and its
owner can take it back with one click as before; the clock, if any, is the same.

The finished table notes the rematch as an event (``rematch``, the new id): whoever asks
again, or twice, is given the same table, and every page of the finished table, open now or
later, is told of it (the ``seating`` message's ``rematch``). Once that table is deleted, no
other rematch is made: its links may have been changed there, and the finished table only
knows the old ones. The rematch deals from a seed of its own, never the finished table's, and
its first player is the next one round, or drawn, as the creator chose (``web.rematch_first``).
"""

from __future__ import annotations

import time

from azul_core.web.bots import is_search_bot
from azul_core.web.capabilities import new_token
from azul_core.web.rematch_first import rematch_first_seat
from azul_core.web.store import BOT, CLOCK, REMATCH, STANDIN, Event, SeatRow, TableRow
from azul_core.web.table import Stale, Table


class HTTPError(Exception):
    """Why no rematch is made: an HTTP status and the reason (as ``web.app``'s errors)."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


def make_rematch(server, table: Table, client: str, seat: int | None) -> tuple[Table, bool]:
    """The rematch of the finished ``table`` asked for by ``seat`` (None: the creator) from
    ``client`` (an address as the limits count it): (the new table, whether it was made now).
    ``HTTPError`` (or the server's own, from its limits) says why not."""
    made = _existing(server, table)
    if made is not None:
        return made, False
    if table.seating.rematch is not None:
        # Its rematch was made and has been deleted since (nobody opened it within the hour, or
        # it was left long ago): a link changed there is gone with it, so a second rematch
        # would bring back the old hash of a link its owner replaced because it leaked.
        raise HTTPError(410, "this table's rematch has been deleted: start a new table")
    if not table.over:
        raise HTTPError(409, "the game is not over yet")
    server.check_limits(client)
    seats = [SeatRow(s.seat, s.name, s.bot, s.secret_hash) for s in table.seats]
    searching = any(is_search_bot(s.bot) for s in seats)
    clocks = table.seating.clocks
    if clocks is not None and is_search_bot(clocks.rule.bot):
        searching = True
    if searching:
        server.check_search_bots(client)
    first: list[Event] = []
    if clocks is not None:
        first.append(Event(CLOCK, clocks.rule.to_text()))
    for row in seats:
        if row.bot and row.secret_hash:  # a person's seat a bot played at the end
            why = table.seating.why.get(row.seat, "creator")
            first.append(Event(BOT, row.bot, row.seat) if why == "creator"
                         else Event(STANDIN, f"{row.bot} {why}", row.seat))
    now = time.time()
    new_row = TableRow(new_token(), table.row.variant, server.new_seed(), now, now, None, 0,
                       table.row.watch_hash, table.row.admin_hash, seats)
    new_row.hints = table.row.hints
    new_row.rematch_first = table.row.rematch_first
    new_row.first_seat = rematch_first_seat(table.row, table.offered.variant.rules, new_row.seed)
    new_row.chat = table.row.chat
    made = server.open_table(new_row, table.offered, first, client, searching)
    try:
        table.append_seat_events([Event(REMATCH, made.id, seat)], server.store)
    except Stale:
        # Another process made the rematch first: that one stands (ours, never joined, is
        # deleted within the hour as any unjoined table).
        server.catch_up(table)
        other = _existing(server, table)
        if other is not None:
            return other, False
        raise HTTPError(409, "the table has moved on: try again") from None
    server.broadcast(table)
    return made, True


def _existing(server, table: Table) -> Table | None:
    if table.seating.rematch is None:
        return None
    return server.table(table.seating.rematch)
