"""One table in play: its game, its seats, its events and what each round scored.

A ``Table`` turns events (deals, decisions, seats handed to bots) into a
game state through the engine, the same way live and when a restarted server
replays the stored events. A decision is judged by the engine on a copy of
the state (``IllegalDecision`` says which rule refuses it); what the server
does by itself after it (deal the next round, place a tile with one legal
column) is worked out on the same copy; the whole is committed to the store,
and only then does the table move on and tell its clients.

A plugin's secrets (``state.secrets``) are hidden from the other seats until
the game is over: whatever a client or a bot is given is made from
``Table.seen_by(seat)``, the game as that seat may know it.
"""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any

from azul_core.engine.draws import DRAWN_MARK, Drawn
from azul_core.engine.notation import (
    NotationError,
    format_decision,
    is_ascii_number,
    parse_decision,
    parse_record_action,
)
from azul_core.engine.plugins import PluginError
from azul_core.engine.state import DEAL, DRAFT, DRAW, OVER, PLACE, GameState, IllegalDecision, letters, wall_with
from azul_core.players.phase_words import in_secret, revealed_words, sealed_choice_words
from azul_core.players.refusal_words import refusal_words
from azul_core.players.render import describe_decision, tiling_laid_tiles, winner_line
from azul_core.records.game_record import GameRecord, ResultRecord, RoundRecord, sealed_for
from azul_core.rules import Move
from azul_core.web.capabilities import matches
from azul_core.web.chat import log_entry as chat_log_entry
from azul_core.web.chat import record_chat
from azul_core.web.clocks import NOT_ARRIVED
from azul_core.web.end_screen import final_sources
from azul_core.web.patches import diff
from azul_core.web.rematch_first import opening_seat, rematch_first_told
from azul_core.web.seat_state import SeatState
from azul_core.web.store import (
    ARRIVE,
    BOT,
    CHAT,
    DRAWN,
    LINK,
    MOVE,
    RECLAIM,
    REMATCH,
    STANDIN,
    START,
    Event,
    SeatRow,
    TableRow,
    TableStore,
    seat_bot_change,
)
from azul_core.web.store import DEAL as DEAL_EVENT
from azul_core.web.views import build_legal_json, build_view

log = logging.getLogger("azul.web")


class Refused(Exception):
    """A decision the table does not take; the message says why, in words."""


class Stale(Refused):
    """The store holds a later version than this copy of the table (another process moved)."""


def told_to_players(exc: PluginError) -> str:
    """A plugin's failure in the words a browser is given: which plugin failed, in which hook.
    Its whole message names the server's files (the plugin's path and line): the log has it."""
    if not exc.plugin:
        return "a plugin failed (the server's log says more)"
    hook = f" in {exc.hook}" if exc.hook else ""
    return f"plugin '{exc.plugin}' failed{hook} (the server's log says more)"


@dataclass
class Progress:
    """What the view tells beyond the state: the round so far and the last finished one."""

    placed: list[list[dict]]
    penalty_at_start: list[int]
    rounds_seen: int = 0
    last_round: dict | None = None
    last: dict | None = None
    #: the game log: every decision in words, each round's points, seats handed to bots
    #: (``game_log``); a new list for each version, as documents are never changed once made
    log: list = field(default_factory=list)
    score_at_start: list = field(default_factory=list)

    def copy(self) -> "Progress":
        return Progress([list(p) for p in self.placed], list(self.penalty_at_start),
                        self.rounds_seen, self.last_round, self.last, list(self.log), self.score_at_start)


