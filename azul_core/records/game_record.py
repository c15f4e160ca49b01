"""Game records (format ``azul-record/1``): reading, writing, replaying and validating them.

A record holds what is needed to replay a game without a random generator:
the variant, the players, each round's factory fills and every decision in
record notation. The format is described in ``docs/records.md``.

Records come from other programs too, so reading one never trusts it: a
malformed file is a one-line ``RecordError``; a well-formed record that
breaks the rules is reported by ``validate_record`` with the round, action
and seat of the first problem.
"""

from __future__ import annotations

import glob
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from azul_core.colours import LETTERS
from azul_core.engine.draws import DRAWN_MARK, parse_drawn
from azul_core.engine.moves import from_plain, memory_problem, plain
from azul_core.engine.notation import PLUGIN_MOVE, NotationError, format_decision, parse_decision
from azul_core.engine.state import CHOOSE, DEAL, DRAFT, OVER, PLACE, GameState, IllegalDecision, letters
from azul_core.variants.limits import InputRefused, read_regular_file, walk_problems

FORMAT = "azul-record/1"
#: Records larger than this are refused before they are parsed.
MAX_RECORD_BYTES = 10 * 1024 * 1024
#: Field names a record may hold; others are kept as they are when a record is rewritten.
KNOWN_FIELDS = ("format", "variant", "players", "seed", "first_player", "secrets", "memory", "rounds",
                "result")

#: An action's shape (a draft, a placement); its letters and numbers are checked against the
#: variant's colours and board size when it is read.
_ACTION = re.compile(r"^(?:[C1-9][A-Z][1-9-]|w[1-9]:[1-9])$")
#: What stands for a secret a per-seat export hides (``sealed_for``).
SEALED = {"sealed": True}
#: Factory letters: the colours' and a variant's extra tiles' (checked against the variant on replay).
_FACTORY = re.compile(r"^[A-Z]*$")
_SHOWN_CHARS = 40


class RecordError(Exception):
    """A record that can't be read: not JSON, not an ``azul-record/1``, a field of the wrong type."""

    def __init__(self, reason: str, origin: str = "", round: int | None = None,
                 action: int | None = None):
        super().__init__(f"{origin}: {reason}" if origin else reason)
        self.reason = reason
        self.origin = origin
        #: where in the record, when it is in a round or an action (1-based, as ``ReplayError``)
        self.round = round
        self.action = action


class ReplayError(Exception):
    """The first point where a record can't be replayed, and the rule that stops it."""

    def __init__(self, message: str, round: int | None = None, action: int | None = None,
                 seat: int | None = None, text: str | None = None):
        super().__init__(message)
        self.message = message
        self.round = round
        self.action = action
        self.seat = seat
        self.text = text

    def __str__(self) -> str:
        return describe_error(self.to_json())

    def to_json(self) -> dict:
        return {"round": self.round, "action": self.action, "seat": self.seat,
                "text": self.text, "message": self.message}


def describe_error(error: dict) -> str:
    """One line for an error entry: ``round R action A (seat S, 'TEXT'): message``."""
    where = []
    if error.get("round") is not None:
        where.append(f"round {error['round']}")
    if error.get("action") is not None:
        where.append(f"action {error['action']}")
    place = " ".join(where)
    details = []
    if error.get("seat") is not None:
        details.append(f"seat {error['seat'] + 1}")  # people count seats from 1; the field from 0
    if error.get("text") is not None:
        details.append(repr(error["text"]))
    if details:
        place = f"{place} ({', '.join(details)})" if place else ", ".join(details)
    return f"{place}: {error['message']}" if place else error["message"]


# ---------------------------------------------------------------- the record


@dataclass
class RoundRecord:
    """One round: the factory fills (letters, factory 1 first) and the decisions in order."""

    factories: list[str]
    actions: list[str] = field(default_factory=list)
    #: each seat's score after the round's tiling and penalties, when the writer gave them
    scores: list[int] | None = None

    def to_dict(self) -> dict:
        data: dict[str, Any] = {"factories": list(self.factories), "actions": list(self.actions)}
        if self.scores is not None:
            data["scores"] = list(self.scores)
        return data


@dataclass
class ResultRecord:
    """The final scores (bonuses included) and the winning seats."""

    scores: list[int]
    winners: list[int]


