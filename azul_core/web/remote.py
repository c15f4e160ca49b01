"""``azul play --join SEAT_URL``: sit at an online table from the terminal.

The seat's link is opened over the table's WebSocket (the secret, from the
link's fragment, goes in the first message). The first state carries the
game record so far and each update what changed in it (a move, a new round);
the record is replayed here through the engine, so the board and the prompt
are the ones of a local game (``render.draw_game``, ``draw_legal``,
the same move notation). The server alone judges a move: a refused one is
shown with the server's reason.

The player's lines are read as they are typed (``TypedLines``), also while
the others play: ``quit``, ``help`` and ``?`` answer at once, and anything
else typed out of turn is said to be discarded, never sent later as a move.

The record the server sends a seat seals the other seats' secrets until the
game is over, so the replayed game holds this seat's secret only: it is shown
under the board, the others' at the end.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from azul_core.engine.notation import NotationError, is_ascii_number, parse_decision
from azul_core.engine.state import CHOOSE, DRAFT, PLACE, IllegalDecision
from azul_core.players.move_words import match_move
from azul_core.players.phase_words import in_secret, with_sealed_choices
from azul_core.players.refusal_words import line_refusal_words
from azul_core.players.render import (
    draw_game,
    draw_legal,
    draw_result,
    draw_round_summary,
    make_console,
    new_placements,
)
from azul_core.players.session import HELP_TEXT, QUIT_WORDS, SessionError
from azul_core.records.game_record import RecordError, ReplayError, iter_replay, record_from_data, record_variant
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


#: seconds between two looks at what the player typed while waiting for the server
POLL_TYPED = 0.2
_END = object()  # Ctrl-D: the terminal has no more lines


class TypedLines:
    """The lines the player types, as they come: a thread reads the terminal
    (``from_terminal``), so a line typed while the others play is seen at once, answered,
    and never mistaken for a move typed at the player's own turn."""

    def __init__(self):
        self.lines: queue.Queue = queue.Queue()

    @classmethod
    def from_terminal(cls, reader: Callable[[str], str] = input) -> "TypedLines":
        typed = cls()

        def read_all() -> None:
            while True:
                try:
                    line = reader("")
                except (EOFError, OSError, ValueError):
                    typed.end()
                    return
                typed.put(line)

        threading.Thread(target=read_all, name="azul-typed-lines", daemon=True).start()
        return typed

    def put(self, line: str) -> None:
        self.lines.put(line)

    def end(self) -> None:
        self.lines.put(_END)

    def get(self, timeout: float | None = None) -> str | None:
        """The next line (None after ``timeout`` seconds without one); ``EOFError`` at the end."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is _END:
            self.lines.put(_END)  # the end stays the end
            raise EOFError
        return line

    def drain(self) -> list[str]:
        """The lines typed so far and not yet taken; ``EOFError`` if the end came first."""
        lines: list[str] = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return lines
            if line is _END:
                self.lines.put(_END)
                if not lines:
                    raise EOFError
                return lines
            lines.append(line)


class RemoteSession:
    """One seat of an online table, played at the terminal. ``run()`` returns the exit code."""

    def __init__(self, url: str, console=None, read: Callable[[str], str] | None = None,
                 connect=None, trust=None, typed: TypedLines | None = None, variant_file: Path | None = None):
        self.ws_url, self.table, self.secret = parse_seat_url(url)
        self.console = console if console is not None else make_console(highlight=False)
        #: the lines typed out of turn (None: only ``read`` at the player's turn, as a script does)
        self.typed = typed
        if read is None and typed is None:
            if _interactive():
                self.typed = TypedLines.from_terminal(_terminal_input())
            else:  # lines piped in are read one at each prompt, as they always were
                read = input
        self.read = read if read is not None else self._read_typed
        self.connect = connect if connect is not None else _connect
        #: the user's consent for a house rule's plugin files (``--variant FILE``, ``--trust``)
        self.trust = trust
        #: the house rule's variant file the user named (``--variant FILE``): the table's
        #: variant, if it is the one the table names
        self.variant_file = variant_file
        self.socket = None
        self.message: dict | None = None
        #: the state last received, to which updates apply (None: wait for a whole state)
        self.seen: dict | None = None
        self.state = None
        self.names: list[str] = []
        self.variant = None
        self.waiting_shown = -1
        #: how many entries of the table's game log were told (None: none seen yet)
        self.log_told: int | None = None
        #: the rounds whose scoring was told (those finished when the player sat down are not)
        self.rounds_told: int | None = None
        #: round number -> (the state after its deal, the state after its last action, the wall
        #: tiles its actions placed: ``new_placements``)
        self.round_states: dict[int, tuple] = {}

    # ------------------------------------------------------------ output

    def say(self, message: str, style: str | None = None) -> None:
        from rich.text import Text
        self.console.print(Text(message, style=style or ""), soft_wrap=True)

    def _read_typed(self, prompt: str) -> str:
        """``read`` at a real terminal: the prompt, then the next line the reader thread took."""
        self.console.file.write(prompt)
        self.console.file.flush()
        line = self.typed.get()
        assert line is not None  # no timeout: a line or EOFError
        return line

    # ------------------------------------------------------------ the connection

    def open(self, version: int | None) -> None:
        from websockets.exceptions import WebSocketException
        deadline = time.monotonic() + RECONNECT_FOR
        delay = 0.5
        while True:
            try:
                self.socket = self.connect(self.ws_url)
                self.socket.send(json.dumps({"type": "hello", "secret": self.secret, "version": version,
                                             "record": True, "changes": True, "log": True}))
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
                if self.typed is None:
                    text = self.socket.recv()
                else:
                    try:
                        text = self.socket.recv(timeout=POLL_TYPED)
                    except TimeoutError:
                        for line in self.typed.drain():
                            self._out_of_turn(line)
                        continue
                message = json.loads(text)
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
        if self.variant is None and self.variant_file is not None:
            self.variant = named_variant(self.variant_file, record.variant)
        if self.variant is None:
            try:
                self.variant = record_variant(record, self.trust)
            except VariantError as exc:
                raise SessionError(
                    f"--join: the table plays '{record.variant}', a variant this machine can't "
                    f"use ({exc.problems[0]}); name its file with --variant FILE") from None
        rounds: dict[int, tuple] = {}
        state = None
        try:
            for step in iter_replay(record, self.variant):
                before, state = state, step.state
                first, _last, placed = rounds.get(step.round, (state, None, []))
                if step.action:
                    # Action by action: a tile a plugin's move put on a wall is not one the
                    # tiling laid (new_placements tells them apart only a decision apart).
                    placed = placed + new_placements(before, state)
                rounds[step.round] = (first, state, placed)
        except ReplayError as exc:
            raise SessionError(f"--join: the table's record does not replay here: {exc}") from None
        if state is None:
            raise SessionError("--join: the table's record has no round yet")
        self.state = self._with_sealed_choices(state, message)
        self.names = [from_server(name, MAX_NAME_SHOWN) for name in record.players]
        told = len(state.round_scores) if self.rounds_told is None else self.rounds_told
        self.round_states = {number: states for number, states in rounds.items() if number > told}
        if self.rounds_told is None:
            self.rounds_told = told

    @staticmethod
    def _with_sealed_choices(state, message: dict):
        """In a phase chosen at once the record sent ends before the choices made so far (no
        seat may read them): the view says who has chosen, and this seat's own choice."""
        stage = (message.get("view") or {}).get("stage")
        if not isinstance(stage, dict) or not stage.get("chosen"):
            return state
        yours = stage.get("yours")
        try:
            own = parse_decision(yours["move"], state.rules.colour_letters, state.rules.colour_names) \
                if isinstance(yours, dict) else None
            chosen = [int(seat) for seat in stage["chosen"]]
            return with_sealed_choices(state, chosen, own if isinstance(own, Move) else None, message.get("you"))
        except (NotationError, IllegalDecision, KeyError, TypeError, ValueError) as exc:
            raise SessionError(f"--join: the table's choices made in secret don't follow its record: {exc}") from None

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
            self._tell_log(message, first)
            self._tell_rounds()
            if self.state.over:
                self._draw()
                self.console.print(draw_result(self.state, self.names))
                return 0
            if message.get("legal") is not None and you is not None:
                if message["version"] != drawn_version:
                    self._draw()  # with the house rule's moves on offer, as azul play lists them
                    drawn_version = message["version"]
                self._turn(you)
            elif you is not None and self.state.to_move != you and self.waiting_shown != message["version"]:
                self.waiting_shown = message["version"]
                if first:
                    self._draw()
                if in_secret(self.state):  # who has chosen, and this seat's own choice: the board says
                    self.say("Waiting for the others to choose, in secret...", "dim")
                else:
                    self.say(f"Waiting for {self.names[self.state.to_move]}...", "dim")
            elif you is not None and message.get("legal") is None and self.state.to_move == you:
                self.say("Your seat is played by a bot now; you can watch.", "yellow")

    def _tell_log(self, message: dict, first: bool) -> None:
        """What happened since the last state, in the words of the page's game log: each move
        (a house rule's by its label), a choice made in secret and its reveal, a seat handed to
        a bot, taken by the stand-in or taken back, the game started by its creator, a player's
        message to the table ("Ann: good luck"). The log
        before the player sat down is not told again; each round's points and the game's end
        are told by the round's account and the final scores."""
        log = message.get("log")
        if not isinstance(log, list):  # a server without the game log: its last move only
            last = message.get("last")
            if isinstance(last, dict) and not first:
                self.say(from_server(last.get("text") or last.get("move")))
            return
        if first or self.log_told is None or len(log) < self.log_told:
            self.log_told = len(log)
            return
        for entry in log[self.log_told:]:
            if not isinstance(entry, dict) or not isinstance(entry.get("text"), str) or \
                    "points" in entry or entry.get("end"):
                continue
            if entry.get("chat") is True:  # a player's message to the table, as the page shows it
                self.say(f"{from_server(entry.get('name'), 40)}: {from_server(entry['text'])}", "cyan")
                continue
            self.say(from_server(entry["text"]), "dim" if entry.get("event") else None)
        self.log_told = len(log)

    def _draw(self) -> None:
        """The board, then the plugins' secrets this seat knows (its own: the record it was
        sent seals the others'; everyone's once the game is over) and their memory, in the
        plugins' words as this seat reads them."""
        self.console.print(draw_game(self.state, self.names, self._last_text(), reader=(self.message or {}).get("you")))

    def _last_text(self) -> str | None:
        last = self.message.get("last") if self.message else None
        return from_server(last.get("text")) if isinstance(last, dict) and last.get("text") else None

    def _prompt(self, you: int) -> str:
        state = self.state
        if state.phase == PLACE:
            _seat, row, columns = state.placing
            colour = state.rules.colour_names[state.players[you].line_colour[row]]
            options = ", ".join(str(c + 1) for c in columns)
            return f"{self.names[you]}: wall column for the {colour} tile of line {row + 1} ({options})> "
        if state.phase == CHOOSE:
            return f"choose ({', '.join(move.notation for move in state.choices)})> "
        return "your move> "

    def _tell_rounds(self) -> None:
        """Each round finished since the last message, told as ``azul play`` tells it: every
        tile placed and its points, the floor, the score before and after."""
        finished = len(self.state.round_scores)
        while self.rounds_told is not None and self.rounds_told < finished:
            self.rounds_told += 1
            states = self.round_states.get(self.rounds_told)
            if states is None:
                continue  # missed (a reconnection after the round): nothing to tell it from
            start, end, placed = states
            terminal = self.console.is_terminal
            self.console.print(draw_round_summary(
                self.rounds_told, placed,
                [(board.score, board.penalty_points) for board in start.players], end, self.names,
                wrap=terminal), soft_wrap=not terminal)

    def _out_of_turn(self, line: str, ahead: bool = False) -> None:
        """A line typed while it is not the player's turn (``ahead``: typed before the turn's
        prompt, read after): the commands answer, a move is discarded (said so), so it is
        never sent later as a move the player no longer means."""
        line = line.strip()
        word = line.lower()
        if not line:
            return
        if word in QUIT_WORDS:
            raise _Leave
        mover = None
        if self.state is not None and not self.state.over:
            mover = self.names[self.state.to_move]
        waiting = f"{mover} is to move" if mover else "the table is not waiting for you"
        if word in ("?", "moves", "list") or word.startswith("? "):
            self.say(f"Not your turn: {waiting}. ? lists your legal moves when it is yours.")
        elif word in ("help", "h"):
            self.say(HELP_TEXT.split("Commands:")[0].rstrip())
            self.say("Commands: ? (the legal moves, at your turn), board, help, quit (leave; the "
                     f"link brings you back). Now {waiting}: what you type is not sent until your "
                     "turn's prompt.")
        elif word == "board" and self.state is not None:
            self._draw()
        elif ahead:
            self.say(f"'{safe_line(line, 40)}' was typed before your turn: discarded, not sent. "
                     "Type your move now.", "yellow")
        else:
            self.say(f"Not your turn ({waiting}): '{safe_line(line, 40)}' was discarded, not sent. "
                     "Type your move at your prompt.", "yellow")

    def _turn(self, you: int) -> None:
        """Read lines until one is a move to send (the server's answer comes as a message).
        Lines typed before the prompt was shown are never sent as moves (typed-ahead): the
        commands among them answer now, the rest is discarded, and said so."""
        if self.typed is not None:
            for line in self.typed.drain():
                if not self._command(line.strip()):
                    self._out_of_turn(line, ahead=True)
        while True:
            line = self.read(self._prompt(you)).strip()
            if not line or self._command(line):
                continue
            line = self._choice_named(line)
            if not self._looks_sendable(line, you):
                continue
            self.socket.send(json.dumps({"type": "move", "version": self.message["version"], "move": line}))
            return

    def _choice_named(self, line: str) -> str:
        """Where the only choices are the plugins' moves (a phase, or after a draft): a choice
        typed as its number in the list or by words of its label, as ``azul play`` takes it, in
        notation; any other line as typed (the server judges it)."""
        state = self.state
        if state.phase != CHOOSE or line.startswith("+"):
            return line
        choices = list(state.choices)
        if is_ascii_number(line) and len(line) < 4:
            return choices[int(line) - 1].notation if 1 <= int(line) <= len(choices) else line
        try:
            move = match_move(line, state)
        except NotationError:
            return line
        return move.notation if move is not None else line

    def _command(self, line: str) -> bool:
        """At the player's turn: a command (not a move) answered; False for anything else."""
        word = line.lower()
        if word in QUIT_WORDS:
            raise _Leave
        if word in ("?", "moves", "list"):
            self.console.print(draw_legal(self.state))
        elif word in ("help", "h"):
            self.say(HELP_TEXT.split("Commands:")[0].rstrip())
            self.say("Commands: ? (the legal moves), board, help, quit (leave; the link "
                     "brings you back).")
        elif word == "board":
            self._draw()
        else:
            return False
        return True

    def _looks_sendable(self, line: str, you: int) -> bool:
        """Say at once what the notation gets wrong; warn of a draft that falls to the floor.
        The server still judges the move."""
        state = self.state
        if state.phase == PLACE and is_ascii_number(line):
            return True
        try:
            decision = parse_decision(line, state.rules.colour_letters, state.rules.colour_names)
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
            why = line_refusal_words(state, you, colour, row, clause=True)
            self.say(f"Careful: {why}, so all the {state.rules.colour_names[colour]} tiles fall to the floor.",
                     "bold yellow")
        return True


