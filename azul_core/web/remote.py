"""``azul play --join SEAT_URL``: sit at an online table from the terminal.

The seat's link is opened over the table's WebSocket (the secret, from the
link's fragment, goes in the first message). The first state carries the
game record so far and each update what changed in it (a move, a new round);
the record is replayed here through the engine, so the board and the prompt
are the ones of a local game (``render.draw_game``, ``draw_legal``,
the same move notation). The server alone judges a move: a refused one is
shown with the server's reason.

The record the server sends a seat seals the other seats' secrets until the
game is over, so the replayed game holds this seat's secret only: it is shown
under the board, the others' at the end.
"""

from __future__ import annotations

import json
import time
from typing import Callable
from urllib.parse import urlsplit

from azul_core.colours import NAMES
from azul_core.engine.moves import plain
from azul_core.engine.notation import NotationError, is_ascii_number, parse_decision
from azul_core.engine.state import CHOOSE, DRAFT, PLACE
from azul_core.players.render import draw_game, draw_legal, draw_result, make_console
from azul_core.players.session import HELP_TEXT, QUIT_WORDS, SessionError
from azul_core.records.game_record import RecordError, ReplayError, record_from_data, record_variant, replay_state
from azul_core.rules import Move
from azul_core.safe_text import safe_line
from azul_core.web.patches import apply

#: How long a lost connection is tried again before giving up, in seconds.
RECONNECT_FOR = 60.0
#: A player's name from the server is cut to this many characters (the server's own limit is 32).
MAX_NAME_SHOWN = 40


def from_server(text: object, limit: int = 300) -> str:
    """Text a server sent, safe to print: the server may be hostile (a link from a stranger), so
    its names, move words and reasons are escaped and cut like any other input (``safe_line``).
    Rich never reads them as markup either: they are printed as ``Text``."""
    return safe_line("" if text is None else str(text), limit)