@dataclass
class GameRecord:
    """A whole record as read or written; ``origin`` is the file it came from."""

    variant: str
    players: list[str]
    rounds: list[RoundRecord] = field(default_factory=list)
    seed: Any = None
    result: ResultRecord | None = None
    origin: str | None = None
    #: fields this version does not know: kept, so rewriting a record loses nothing
    extra: dict = field(default_factory=dict)
    #: the seat that started round 1 (an optional field: absent means seat 0)
    first_player: int = 0
    #: the secrets the plugins dealt: plugin name -> a value per seat (``None``: sealed)
    secrets: dict = field(default_factory=dict)
    #: each plugin's memory where the record ends (checked against the replay)
    memory: dict | None = None
    #: the seats whose secrets this copy seals (a per-seat export of a game in progress)
    sealed: tuple[int, ...] = ()

    @property
    def folder(self) -> Path:
        """Where a relative variant path starts: the record's own folder."""
        return Path(self.origin).parent if self.origin else Path(".")

    def to_dict(self) -> dict:
        data: dict[str, Any] = {"format": FORMAT, "variant": self.variant, "players": list(self.players)}
        if self.seed is not None:
            data["seed"] = self.seed
        if self.first_player:
            data["first_player"] = self.first_player
        if self.secrets:
            data["secrets"] = {plugin: [SEALED if seat in self.sealed else plain(value)
                                        for seat, value in enumerate(values)]
                               for plugin, values in self.secrets.items()}
        if self.memory:
            data["memory"] = {plugin: plain(value) for plugin, value in self.memory.items()}
        data["rounds"] = [r.to_dict() for r in self.rounds]
        if self.result is not None:
            data["result"] = {"scores": list(self.result.scores), "winners": list(self.result.winners)}
        for key, value in self.extra.items():
            data.setdefault(key, value)
        return data


# ---------------------------------------------------------------- reading


def read_record(path: str | Path, max_bytes: int = MAX_RECORD_BYTES) -> GameRecord:
    """Read and check the shape of a record file; ``RecordError`` says what is wrong."""
    shown = str(path)
    try:
        data = read_regular_file(path, max_bytes)
    except InputRefused as exc:
        reason = exc.reason
        if reason.startswith("a folder"):
            reason = "is a folder, not a record file"
        raise RecordError(reason, shown) from None
    return parse_record(data, shown, max_bytes)


def parse_record(text: str | bytes, origin: str = "", max_bytes: int = MAX_RECORD_BYTES) -> GameRecord:
    """A ``GameRecord`` from the text of a record; ``RecordError`` (one line) if it is malformed."""
    if len(text) > max_bytes:
        raise RecordError(f"larger than {max_bytes} bytes: refused", origin)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text (byte {exc.start})", origin) from None
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_int=_bounded_int,
                          parse_float=_bounded_float, object_pairs_hook=_object_without_duplicates)
    except _DuplicateKey as exc:
        raise RecordError(f"not a record: the key {_show(exc.key)} appears twice in one object "
                          "(a reader would silently keep one of them)", origin) from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply", origin) from None
    except json.JSONDecodeError as exc:
        # Some of json's messages end in "at" already ("Unterminated string starting at").
        what = exc.msg.removesuffix(" at")
        raise RecordError(f"not JSON: {what} at line {exc.lineno} column {exc.colno}", origin) from None
    except ValueError as exc:  # a number too long to convert, or NaN/Infinity
        raise RecordError(f"not JSON: {str(exc).splitlines()[0]}", origin) from None
    for path, problem in walk_problems(data):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
        raise RecordError(f"{_show(where) if len(where) > _SHOWN_CHARS else where or 'the record'}: "
                          f"{problem}", origin, *_round_and_action(path))
    return record_from_data(data, origin)


def _round_and_action(path: tuple) -> tuple[int | None, int | None]:
    """The round and action (1-based) a JSON path such as ``rounds[0].actions[2]`` points into."""
    round_number = action = None
    if len(path) >= 2 and path[0] == "rounds" and isinstance(path[1], int):
        round_number = path[1] + 1
        if len(path) >= 4 and path[2] == "actions" and isinstance(path[3], int):
            action = path[3] + 1
    return round_number, action


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _object_without_duplicates(pairs: list) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen = set()
        for key, _value in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return data