@dataclass
class Table:
    """A table of one server: seats, game state, version, the clients looking at it."""

    row: TableRow
    offered: Any                      # catalog.Offered
    state: GameState
    rounds: list[RoundRecord]
    progress: Progress
    version: int
    clients: set = field(default_factory=set)
    #: seats whose clients are connected to other server processes (a shared store)
    present_elsewhere: set = field(default_factory=set)
    bots: dict = field(default_factory=dict)
    #: the bot task running for this table, if any
    bot_task: Any = None
    last_used: float = field(default_factory=time.monotonic)
    #: who plays each seat and why, the clock, the rematch (``web.seat_state``)
    seating: Any = None
    #: the server's clock (seconds since the epoch; tests give their own): events are stamped with it
    now: Any = time.time
    #: the hint being worked out for each seat (``web.hints.HintJob``), and the last hint given
    #: to each (version, message)
    hinting: dict = field(default_factory=dict)
    hinted: dict = field(default_factory=dict)
    #: when each seat's recent chat messages were taken (``web.chat``'s limit counts them)
    chat_times: dict = field(default_factory=dict)
    #: the version of the last event that was not a seat's arrival or a chat message: a decision
    #: chosen at any version since is still good (a friend opening their link, or saying hello,
    #: does not refuse your move)
    moved_at: int = 0
    _cache: dict = field(default_factory=dict)
    _boards_seen: dict = field(default_factory=dict)

    # ------------------------------------------------------------ building

    @classmethod
    def new(cls, row: TableRow, offered, first: tuple[Event, ...] = (), now=time.time) -> tuple["Table", list[Event]]:
        """A new table and its first events (``first``, e.g. its clock; round 1's deal, and
        whatever follows by itself)."""
        state = _opening_state(row, offered)
        table = cls(row, offered, state, [], fresh_progress(state), 0, seating=SeatState(row.seats), now=now)
        events: list[Event] = list(first)
        for event in events:  # logged as a replay logs them (a rematch's seats handed to bots)
            _note_seat_event(table.progress, state, event, row.seats)
        table._follow_up(state, table.progress, events)
        _stamp(events, now())
        table._commit_events(state, table.progress, events)
        table._tell_seating(events)
        return table, events

    @classmethod
    def replay(cls, row: TableRow, events: list[Event], offered) -> "Table":
        """A stored table, its events applied again through the engine."""
        state = _opening_state(row, offered)
        # The secrets are dealt with round 1's generator, before its factories (as
        # ``GameState.deal`` does live): dealt again from the seed, they are the same.
        state.deal_secrets(_round_rng(row.seed, 1))
        table = cls(row, offered, state, [], fresh_progress(state), 0, seating=SeatState(row.seats))
        progress = table.progress
        for event in events:
            _apply_event(state, progress, event, row.seats)
            table.seating.after(event, state)
        table._commit_events(state, progress, events)
        return table

    # ------------------------------------------------------------ reading

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def over(self) -> bool:
        return self.state.phase == OVER

    def seat_of(self, secret: str | None) -> tuple[bool, int | None]:
        """(known, seat): a seat's secret gives its seat, the watch or admin secret None."""
        found = None
        # Every digest is compared, so the time taken does not tell which seat matched.
        for seat in self.seats:
            if matches(secret, seat.secret_hash):
                found = seat.seat
        if found is not None:
            return True, found
        if matches(secret, self.row.watch_hash) or matches(secret, self.row.admin_hash):
            return True, None
        return False, None

    def is_admin(self, secret: str | None) -> bool:
        return matches(secret, self.row.admin_hash)

    def connected(self) -> list[bool]:
        present = [seat in self.present_elsewhere for seat in range(len(self.seats))]
        for client in self.clients:
            if client.seat is not None:
                present[client.seat] = True
        return present

    def clients_of(self, seat: int) -> int:
        return sum(1 for client in self.clients if client.seat == seat)

    def bot_to_move(self) -> int | None:
        if self.over:
            return None
        seat = self.state.to_move
        return seat if self.seats[seat].bot else None

    def forget_cache(self) -> None:
        self._cache.clear()

    def seen_by(self, seat: int | None) -> GameState:
        """The game as the client or bot at ``seat`` (None: a watcher) may know it: without the
        other seats' secrets until the game is over. Everything sent to a client and every
        bot's state is made from this; it is the table's state itself when nothing is secret."""
        return self.state.for_seat(seat)

    def _secret_key(self, seat: int | None) -> int | None | str:
        """What a cached answer for ``seat`` depends on: the seat while there are secrets to
        hide, else nothing (one answer for every client)."""
        return seat if (self.state.secrets or self.state.sealed) and not self.over else "all"

    def view(self, seat: int | None) -> dict:
        """What the client at ``seat`` (None: watching) sees: the game as that seat may know it
        (``seen_by``). Never changed once made: the clients' last documents are kept to diff the
        next ones against."""
        key = ("view", self._secret_key(seat))
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = build_view(
                self.seen_by(seat), self.offered, self.seats, self.connected(), self.progress.last_round,
                self.offered.key, self._boards_seen, seat)
            if self.row.hints:
                cached["hints"] = True  # the seat to move may ask for a hint (web.hints)
            if cached["final"] is not None:
                cached["final"]["sources"] = self.score_sources()
                cached["final"]["rematch_first"] = rematch_first_told(self.row, self.offered.variant.rules)
            if not self.row.chat:
                cached["chat"] = False  # the seats may not chat (web.chat); on where absent
        return cached

    def score_sources(self) -> list | None:
        """Each seat's points by source once the game is over (``web.end_screen``): the same
        for every client, as nothing is hidden then."""
        if "score_sources" not in self._cache:
            self._cache["score_sources"] = final_sources(self.record(), self.offered.variant.rules)
        return self._cache["score_sources"]

    def document(self, seat: int | None, with_record: bool, with_log: bool) -> dict:
        """Everything a client is told that ``update`` messages diff: its view, the last
        move, the record and the game log if it asked for them."""
        view = self.view(seat)
        # Seats that see the same view share one document, so their updates are one diff.
        key = ("document", id(view), with_record, with_log)
        cached = self._cache.get(key)
        if cached is None:
            cached = {"view": view, "last": self.progress.last}
            if with_log:
                cached["log"] = self.progress.log
            if with_record:
                cached["record"] = self._record_dict(seat)
            self._cache[key] = cached
        return cached

    def _record_dict(self, seat: int | None) -> dict:
        """The record as ``seat`` may see it (the other seats' secrets sealed until the end)."""
        key = ("record", self._secret_key(seat))
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self.record(seat).to_dict()
        return cached

    def legal_json(self) -> str:
        """The decisions of the seat to move (sent to that seat only), as JSON."""
        cached = self._cache.get("legal")
        if cached is None:
            cached = self._cache["legal"] = build_legal_json(self.seen_by(self.state.to_move))
        return cached

    def _legal_for(self, seat: int | None) -> str:
        mover = not self.over and seat is not None and seat == self.state.to_move \
            and not self.seats[seat].bot
        return self.legal_json() if mover else "null"

    def state_message(self, seat: int | None, with_record: bool, with_log: bool) -> str:
        """The ``state`` message for a client sitting at ``seat`` (None: watching): all of it."""
        document = self.document(seat, with_record, with_log)
        key = ("json", id(document))
        text = self._cache.get(key)
        if text is None:
            text = self._cache[key] = _dumps(document)
        return (f'{{"type":"state","version":{self.version},"you":{"null" if seat is None else seat},'
                f'"legal":{self._legal_for(seat)},{text[1:]}')

    def update_message(self, seat: int | None, with_record: bool, base: int, seen: dict, diffs: dict,
                       with_log: bool) -> str:
        """The ``update`` message for a client at ``seat`` that was told ``seen`` at version
        ``base``: what changed since (the legal moves whole: they change with every move).
        ``diffs`` keeps the diffs made for one broadcast (clients told the same share one)."""
        document = self.document(seat, with_record, with_log)
        key = (id(seen), id(document))
        changes = diffs.get(key)
        if changes is None:
            changes = diffs[key] = _dumps(diff(seen, document))
        return (f'{{"type":"update","version":{self.version},"base":{base},'
                f'"legal":{self._legal_for(seat)},"changes":{changes}}}')

    def record(self, seat: int | None = None) -> GameRecord:
        """The game so far as an ``azul-record/1`` record, as ``seat`` may see it: until the
        game is over, the secrets of the other seats (every seat's for None, a watcher) are
        sealed (``records.game_record.sealed_for``)."""
        state = self.state
        rounds = []
        for index, entry in enumerate(self.rounds):
            scores = list(state.round_scores[index]) if index < len(state.round_scores) else None
            rounds.append(RoundRecord(list(entry.factories), list(entry.actions), scores))
        result = ResultRecord(state.scores(), list(state.winners)) if self.over else None
        kinds = [seat.bot or "human" for seat in self.seats]
        extra: dict = {"player_kinds": kinds}
        chat = record_chat(self.progress.log)
        if chat:
            extra["chat"] = chat
        # The seed deals every round: told only when no round is left to deal.
        seed = self.row.seed if self.over else None
        first = opening_seat(self.row, self.offered.variant.rules)
        record = GameRecord(self.offered.key, [seat.name for seat in self.seats], rounds,
                            seed, result, None, extra, first,
                            secrets=dict(state.secrets), memory=dict(state.memory) or None)
        return sealed_for(record, seat, self.over, len(state.sealed))

    def sealed_choices(self, seat: int) -> tuple:
        """What ``record(seat)`` leaves out in a phase chosen at once, as ``web.bots.think``
        puts it back: the seats that have chosen, in order; ``seat``'s own choice (notation, or
        None); ``seat``. Nothing of another seat's choice but that it was made."""
        own = next((move.notation for chooser, move in self.state.sealed if chooser == seat), None)
        return tuple(chooser for chooser, _move in self.state.sealed), own, seat

    # ------------------------------------------------------------ deciding

    def decide(self, seat: int | None, version: Any, text: Any, store: TableStore, by_bot: bool = False) -> None:
        """Take a decision sent for ``seat`` at ``version``: judged, committed, applied.
        ``Refused`` (nothing changed) says why not."""
        state = self.state
        decision, after, progress = self._judge(seat, version, text, by_bot)
        rounds_before = self.progress.rounds_seen
        # Described from the state before it, once the engine has accepted it.
        description = describe(state, decision, [s.name for s in self.seats])
        events = [Event(MOVE, format_decision(decision, state.rules.colour_letters), seat)]
        _note_move(progress, after, seat, state.round, events[0].text, description, rounds_before,
                   [s.name for s in self.seats], _sealing(state, decision))
        self._follow_up(after, progress, events)
        _stamp(events, self.now())
        if not store.append(self.id, self.version, events, after.phase == OVER):
            raise Stale("the table has moved on: look again")
        self._commit_events(after, progress, events)
        self._tell_seating(events)

    def refusal(self, seat: int | None, version: Any, text: Any) -> str | None:
        """Why the decision ``text`` sent for ``seat`` at ``version`` would be refused, in the
        words ``decide`` would say it (None: it would be taken). Nothing changes: a page asks
        this to explain a click on a line or a wall space that can't take the tiles."""
        try:
            self._judge(seat, version, text)
        except Refused as exc:
            return str(exc)
        return None

    def _judge(self, seat: int | None, version: Any, text: Any, by_bot: bool = False) -> tuple:
        """A decision judged on a copy of the game: (decision, the game after it, the progress
        after it); ``Refused`` says why not."""
        state = self.state
        if not isinstance(text, str) or not text.strip() or len(text) > 40:
            raise Refused("send a move in record notation, e.g. 2R4, CK- or w1:3")
        if state.phase == OVER:
            raise Refused("the game is over")
        if seat is None:
            raise Refused("this link can watch but not move")
        if self.seats[seat].bot and not by_bot:
            raise Refused(f"your seat is played by the bot '{self.seats[seat].bot}' now")
        if by_bot and not self.seats[seat].bot:
            raise Refused("the seat's owner took it back")
        if isinstance(version, bool) or not isinstance(version, int):
            raise Refused("a move must say the version it was chosen at")
        if not self.moved_at <= version <= self.version:
            raise Refused(f"the table has moved on (version {self.version}, you sent {version}): "
                          "look again")
        mover = state.to_move
        if seat != mover:
            raise Refused(f"it is {self.seats[mover].name}'s turn, not yours")
        decision = _parse(state, text.strip())
        after = state.clone()
        progress = self.progress.copy()
        try:
            apply_decision(after, progress, decision)
        except IllegalDecision as exc:
            raise Refused(refusal_words(exc, state.rules.colour_names)) from None
        except PluginError as exc:
            log.warning("table %s: %s", self.id[:6], exc)
            raise Refused(f"a rule plugin failed on this move, so it is not taken: {told_to_players(exc)}") from None
        return decision, after, progress

    def hand_to_bot(self, seat: int, bot: str, store: TableStore) -> None:
        if self.over:
            raise Refused("the game is over")
        if self.seats[seat].bot:
            raise Refused(f"seat {seat} is played by the bot '{self.seats[seat].bot}' already")
        self.append_seat_events([Event(BOT, bot, seat)], store)

    def append_seat_events(self, events: list[Event], store: TableStore) -> None:
        """Commit events that change no game state (who plays a seat, a rematch), then follow
        them. ``Stale`` if another process moved first."""
        _stamp(events, self.now())
        if not store.append(self.id, self.version, events, self.over):
            raise Stale("the table has moved on: try again")
        for event in events:
            self._seat_rows_follow(event)
        progress = self.progress.copy()
        for event in events:
            _note_seat_event(progress, self.state, event, self.seats)
        self._commit_events(self.state, progress, events)
        self._tell_seating(events)

    def _seat_rows_follow(self, event: Event) -> None:
        """A seat event's change to who plays the seat, or to its link."""
        changes, bot = seat_bot_change(event)
        if changes:
            self.seats[event.seat].bot = bot
            self.bots.pop(event.seat, None)
        elif event.kind == LINK:
            self.seats[event.seat].secret_hash = event.text

    def _tell_seating(self, events: list[Event]) -> None:
        for event in events:
            self.seating.after(event, self.state)

    def follow(self, events: list[Event]) -> None:
        """Apply events that another process committed after this copy's version."""
        state = self.state.clone()
        progress = self.progress.copy()
        for event in events:
            _apply_event(state, progress, event, self.seats)
            self._seat_rows_follow(event)
            self.seating.after(event, state)
        self._commit_events(state, progress, events)

    def _follow_up(self, state: GameState, progress: Progress, events: list[Event]) -> None:
        """What the server does by itself after a decision: deal each new round; draw the
        tiles a rule draws from the bag; place a tile that has one legal column. Appended to
        ``events`` as it happens."""
        while True:
            if state.phase == DEAL:
                # Sorted first: the bag's order is not in the record, the seed alone deals.
                state.bag.sort()
                state.deal(_round_rng(self.row.seed, state.round))
                kind_letters = state.table.kind_letters  # a variant's extra tiles have letters too
                events.append(Event(DEAL_EVENT, " ".join(letters(c, kind_letters) for c in state.sources[1:])))
                start_round(state, progress)
            elif state.phase == DRAW:
                # Chance, as the deal: the server alone draws (no client may send a draw), every
                # waiting draw at once, from the table's seed, so a seed's table draws the same.
                state.bag.sort()
                rng = _draw_rng(self.row.seed, state.round, self._actions_in_round(events))
                drawn = state.sample_draw(rng.random)
                seat, round_number, rounds_before = state.to_move, state.round, progress.rounds_seen
                names = [s.name for s in self.seats]
                text = describe(state, drawn, names)
                apply_decision(state, progress, drawn)
                events.append(Event(DRAWN, drawn.notation, seat))
                _note_move(progress, state, seat, round_number, drawn.notation, text, rounds_before, names)
            elif state.phase == PLACE and len(state.placing[2]) == 1:
                decision = state.legal_decisions()[0]
                seat = state.to_move
                names = [s.name for s in self.seats]
                text = describe(state, decision, names)
                round_number, rounds_before = state.round, progress.rounds_seen
                apply_decision(state, progress, decision)
                events.append(Event(MOVE, format_decision(decision, state.rules.colour_letters), seat))
                _note_move(progress, state, seat, round_number, events[-1].text, text, rounds_before, names)
            else:
                return

    def _actions_in_round(self, events: list[Event]) -> int:
        """The actions of the round in play in the record, once ``events`` are committed."""
        actions = len(self.rounds[-1].actions) if self.rounds else 0
        for event in events:
            if event.kind == DEAL_EVENT:
                actions = 0
            elif event.kind in (MOVE, DRAWN):
                actions += 1
        return actions

    def _commit_events(self, state: GameState, progress: Progress, events: list[Event]) -> None:
        """Make ``state`` and ``progress`` the table's, with the rounds of ``events`` added."""
        for event in events:
            if event.kind == DEAL_EVENT:
                self.rounds.append(RoundRecord(event.text.split(" "), []))  # "" is one empty factory
            elif event.kind in (MOVE, DRAWN):
                self.rounds[-1].actions.append(event.text)
        self.state = state
        self.progress = progress
        for offset, event in enumerate(events, 1):
            if event.kind not in (ARRIVE, CHAT):
                self.moved_at = self.version + offset
        self.version += len(events)
        self._cache.clear()
        self.last_used = time.monotonic()
        # A hint for a version that has passed would never be shown: its search stops (queued
        # for a worker, it never runs), rather than hold up the other tables' bots. A chat
        # message is no move: the hint asked before it is still good.
        for job in list(self.hinting.values()):
            if job.version < self.moved_at and job.task is not None:
                job.task.cancel()


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _stamp(events: list[Event], at: float) -> None:
    """The time the events are committed at (turn clocks count from it)."""
    for event in events:
        event.at = at


