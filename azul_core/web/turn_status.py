"""Whose turn it is at a table, for the home page's "My tables" (``static/js/my-tables.js``).

A browser keeps the seat links its person opened (in ``localStorage``, never on the server: no
account) and asks, for each, ``GET /api/tables/{table}/status`` with that seat's own secret as
``Authorization: Bearer SECRET``: the variant, the players' names, and whether it is that seat's
turn, another's, or the game is over. Only a seat's own link is answered (401 for the watch or
the admin secret: "your turn" means nothing to them), and the answer holds nothing the seat's
page does not show: no board, no secret, no other seat's link.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from azul_core.web.capabilities import bearer

YOUR_TURN, WAITING, FINISHED = "your-turn", "waiting", "finished"


def seat_status(table, seat: int) -> dict:
    """What the home page says of the table for ``seat``: ``state`` is ``YOUR_TURN`` (the seat is
    to move and its person plays it), ``WAITING`` (another seat is to move, or a bot plays this
    one) or ``FINISHED``."""
    names = [row.name for row in table.seats]
    view = table.view(seat)  # as the seat's page sees it: in a phase chosen at once, its own turn
    to_move = None if table.over else view.get("to_move")
    played_by = table.seats[seat].bot
    if table.over:
        state = FINISHED
    elif to_move == seat and played_by is None:
        state = YOUR_TURN
    else:
        state = WAITING
    return {"table": table.id, "variant": table.offered.key, "seat": seat, "players": names,
            "state": state, "to_move": None if to_move is None else names[to_move],
            "bot": played_by, "round": table.state.round, "version": table.version,
            "winners": [names[winner] for winner in table.state.winners] if table.over else []}


def turn_status_routes(server) -> list[Route]:
    async def status(request: Request) -> Response:
        table = server.table(request.path_params["table"])
        if table is None:
            return _answer({"error": "no such table"}, 404)
        known, seat = table.seat_of(bearer(request.headers.get("authorization")))
        if not known or seat is None:
            return _answer({"error": "only a seat's own link is told whose turn it is: send its secret "
                                     "as 'Authorization: Bearer SECRET'"}, 401)
        return _answer(seat_status(table, seat), 200)

    return [Route("/api/tables/{table}/status", status)]


def _answer(body: dict, status_code: int) -> JSONResponse:
    # A turn changes with every move: a stale answer would say "your turn" after you moved.
    return JSONResponse(body, status_code=status_code, headers={"Cache-Control": "no-store"})