def _bounded_int(text: str) -> int:
    if len(text) > 40:
        raise ValueError(f"a number of {len(text)} digits is out of range")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > 40:
        raise ValueError(f"a number of {len(text)} characters is out of range")
    return float(text)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def record_from_data(data: Any, origin: str = "") -> GameRecord:
    """A ``GameRecord`` from parsed JSON, every field's type checked."""
    def bad(message: str) -> RecordError:
        return RecordError(message, origin)

    if not isinstance(data, dict):
        raise bad(f"a record is a JSON object, not {_json_kind(data)}")
    if "format" not in data:
        raise bad(f"no 'format' field: a record starts with \"format\": \"{FORMAT}\"")
    if data["format"] != FORMAT:
        raise bad(f"format {_show(data['format'])} is not supported (expected '{FORMAT}')")
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant.strip():
        raise bad("'variant' must be a variant name or a path to a variant file")
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise bad("'players' must be a non-empty list of player names (strings), in seat order")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise bad("'seed' must be a number or a string")
    first_player = data.get("first_player", 0)
    if isinstance(first_player, bool) or not isinstance(first_player, int) \
            or not 0 <= first_player < len(players):
        raise bad(f"'first_player' must be the seat that started round 1, a whole number from 0 "
                  f"to {len(players) - 1}")
    rounds_data = data.get("rounds")
    if not isinstance(rounds_data, list):
        raise bad("'rounds' must be a list of rounds")
    rounds = [_round_from_data(item, number, bad) for number, item in enumerate(rounds_data, 1)]
    result = None
    if data.get("result") is not None:
        result = _result_from_data(data["result"], bad)
    secrets, sealed = _secrets_from_data(data.get("secrets", {}), len(players), bad)
    memory = _memory_from_data(data.get("memory"), bad)
    extra = {k: v for k, v in data.items() if k not in KNOWN_FIELDS}
    return GameRecord(variant, players, rounds, seed, result, origin or None, extra, first_player,
                      secrets, memory, sealed)


def _secrets_from_data(data: Any, players: int, bad) -> tuple[dict, tuple[int, ...]]:
    if not isinstance(data, dict):
        raise bad("'secrets' must be an object: plugin name -> a list with each seat's secret")
    secrets, sealed = {}, set()
    for plugin, values in data.items():
        if not isinstance(values, list) or len(values) != players:
            raise bad(f"secrets of {_show(plugin)}: expected a list of {players} values, one per seat")
        read = []
        for seat, value in enumerate(values):
            if value == SEALED:
                sealed.add(seat)
                read.append(None)
                continue
            value = from_plain(value)
            why = memory_problem(value)
            if why:
                raise bad(f"secrets of {_show(plugin)}, seat {seat}: {why}")
            read.append(value)
        secrets[plugin] = tuple(read)
    return secrets, tuple(sorted(sealed))


def _memory_from_data(data: Any, bad) -> dict | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise bad("'memory' must be an object: plugin name -> its memory")
    memory = {}
    for plugin, value in data.items():
        value = from_plain(value)
        why = memory_problem(value)
        if why:
            raise bad(f"memory of {_show(plugin)}: {why}")
        memory[plugin] = value
    return memory


def _round_from_data(item: Any, number: int, bad) -> RoundRecord:
    where = f"round {number}"
    if not isinstance(item, dict):
        raise bad(f"{where}: a round is an object with 'factories' and 'actions', not {_json_kind(item)}")
    factories = item.get("factories")
    if not isinstance(factories, list) or not all(isinstance(f, str) for f in factories):
        raise bad(f"{where}: 'factories' must be a list of strings of colour letters, e.g. \"BBYR\"")
    for index, letters_laid in enumerate(factories, 1):
        if not _FACTORY.match(letters_laid):
            wrong = next(ch for ch in letters_laid if not "A" <= ch <= "Z")
            raise bad(f"{where}, factory {index}: {_show(wrong)} is not a tile letter "
                      f"(B blue, Y yellow, R red, K black, W white, or a variant's extra tile)")
    actions = item.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise bad(f"{where}: 'actions' must be a list of strings such as \"2R4\", \"CK-\" or \"w1:3\"")
    scores = item.get("scores")
    if scores is not None and not _int_list(scores):
        raise bad(f"{where}: 'scores' must be a list of whole numbers, one per seat")
    return RoundRecord(factories, actions, scores)


