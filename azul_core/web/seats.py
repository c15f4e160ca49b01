"""The seats of a table in play: taking a seat back from a bot, the stand-in bot of the turn
clock, who has been away for how long, and the ``seating`` message that tells the pages.

- **Reclaim**: a person whose seat a bot plays (handed over by the creator, or by the clock)
  takes it back with their own link, ``POST /api/tables/{table}/seats/{seat}/reclaim`` with the
  seat's secret: a ``reclaim`` event is committed, which moves the table's version on, so a bot
  that was thinking for the seat finds its move stale and drops it.
- **Clocks** (``web.clocks``): a timer per table wakes when the running clock runs out, or when
  the seat to move has had no page open for the clock's ``away`` seconds, and commits a
  ``standin`` event: the table's stand-in bot plays the seat until its owner takes it back
  (a click: coming back to the page does not take the seat back by itself).
- **Arrivals**: at a table with a clock, a seat's clock runs only once its player has opened
  their link (an ``arrive`` event, the first time) or once the creator pressed **Start now**
  (``POST /api/tables/{table}/start`` with the admin secret: a ``start`` event). Until then the
  game waits for that seat; after **Start now**, a seat nobody opened is given to the stand-in
  when its clock or its away time runs out, counted from the start, and the log says its player
  "has not arrived yet".
- **A new link**: a seat's owner, or the table's creator (whose friend lost the link), asks for
  a new secret for the seat, ``POST /api/tables/{table}/seats/{seat}/link``: a ``link`` event
  stores its hash, the old link stops opening the table and its pages are closed, here and on
  every process sharing the store.
- **seating**: sent to every page of a table after each state and each coming and going: the
  clock, who plays each seat and why, how long each seat has been away, the rematch.

The server's clock is ``Config.now`` (tests give their own), so the clocks can be tested
without waiting.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from azul_core.web import paths  # noqa: F401  (registers the {...:index} of the routes below)
from azul_core.web.capabilities import bearer, digest, new_token
from azul_core.web.clocks import AWAY_OFF, NOT_ARRIVED
from azul_core.web.closing import close_with_reason
from azul_core.web.rematch import make_rematch
from azul_core.web.store import ARRIVE, LINK, RECLAIM, STANDIN, START, Event
from azul_core.web.table import Refused, Stale, Table

log = logging.getLogger("azul.web")


class SeatService:
    """The seats' part of one server (``Server.seats``)."""

    def __init__(self, server):
        self.server = server
        #: table id -> the timer task waking at its next clock deadline, and that deadline
        self.timers: dict[str, tuple[asyncio.Task, float]] = {}

    @property
    def now(self):
        return self.server.config.now

    # ------------------------------------------------------------ tables coming and going

    def adopt(self, table: Table, loaded: bool) -> None:
        """A table this process now holds (``loaded``: read back from the store, e.g. after a
        restart: the seat to move keeps some time, and nobody has been away before now)."""
        table.now = self.now
        now = self.now()
        for seat, present in enumerate(table.connected()):
            if not present:
                table.seating.left_at[seat] = now
        if loaded and table.seating.clocks is not None:
            table.seating.clocks.restarted(now)
        self.watch(table)

    def presence_changed(self, table: Table) -> None:
        """Pages of the table opened or closed: note since when each seat is away."""
        self._note_presence(table)
        self.watch(table)

    def _note_presence(self, table: Table) -> None:
        now = self.now()
        left_at = table.seating.left_at
        for seat, present in enumerate(table.connected()):
            if present:
                left_at.pop(seat, None)
            else:
                left_at.setdefault(seat, now)

    # ------------------------------------------------------------ telling the pages

    def message(self, table: Table) -> dict:
        self._note_presence(table)  # a page that just opened is not away
        now = self.now()
        seating = table.seating
        seats = []
        for seat in table.seats:
            away = seating.left_at.get(seat.seat)
            seats.append({"bot": seat.bot, "why": seating.why.get(seat.seat) if seat.bot else None,
                          "reclaimable": bool(seat.bot and seat.secret_hash),
                          "away": None if away is None else round(max(0.0, now - away), 1)})
        clock = seating.clocks.public(now) if seating.clocks is not None and not table.over else None
        return {"type": "seating", "version": table.version, "clock": clock, "seats": seats,
                "absent_grace": self.server.config.absent_grace, "rematch": seating.rematch}

    def tell(self, table: Table, clients=None, changed_only: bool = False) -> None:
        """Send the seating message to the table's clients that asked for it (or to ``clients``
        among them). After a move
        (``changed_only``), a table without a clock is told only what changed: who plays a
        seat, who is away, the rematch (the page counts the seconds away itself)."""
        targets = [c for c in (table.clients if clients is None else clients) if c.wants_seating]
        if not targets:
            return
        message = self.message(table)
        if message["clock"] is None and clients is None:
            # what every client was last told, so that the next move tells it again only if changed
            key = json.dumps([[s["bot"], s["why"], s["away"] is None] for s in message["seats"]] + [message["rematch"]])
            if changed_only and key == table.seating.told:
                return
            table.seating.told = key
        text = json.dumps(message, separators=(",", ":"))
        for client in targets:
            if not client.send(text):
                self.server.drop(client)

    # ------------------------------------------------------------ the clocks

    def due(self, table: Table) -> tuple[float, str] | None:
        """When the seat to move is next handed to the stand-in, and why."""
        clocks = table.seating.clocks
        if clocks is None or table.over:
            return None
        deadline = clocks.deadline()
        if deadline is None or clocks.mover is None:
            return None
        arrived = clocks.mover in clocks.arrived
        found = (deadline, "clock" if arrived else NOT_ARRIVED)
        left = table.seating.left_at.get(clocks.mover)
        if left is not None and clocks.rule.away != AWAY_OFF:
            if not arrived and clocks.begun is not None:
                left = max(left, clocks.begun)  # nobody is away from a game not yet started
            away = max(left + clocks.rule.away, clocks.floor)
            if away < deadline:
                found = (away, "away" if arrived else NOT_ARRIVED)
        return found

    def watch(self, table: Table) -> None:
        """(Re)arm the table's timer for its next deadline."""
        due = self.due(table)
        held = self.timers.get(table.id)
        if held is not None:
            if due is not None and held[1] == due[0] and not held[0].done():
                return
            held[0].cancel()
            del self.timers[table.id]
        if due is None:
            return
        try:
            task = self.server.spawn(self._wake(table, due[0]))
        except RuntimeError:  # no running loop (a table loaded outside a request)
            return
        self.timers[table.id] = (task, due[0])

    async def _wake(self, table: Table, when: float) -> None:
        try:
            while True:
                wait = when - self.now()
                if wait <= 0:
                    break
                await asyncio.sleep(min(wait, 3600))
        except asyncio.CancelledError:
            raise
        held = self.timers.get(table.id)
        if held is not None and held[0] is asyncio.current_task():
            del self.timers[table.id]
        self.check(table)

    def check(self, table: Table) -> bool:
        """Hand the seat to move to the stand-in if its time is up; True if it was."""
        if self.server.tables.get(table.id) is not table or self.server.store is None:
            return False
        due = self.due(table)
        if due is None or due[0] > self.now():
            self.watch(table)
            return False
        seat = table.seating.clocks.mover
        bot = table.seating.clocks.rule.bot
        try:
            table.append_seat_events([Event(STANDIN, f"{bot} {due[1]}", seat)], self.server.store)
        except Stale:
            self.server.catch_up(table)
            self.watch(table)
            return False
        except Exception as exc:  # the store failed: look again in a while
            log.error("table %s: the stand-in could not take seat %d (%s: %s)", table.id[:6], seat,
                      type(exc).__name__, exc)
            self.timers.pop(table.id, None)
            self.server.spawn(self._wake(table, self.now() + 5))
            return False
        log.info("table %s: the %s bot plays seat %d (%s)", table.id[:6], bot, seat,
                 {"clock": "its clock ran out", NOT_ARRIVED: "nobody has opened it"}.get(
                     due[1], "nobody was at the table"))
        self.server.broadcast(table)
        self.server.kick_bot(table)
        return True

    def check_all(self) -> int:
        """Every held table's clock looked at now (tests move their clock, then call this)."""
        return sum(self.check(table) for table in list(self.server.tables.values()))

    # ------------------------------------------------------------ arriving, starting

    def arrive(self, table: Table, seat: int) -> None:
        """A page of ``seat`` opened: at a table with a clock, the first time is an ``arrive``
        event, from which the seat's clock may run."""
        for _attempt in range(2):
            clocks = table.seating.clocks
            if clocks is None or table.over or seat in clocks.arrived:
                return
            try:
                table.append_seat_events([Event(ARRIVE, "", seat)], self.server.store)
            except Stale:
                self.server.catch_up(table)
                continue
            except Exception as exc:  # the store failed: the seat arrives at its next page
                log.error("table %s: seat %d's arrival could not be stored (%s: %s)", table.id[:6], seat,
                          type(exc).__name__, exc)
                return
            self.server.broadcast(table)
            return

    def start(self, table: Table) -> None:
        """The creator starts the game: every seat's clock runs from now, arrived or not.
        ``Refused`` says why not."""
        clocks = table.seating.clocks
        if table.over:
            raise Refused("the game is over")
        if clocks is None:
            raise Refused("this table has no clock: the game needs no starting")
        if clocks.begun is not None:
            raise Refused("the game was started already")
        table.append_seat_events([Event(START, "")], self.server.store)

    # ------------------------------------------------------------ taking a seat back

    def reclaim(self, table: Table, seat: int) -> None:
        """The seat's owner takes it back from the bot; ``Refused`` says why not."""
        if table.over:
            raise Refused("the game is over")
        row = table.seats[seat]
        if not row.bot:
            raise Refused("your seat is yours already: no bot plays it")
        clocks = table.seating.clocks
        if clocks is not None and clocks.must_stand_in(seat, table.state):
            raise Refused("your time ran out again after you took the seat back: the stand-in "
                          "makes this move, then you may take the seat back")
        table.append_seat_events([Event(RECLAIM, "", seat)], self.server.store)

    def new_link(self, table: Table, seat: int) -> str:
        """A new secret for the seat, asked for by its owner or by the table's creator (whose
        friend lost the link): the old one no longer opens this
        table (it still opens a finished table the link came from), and the seat's open pages
        are closed. Only the hash is stored; the secret goes to the asker alone. ``Refused`` at
        a finished table: nothing is left to play there, and a link changed there would not
        be changed at a rematch made already (the old one would still open it). ``Refused``
        for a seat made for a bot: a link there would let a person take the bot's seat."""
        if table.over:
            raise Refused("the game is over: ask for a new link at the rematch's table")
        if table.seats[seat].secret_hash is None:
            raise Refused(f"seat {seat + 1} was made for a bot: it has no link")
        secret = new_token()
        table.append_seat_events([Event(LINK, digest(secret), seat)], self.server.store)
        self._close_old_link(table, seat)
        self.server.seat_came_or_went(table, seat)
        return secret

    def followed(self, table: Table, events: list[Event]) -> None:
        """Events another process committed, now followed here: a seat's new link closes the
        pages this process holds of that seat too (opened with the old one, which may have
        leaked), as the process that made the link closed its own."""
        for seat in sorted({event.seat for event in events if event.kind == LINK and event.seat is not None}):
            if self._close_old_link(table, seat):
                self.server.seat_came_or_went(table, seat)

    def _close_old_link(self, table: Table, seat: int) -> bool:
        """Close this process's pages of the seat; whether there were any."""
        closing = [client for client in table.clients if client.seat == seat]
        for client in closing:
            table.clients.discard(client)
            self.server.spawn(close_with_reason(client.websocket, 4401, "this seat has a new link: open that one"))
        return bool(closing)

    def routes(self, read_json, client_key) -> list[Route]:
        """``read_json(request)``: the request's JSON, its Origin checked (``HTTPError``);
        ``client_key(host)``: the client a limit counts."""
        server = self.server

        async def table_asked(request: Request) -> Any:
            """The table a request names, its body read and its Origin checked, or the error
            answer."""
            try:
                await read_json(request)
            except Exception as exc:
                return _http_error(exc)
            table = server.table(request.path_params["table"])
            return _error(404, "no such table") if table is None else table

        async def own_seat(request: Request, what: str, or_creator: bool = False) -> tuple[Any, int] | Response:
            """The table and seat of a request that only the seat's own link may make (or, with
            ``or_creator``, the creator's admin secret too), or the error answer."""
            table = await table_asked(request)
            if isinstance(table, Response):
                return table
            seat = request.path_params["seat"]
            if not 0 <= seat < len(table.seats):
                return _error(404, f"no seat {seat} at this table")
            secret = bearer(request.headers.get("authorization"))
            if or_creator and table.is_admin(secret):
                return table, seat
            known, holder = table.seat_of(secret)
            if not known or holder != seat:
                who = "the seat's own link or the creator's" if or_creator else "the seat's own link"
                return _error(401, f"only {who} {what}: "
                                   "send its secret as 'Authorization: Bearer SECRET'")
            return table, seat

        def carried_out(table, step, *args) -> tuple[Any, Response | None]:
            """``step(table, *args)``'s answer and None, told to every page; or why not, a 409."""
            try:
                answer = step(table, *args)
            except Stale as exc:
                server.catch_up(table)
                return None, _error(409, str(exc))
            except Refused as exc:
                return None, _error(409, str(exc))
            server.broadcast(table)
            return answer, None

        async def reclaim(request: Request) -> Response:
            found = await own_seat(request, "takes it back")
            if isinstance(found, Response):
                return found
            table, seat = found
            _answer, refused = carried_out(table, self.reclaim, seat)
            return refused or JSONResponse({"seat": seat, "bot": None})

        async def rematch(request: Request) -> Response:
            table = await table_asked(request)
            if isinstance(table, Response):
                return table
            secret = bearer(request.headers.get("authorization"))
            known, seat = table.seat_of(secret)
            if not known or (seat is None and not table.is_admin(secret)):
                return _error(401, "a seat's link or the creator's makes a rematch: "
                                   "send its secret as 'Authorization: Bearer SECRET'")
            try:
                address = client_key(request.client.host if request.client else None)
                made, created = make_rematch(server, table, address, seat)
            except Exception as exc:
                return _http_error(exc)
            return JSONResponse({"table": made.id, "url": f"/t/{made.id}"}, status_code=201 if created else 200)

        async def link(request: Request) -> Response:
            found = await own_seat(request, "asks for a new one", or_creator=True)
            if isinstance(found, Response):
                return found
            table, seat = found
            secret, refused = carried_out(table, self.new_link, seat)
            if refused:
                return refused
            root = server.config.public_url or str(request.base_url)
            return JSONResponse({"seat": seat, "url": f"{root.rstrip('/')}/t/{table.id}#seat={secret}"})

        async def start(request: Request) -> Response:
            table = await table_asked(request)
            if isinstance(table, Response):
                return table
            if not table.is_admin(bearer(request.headers.get("authorization"))):
                return _error(401, "only the creator's link starts the game: "
                                   "send the admin secret as 'Authorization: Bearer SECRET'")
            _answer, refused = carried_out(table, self.start)
            return refused or JSONResponse({"started": True})

        return [Route("/api/tables/{table}/start", start, methods=["POST"]),
                Route("/api/tables/{table}/seats/{seat:index}/reclaim", reclaim, methods=["POST"]),
                Route("/api/tables/{table}/seats/{seat:index}/link", link, methods=["POST"]),
                Route("/api/tables/{table}/rematch", rematch, methods=["POST"])]


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def _http_error(exc: Exception) -> JSONResponse:
    """An ``HTTPError`` of ``web.app`` as its answer (anything else is a bug: raised again)."""
    status: Any = getattr(exc, "status", None)
    if not isinstance(status, int):
        raise exc
    return _error(status, getattr(exc, "reason", str(exc)))


__all__ = ["SeatService"]
