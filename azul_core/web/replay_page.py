"""The replay page: a game stepped through move by move in the browser.

A record is replayed once through the engine (``records.game_record.Positions``,
the same checks as ``azul replay``), which keeps a state every few dozen steps
and replays a step from the nearest one; each step's view is the table page's
(``views.build_view``), made when the page asks for it, so the page draws the
board with the table page's own code and holds no rule. Each step is told in
words by ``table.describe`` and carries the last finished round's scoring, as
the table page shows it.

Two ways in: ``azul replay --web FILE`` serves one record on loopback
(``replay_server``; the record's plugin files ran only if the user allowed them,
as for ``azul replay``), and a finished online table has ``/t/{table}/replay``
(``table_replay_routes``; the table's own variant, which the server already
runs; the game is over, so no secret is left to keep).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from azul_core.engine.notation import parse_record_action
from azul_core.engine.plugins import PluginError
from azul_core.records.game_record import GameRecord, Positions, ReplayError
from azul_core.web import paths  # noqa: F401  (registers the {...:index} of the routes below)
from azul_core.web.capabilities import bearer
from azul_core.web.chat import chat_by_step
from azul_core.web.table import apply_decision, describe, fresh_progress, start_round, told_to_players
from azul_core.web.views import build_view

log = logging.getLogger("azul.web")

#: finished tables whose replay a server keeps ready
REPLAYS_KEPT = 8
#: the steps those replays hold together: a step costs about 1.3 KB (its words, its share of
#: the kept states, the views made), so about 26 MB; a game of 50 rounds has 800 (two
#: players) to 1,400 (four) steps even when every draft goes to the floor
REPLAY_STEPS_KEPT = 20_000
#: step views a replay keeps made (a page steps back and forth over a few)
VIEWS_KEPT = 32


@dataclass
class _Step:
    round: int
    action: int
    #: the action in record notation; None for a deal
    move: str | None
    #: what happened, in words
    text: str
    #: the seat that moved (None: a deal)
    seat: int | None
    #: the last finished round's scoring when this step is shown (the table page's ``last_round``)
    last_round: dict | None
    #: this step ended a round (its scoring is ``last_round``)
    round_end: bool


class Replay:
    """A record replayed through the engine; ``index()`` lists the steps, ``step(n)`` gives
    one step's view. ``problem`` says where a record that can't be replayed to its end stops
    (the steps before it are kept)."""

    def __init__(self, record: GameRecord, variant: Any, title: str = "", bots: list | None = None,
                 public: bool = False, game_log: list | None = None):
        #: served to other people (an online table's replay): a plugin's failure is told
        #: without the server's file paths (``azul replay --web`` shows its user everything)
        self.public = public
        self.record = record
        self.variant = variant
        self.title = title or record.variant
        names = list(record.players)
        if bots is None:
            # ``azul play`` and the server write who sat where: "human" or a bot's name.
            kinds = record.extra.get("player_kinds")
            if not isinstance(kinds, list) or len(kinds) != len(names):
                kinds = [None] * len(names)
            bots = [kind[:32] if isinstance(kind, str) and kind != "human" else None for kind in kinds]
        self.seats = [SimpleNamespace(name=name, bot=bot) for name, bot in zip(names, bots)]
        self.offered = SimpleNamespace(variant=variant)
        self.steps: list[_Step] = []
        self.problem: str | None = None
        #: whether the replay reaches the game's end
        self.over = False
        self.positions = Positions(record, variant)
        self._views: OrderedDict[int, dict] = OrderedDict()
        #: the server makes steps in worker threads: one at a time per replay
        self._making = threading.Lock()
        self._replay(names)
        #: the events about seats an online table told in its game log (handed to a bot, the
        #: stand-in, taken back, a rematch), each under the step it followed
        self.seat_events = seat_events_by_step(game_log or [], self.steps)
        #: the record's chat messages (``web.chat``), each under the step it followed
        self.chat = chat_by_step(record.extra.get("chat"), self.steps, names)

    def _replay(self, names: list[str]) -> None:
        progress = None
        before = None
        try:
            for step in self.positions.replay():
                if progress is None:
                    progress = fresh_progress(step.state)
                if step.action == 0:
                    start_round(step.state, progress)
                    text = f"Round {step.round}: the factories are filled"
                    self.steps.append(_Step(step.round, 0, None, text, None, progress.last_round, False))
                else:
                    # (a record's action: a decision, or the tiles a rule drew from the bag, ``~RRB``)
                    decision = parse_record_action(step.text, step.state.rules.colour_letters,
                                                   step.state.table.kind_letters, step.state.rules.colour_names)
                    seen = progress.rounds_seen
                    # The table's own bookkeeping, on a copy: the tiles each placement scored.
                    apply_decision(before.clone(), progress, decision)
                    self.steps.append(_Step(step.round, step.action, step.text,
                                            describe(before, decision, names, hide_sealed=False), before.to_move,
                                            progress.last_round, progress.rounds_seen > seen))
                before = step.state
                self.over = before.over
        except ReplayError as exc:
            self.problem = f"the record can't be replayed past {exc}"
        except PluginError as exc:
            if self.public:
                log.warning("replaying %s: %s", self.title, exc)
            told = told_to_players(exc) if self.public else " ".join(str(exc).split())
            self.problem = f"a rule plugin failed while replaying: {told}"

    def index(self) -> dict:
        """The steps in words, for the move list and the slider."""
        return {"title": self.title, "variant": getattr(self.variant, "name", self.record.variant),
                "players": [seat.name for seat in self.seats],
                "over": self.over, "problem": self.problem,
                "steps": [{"round": s.round, "action": s.action, "move": s.move, "text": s.text,
                           "seat": s.seat, "round_end": s.round_end} for s in self.steps],
                "seat_events": self.seat_events, "chat": self.chat}

    def step(self, number: int) -> dict | None:
        """Step ``number``'s view (the table page's), None if there is no such step."""
        if not 0 <= number < len(self.steps):
            return None
        step = self.steps[number]
        with self._making:
            view = self._view(number, step)
        return {"step": number, "round": step.round, "action": step.action, "text": step.text,
                "round_end": step.round_end, "view": view}

    def _view(self, number: int, step: _Step) -> dict:
        view = self._views.get(number)
        if view is None:
            connected = [True] * len(self.seats)  # nobody is "away" in a replay
            view = build_view(self.positions.state_at(number), self.offered, self.seats, connected,
                              step.last_round, self.title)
            self._views[number] = view
            while len(self._views) > VIEWS_KEPT:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(number)
        return view


def seat_events_by_step(game_log: list, steps: list[_Step]) -> list[dict]:
    """The game log's events about seats (``table.Progress.log``), each with the step of the
    last move before it (``step``; 0 before the first move): a record has moves only, so the
    replay of a record alone has none. The log's words are names only, no secret."""
    if not steps:
        return []
    moves = [index for index, step in enumerate(steps) if step.move is not None]
    placed = []
    moves_before = 0
    for entry in game_log:
        if entry.get("move"):
            moves_before += 1
        elif entry.get("event"):
            # past the steps a record could be replayed to (``problem``): under the last one
            step = moves[min(moves_before, len(moves)) - 1] if moves_before and moves else 0
            placed.append({"step": step, "seat": entry.get("seat"), "event": str(entry["event"]),
                           "text": str(entry.get("text", ""))})
    return placed