def _result_from_data(result: Any, bad) -> ResultRecord:
    if not isinstance(result, dict):
        raise bad("'result' must be an object with 'scores' and 'winners'")
    scores, winners = result.get("scores"), result.get("winners")
    if not _int_list(scores):
        raise bad("result: 'scores' must be a list of whole numbers, one per seat")
    if not _int_list(winners):
        raise bad("result: 'winners' must be a list of seats (numbers from 0)")
    return ResultRecord(scores, winners)


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true/false"
    if value is None:
        return "null"
    return "a number" if isinstance(value, (int, float)) else "an object"


def _show(value: Any) -> str:
    """A value from an untrusted file, quoted and short enough for a one-line message."""
    shown = repr(value)
    return shown if len(shown) <= _SHOWN_CHARS else shown[:_SHOWN_CHARS - 4] + "...'"


# ---------------------------------------------------------------- writing


class Recorder:
    """Builds a record while a game is played: feed it each deal and each applied decision.

    ``dealt(state)`` right after the factories are filled, ``decided(decision)``
    after each decision the state accepted; ``save(path)`` writes the record
    so far (per-round scores and, once the game is over, the result).
    """

    def __init__(self, variant_ref: str | Path, player_names: list[str], seed: Any = None):
        self.variant = str(variant_ref)
        self.players = list(player_names)
        self.seed = seed
        self.rounds: list[RoundRecord] = []
        self.extra: dict = {}
        #: the seat that started round 1
        self.first_player = 0
        #: the state last given; ``to_dict``/``save`` read scores from it when given none
        self.state: GameState | None = None

    @classmethod
    def from_record(cls, record: GameRecord, state: GameState | None = None) -> "Recorder":
        """Continue a record (a resumed game) from its rounds so far; ``state`` is the replayed
        position the game goes on from (scores are read from it, not copied from the file)."""
        recorder = cls(record.variant, record.players, record.seed)
        recorder.rounds = [RoundRecord(list(r.factories), list(r.actions)) for r in record.rounds]
        recorder.extra = dict(record.extra)
        recorder.first_player = record.first_player
        recorder.state = state
        return recorder

    def dealt(self, state: GameState) -> None:
        self.state = state
        kind_letters = state.table.kind_letters
        self.rounds.append(RoundRecord([letters(counts, kind_letters) for counts in state.sources[1:]], []))

    def decided(self, decision: Any, state: GameState | None = None) -> None:
        if not self.rounds:
            raise ValueError("a decision before the first deal")
        letters = (state or self.state).rules.colour_letters if (state or self.state) is not None else LETTERS
        self.rounds[-1].actions.append(format_decision(decision, letters))
        if state is not None:
            self.state = state

    def to_record(self, state: GameState | None = None) -> GameRecord:
        state = state if state is not None else self.state
        rounds = []
        for index, entry in enumerate(self.rounds):
            scores = None
            if state is not None and index < len(state.round_scores):
                scores = list(state.round_scores[index])
            rounds.append(RoundRecord(list(entry.factories), list(entry.actions), scores))
        result = None
        if state is not None and state.phase == OVER:
            result = ResultRecord(state.scores(), list(state.winners))
        secrets = dict(state.secrets) if state is not None else {}
        memory = dict(state.memory) if state is not None and state.memory else None
        return GameRecord(self.variant, list(self.players), rounds, self.seed, result, None,
                          dict(self.extra), self.first_player, secrets, memory)

    def to_dict(self, state: GameState | None = None) -> dict:
        return self.to_record(state).to_dict()

    def save(self, path: str | Path, state: GameState | None = None, durable: bool = True) -> None:
        """Write the record atomically: a reader never sees half a file, a crash never loses it."""
        write_record(path, self.to_dict(state), durable)