# ---------------------------------------------------------------- events through the engine


def _round_rng(seed: str, round_number: int) -> random.Random:
    """The generator that deals a table's round (round 1's deals the secrets first)."""
    return random.Random(f"{seed}:round:{round_number}")


def _draw_rng(seed: str, round_number: int, action: int) -> random.Random:
    """The generator of the tiles a rule draws from the bag at action ``action`` of a round
    (as ``azul play`` seeds its draws)."""
    return random.Random(f"{seed}:round:{round_number}:draw:{action}")


def describe(state: GameState, decision: tuple | Move | Drawn, names: list[str], hide_sealed: bool = True) -> str:
    """What a decision does, in a sentence, from the state before it: the words of the last
    move and of the game log, which every seat and watcher reads. A plugin's move is told by
    the label its plugin declared (the plugins' words, shown as text), with its notation: the
    label it was offered with may be made from the mover's secret. A placement the server
    made itself (one legal space) says so. A choice made in secret is told by who made it
    only, unless not ``hide_sealed`` (a replay of a record, which holds revealed choices only)."""
    if isinstance(decision, Move) and hide_sealed and in_secret(state):
        return sealed_choice_words(names[state.to_move])  # what was chosen is told once all have chosen
    if isinstance(decision, Move):
        label = state.rules.plugin_hooks.by_notation[decision.notation].label  # every move offered is declared
        return f"{names[state.to_move]}: {label or 'plays'} ({decision.notation})"
    text = describe_decision(state, decision, names)
    if state.phase == PLACE and len(decision) == 2 and len(state.placing[2]) == 1:
        text += " (the only legal space)"
    return text