# ---------------------------------------------------------------- answers


TEMPLATE = Path(__file__).parent / "templates" / "replay.html"


def page() -> Response:
    """The replay page (one for both ways in: its script asks the API of its own address)."""
    if not TEMPLATE.is_file():
        return PlainTextResponse("the page replay.html is not installed", status_code=500)
    return FileResponse(TEMPLATE, media_type="text/html; charset=utf-8")


def step_answer(replay: Replay, request: Request) -> Response:
    """A step's view, or 404 past the ends."""
    answer = replay.step(request.path_params["step"])
    if answer is None:
        return JSONResponse({"error": f"no such step (the replay has steps 0 to {len(replay.steps) - 1})"},
                            status_code=404)
    return JSONResponse(answer)


# ---------------------------------------------------------------- a finished online table


class KeptReplays:
    """The replays of finished tables a server keeps ready. Each is made in a worker thread
    (a long game's takes a while, and the event loop serves every other table meanwhile),
    once however many ask for it at the same time. At most ``count`` are kept, holding at
    most ``steps`` steps together, the least recently asked for dropped first; the last one
    asked for is kept even when it alone holds more (else each of its steps would make it
    again)."""

    def __init__(self, count: int = REPLAYS_KEPT, steps: int = REPLAY_STEPS_KEPT):
        self.count = count
        self.steps = steps
        #: table id -> (the table's version when its replay was made, the replay)
        self._kept: OrderedDict[str, tuple[int, Replay]] = OrderedDict()
        #: table id -> (the table's version, the replay being made)
        self._making: dict[str, tuple[int, asyncio.Future]] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def steps_held(self) -> int:
        return sum(len(replay.steps) for _version, replay in self._kept.values())

    async def replay_of(self, table) -> Replay:
        found = self._kept.get(table.id)
        if found is not None:
            version, replay = found
            if version != table.version:
                # Over, the game moves no more: only an event about a seat (a rematch) came since.
                replay.seat_events = seat_events_by_step(table.progress.log, replay.steps)
                version = table.version
        else:
            making = self._making.get(table.id)
            if making is None:
                # What it is made of is read here, on the loop, where the table changes.
                version = table.version
                made = asyncio.ensure_future(asyncio.to_thread(
                    Replay, table.record(None), table.offered.variant, table.offered.key,
                    [seat.bot for seat in table.seats], public=True, game_log=list(table.progress.log)))
                making = self._making[table.id] = (version, made)
                made.add_done_callback(lambda _made, key=table.id: self._making.pop(key, None))
            version, made = making
            # One request given up (a closed connection) does not cancel it for the others.
            replay = await asyncio.shield(made)
        self._keep(table.id, version, replay)
        return replay

    def _keep(self, key: str, version: int, replay: Replay) -> None:
        self._kept[key] = (version, replay)
        self._kept.move_to_end(key)
        while len(self._kept) > 1 and (len(self._kept) > self.count or self.steps_held() > self.steps):
            self._kept.popitem(last=False)