def dumps_record(data: dict) -> str:
    """A record as JSON text: one line per field and per round, easy to read and to diff."""
    lines = []
    for key, value in data.items():
        if key == "rounds" and value:
            body = ",\n".join("    " + json.dumps(r) for r in value)
            lines.append(f'  "rounds": [\n{body}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_record(path: str | Path, data: dict, durable: bool = True) -> None:
    """Write ``data`` (a record as a dict) to ``path`` through a temporary file and a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(path), suffix=".tmp")
    try:
        # mkstemp makes the file 0600; a saved record gets the user's usual mode, as any file would.
        if hasattr(os, "fchmod"):
            os.fchmod(handle, 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(dumps_record(data))
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    if durable:
        _sync_folder(path.parent)


def temporary_prefix(path: Path) -> str:
    """The start of the names of ``write_record``'s temporary files for ``path``."""
    return f".{path.name}."


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove temporary files a crashed save of ``path`` left behind (call it while no other
    process writes ``path``: the game lock); the files removed."""
    removed = []
    try:
        candidates = list(path.parent.glob(f"{glob.escape(temporary_prefix(path))}*.tmp"))
    except OSError:
        return removed
    for candidate in candidates:
        try:
            candidate.unlink()
            removed.append(candidate)
        except OSError:
            pass
    return removed


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable: sync the folder's entry (POSIX; elsewhere a no-op)."""
    if os.name != "posix":
        return
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems can't sync a folder; the file itself is synced
    finally:
        os.close(handle)


# ---------------------------------------------------------------- variants


_VARIANTS: dict[tuple, Any] = {}


def record_variant(record: GameRecord, trust: Any = None):
    """The record's variant, loaded once per process (``VariantError`` if it can't be).

    A name is a built-in (or discovered) variant; a path is a file inside the
    record's own folder. A record is data: the plugin files and modules its
    variant lists run only with the user's consent, ``trust`` (a
    ``variants.loading.Trust``: ``--variant FILE`` or ``--trust``).
    """
    from azul_core.engine.plugins import PluginError
    from azul_core.variants.files import Problem
    from azul_core.variants.loading import Trust, VariantError, load_variant, looks_like_path, record_variant_path
    ref = record.variant
    trust = trust if trust is not None else Trust()
    key = (ref, str(record.folder.resolve()) if looks_like_path(ref) else None, trust)
    cached = _VARIANTS.get(key)
    if cached is None:
        try:
            path = record_variant_path(ref, record.folder, trust)
            cached = load_variant(path, trust.rule_for(path))
        except VariantError as exc:
            cached = exc
        except PluginError as exc:
            cached = VariantError([Problem(ref, 1, 1, str(exc))])
        except Exception as exc:  # a reader's own failure on a hostile file: still one line
            reason = (str(exc).splitlines() or [""])[0][:200]
            cached = VariantError([Problem(ref, 1, 1, f"can't be loaded: {type(exc).__name__}: {reason}")])
        _VARIANTS[key] = cached
    if isinstance(cached, Exception):
        raise cached
    return cached


def _rules_of(variant: Any):
    """``Rules`` from a ``Variant`` or ``Rules``."""
    return getattr(variant, "rules", variant)


# ---------------------------------------------------------------- replaying


@dataclass
class ReplayStep:
    """A position in a replay: ``round`` from 1, ``action`` from 1 within the round
    (0 = right after the round's deal), the action's text and a copy of the state."""

    round: int
    action: int
    text: str
    state: GameState


_DECISIONS: dict[tuple[str, str], Any] = {}


def _decision_of(text: str, letters: str = LETTERS) -> Any:
    """The decision an action stands for (``letters``: the variant's colours), or None if it
    is not record notation."""
    decision = _DECISIONS.get((text, letters))
    if decision is None:
        if not _ACTION.match(text) and not PLUGIN_MOVE.match(text):
            return None
        try:
            decision = parse_decision(text, letters)
        except NotationError:
            return None
        if len(_DECISIONS) < 4096:
            _DECISIONS[text, letters] = decision
    return decision


def _factory_counts(letters_laid: str, kind_letters: str = LETTERS) -> list[int]:
    unknown = set(letters_laid) - set(kind_letters)
    if unknown:
        raise IllegalDecision(f"{_show(min(unknown))} is not a tile of this variant (its tiles: "
                              f"{' '.join(kind_letters)})")
    return [letters_laid.count(letter) for letter in kind_letters]


def new_replay_state(record: GameRecord, rules) -> GameState:
    """The state before round 1's deal; ``ReplayError`` if the variant can't seat the players."""
    count = len(record.players)
    if count not in rules.players:
        allowed = ", ".join(str(p) for p in rules.players)
        raise ReplayError(f"variant '{rules.name}' is played by {allowed} players, "
                          f"but the record names {count}")
    state = GameState(rules, count, record.first_player)
    if record.secrets:
        try:
            state.set_secrets(record.secrets)
        except IllegalDecision as exc:
            raise ReplayError(f"secrets: {exc}") from None
    elif rules.deals_secrets:
        raise ReplayError("the variant deals secrets at the start, but the record has no 'secrets'")
    return state


def _steps(record: GameRecord, rules, state: GameState) -> Iterator[tuple[int, int, str, GameState]]:
    """Replay ``record`` from ``state`` (made by ``new_replay_state``): yield (round, action,
    text, the live state) after each deal and each action; raise ``ReplayError`` at the
    first thing that can't have happened."""
    for number, entry in enumerate(record.rounds, 1):
        if state.phase == OVER:
            raise ReplayError(f"the game ended in round {state.round}; round {number} can't follow",
                              round=number)
        if state.phase != DEAL:
            raise ReplayError(f"round {number} starts before round {number - 1} is over "
                              f"(seat {state.to_move + 1} was still to move)", round=number - 1)
        try:
            state.deal_tiles([_factory_counts(f, state.table.kind_letters) for f in entry.factories])
        except IllegalDecision as exc:
            raise ReplayError(f"factories {' '.join(repr(f) for f in entry.factories)} can't come "
                              f"out of the bag and lid: {exc}", round=number) from None
        yield number, 0, "deal " + " ".join(f or "(empty)" for f in entry.factories), state
        for index, text in enumerate(entry.actions, 1):
            _apply(state, rules, number, index, text)
            yield number, index, text, state


def _apply(state: GameState, rules, number: int, index: int, text: str) -> None:
    phase = state.phase
    if phase == OVER:
        raise ReplayError("the game is already over: nothing may follow its last action",
                          round=number, action=index, text=text)
    if phase == DEAL:
        raise ReplayError(f"round {number} is already over (its tiles are all drafted and tiled): "
                          "this action belongs to the next round", round=number, action=index, text=text)
    seat = state.to_move
    decision = parse_drawn(text, state.table.kind_letters) if text.startswith(DRAWN_MARK) else \
        _decision_of(text, rules.colour_letters)
    if decision is None:
        raise ReplayError("not an action: expected a draft like 2R4 or CK- (source, colour, "
                          "line or - for the floor), a placement like w1:3, a plugin's move "
                          "like +pass or the tiles a rule drew from the bag like ~RB",
                          round=number, action=index, seat=seat, text=text)
    if decision.__class__ is tuple and len(decision) == 2 and phase == DRAFT and not rules.player_chooses_column:
        raise ReplayError("this variant places wall tiles itself: a record of it holds no "
                          "placements", round=number, action=index, seat=seat, text=text)
    try:
        state.apply(decision)
    except IllegalDecision as exc:
        raise ReplayError(str(exc), round=number, action=index, seat=seat, text=text) from None


def iter_replay(record: GameRecord, variant: Any = None) -> Iterator[ReplayStep]:
    """Step through a record: a ``ReplayStep`` after each round's deal and after each action.

    ``variant`` is a ``Variant`` or ``Rules`` (default: the record's own,
    loaded once). The first action that can't be replayed raises
    ``ReplayError`` (round, action, seat, text, the rule in words); the steps
    before it have been yielded.
    """
    rules = _rules_of(variant) if variant is not None else record_variant(record).rules
    for number, index, text, state in _steps(record, rules, new_replay_state(record, rules)):
        yield ReplayStep(number, index, text, state.clone())


#: how many steps apart ``Positions`` keeps a state: a step's state is at most this many
#: deals and actions from one kept (each costs a few microseconds to replay)
SNAPSHOT_EVERY = 64


@dataclass(frozen=True)
class Position:
    """A step of a replay without its state: ``round`` from 1, ``action`` from 1 within the
    round (0 = right after the deal), the action's text (``deal ...`` for a deal)."""

    round: int
    action: int
    text: str


class Positions:
    """A record's positions for stepping through it: every step's ``Position``, and a copy of
    the state only every ``every`` steps. A long record would otherwise hold a whole game
    state per step (a 1 MB record: about 2 GB). ``state_at(n)`` replays step ``n`` from the
    kept state nearest before it, through the same engine moves as the first pass.

    ``replay()`` makes the first pass, yielding each ``ReplayStep`` (its state a copy the
    caller may keep or drop); ``ReplayError`` or a plugin's error stops it, the steps before
    are kept. ``state_at`` may be called from several threads.
    """

    def __init__(self, record: GameRecord, variant: Any = None, every: int = SNAPSHOT_EVERY):
        import threading
        self.record = record
        self.rules = _rules_of(variant) if variant is not None else record_variant(record).rules
        self.every = every
        self.steps: list[Position] = []
        self._kept: list[GameState] = []
        #: the last state made by ``state_at`` and its step: stepping on from it is cheap
        self._last: tuple[int, GameState] | None = None
        self._lock = threading.Lock()

    def replay(self) -> Iterator[ReplayStep]:
        state = new_replay_state(self.record, self.rules)
        for number, index, text, live in _steps(self.record, self.rules, state):
            if len(self.steps) % self.every == 0:
                self._kept.append(live.clone())
            self.steps.append(Position(number, index, text))
            yield ReplayStep(number, index, text, live.clone())

    def states_kept(self) -> int:
        return len(self._kept)

    def state_at(self, index: int) -> GameState:
        """The state after step ``index`` (a copy the caller owns); ``IndexError`` past the ends."""
        if not 0 <= index < len(self.steps):
            raise IndexError(f"no step {index}: the replay has steps 0 to {len(self.steps) - 1}")
        with self._lock:
            at = index - index % self.every
            last = self._last
            if last is not None and at <= last[0] <= index:
                at, state = last[0], last[1].clone()
            else:
                state = self._kept[at // self.every].clone()
            while at < index:
                at += 1
                self._advance(state, self.steps[at])
            self._last = (index, state)
            return state.clone()

    def _advance(self, state: GameState, position: Position) -> None:
        if position.action == 0:
            entry = self.record.rounds[position.round - 1]
            state.deal_tiles([_factory_counts(f, state.table.kind_letters) for f in entry.factories])
        else:
            _apply(state, self.rules, position.round, position.action, position.text)


def sealed_for(record: GameRecord, seat: int | None, finished: bool, unrevealed: int = 0) -> GameRecord:
    """The record as ``seat`` may see it (``None``: a watcher): while the game is not
    ``finished``, the other seats' secrets are sealed (written ``{"sealed": true}``), and the
    record ends before the ``unrevealed`` last actions: choices of a phase chosen at once that
    not every seat has made yet (``state.sealed``), which no seat may see before the others
    have chosen. A sealed record replays and validates up to where secrets are needed."""
    from dataclasses import replace
    if unrevealed and not finished and record.rounds:
        last = record.rounds[-1]
        record = replace(record, rounds=[*record.rounds[:-1],
                                         replace(last, actions=last.actions[:-unrevealed])])
    if finished or not record.secrets:
        return record
    hidden = tuple(s for s in range(len(record.players)) if s != seat)
    secrets = {plugin: tuple(None if s in hidden else v for s, v in enumerate(values))
               for plugin, values in record.secrets.items()}
    return replace(record, secrets=secrets, sealed=tuple(sorted(set(record.sealed) | set(hidden))))


def replay_state(record: GameRecord, variant: Any = None) -> GameState:
    """The state at the end of the record (``ReplayError`` at the first problem)."""
    rules = _rules_of(variant) if variant is not None else record_variant(record).rules
    state = new_replay_state(record, rules)
    for _step in _steps(record, rules, state):
        pass
    return state


# ---------------------------------------------------------------- validating


def validate_record(path: str | Path, max_bytes: int = MAX_RECORD_BYTES, trust: Any = None) -> dict:
    """Validate a record file: a report with ``valid``, ``finished``, the replayed scores and
    every error found (see ``check_record``). Never raises for a bad file."""
    try:
        record = read_record(path, max_bytes)
    except RecordError as exc:
        return _report(str(path), None, [_error(exc.reason, exc.round, exc.action)])
    return check_record(record, str(path), trust)


def check_record(record: GameRecord, path: str | None = None, trust: Any = None) -> dict:
    """Replay a record and compare it with what it claims.

    Reports the first action that can't be replayed, factory fills that
    can't come out of the bag and lid, the first round whose recorded scores
    differ from the replay, a result that differs, and a record that goes on
    after the game ended. A record that stops before the game ends is valid
    and ``finished: false``.
    """
    from azul_core.engine.plugins import PluginError
    from azul_core.variants.loading import VariantError
    shown = path if path is not None else (record.origin or "")
    try:
        variant = record_variant(record, trust)
    except VariantError as exc:
        return _report(shown, record, [_error(f"variant: {p}") for p in exc.problems])
    rules = variant.rules
    errors: list[dict] = []
    try:
        state = new_replay_state(record, rules)
    except ReplayError as exc:
        return _report(shown, record, [exc.to_json()], variant=variant)
    scores_checked = 0
    score_error = replayed = False
    try:
        for _step in _steps(record, rules, state):
            if len(state.round_scores) > scores_checked:
                if not score_error:
                    score_error = _check_round_scores(record, state, scores_checked, errors)
                scores_checked = len(state.round_scores)
        replayed = True
    except ReplayError as exc:
        errors.append(exc.to_json())
    except PluginError as exc:
        errors.append(_error(f"a rule plugin failed while replaying: {exc}"))
    if replayed:
        _check_end(record, state, errors, score_error)
    return _report(shown, record, errors, state, variant)


def _check_round_scores(record: GameRecord, state: GameState, index: int, errors: list) -> bool:
    """Compare the recorded scores of round ``index + 1`` with the replay; True if they differ."""
    recorded = record.rounds[index].scores
    if recorded is None:
        return False
    replayed = list(state.round_scores[index])
    problem = _compare_scores(recorded, replayed)
    if problem:
        errors.append(_error(f"scores after the round differ from the replay: {problem}", round=index + 1))
        return True
    return False


def _compare_scores(recorded: list[int], replayed: list[int]) -> str | None:
    if len(recorded) != len(replayed):
        return f"{len(recorded)} scores recorded for {len(replayed)} players"
    differ = [f"seat {seat + 1} recorded {mine}, replay {theirs}"
              for seat, (mine, theirs) in enumerate(zip(recorded, replayed)) if mine != theirs]
    return "; ".join(differ) or None


def _check_end(record: GameRecord, state: GameState, errors: list, score_error: bool) -> None:
    last = len(record.rounds)
    for number in range(len(state.round_scores) + 1, last + 1):
        if record.rounds[number - 1].scores is not None and not score_error:
            errors.append(_error("scores are recorded for a round the record does not finish",
                                 round=number))
            break
    if record.memory is not None and record.memory != state.memory:
        differ = sorted(set(record.memory) | set(state.memory))
        shown = "; ".join(f"{p}: recorded {_show(record.memory.get(p))}, replay {_show(state.memory.get(p))}"
                          for p in differ if record.memory.get(p) != state.memory.get(p))
        errors.append(_error(f"the plugins' memory differs from the replay: {shown}"))
    if record.result is None:
        return
    if state.phase != OVER:
        errors.append(_error("a result is recorded, but the game is not over"))
        return
    problem = _compare_scores(record.result.scores, state.scores())
    if problem:
        errors.append(_error(f"the result's scores differ from the replay: {problem}"))
    if sorted(set(record.result.winners)) != state.winners:
        errors.append(_error(f"the result names winners {sorted(set(record.result.winners))}, "
                             f"the replay {state.winners}"))


def _error(message: str, round: int | None = None, action: int | None = None) -> dict:
    return {"round": round, "action": action, "seat": None, "text": None, "message": message}


def _report(path: str, record: GameRecord | None, errors: list[dict],
            state: GameState | None = None, variant: Any = None) -> dict:
    finished = state is not None and state.phase == OVER
    return {
        "path": path,
        "kind": "record",
        "valid": not errors,
        "finished": finished,
        "variant": record.variant if record is not None else None,
        "variant_name": variant.name if variant is not None else None,
        "players": list(record.players) if record is not None else None,
        "rounds": state.round if state is not None and state.phase != DEAL else
                  (state.round - 1 if state is not None else 0),
        "scores": state.scores() if state is not None else None,
        "winners": list(state.winners) if finished else None,
        "round_scores": [list(s) for s in state.round_scores] if state is not None else [],
        "to_move": state.to_move if state is not None and state.phase in (DRAFT, PLACE, CHOOSE) else None,
        "sealed": list(record.sealed) if record is not None else [],
        "errors": errors,
    }


__all__ = ["FORMAT", "MAX_RECORD_BYTES", "GameRecord", "RoundRecord", "ResultRecord", "RecordError",
           "ReplayError", "ReplayStep", "Recorder", "read_record", "parse_record", "record_from_data",
           "dumps_record", "write_record", "record_variant", "iter_replay", "replay_state",
           "Position", "Positions", "SNAPSHOT_EVERY",
           "validate_record", "check_record", "describe_error", "remove_stale_temporaries", "sealed_for"]
