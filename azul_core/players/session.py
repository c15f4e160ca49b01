"""A game played at the terminal: seats for people and bots, the prompt, undo, saving, resuming.

``azul play`` builds a ``GameSession`` and runs it. The session keeps the
game as a record (``azul_core.records.game_record.Recorder``) and saves it after every
decision, so a game left by Ctrl-D, Ctrl-C or ``quit`` (or stopped by a
broken plugin) can be resumed exactly where it stopped: the record holds
every deal, and the deal of round ``n`` is drawn from
``random.Random(f"{seed}:round:{n}")``, so the rounds not dealt yet come out
the same as if the game had never stopped.
"""

from __future__ import annotations

import os
import random
import shlex
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from azul_core.engine.notation import NotationError, is_ascii_number, parse_decision, parse_record_action
from azul_core.engine.plugins import PluginError
from azul_core.engine.state import CHOOSE, DEAL, DRAFT, DRAW, PLACE, Decision, GameState, IllegalDecision
from azul_core.players.move_words import match_move, move_text
from azul_core.players.phase_words import in_secret, revealed_words, sealed_choice_words
from azul_core.players.refusal_words import line_refusal_words, refusal_words
from azul_core.players.registry import HUMAN, BotError, ask_bot, available_bots, broken_bots, build_bot
from azul_core.players.render import (
    LegalFilterError,
    describe_decision,
    draw_game,
    draw_legal,
    draw_result,
    draw_round_summary,
    legal_filter,
    make_console,
    new_placements,
)
from azul_core.records.game_record import (
    GameRecord,
    Recorder,
    RecordError,
    ReplayError,
    read_record,
    record_variant,
    replay_state,
)
from azul_core.rules import Move

#: The exit code of invalid input (``azul_core.cli.common.INVALID``).
INVALID = 1

#: The record field (beside the spec's) that says which seats are people and which bots.
KINDS_FIELD = "player_kinds"

#: How a move is typed: the part of the help that holds wherever a move is typed (the online
#: table's move box answers ``help`` with it too, ``web.asking``).
MOVES_HELP = """\
Type a move in record notation or in words, then Enter:
  2R4               all red tiles of factory 2 onto pattern line 4
  CK-               all black tiles of the centre onto the floor
  2 red 4           the same as 2R4;  'centre black floor' the same as CK-
  w1:3 (or just 3)  when asked: the tile of pattern line 1 goes to wall column 3
  +pass             a move a house rule adds (listed under the board when on offer);
                    its name alone ('pass') or words of its label do when they name
                    one move; when asked to choose after a draft, the number will do
Tiles that don't fit on the line fall to the floor; the first to take from the
centre also takes the start marker (shown as 1). On the wall an upper-case
letter is a tile, a lower-case one the colour printed on an empty space, '.' an
empty space. Under the floor: what each space costs."""

COMMANDS_HELP = """\
Commands:
  ?        list the legal moves and what each does; '? 3' only factory 3,
           '? C' only the centre, '? red' only red tiles
  board    draw the board again
  undo     take back your last move (when you are the only person playing)
  help     this text
  quit     save and leave (Ctrl-D and Ctrl-C too); resume with --resume FILE"""

HELP_TEXT = MOVES_HELP + "\n" + COMMANDS_HELP


def help_text(rules, commands: str = COMMANDS_HELP) -> str:
    """The help text: how to type a move, the ``commands`` of where it is typed, and the moves
    this variant's rules add."""
    text = MOVES_HELP + "\n" + commands
    declared = rules.plugin_hooks.moves
    if not declared:
        return text
    shown = [f"  {move.notation:<16}  {move.label}".rstrip() for move in declared[:12]]
    if len(declared) > 12:
        shown.append(f"  ... and {len(declared) - 12} more")
    return text + "\nThe moves this variant's rules add (when on offer):\n" + "\n".join(shown)

QUIT_WORDS = ("quit", "exit", "q")