def named_variant(path: Path, table_variant: str):
    """The variant of the file the user named (``--variant FILE``: its plugins may run), if it
    is the table's: the server names a house rule by its file's name without the suffix, and
    the file's own ``name`` is taken too (a renamed copy). ``SessionError`` says which it is not."""
    from azul_core.variants import VariantError, load_variant
    try:
        variant = load_variant(path)
    except VariantError as exc:
        raise SessionError(f"--join: --variant {path}: {exc.problems[0]}") from None
    except Exception as exc:  # a plugin file's own failure: still one line
        reason = (str(exc).splitlines() or [""])[0][:200]
        raise SessionError(f"--join: --variant {path} can't be loaded: {type(exc).__name__}: {reason}") from None
    if table_variant not in (path.stem, variant.name):
        raise SessionError(f"--join: the table plays '{table_variant}', and {path.name} is the variant "
                           f"'{variant.name}': name the file of '{table_variant}' with --variant")
    return variant


def _interactive() -> bool:
    import sys
    return sys.stdin is not None and sys.stdin.isatty()


def _terminal_input() -> Callable[[str], str]:
    """``input``, with line editing where the terminal has it (as ``azul play``)."""
    import sys
    if sys.stdin is not None and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    return input


class _Leave(Exception):
    """The player typed quit."""


def _connect(url: str):
    from websockets.sync.client import connect
    host = urlsplit(url).hostname or ""
    loopback = host in ("localhost", "127.0.0.1", "::1")
    # Entered at once: the session closes it itself, and opens a new one after a network loss.
    return connect(url, proxy=None if loopback else True, max_size=4 * 1024 * 1024,
                   open_timeout=10).__enter__()


__all__ = ["RemoteSession", "TypedLines", "parse_seat_url"]