def _sealing(state: GameState, decision: tuple | Move) -> tuple | None:
    """Before ``decision``: if it is a choice made in secret (a phase chosen at once), the
    phase's choices with it ((seat, move) pairs), to be told once every seat has chosen."""
    if isinstance(decision, Move) and in_secret(state):
        return (*state.sealed, (state.to_move, decision))
    return None


def _note_move(progress: Progress, after: GameState, seat: int, round_number: int, move: str, text: str,
               rounds_before: int, names: list[str], sealing: tuple | None = None) -> None:
    """A decision taken: the last move, and the game log's entries for it (and for the round
    or the game it ended). A choice made in secret (``sealing``: the phase's choices so far)
    is logged without its notation, which every seat and watcher reads; the phase's choices
    are told together once every seat has chosen."""
    if sealing is not None:
        progress.last = {"seat": seat, "move": None, "text": text}
        progress.log.append({"round": round_number, "seat": seat, "move": None, "sealed": True, "text": text})
        if not after.sealed:  # the phase is over: its choices were carried out, and may be told
            told = revealed_words(after, sealing, names)
            progress.log.append({"round": round_number, "seat": None, "revealed": True, "text": told})
            progress.last = {"seat": seat, "move": None, "text": f"{text}. {told}"}
    elif move.startswith(DRAWN_MARK):
        # Told after the move that drew, which stays the last move: a page's "last move" says
        # both (a refill and what it brought); the log has a line for each draw.
        told = progress.last
        progress.last = {**told, "text": f"{told['text']}. {text}"} if told else {"seat": seat, "move": move,
                                                                                     "text": text}
        progress.log.append({"round": round_number, "seat": seat, "move": move, "drawn": True, "text": text})
    else:
        progress.last = {"seat": seat, "move": move, "text": text}
        progress.log.append({"round": round_number, "seat": seat, "move": move, "text": text})
    if progress.rounds_seen > rounds_before:
        scores = after.round_scores[-1]
        start = progress.score_at_start  # set when the round was dealt
        points = [score - start[seat] for seat, score in enumerate(scores)]
        progress.log.append({"round": progress.rounds_seen, "points": points, "scores": list(scores)})
    if after.phase == OVER:
        progress.log.append({"round": progress.rounds_seen, "end": True, "scores": after.scores(),
                             "text": winner_line(after, names)})


