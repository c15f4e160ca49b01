"""Hints: the seat to move may ask the search bot what it would play, at a table whose creator
turned hints on. The answer is a suggestion in words, sent to that seat's client alone; it is
never played for them (only a ``move`` message plays).

- Only at a table created with ``"hints": true`` (off by default), only for the seat to move
  (not a watcher, not a seat a bot plays), only while the game is on.
- The bot thinks in the server's bot worker pool (``web.bots``), like a search bot's own turn,
  so the event loop never waits for it; it is given the table's record as this seat may see it
  (``Table.record(seat)``: the other seats' secrets sealed), and in the worker the game as the
  seat to move may know it (``state.for_seat``): a hint can't tell another seat's secret.
- One search at a time per seat: asking again while it is worked out (from any page of the
  seat) is answered with the same answer when it comes, and asking again once it is given gets
  the answer already given (same seat, same version).
- A hint's search stops when its table moves on (``Table._commit_events`` cancels it): one
  still waiting for a worker never runs, and no answer for a version that has passed is sent.
  Only the seat to move may ask, so a table has at most one hint search at a time. A chat
  message (``web.chat``) is no move: a hint asked before it is still worked out and given, and
  one given before it is told again, for the new version (``tell_again``).
- A table with hints on counts as a table with a search bot in its creator's budget
  (``--search-tables-per-address``, ``Server.open_table``): hints are searches on the same
  workers, and twelve tables of people asking for hints held another table's search bot up for
  47 s where it took 1 s.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from azul_core.engine.notation import format_decision, parse_decision
from azul_core.engine.state import CHOOSE
from azul_core.players.registry import make_bot
from azul_core.players.render import describe_decision
from azul_core.rules import Move
from azul_core.web.bots import is_search_bot

log = logging.getLogger("azul.web")

#: The bot asked for hints, where the variant offers it; else its first search bot, else greedy.
HINT_BOT = "mcts"
#: what a question is told when its table moved on before the answer was ready
MOVED_ON = "the table moved on before the hint was ready: ask again"


@dataclass(eq=False)
class HintJob:
    """The hint being worked out for a seat: the version it is for, the clients that asked for
    it (a client once per question) and the task working it out."""

    version: int
    askers: list = field(default_factory=list)
    task: asyncio.Task | None = None

    def tell(self, message: str) -> None:
        for client in self.askers:
            client.send(message)


def searches(bots: list[str]) -> bool:
    """Whether the hints of a variant offering ``bots`` are searches (in the bot workers)."""
    return is_search_bot(hint_bot(bots))


def hint_bot(bots: list[str]) -> str:
    if HINT_BOT in bots:
        return HINT_BOT
    return next((bot for bot in bots if is_search_bot(bot)), "greedy")


def refusal(table, seat: int | None, version: Any) -> str | None:
    """Why ``seat`` may not have a hint now, in words; None if it may."""
    if not table.row.hints:
        return "hints are off at this table (the table's creator chooses when creating it)"
    if seat is None:
        return "this link can watch but not ask for hints"
    if table.over:
        return "the game is over"
    if table.seats[seat].bot:
        return f"your seat is played by the bot '{table.seats[seat].bot}'"
    if table.state.to_move != seat:
        return "a hint is for the player to move: wait for your turn"
    if isinstance(version, bool) or not isinstance(version, int) or not table.moved_at <= version <= table.version:
        return f"the table has moved on (version {table.version}): look again"
    return None


def hint_words(state, decision: tuple | Move) -> str:
    """"Hint: take 2 red from factory 3 to line 4", judged from the state before it."""
    if isinstance(decision, Move):
        offered = list(state.choices) if state.phase == CHOOSE else state.turn_moves()
        label = offered[offered.index(decision)].label if decision in offered else ""
        return f"Hint: {label or decision.notation}"
    said = describe_decision(state, decision)
    for person in ("you take ", "you place "):
        if said.startswith(person):
            said = person.removeprefix("you ").rstrip() + " " + said[len(person):]
    return f"Hint: {said}"


def _message(version: int, move: str | None, text: str | None = None, reason: str | None = None) -> str:
    return json.dumps({"type": "hint", "version": version, "move": move, "text": text, "reason": reason})


async def _think(server, table, seat: int, version: int) -> tuple | Move:
    bot = hint_bot(table.offered.bots)
    seed = f"{table.row.seed}:hint:{seat}:version:{version}"
    if is_search_bot(bot):
        ref = str(table.offered.path)
        text = await server.bot_pool.choose(ref, table.record(seat).to_dict(), bot, seed, table.sealed_choices(seat))
        rules = table.offered.variant.rules
        return parse_decision(text, rules.colour_letters, rules.colour_names)
    player = make_bot(bot, table.offered.variant.rules, seed=seed, think=server.config.think)
    return await asyncio.to_thread(player.choose, table.seen_by(seat).clone())


def ask_for_hint(server, client, message: dict) -> None:
    """Answer a client's ``{"type": "hint", "version": N}`` with a ``hint`` message (to it alone),
    now or once the search is done, without holding up the client's other messages."""
    table, seat = client.table, client.seat
    version = message.get("version")
    reason = refusal(table, seat, version)
    if reason is not None:
        client.send(_message(table.version, None, reason=reason))
        return
    given = table.hinted.get(seat)
    if given is not None and given[0] >= table.moved_at:
        client.send(_for_now(table, seat))  # asked again: the same answer, not another search
        return
    job = table.hinting.get(seat)
    if job is not None and job.version >= table.moved_at:
        job.askers.append(client)  # asked again while it is worked out: one search answers both
        return
    job = table.hinting[seat] = HintJob(version, [client])
    job.task = server.spawn(_work_out(server, table, seat, job))
    # Not in the task's own ``finally``: a task cancelled before it started never runs it.
    job.task.add_done_callback(lambda task: _ended(table, seat, job, task))