class SessionError(Exception):
    """A game that can't start: one or more one-line reasons and the exit code."""

    def __init__(self, lines: str | Sequence[str], code: int = INVALID):
        self.lines = [lines] if isinstance(lines, str) else list(lines)
        super().__init__("; ".join(self.lines))
        self.code = code


class _Quit(Exception):
    """The player asked to leave."""


def data_folder() -> Path:
    """Where games are saved by default: ``$XDG_DATA_HOME/azul`` or ``~/.local/share/azul``."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "azul"


def default_record_path(variant_name: str) -> Path:
    folder = data_folder()
    stem = f"{variant_name}-{time.strftime('%Y%m%d-%H%M%S')}"
    path = folder / f"{stem}.json"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.json"
        number += 1
    return path


def parse_kinds(text: str, rules) -> list[str]:
    """One kind per seat from ``human,greedy``: ``human`` or a known bot's name."""
    kinds = [part.strip().lower() for part in text.split(",")]
    if any(not kind for kind in kinds):
        raise SessionError(f"--players '{text}': name one kind per seat, e.g. human,greedy")
    known = available_bots(rules)
    for kind in kinds:
        if kind != HUMAN and kind not in known:
            broken = broken_bots()
            if kind in broken:
                raise SessionError(f"--players: bot '{kind}' is installed but fails to import: {broken[kind]}")
            import difflib
            close = difflib.get_close_matches(kind, [HUMAN, *known], n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise SessionError(f"--players: unknown kind '{kind}' (human or a bot: "
                               f"{', '.join(sorted(known))}){hint}")
    return kinds


def default_players(variant) -> str:
    """You against the search bot, at the variant's only table size when it has one, else 2."""
    count = variant.players[0] if len(variant.players) == 1 else 2
    return ",".join([HUMAN] + ["mcts"] * (count - 1))


def seat_names(kinds: Sequence[str]) -> list[str]:
    """Display names: 'you' for a lone person, 'player N' for hot-seat people, the bot's name
    (numbered when it plays more than one seat)."""
    names = []
    for seat, kind in enumerate(kinds):
        if kind == HUMAN:
            names.append("you" if kinds.count(HUMAN) == 1 else f"player {seat + 1}")
        elif kinds.count(kind) == 1:
            names.append(kind)
        else:
            names.append(f"{kind} {kinds[:seat + 1].count(kind)}")
    return names


def _variant_ref_for(ref: str, variant_path: Path | None, record_path: Path) -> str:
    """How a record names its variant: a built-in name as is, a file relative to the record."""
    from azul_core.variants.loading import looks_like_path
    if not looks_like_path(ref) or variant_path is None:
        return ref
    return os.path.relpath(Path(variant_path).resolve(), record_path.resolve().parent)


class GameSession:
    """One game at the terminal. Build it with ``new`` or ``resume``, then ``run()``."""

    def __init__(self, variant, kinds: list[str], names: list[str], seed: Any, path: Path,
                 recorder: Recorder, think: float | None, console=None,
                 read: Callable[[str], str] | None = None, playouts: int | None = None,
                 secrets: dict | None = None):
        self.variant = variant
        self.rules = variant.rules
        self.kinds = kinds
        self.names = names
        self.seed = seed
        self.path = path
        self.recorder = recorder
        self.think = think
        self.console = console if console is not None else make_console(highlight=False)
        self.read = read if read is not None else _terminal_reader()
        self.recorder.extra[KINDS_FIELD] = list(kinds)
        known = available_bots(self.rules)
        # A bot is made afresh for each decision, seeded by the position's place in the game,
        # so its reply never depends on how many times it was asked (undo, resume).
        self.bots = {seat: known[kind] for seat, kind in enumerate(kinds) if kind != HUMAN}
        self.playouts = playouts
        self.humans = [seat for seat, kind in enumerate(kinds) if kind == HUMAN]
        self.last: str | None = None
        self.save_failed = False
        #: why the last save failed, or None when the game on disk is the game as it stands
        self.unsaved: str | None = None
        #: the round being played: each seat's (score, floor points) at its start, its placements
        self.round_start: list[tuple[int, int]] = []
        self.placements: list[tuple[int, int, int, int, int]] = []
        #: the plugins' secrets dealt at the start (a resumed game's, from its record)
        self.secrets: dict = dict(secrets or {})
        #: in hot-seat with secrets: the person the keyboard was last handed to
        self.at_keyboard: int | None = None
        self.state, self.log = self._replay()

    # ------------------------------------------------------------ building

    @classmethod
    def new(cls, variant_ref: str, players: str | None, seed: Any, record: Path | None,
            think: float | None, **options) -> "GameSession":
        variant = _load_variant(variant_ref)
        kinds = parse_kinds(players if players is not None else default_players(variant), variant.rules)
        if len(kinds) not in variant.players:
            allowed = ", ".join(str(p) for p in variant.players)
            raise SessionError(f"--players names {len(kinds)} seat(s), but variant '{variant.name}' "
                               f"is played by {allowed}")
        if seed is None:
            seed = random.SystemRandom().randrange(10 ** 9)
        path = record if record is not None else default_record_path(variant.name)
        ref = _variant_ref_for(variant_ref, variant.path, path)
        recorder = Recorder(ref, seat_names(kinds), seed)
        recorder.first_player = variant.rules.opening_seat(len(kinds), seed)
        return cls(variant, kinds, seat_names(kinds), seed, path, recorder, think, **options)

    @classmethod
    def resume(cls, path: Path, players: str | None, record: Path | None, think: float | None,
               trust=None, **options) -> "GameSession":
        from azul_core.variants.loading import VariantError, looks_like_path
        try:
            saved = read_record(path)
        except RecordError as exc:
            raise SessionError(f"can't resume: {exc}") from None
        try:
            variant = record_variant(saved, trust)  # a record runs code only with consent
        except VariantError as exc:
            raise SessionError([f"can't resume {path}: variant {p}" for p in exc.problems]) from None
        if saved.sealed:
            seats = ", ".join(str(seat + 1) for seat in saved.sealed)
            raise SessionError(f"can't resume {path}: it is a copy for one seat, the secrets of seat "
                               f"{seats} are sealed until the game is over; resume the full record")
        try:
            replay_state(saved, variant)
        except ReplayError as exc:
            raise SessionError(f"can't resume {path}: {exc}") from None
        except PluginError as exc:
            raise SessionError(f"can't resume {path}: {exc}") from None
        names = list(saved.players)
        saved_kinds = _saved_kinds(saved, variant.rules)
        kinds = parse_kinds(players, variant.rules) if players is not None else saved_kinds
        if len(kinds) != len(names):
            raise SessionError(f"--players names {len(kinds)} seat(s), but the record has "
                               f"{len(names)}: {', '.join(names)}")
        # A seat that changed hands is named after its new player ("greedy", not the old "mcts").
        new_names = seat_names(kinds)
        names = [name if kind == old else new_names[seat]
                 for seat, (name, kind, old) in enumerate(zip(names, kinds, saved_kinds))]
        target = record if record is not None else path
        recorder = Recorder.from_record(saved)
        recorder.players = list(names)
        if looks_like_path(saved.variant) and target.resolve().parent != saved.folder.resolve():
            recorder.variant = os.path.relpath((saved.folder / saved.variant).resolve(),
                                               target.resolve().parent)
        seed = saved.seed if saved.seed is not None else random.SystemRandom().randrange(10 ** 9)
        recorder.seed = seed
        return cls(variant, kinds, names, seed, target, recorder, think, secrets=saved.secrets, **options)

    def _replay(self) -> tuple[GameState, list[tuple[int, int, int, bool]]]:
        """The state after the recorded rounds, and for each action (round index, action
        index, seat, whether it was forced: a lone legal wall column)."""
        state = GameState(self.rules, len(self.kinds), self.recorder.first_player)
        if self.secrets:
            state.set_secrets(self.secrets)
        log = []
        for round_index, entry in enumerate(self.recorder.rounds):
            state.deal_tiles([_counts(letters, state.table.kind_letters) for letters in entry.factories])
            self._round_begins(state)
            for action_index, text in enumerate(entry.actions):
                forced = state.phase == PLACE and len(state.legal_decisions()) == 1
                log.append((round_index, action_index, state.to_move, forced))
                before = state.clone()
                state.apply(parse_record_action(text, state.rules.colour_letters, state.table.kind_letters,
                                                state.rules.colour_names))
                self.placements += new_placements(before, state)
        self.recorder.state = state
        return state, log

    # ------------------------------------------------------------ output

    def say(self, message: str, style: str | None = None) -> None:
        from rich.text import Text
        # At a terminal rich wraps at word boundaries; a file or a pipe gets each message whole.
        self.console.print(Text(message, style=style or ""), soft_wrap=not self.console.is_terminal)

    def say_command(self, command: str) -> None:
        """A command to copy: on a line of its own, never broken (a long one runs past the
        edge, and the terminal copies it whole)."""
        from rich.text import Text
        self.console.print(Text(f"  {command}"), soft_wrap=True)

    def draw(self) -> None:
        """The position as the person at the keyboard may see it: their own secrets only."""
        state = self.state
        if state.secrets or state.sealed:
            state = state.for_seat(self._viewer())
        self.console.print(draw_game(state, self.names, self.last, reader=self._viewer()))

    def _viewer(self) -> int | None:
        """The seat of the person at the keyboard (``None``: nobody's, bots only)."""
        if len(self.humans) == 1:
            return self.humans[0]
        return self.at_keyboard

    def save(self) -> None:
        try:
            self.recorder.save(self.path, self.state)
        except OSError as exc:
            if not self.save_failed:
                self.say(f"warning: can't save the game to {self.path}: {exc.strerror or exc}", "bold red")
            self.save_failed = True
            self.unsaved = f"{exc.strerror or exc}"
        else:
            self.unsaved = None

    def _left(self, saved_message: str) -> int:
        """The last lines and the exit code: 0 only if the game as it stands is on disk."""
        if self.unsaved is not None:
            self.say(f"azul: the game was NOT saved to {self.path}: {self.unsaved}", "bold red")
            return INVALID
        self.say(saved_message)
        return 0

    # ------------------------------------------------------------ playing

    def run(self) -> int:
        """Play until the game ends or the player leaves; the exit code. The record is locked
        while the game is played: a second process resuming it is refused."""
        from azul_core.players.game_lock import GameLock, GameLocked
        from azul_core.records.game_record import remove_stale_temporaries
        try:
            lock = GameLock.acquire(self.path)
        except GameLocked as exc:
            self.say(f"azul: can't play: {exc}", "bold red")
            return INVALID
        except OSError as exc:
            self.say(f"azul: can't save the game to {self.path}: {exc.strerror or exc}", "bold red")
            return INVALID
        try:
            remove_stale_temporaries(self.path)  # left by a save that crashed
            return self._run()
        finally:
            lock.release()

    def _run(self) -> int:
        self.save()
        if self.save_failed:
            return INVALID
        self.say(f"{self.variant.name}: {', '.join(self.names)}; seed {self.seed}. "
                 f"Saved after every move to {self.path}")
        if self.humans:
            self.say("Type a move like 2R4 or '2 red 4', ? for the legal moves, help for help.")
        try:
            self._loop()
        except (_Quit, EOFError, KeyboardInterrupt):
            self.save()
            self.say("")
            code = self._left(f"Game saved to {self.path}")
            if code == 0:
                self.say("Continue it with:")
                self.say_command(f"azul play --resume {shlex.quote(str(self.path))}")
            return code
        except BotError as exc:
            self.save()
            self.say(f"azul: {' '.join(str(exc).split())[:500]}; the game stops", "bold red")
            return self._left(f"The game up to the last good move is saved to {self.path}") or INVALID
        except PluginError as exc:
            # The record holds only decisions the engine accepted: it replays up to the last one,
            # and is saved with the state they lead to (its secrets and memory with it).
            accepted = self._accepted_state()
            self.recorder.state = None
            self.state = None
            try:
                self.recorder.save(self.path, accepted)
                self.unsaved = None
            except OSError as error:
                self.unsaved = f"{error.strerror or error}"
            self.say(f"azul: a rule plugin failed, the game stops: {' '.join(str(exc).split())}",
                     "bold red")
            self._left(f"The game up to the last good move is saved to {self.path}")
            if os.environ.get("AZUL_DEBUG") == "1":
                raise
            return INVALID
        self.draw()
        self.console.print(draw_result(self.state, self.names))
        return self._left(f"Game saved to {self.path}")

    def _accepted_state(self) -> GameState | None:
        """The state the recorded decisions lead to, or None if it can't be rebuilt."""
        try:
            return self._replay()[0]
        except (PluginError, IllegalDecision, NotationError):
            return None

    def _loop(self) -> None:
        state_changed = True
        while not self.state.over:
            state = self.state
            if state.phase == DEAL:
                # The bag's order depends on past draws and is lost in a record; sorted, the
                # same seed deals the same tiles whether the game was resumed or not.
                state.bag.sort()
                state.deal(random.Random(f"{self.seed}:round:{state.round}"))
                self.recorder.dealt(state)
                self.secrets = state.secrets
                self._round_begins(state)
                self.save()
                self.say(f"Round {state.round}: the factories are filled.", "bold")
                state_changed = True
                continue
            if state.phase == DRAW:  # a rule draws tiles from the bag: chance, seeded as the deal
                state.bag.sort()
                move = len(self.recorder.rounds[-1].actions)
                self._take(state.sample_draw(random.Random(f"{self.seed}:round:{state.round}:draw:{move}").random))
                state_changed = True
                continue
            seat = state.to_move
            if seat in self.bots:
                move = len(self.recorder.rounds[-1].actions)
                try:
                    bot = build_bot(self.bots[seat], f"{self.seed}:seat:{seat}:round:{state.round}:move:{move}",
                                    self.think, self.playouts)
                except BaseException as exc:  # third-party code: its failure is a message
                    raise BotError(f"bot '{self.kinds[seat]}' could not be made: {type(exc).__name__}: "
                                   f"{' '.join(str(exc).split())[:300]}") from exc
                decision = ask_bot(bot, self.kinds[seat], state)
                if decision not in state.legal_decisions():
                    raise BotError(f"bot '{self.kinds[seat]}' chose {str(decision)[:80]}, which is "
                                   "not a legal decision here")
                self._take(decision)
                state_changed = True
                continue
            if state.phase == PLACE and len(state.placing[2]) == 1:
                decision = state.legal_decisions()[0]
                self._take(decision, " (the only legal space)")
                state_changed = True
                continue
            if self._hides_from_others() and len(self.humans) > 1 and seat != self.at_keyboard:
                self._hand_over(seat)
                state_changed = True
            if state_changed:
                self.draw()
                state_changed = False
            state_changed = self._human_turn(seat)

    def _hides_from_others(self) -> bool:
        """Whether a seat may hold what the others must not see: a secret, or a choice made in
        secret (a phase chosen at once)."""
        return self.rules.deals_secrets or any(phase.at_once for phase in self.rules.phases.values())

    def _hand_over(self, seat: int) -> None:
        """Hot-seat with secrets: clear the screen (the last player's secret with it) and
        wait until the next player has the keyboard, before showing them their own."""
        if self.console.is_terminal:
            self.console.clear()
        name = self.names[seat]
        shown = "secret" if self.rules.deals_secrets else "choices made in secret"
        line = self.read(f"{name}'s turn: the screen will show {name}'s {shown}; "
                         f"{name}, press Enter> ").strip().lower()
        if line in QUIT_WORDS:
            raise _Quit
        self.at_keyboard = seat

    def _take(self, decision: Decision, note: str = "") -> None:
        """Apply a decision the rules accept, record it, save, and say what it did (and, when
        it ended the round, what the round did)."""
        state = self.state
        before = state.clone()
        seat = state.to_move
        forced = state.phase == PLACE and len(state.legal_decisions()) == 1
        round_index = len(self.recorder.rounds) - 1
        action_index = len(self.recorder.rounds[-1].actions)
        # A choice made in secret joins the phase's choices, told together once all have chosen.
        sealing = (*before.sealed, (seat, decision)) if isinstance(decision, Move) and in_secret(before) else None
        state.apply(decision)  # IllegalDecision: nothing changed, nothing recorded
        # Told to whoever sits at the keyboard next too (hot-seat): a label made from the
        # mover's secret, or a choice made in secret, is shown only to a lone person's own moves.
        for_mover = not self.rules.deals_secrets or self.humans == [seat]
        text = describe_decision(before, decision, self.names, for_mover)
        if sealing is not None:
            if self.humans != [seat]:
                text = sealed_choice_words(self.names[seat])
            if not state.sealed:  # every seat has chosen: all the choices may be told
                text += ". " + revealed_words(state, sealing, self.names)
        self.log.append((round_index, action_index, seat, forced))
        self.recorder.decided(decision, state)
        self.last = text
        self.save()
        self.say(text + note)
        self.placements += new_placements(before, state)
        if state.over or state.round != before.round:
            terminal = self.console.is_terminal
            self.console.print(draw_round_summary(before.round, self.placements, self.round_start,
                                                  state, self.names, wrap=terminal),
                               soft_wrap=not terminal)
            self.placements = []

    def _round_begins(self, state: GameState) -> None:
        self.round_start = [(board.score, board.penalty_points) for board in state.players]
        self.placements = []

    def _prompt(self, seat: int) -> str:
        state = self.state
        who = self.names[seat] if len(self.humans) > 1 else "your move"
        if state.phase == PLACE:
            _seat, row, columns = state.placing
            colour = state.rules.colour_names[state.players[seat].line_colour[row]]
            options = ", ".join(str(c + 1) for c in columns)
            return f"{self.names[seat]}: wall column for the {colour} tile of line {row + 1} ({options})> "
        if state.phase == CHOOSE:
            secretly = " in secret" if in_secret(state) else ""
            return f"{self.names[seat]}: choose 1-{len(state.choices)} or a move{secretly}> "
        return f"{who}> "

    def _human_turn(self, seat: int) -> bool:
        """Read one line and act on it; True when the game moved on."""
        line = self.read(self._prompt(seat)).strip()
        word = line.lower()
        if not line:
            return False
        if word in QUIT_WORDS:
            raise _Quit
        first, _space, rest = word.partition(" ")
        if first in ("?", "moves", "list") or (word.startswith("?") and first != "?"):
            query = word[1:] if first.startswith("?") and first != "?" else rest
            try:
                source, colour = legal_filter(query, self.state.rules.colour_letters, self.state.rules.colour_names)
            except LegalFilterError as exc:
                self.say(str(exc))
                return False
            self.console.print(draw_legal(self.state, source, colour))
            return False
        if word in ("help", "h"):
            self.say(self._help())
            return False
        if word == "board":
            self.draw()
            return False
        if word == "undo":
            return self._undo(seat)
        decision = self._parse(line)
        if decision is None:
            return False
        state = self.state
        if not isinstance(decision, Move) and state.is_misplaced(decision) and self.rules.misplaced_to_floor:
            _source, colour, row = decision
            why = line_refusal_words(state, seat, colour, row, clause=True)
            self.say(f"Careful: {why}, so all the {state.rules.colour_names[colour]} tiles fall to the floor.",
                     "bold yellow")
        try:
            self._take(decision)
        except IllegalDecision as exc:
            self.say(f"{refusal_words(exc, state.rules.colour_names)}. Type ? for the legal moves.")
            return False
        return True

    def _help(self) -> str:
        """The help text, with the moves this variant's rules add."""
        return help_text(self.rules)

    def _parse(self, line: str) -> Decision | None:
        state = self.state
        if state.phase == CHOOSE:
            return self._parse_choice(line)
        if state.phase == PLACE:
            row, columns = state.placing[1], state.placing[2]
            if is_ascii_number(line):
                return (row, int(line) - 1)
        try:
            decision = parse_decision(line, state.rules.colour_letters, state.rules.colour_names)
        except NotationError as exc:
            if state.phase == PLACE:
                legal = ", ".join(str(c + 1) for c in columns)
                self.say(f"'{line}' is not a wall column: type a column, 1-5 (legal now: {legal}).")
                return None
            try:
                move = match_move(line, state)  # a plugin's move by its name or label
            except NotationError as ambiguous:
                self.say(str(ambiguous))
                return None
            if move is None:
                self.say(f"{exc}; ? lists the legal moves, help explains.")
            return move
        if isinstance(decision, Move):
            return decision
        if state.phase == PLACE and len(decision) == 3:
            self.say(f"A wall column is asked for now: type its number, e.g. {state.placing[2][0] + 1}.")
            return None
        if state.phase == DRAFT and len(decision) == 2:
            self.say("It is time to take tiles, not to place one on the wall: type a draft like 2R4.")
            return None
        return decision

    def _parse_choice(self, line: str) -> Move | None:
        """One of the choices after a draft: its number, its move, or words of its label."""
        choices = list(self.state.choices)
        listed = "; ".join(f"{number} {move_text(move)}" for number, move in enumerate(choices, 1))
        if is_ascii_number(line) and len(line) < 4:
            if 1 <= int(line) <= len(choices):
                return choices[int(line) - 1]
            self.say(f"Choose 1 to {len(choices)}: {listed}.")
            return None
        try:
            decision = parse_decision(line) if line.startswith("+") else match_move(line, self.state)
        except NotationError as exc:
            self.say(str(exc))
            return None
        if not isinstance(decision, Move):
            when = "now" if self.state.stage is not None else "after your draft"
            self.say(f"'{line}' is none of the choices {when}: {listed}.")
            return None
        return decision

    def _undo(self, seat: int) -> bool:
        if len(self.humans) != 1:
            self.say("Undo works only when one person plays against bots.")
            return False
        chosen = [entry for entry in self.log if entry[2] == seat and not entry[3]]
        if not chosen:
            self.say("Nothing to undo: you have not moved yet.")
            return False
        round_index, action_index, _seat, _forced = chosen[-1]
        rounds = self.recorder.rounds[:round_index + 1]
        taken_back = rounds[round_index].actions[action_index]
        later = (len(self.log) - self.log.index(chosen[-1])) - 1
        rounds[round_index].actions = rounds[round_index].actions[:action_index]
        self.recorder.rounds = rounds
        self.state, self.log = self._replay()
        self.last = None
        self.save()
        replies = f" and {later} move{'s' if later != 1 else ''} after it" if later else ""
        self.say(f"Took back your move {taken_back}{replies}.")
        return True


# ------------------------------------------------------------------ helpers


def _counts(letters_laid: str, kind_letters: str) -> list[int]:
    counts = [0] * len(kind_letters)
    for letter in letters_laid:
        counts[kind_letters.index(letter)] += 1
    return counts


def _load_variant(ref: str):
    from azul_core.variants.loading import VariantError, load_variant
    try:
        return load_variant(ref)
    except VariantError as exc:
        raise SessionError([str(problem) for problem in exc.problems]) from None


def _saved_kinds(saved: GameRecord, rules) -> list[str]:
    """The seats' kinds as the record saved them, or guessed from the names: a bot's name
    (possibly numbered, 'greedy 2') is that bot, any other name a person."""
    kinds = saved.extra.get(KINDS_FIELD)
    known = available_bots(rules)
    if isinstance(kinds, list) and len(kinds) == len(saved.players) and \
            all(isinstance(k, str) and (k == HUMAN or k in known) for k in kinds):
        return list(kinds)
    guessed = []
    for name in saved.players:
        first = name.split()[0].lower() if name.split() else ""
        guessed.append(first if first in known else HUMAN)
    return guessed


def _terminal_reader() -> Callable[[str], str]:
    """``input``, with line editing where the terminal has it."""
    import sys
    if sys.stdin is not None and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    return input


__all__ = ["GameSession", "SessionError", "HELP_TEXT", "data_folder", "parse_kinds", "seat_names"]