def table_replay_routes(server, kept: KeptReplays | None = None) -> list[Route]:
    """``/t/{table}/replay`` and its API for the tables of ``server`` (``app.Server``): open
    once the game is over, to whoever holds one of the table's links (as its record is). The
    replays and their steps are made in worker threads (``KeptReplays``)."""
    kept = kept if kept is not None else KeptReplays()

    def finished(request: Request):
        table = server.table(request.path_params["table"])
        if table is None:
            return None, JSONResponse({"error": "no such table"}, status_code=404)
        if not table.over:
            return None, JSONResponse({"error": "the replay opens once the game is over"}, status_code=409)
        known, _seat = table.seat_of(bearer(request.headers.get("authorization")))
        if not known:
            return None, JSONResponse({"error": "send a seat's or the watch secret as "
                                                "'Authorization: Bearer SECRET'"}, status_code=401)
        return table, None

    async def table_page(request: Request) -> Response:
        table = server.table(request.path_params["table"])
        if table is None:
            return PlainTextResponse("no such table", status_code=404)
        if not table.over:
            # The game goes on: its page, not a replay that would tell what is still hidden.
            return RedirectResponse(f"/t/{table.id}", status_code=303)
        return page()

    async def index(request: Request) -> Response:
        table, error = finished(request)
        if table is None:
            return error
        replay = await kept.replay_of(table)
        # The JSON of every step's words is made in the thread too.
        return await asyncio.to_thread(lambda: JSONResponse(replay.index()))

    async def step(request: Request) -> Response:
        table, error = finished(request)
        if table is None:
            return error
        return await asyncio.to_thread(step_answer, await kept.replay_of(table), request)

    return [
        Route("/t/{table}/replay", table_page),
        Route("/api/tables/{table}/replay", index),
        Route("/api/tables/{table}/replay/{step:index}", step),
    ]





__all__ = ["Replay", "KeptReplays", "REPLAYS_KEPT", "REPLAY_STEPS_KEPT", "VIEWS_KEPT", "page", "seat_events_by_step",
           "step_answer", "table_replay_routes"]