def parse_seat_url(url: str) -> tuple[str, str, str]:
    """(WebSocket URL, table id, secret) from a table link; ``SessionError`` if it is not one."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SessionError(f"--join: '{url}' is not a table link (http://HOST/t/TABLE#seat=SECRET)")
    path = parts.path.rstrip("/").split("/")
    if len(path) < 3 or path[-2] != "t" or not path[-1]:
        raise SessionError(f"--join: '{url}' is not a table link (its path is not /t/TABLE)")
    fields = dict(item.split("=", 1) for item in parts.fragment.split("&") if "=" in item)
    secret = fields.get("seat") or fields.get("watch")
    if not secret:
        raise SessionError("--join: the link has no '#seat=SECRET' part: copy the whole link, "
                           "with what follows '#'")
    prefix = "/".join(path[:-2])
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{prefix}/ws/{path[-1]}", path[-1], secret


class RemoteSession:
    """One seat of an online table, played at the terminal. ``run()`` returns the exit code."""

    def __init__(self, url: str, console=None, read: Callable[[str], str] | None = None,
                 connect=None, trust=None):
        self.ws_url, self.table, self.secret = parse_seat_url(url)
        self.console = console if console is not None else make_console(highlight=False)
        self.read = read if read is not None else input
        self.connect = connect if connect is not None else _connect
        #: the user's consent for a house rule's plugin files (``--variant FILE``, ``--trust``)
        self.trust = trust
        self.socket = None
        self.message: dict | None = None
        #: the state last received, to which updates apply (None: wait for a whole state)
        self.seen: dict | None = None
        self.state = None
        self.names: list[str] = []
        self.variant = None
        self.waiting_shown = -1

    # ------------------------------------------------------------ output

    def say(self, message: str, style: str | None = None) -> None:
        from rich.text import Text
        self.console.print(Text(message, style=style or ""), soft_wrap=True)

    # ------------------------------------------------------------ the connection

    def open(self, version: int | None) -> None:
        from websockets.exceptions import WebSocketException
        deadline = time.monotonic() + RECONNECT_FOR
        delay = 0.5
        while True:
            try:
                self.socket = self.connect(self.ws_url)
                self.socket.send(json.dumps({"type": "hello", "secret": self.secret,
                                             "version": version, "record": True, "changes": True}))
                self.seen = None
                return
            except (OSError, WebSocketException) as exc:
                if version is None or time.monotonic() > deadline:
                    raise SessionError(f"--join: can't reach the table at {self.ws_url}: "
                                       f"{getattr(exc, 'strerror', None) or exc}") from None
                time.sleep(delay)
                delay = min(delay * 2, 5)

    def receive(self) -> dict:
        """The next message, an update made a whole state; a lost connection is opened again
        (the server sends the current state on the hello)."""
        from websockets.exceptions import ConnectionClosed
        while True:
            try:
                message = json.loads(self.socket.recv())
                if not isinstance(message, dict):
                    continue
                if message.get("type") == "state":
                    self.seen = message
                elif message.get("type") == "update":
                    message = self._updated(message)
                    if message is None:
                        continue
                return message
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd is not None else None
                if code is not None and 4000 <= code < 4500:
                    reason = from_server(exc.rcvd.reason or "the server refused this link")
                    raise SessionError(f"--join: {reason}") from None
                self.say("Connection lost; trying again...", "yellow")
                self.open(self.message["version"] if self.message else None)

    def _updated(self, update: dict) -> dict | None:
        """The state an update leads to; None (and the whole state asked for) when it does not
        follow the state last received."""
        seen = self.seen
        if seen is None:
            return None  # the whole state is on its way
        document = {"view": seen.get("view"), "last": seen.get("last"), "record": seen.get("record")}
        try:
            if update.get("base") != seen.get("version"):
                raise ValueError("a version was missed")
            document = apply(document, update.get("changes"))
            if not isinstance(document, dict):
                raise ValueError("not a state")
        except (ValueError, TypeError):
            self.seen = None
            self.socket.send(json.dumps({"type": "sync"}))
            return None
        self.seen = {**document, "type": "state", "version": update.get("version"), "you": seen.get("you"),
                     "legal": update.get("legal")}
        return self.seen

    # ------------------------------------------------------------ the game

    def update(self, message: dict) -> None:
        """Take a state message: replay its record through the engine."""
        from azul_core.variants import VariantError
        self.message = message
        try:
            record = record_from_data(message["record"], "the table")
        except (RecordError, KeyError) as exc:
            raise SessionError(f"--join: the server sent a record this client can't read: {exc}") from None
        if self.variant is None:
            try:
                self.variant = record_variant(record, self.trust)
            except VariantError as exc:
                raise SessionError(
                    f"--join: the table plays '{record.variant}', a variant this machine can't "
                    f"use ({exc.problems[0]}); put its file in ./variants or in a folder of "
                    "$AZUL_VARIANTS_PATH and name it with --variant FILE") from None
        try:
            self.state = replay_state(record, self.variant)
        except ReplayError as exc:
            raise SessionError(f"--join: the table's record does not replay here: {exc}") from None
        self.names = [from_server(name, MAX_NAME_SHOWN) for name in record.players]

    def run(self) -> int:
        self.open(None)
        try:
            return self._loop()
        except (EOFError, KeyboardInterrupt, _Leave):
            self.say("")
            self.say("You left the table; open the same link again to come back.")
            return 0
        finally:
            try:
                self.socket.close()
            except Exception:
                pass

    def _loop(self) -> int:
        you = None
        drawn_version = -1
        while True:
            message = self.receive()
            kind = message.get("type")
            if kind == "error":
                raise SessionError(f"--join: {from_server(message.get('reason') or 'refused by the server')}")
            if kind == "refused":
                reason = from_server(message.get("reason") or "refused")
                self.say(f"{reason[:1].upper()}{reason[1:]}. Type ? for the legal moves.")
                if self.message is not None:
                    self._turn(you)
                continue
            if kind != "state":
                continue
            first = self.message is None
            self.update(message)
            you = message.get("you")
            if first:
                who = f"you sit at seat {you + 1} as {self.names[you]}" if you is not None else "you watch"
                self.say(f"{self.variant.name}: {', '.join(self.names)}; {who}.")
                if you is not None:
                    self.say("Type a move like 2R4 or '2 red 4', ? for the legal moves, help for help.")
            last = message.get("last")
            if isinstance(last, dict) and not first:
                self.say(from_server(last.get("text") or last.get("move")))
            if self.state.over:
                self._draw()
                self.console.print(draw_result(self.state, self.names))
                return 0
            if message.get("legal") is not None and you is not None:
                if message["version"] != drawn_version:
                    self._draw()
                    self._offer()
                    drawn_version = message["version"]
                self._turn(you)
            elif you is not None and self.state.to_move != you and self.waiting_shown != message["version"]:
                self.waiting_shown = message["version"]
                if first:
                    self._draw()
                self.say(f"Waiting for {self.names[self.state.to_move]}...", "dim")
            elif you is not None and message.get("legal") is None and self.state.to_move == you:
                self.say("Your seat is played by a bot now; you can watch.", "yellow")

    def _draw(self) -> None:
        """The board, then the plugins' secrets this seat knows: its own (the record it was
        sent seals the others'), everyone's once the game is over."""
        self.console.print(draw_game(self.state, self.names, self._last_text()))
        for plugin, values in self.state.secrets.items():
            known = [f"{self.names[seat]}: {plain(value)}" for seat, value in enumerate(values)
                     if value is not None]
            if known:
                self.say(f"Secret ({plugin}): {', '.join(known)}", "cyan")

    def _offer(self) -> None:
        """The house rule's moves this seat may take now, with their notation."""
        moves = [d for d in self.state.legal_decisions() if isinstance(d, Move)]
        if moves:
            what = "Choose one" if self.state.phase == CHOOSE else "Also on offer"
            self.say(f"{what}: " + "; ".join(f"{move.label or move.notation} (type {move.notation})"
                                            for move in moves), "bold")

    def _last_text(self) -> str | None:
        last = self.message.get("last") if self.message else None
        return from_server(last.get("text")) if isinstance(last, dict) and last.get("text") else None

    def _prompt(self, you: int) -> str:
        state = self.state
        if state.phase == PLACE:
            _seat, row, columns = state.placing
            colour = NAMES[state.players[you].line_colour[row]]
            options = ", ".join(str(c + 1) for c in columns)
            return f"{self.names[you]}: wall column for the {colour} tile of line {row + 1} ({options})> "
        if state.phase == CHOOSE:
            return f"choose ({', '.join(move.notation for move in state.choices)})> "
        return "your move> "

    def _turn(self, you: int) -> None:
        """Read lines until one is a move to send (the server's answer comes as a message)."""
        while True:
            line = self.read(self._prompt(you)).strip()
            word = line.lower()
            if not line:
                continue
            if word in QUIT_WORDS:
                raise _Leave
            if word in ("?", "moves", "list"):
                self.console.print(draw_legal(self.state))
                continue
            if word in ("help", "h"):
                self.say(HELP_TEXT.split("Commands:")[0].rstrip())
                self.say("Commands: ? (the legal moves), board, help, quit (leave; the link "
                         "brings you back).")
                continue
            if word == "board":
                self._draw()
                continue
            if not self._looks_sendable(line, you):
                continue
            self.socket.send(json.dumps({"type": "move", "version": self.message["version"], "move": line}))
            return

    def _looks_sendable(self, line: str, you: int) -> bool:
        """Say at once what the notation gets wrong; warn of a draft that falls to the floor.
        The server still judges the move."""
        state = self.state
        if state.phase == PLACE and is_ascii_number(line):
            return True
        try:
            decision = parse_decision(line)
        except NotationError as exc:
            self.say(f"{exc}; ? lists the legal moves, help explains.")
            return False
        if isinstance(decision, Move):
            return True  # a house rule's move: whether it is on offer, the server says
        if state.phase == CHOOSE:
            self.say("Choose one of the moves on offer first: "
                     f"{', '.join(move.notation for move in state.choices)}.")
            return False
        if state.phase == PLACE and len(decision) == 3:
            self.say(f"A wall column is asked for now: type its number, e.g. {state.placing[2][0] + 1}.")
            return False
        if state.phase == DRAFT and len(decision) == 2:
            self.say("It is time to take tiles, not to place one on the wall: type a draft like 2R4.")
            return False
        if state.phase == DRAFT and state.is_misplaced(decision) and state.rules.misplaced_to_floor:
            _source, colour, row = decision
            self.say(f"Careful: {state.why_not(you, colour, row)}, so all the {NAMES[colour]} "
                     "tiles fall to the floor.", "bold yellow")
        return True


class _Leave(Exception):
    """The player typed quit."""


def _connect(url: str):
    from websockets.sync.client import connect
    host = urlsplit(url).hostname or ""
    loopback = host in ("localhost", "127.0.0.1", "::1")
    # Entered at once: the session closes it itself, and opens a new one after a network loss.
    return connect(url, proxy=None if loopback else True, max_size=4 * 1024 * 1024,
                   open_timeout=10).__enter__()


__all__ = ["RemoteSession", "parse_seat_url"]