def _ended(table, seat: int, job: HintJob, task: asyncio.Task) -> None:
    if table.hinting.get(seat) is job:
        del table.hinting[seat]
    if task.cancelled() and table.moved_at > job.version:  # stopped as the table moved on
        job.tell(_message(table.version, None, reason=MOVED_ON))


async def _work_out(server, table, seat: int, job: HintJob) -> None:
    try:
        seen = table.seen_by(seat).clone()  # the state the hint is worded from: as this seat knows it
        decision = await _think(server, table, seat, job.version)
        if table.moved_at > job.version:
            job.tell(_message(table.version, None, reason=MOVED_ON))
            return
        answer = _message(job.version, format_decision(decision, seen.rules.colour_letters),
                          text=hint_words(seen, decision))
        table.hinted[seat] = (job.version, answer)
        job.tell(_for_now(table, seat))
    except Exception:  # a bot that failed: the player is told, the table goes on
        log.exception("a hint at table %s failed", table.id[:6])
        job.tell(_message(table.version, None, reason="the hint could not be worked out: try again"))


def _for_now(table, seat: int) -> str:
    """The hint given to ``seat``, for the table's version now: a chat message since (no move)
    left it good, and a page shows a hint for the version it shows only."""
    _version, answer = table.hinted[seat]
    told = json.loads(answer)
    told["version"] = table.version
    return json.dumps(told)


def tell_again(table) -> None:
    """After a chat message: each hint given since the last move, for the new version, to the
    pages of its seat (they would hide it as one for a version that has passed)."""
    for seat in [seat for seat, (version, _answer) in table.hinted.items() if version >= table.moved_at]:
        message = _for_now(table, seat)
        for client in list(table.clients):
            if client.seat == seat:
                client.send(message)


__all__ = ["HINT_BOT", "MOVED_ON", "HintJob", "ask_for_hint", "hint_bot", "hint_words", "refusal", "searches",
           "tell_again"]