def _note_bot(progress: Progress, state: GameState, seat: int, bot: str, seats: list[SeatRow]) -> None:
    progress.log.append({"round": state.round, "seat": seat, "bot": bot, "event": BOT,
                         "text": f"{seats[seat].name}'s seat is played by the bot '{bot}' from now on"})


#: why a stand-in bot took a seat (a ``standin`` event's second word), in the log's words
STANDIN_WHY = {"clock": "{name}'s clock ran out", "away": "{name} left the table",
               NOT_ARRIVED: "{name} has not arrived yet"}


def _note_seat_event(progress: Progress, state: GameState, event: Event, seats: list[SeatRow]) -> None:
    """The game log's entry for an event about a seat (handed to a bot, taken by the stand-in,
    taken back, a rematch made), if the event is one. Names only: no table id, no secret."""
    seat = event.seat
    name = seats[seat].name if seat is not None and 0 <= seat < len(seats) else None
    if event.kind == BOT and name is not None:
        _note_bot(progress, state, seat, event.text, seats)
    elif event.kind == STANDIN and name is not None:
        bot, _, why = event.text.partition(" ")
        reason = STANDIN_WHY.get(why, "{name}'s clock ran out").format(name=name)
        progress.log.append({"round": state.round, "seat": seat, "bot": bot, "event": STANDIN,
                             "text": f"{reason}: the stand-in bot '{bot}' plays the seat until they take it back"})
    elif event.kind == RECLAIM and name is not None:
        progress.log.append({"round": state.round, "seat": seat, "event": RECLAIM,
                             "text": f"{name} takes the seat back from the bot"})
    elif event.kind == START:
        progress.log.append({"round": state.round, "seat": None, "event": START,
                             "text": "The creator started the game: every seat's clock runs, "
                                     "arrived or not"})
    elif event.kind == CHAT:
        said = chat_log_entry(state, event, seats, progress.log)
        if said is not None:
            progress.log.append(said)
    elif event.kind == REMATCH:
        who = f"{name} made" if name is not None else "The creator made"
        progress.log.append({"round": state.round, "seat": seat, "event": REMATCH,
                             "text": f"{who} a rematch: a new table with the same seats and variant"})


def _opening_state(row: TableRow, offered) -> GameState:
    """A table's game before its first deal: the seat its rematch chose starts round 1, else
    the variant's rules choose (``azul_first_player``) from the table's seed, so a restarted
    server chooses the same."""
    rules = offered.variant.rules
    return GameState(rules, len(row.seats), opening_seat(row, rules))


def fresh_progress(state: GameState) -> Progress:
    seats = state.num_players
    return Progress([[] for _ in range(seats)], [0] * seats)


def start_round(state: GameState, progress: Progress) -> None:
    progress.placed = [[] for _ in state.players]
    progress.penalty_at_start = [board.penalty_points for board in state.players]
    progress.score_at_start = [board.score for board in state.players]


def _counts(letters_laid: str, kind_letters: str) -> list[int]:
    """A factory's letters as counts of each kind (``table.kind_letters``: the colours', then
    the extra tiles')."""
    counts = [0] * len(kind_letters)
    for letter in letters_laid:
        counts[kind_letters.index(letter)] += 1
    return counts


def _apply_event(state: GameState, progress: Progress, event: Event, seats: list[SeatRow]) -> None:
    if event.kind == DEAL_EVENT:
        factories = event.text.split(" ")  # one factory each, "" for one left empty
        state.deal_tiles([_counts(f, state.table.kind_letters) for f in factories])
        start_round(state, progress)
    elif event.kind in (MOVE, DRAWN):
        # (a stored draw, ``~RRB``, is read as a record's: no client ever sends one)
        decision = parse_record_action(event.text, state.rules.colour_letters, state.table.kind_letters,
                                       state.rules.colour_names) if event.kind == DRAWN else \
            parse_decision(event.text, state.rules.colour_letters, state.rules.colour_names)
        mover = state.to_move
        names = [s.name for s in seats]
        text = describe(state, decision, names)
        round_number, rounds_before = state.round, progress.rounds_seen
        sealing = _sealing(state, decision)
        apply_decision(state, progress, decision)
        _note_move(progress, state, mover, round_number, event.text, text, rounds_before, names, sealing)
    else:
        # Events about seats change no game state (the seat rows and ``SeatState`` follow
        # them): the log tells the bot handed a seat, the stand-in, the reclaim, the rematch.
        _note_seat_event(progress, state, event, seats)


def apply_decision(state: GameState, progress: Progress, decision: tuple | Move | Drawn) -> None:
    """Apply a decision and note the wall tiles it placed, each with the points it scored, and
    the summary of a round it ended."""
    walls = [board.wall for board in state.players]  # read-only tuples: the state before
    phase, round_number = state.phase, state.round
    points = [board.placement_points for board in state.players]
    state.apply(decision)
    rules = state.rules
    tiled = tiling_laid_tiles(phase, round_number, points, state)
    for seat, board in enumerate(state.players):
        wall = walls[seat]
        if wall == board.wall or not tiled:
            continue
        # The engine tiles a seat's lines from the top: score them again in that order.
        for row in range(len(wall)):
            for column, colour in enumerate(board.wall[row]):
                if colour is not None and wall[row][column] is None:
                    wall = wall_with(wall, row, column, colour)
                    progress.placed[seat].append({"row": row, "column": column, "colour": rules.colour_names[colour],
                                                  "points": rules.placement_score(wall, row, column)})
    if len(state.round_scores) > progress.rounds_seen:
        progress.rounds_seen = len(state.round_scores)
        scores = state.round_scores[-1]
        progress.last_round = {"round": progress.rounds_seen, "seats": [
            {"placed": progress.placed[seat],
             "floor": board.penalty_points - progress.penalty_at_start[seat],
             "score": scores[seat]} for seat, board in enumerate(state.players)]}


def _parse(state: GameState, text: str) -> tuple | Move:
    if state.phase == PLACE and is_ascii_number(text):
        return (state.placing[1], int(text) - 1)
    if text.startswith(DRAWN_MARK):
        raise Refused("what a rule draws from the bag is drawn by the server at random, never "
                      "chosen: send your own move (a draft like 2R4, or a move on offer)")
    try:
        decision = parse_decision(text, state.rules.colour_letters, state.rules.colour_names)
    except NotationError as exc:
        raise Refused(str(exc)) from None
    if isinstance(decision, Move):
        return decision  # the engine says whether it is on offer now
    if state.phase == PLACE and len(decision) == 3:
        _seat, row, columns = state.placing
        colour = state.rules.colour_names[state.players[_seat].line_colour[row]]
        raise Refused(f"a wall column is asked for now: the {colour} "
                      f"tile of line {row + 1} goes to column "
                      f"{', '.join(str(c + 1) for c in columns)} (e.g. w{row + 1}:{columns[0] + 1})")
    if state.phase == DRAFT and len(decision) == 2:
        raise Refused("it is time to take tiles, not to place one on the wall: e.g. 2R4")
    return decision
