"""Playing many games between bots, reproducibly, in one process or several.

Game ``i`` (counted from 1) draws its factories from ``random.Random(f"{seed}:{i}")``
and seat ``s``'s bot is seeded with ``f"{seed}:{i}:{s}"``, so every game's
outcome depends only on (seed, i): the same whatever ``workers`` is, and any
single game can be played again alone.
"""

from __future__ import annotations

import contextlib
import os
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from azul_core.engine.plugins import PluginError, user_interrupts
from azul_core.engine.state import DEAL, DRAW, OVER, GameState, IllegalDecision
from azul_core.lab.stats import CONFIDENCE, describe, mean, wilson_interval
from azul_core.players.bots import play_until_chance
from azul_core.players.registry import BotError, ask_bot, available_bots, build_bot

#: A game still running after this many rounds is stopped: a rule never ends it.
MAX_ROUNDS = 200


class SimulationError(Exception):
    """A simulation that can't run, or a game that failed; one line for the user.

    ``plugin`` and ``hook`` name the rule plugin at fault, when one is.
    """

    def __init__(self, message: str, game: int | None = None, plugin: str = "", hook: str = "",
                 location: str = ""):
        super().__init__(message)
        self.game = game
        self.plugin = plugin
        self.hook = hook
        self.location = location

    def __reduce__(self):  # crosses process boundaries with every field
        return (type(self), (self.args[0], self.game, self.plugin, self.hook, self.location))


class SimulationTerminated(SimulationError):
    """SIGTERM ended a run played in processes; the workers are already ended."""


class SimulationInterrupted(Exception):
    """A run stopped by Ctrl-C: ``finished`` of ``games`` games were played (their records,
    when asked for, are in ``record_dir``); the games not started were cancelled."""

    def __init__(self, finished: int, games: int, record_dir: str | None = None):
        super().__init__(f"interrupted: {finished} of {games} games finished")
        self.finished = finished
        self.games = games
        self.record_dir = record_dir


@dataclass
class SeatResult:
    """One seat's outcome: what made its score, for statistics."""

    bot: str
    score: int
    placement_points: int
    penalty_points: int
    bonuses: list[tuple[str, int]]
    floor_tiles: int

    @property
    def bonus_points(self) -> int:
        return sum(points for _label, points in self.bonuses)


@dataclass
class GameResult:
    """One finished game. ``game`` counts from 1; ``record`` is the game record (a dict)
    when one was asked for."""

    game: int
    seed: str
    scores: list[int]
    winners: list[int]
    rounds: int
    first_player: int
    seats: list[SeatResult]
    record: dict | None = None

    def to_json(self) -> dict:
        data = asdict(self)
        data.pop("record")
        return data


@dataclass
class Simulation:
    """Every game of a run, in game order, and what it was run with."""

    variant: str
    players: int
    seed: Any
    bots: list[str]
    results: list[GameResult] = field(default_factory=list)
    record_dir: str | None = None

    def summary(self) -> dict:
        """Everything ``azul simulate --json`` prints: scores, win shares with their
        intervals, the start player's advantage, rounds, floor tiles and where the
        points came from, per seat and overall (a victory of several seats is split), and
        the sets of seats that won as the rules named them (a tie, a team).
        Floats are rounded to 4 decimals so equal runs print equal text."""
        games = len(self.results)
        players = self.players
        seats = []
        for seat, bot in enumerate(self.bots):
            wins = sum(1 for r in self.results if seat in r.winners)
            share = _win_shares(self.results, lambda _result, seat=seat: seat)
            low, high = wilson_interval(share, games) if games else (0.0, 0.0)
            boards = [r.seats[seat] for r in self.results]
            points = _points(boards)
            seats.append({
                "seat": seat,
                "bot": bot,
                "mean_score": _mean(r.scores[seat] for r in self.results),
                "mean_placement_points": points["placements"],
                "mean_penalty_points": points["penalties"],
                "mean_bonus_points": points["bonuses"],
                "mean_floor_tiles": _mean(board.floor_tiles for board in boards),
                "wins": wins,
                "win_share": _round(share / games) if games else 0.0,
                "win_share_low": _round(low),
                "win_share_high": _round(high),
                "score": _described(r.scores[seat] for r in self.results),
                "floor_tiles_per_round": _per_round(self.results, seat),
                "points": points,
            })
        rounds = [r.rounds for r in self.results]
        every_board = [board for r in self.results for board in r.seats]
        return {
            "variant": self.variant,
            "players": players,
            "games": games,
            "seed": self.seed,
            "bots": list(self.bots),
            "mean_rounds": _mean(rounds),
            "min_rounds": min(rounds) if rounds else 0,
            "max_rounds": max(rounds) if rounds else 0,
            "shared_victories": sum(1 for r in self.results if len(r.winners) > 1),
            "winning_sets": _winning_sets(self.results),
            "seats": seats,
            "record_dir": self.record_dir,
            "confidence": CONFIDENCE,
            "score": _described(score for r in self.results for score in r.scores),
            "rounds_per_game": _described(rounds),
            "floor_tiles_per_round": _per_round(self.results),
            "points": _points(every_board),
            "start_player": self._start_player(),
        }

    def _start_player(self) -> dict:
        """How the player who starts round 1 fares against a fair 1/players share."""
        games = len(self.results)
        share = _win_shares(self.results, lambda result: result.first_player)
        low, high = wilson_interval(share, games) if games else (0.0, 0.0)
        fair = 1 / self.players
        starters = {r.first_player for r in self.results}
        return {
            "seat": starters.pop() if len(starters) == 1 else None,
            "win_share": _round(share / games) if games else 0.0,
            "win_share_low": _round(low),
            "win_share_high": _round(high),
            "fair_share": _round(fair),
            "advantage": _round(share / games - fair) if games else 0.0,
            "advantage_low": _round(low - fair) if games else 0.0,
            "advantage_high": _round(high - fair) if games else 0.0,
        }


def _win_shares(results, seat_of) -> float:
    """Games won by the seat ``seat_of(result)`` names, a victory of several seats counting
    as its share."""
    return sum(1 / len(r.winners) for r in results if seat_of(r) in r.winners)


def _winning_sets(results) -> list[dict]:
    """How many games each set of seats won, as the variant's ``azul_winners`` named it: the
    lab can't tell a tie shared from a team's victory, the sets show which it was. Smaller
    sets first, then by seat."""
    games: dict[tuple[int, ...], int] = {}
    for result in results:
        seats = tuple(sorted(result.winners))
        games[seats] = games.get(seats, 0) + 1
    return [{"seats": list(seats), "games": count}
            for seats, count in sorted(games.items(), key=lambda item: (len(item[0]), item[0]))]


def _points(boards) -> dict:
    """Where a seat's points came from, as means per game. Scores never go below 0, so a
    player can be spared some penalties: ``penalties_waived`` makes the parts add up to the
    mean score."""
    placements = penalties = bonuses = scores = games = 0
    by_label: dict[str, int] = {}
    for board in boards:  # one pass: this runs over every seat of every game of a run
        games += 1
        placements += board.placement_points
        penalties += board.penalty_points
        scores += board.score
        for label, points in board.bonuses:
            bonuses += points
            by_label[label] = by_label.get(label, 0) + points

    def per_game(total: int) -> float:
        return _round(total / games) if games else 0.0
    return {
        "placements": per_game(placements),
        "penalties": per_game(penalties),
        "bonuses": per_game(bonuses),
        "bonuses_by_label": {label: per_game(total) for label, total in by_label.items()},
        "penalties_waived": per_game(scores - placements - penalties - bonuses),
    }


def _per_round(results, seat: int | None = None) -> float:
    """Floor tiles per round and player, averaged over games: ``seat``'s, or every seat's."""
    def per_round(result) -> float:
        boards = result.seats if seat is None else [result.seats[seat]]
        return sum(board.floor_tiles for board in boards) / (result.rounds * len(boards))
    return _mean(per_round(r) for r in results)


def _described(values) -> dict:
    return {key: _round(value) for key, value in describe(values).items()}


def _round(value: float) -> float:
    return round(value, 4)


def _mean(values) -> float:
    return _round(mean(values))


def game_seed(seed: Any, game: int) -> str:
    """The seed of game ``game`` of a run seeded with ``seed``."""
    return f"{seed}:{game}"


def play_game(rules, players: int, seed: Any, bot_names: Sequence[str], game_index: int,
              record: bool = False, variant_ref: str | None = None,
              think: float | None = None, playouts: int | None = None) -> GameResult:
    """Play game ``game_index`` of a run seeded with ``seed``, bots by name, one per seat.

    With ``record`` the result carries the game record; its variant is
    ``variant_ref`` (default: the variant's name). ``think``: the seconds a
    searching bot may take per move (its own default when ``None``); ``playouts``
    instead: its playouts per move, which make the game depend on the seed alone.
    """
    seed_text = game_seed(seed, game_index)
    rng = random.Random(seed_text)
    factories = bot_factories(rules)
    bots = []
    for seat, name in enumerate(bot_names):
        if name not in factories:
            raise SimulationError(f"unknown bot '{name}' (known: {', '.join(sorted(factories))})")
        try:
            bots.append(build_bot(factories[name], f"{seed_text}:{seat}", think, playouts))
        except BaseException as exc:  # third-party code: a message, not a traceback
            raise SimulationError(f"game {game_index}: bot '{name}' could not be made: "
                                  f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}",
                                  game_index) from exc
    state = _start_state(rules, players).clone()
    moves = [_mover(bot, name) for bot, name in zip(bots, bot_names)]
    recorder = None
    try:
        # A plugin's azul_first_player runs here: inside the handling of plugin errors.
        starter = state.first_player = rules.opening_seat(players, seed_text)
        if record:
            from azul_core.records.game_record import Recorder
            recorder = Recorder(variant_ref or rules.name, list(bot_names), seed_text)
            recorder.first_player = state.first_player
        while state.phase != OVER:
            if state.phase == DEAL:
                if state.round > MAX_ROUNDS:
                    _never_ends(rules, game_index)
                state.deal(rng)
                if recorder is not None:
                    recorder.dealt(state)
            elif state.phase == DRAW:  # a rule draws tiles from the bag: chance, as the deal
                drawn = state.draw(rng)
                if recorder is not None:
                    recorder.decided(drawn)
            elif recorder is None:
                play_until_chance(state, moves)
            else:
                recorder.decided(moves[state.to_move](state))
    except PluginError as exc:
        raise SimulationError(f"game {game_index}: {exc}", game_index, exc.plugin, exc.hook,
                              exc.location) from exc
    except BotError as exc:
        raise SimulationError(f"game {game_index}: seat {state.to_move + 1}: {exc}", game_index) from exc
    except IllegalDecision as exc:
        bot = bot_names[state.to_move]
        raise SimulationError(f"game {game_index}: bot '{bot}' (seat {state.to_move + 1}) chose an "
                              f"illegal decision: {exc}", game_index) from exc
    seats = [SeatResult(name, board.score, board.placement_points, board.penalty_points,
                        list(board.bonuses), board.floor_tiles)
             for name, board in zip(bot_names, state.players)]
    return GameResult(game_index, seed_text, state.scores(), list(state.winners), state.round, starter,
                      seats, recorder.to_dict(state) if recorder else None)


def _start_state(rules, players: int) -> GameState:
    """A new game's state, built once per variant and player count (games clone it)."""
    return rules.kept(f"start state {players}", lambda: GameState(rules, players))


def _mover(bot, name: str = "bot"):
    """A function that makes ``bot``'s move on a state and returns the decision it took:
    the bot's own ``play`` where it has one (the built-in bots: a faster path), else choose
    (a failing or silent bot is a ``BotError``), then apply."""
    play = getattr(bot, "play", None)
    if play is not None and type(bot).__module__.startswith("azul_core."):
        return play

    def choose_and_apply(state):
        decision = ask_bot(bot, name, state)
        state.apply(decision)
        return decision
    return choose_and_apply


def _never_ends(rules, game: int):
    raise SimulationError(f"game {game} did not end within {MAX_ROUNDS} rounds: the end of the game "
                          f"is decided by {rules.deciders.get('azul_game_over', '?')} (azul_game_over)",
                          game, hook="azul_game_over")


def bot_factories(rules) -> dict:
    """Every bot factory by name for ``rules``, looked up once per process (finding installed
    bots reads package metadata: far too slow to repeat for each game)."""
    return rules.kept("bot factories", lambda: available_bots(rules))


# ---------------------------------------------------------------- many games


def resolve_bots(names: str | Sequence[str], players: int, rules=None) -> list[str]:
    """One bot name per seat from ``"random"``, ``"random,greedy"`` or a list;
    ``SimulationError`` for an unknown name or the wrong count."""
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    names = [n for n in names if n]
    if not names:
        raise SimulationError("no bot named: give one name for every seat, or one per seat")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SimulationError(f"{len(names)} bots named for {players} players: give one name "
                              "for every seat, or one per seat")
    try:
        known = bot_factories(rules) if rules is not None else available_bots()
    except PluginError as exc:
        raise SimulationError(str(exc), plugin=exc.plugin, hook=exc.hook) from None
    for name in names:
        if name not in known:
            import difflib
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise SimulationError(f"unknown bot '{name}' (known: {', '.join(sorted(known))}){hint}")
    return names


def simulate(variant, players: int, games: int, seed: Any = 0, bots: str | Sequence[str] = "random",
             workers: int = 1, record_dir: str | Path | None = None,
             progress: Callable[[int, int], Any] | None = None,
             think: float | None = None, playouts: int | None = None,
             cluster=None, first_game: int = 1) -> Simulation:
    """Play ``games`` games; results in game order, identical for any ``workers`` or cluster.

    ``variant`` is a ``Variant`` or a name/path for ``load_variant``.
    ``workers`` > 1 plays chunks of games in that many processes (0: one per
    CPU). ``cluster``: play on a Dask cluster instead, an open
    ``lab.cluster.Cluster`` (``open_cluster("local", workers)`` or a scheduler's
    address). With ``record_dir`` each
    game's record is written there as ``game-NNNNN.json``. ``progress(done,
    games)`` is called in this process each time a chunk of games has finished
    (about every 1% of the run when playing here). Ctrl-C raises
    ``SimulationInterrupted`` once the games not started are cancelled. ``first_game``: the
    number of the first game played (a run continued in stages plays games ``first_game`` to
    ``first_game + games - 1``, the games a single longer run would have played).
    """
    if not isinstance(variant, _variant_class()):
        variant = _load_variant(str(variant))
    rules = variant.rules
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"the number of games must be 1 or more, not {games}")
    if players not in rules.players:
        allowed = ", ".join(str(p) for p in rules.players)
        raise SimulationError(f"variant '{variant.name}' is played by {allowed} players, not {players}")
    bot_names = resolve_bots(bots, players, rules)
    if workers < 0:
        raise SimulationError(f"workers must be 0 (one per CPU) or more, not {workers}")
    workers = workers or os.cpu_count() or 1
    folder = None
    ref = None
    if record_dir is not None:
        folder = Path(record_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SimulationError(f"can't create the record folder {folder}: {exc.strerror or exc}") from None
        ref = record_variant_ref(variant, folder)
    job = _Job(str(variant.path), players, seed, bot_names, str(folder) if folder else None, ref,
               think, playouts)
    if isinstance(first_game, bool) or not isinstance(first_game, int) or first_game < 1:
        raise SimulationError(f"the first game's number must be 1 or more, not {first_game}")
    numbers = list(range(first_game, first_game + games))
    # The user's Ctrl-C (not a plugin's KeyboardInterrupt) stops the run: SimulationInterrupted.
    with user_interrupts():
        if cluster is not None:
            results = cluster.play(job, variant, numbers, progress)
        elif workers == 1 or games == 1:
            results = _play_here(job, numbers, variant, progress)
        else:
            results = _play_in_processes(job, numbers, min(workers, games), progress)
    return Simulation(variant.name, players, seed, bot_names, results, job.record_dir)


def record_variant_ref(variant, folder: Path) -> str:
    """How a record in ``folder`` names ``variant``: its built-in name, else a relative path."""
    from azul_core.variants.loading import builtin_variants
    path = Path(variant.path).resolve()
    for name, builtin in builtin_variants().items():
        if builtin.resolve() == path:
            return name
    return Path(os.path.relpath(path, folder.resolve())).as_posix()


@dataclass(frozen=True)
class _Job:
    """What a worker needs to play its games: all plain, picklable values."""

    variant_path: str
    players: int
    seed: Any
    bots: list[str]
    record_dir: str | None
    variant_ref: str | None
    think: float | None = None
    playouts: int | None = None
    #: carry each game's record back with its result (a cluster: written where the run started)
    keep_records: bool = False


def _play_games(job: _Job, numbers: Sequence[int], variant=None) -> list[GameResult]:
    if variant is None:
        variant = _load_variant(job.variant_path)
    rules = variant.rules
    want_records = job.record_dir is not None or job.keep_records
    results = []
    for number in numbers:
        result = play_game(rules, job.players, job.seed, job.bots, number, want_records,
                           job.variant_ref, job.think, job.playouts)
        if job.record_dir is not None:
            write_records(job.record_dir, [result])
        results.append(result)
    return results


def write_records(folder: str, results: Sequence[GameResult]) -> None:
    """Write each result's record as ``game-NNNNN.json`` in ``folder``, then drop it from the
    result (written: not carried across processes)."""
    from azul_core.records.game_record import write_record
    for result in results:
        target = Path(folder) / f"game-{result.game:05d}.json"
        try:
            write_record(target, result.record, durable=False)
        except OSError as exc:  # a full disk, a folder gone: a message, not a traceback
            raise SimulationError(f"game {result.game}: can't write its record {target}: "
                                  f"{exc.strerror or exc}", result.game) from None
        result.record = None


def _play_here(job: _Job, numbers: list[int], variant, progress) -> list[GameResult]:
    size = max(1, len(numbers) // 100) if progress is not None else len(numbers)
    results: list[GameResult] = []
    try:
        for start in range(0, len(numbers), size):
            results.extend(_play_games(job, numbers[start:start + size], variant))
            if progress is not None:
                progress(len(results), len(numbers))
    except KeyboardInterrupt:
        raise SimulationInterrupted(len(results), len(numbers), job.record_dir) from None
    return results


def _play_in_processes(job: _Job, numbers: list[int], workers: int, progress=None) -> list[GameResult]:
    """Play in ``workers`` processes. SIGTERM to this process ends the workers too (and is a
    ``SimulationError``); a worker whose parent is gone, however it went, ends itself."""
    from concurrent.futures import ProcessPoolExecutor
    size = max(1, min(250, len(numbers) // (workers * 4)))
    chunks = [numbers[i:i + size] for i in range(0, len(numbers), size)]
    results: list[GameResult] = []
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_watch_parent, initargs=(os.getpid(),))
    with _TerminateAsException():
        try:
            # Submitting forks the workers: SIGTERM waits meanwhile, so that no worker is ended
            # while it still has this process's handler (see _watch_parent).
            with _sigterm_blocked():
                futures = [pool.submit(_play_games, job, chunk) for chunk in chunks]
            # Collected in game order, so a failing run reports its first failing game. Not
            # pool.map: its iterator cancels the other futures from this thread when one fails,
            # while the pool's own thread may be failing them too (an InvalidStateError printed
            # from that thread once _end_workers ends the workers).
            for future in futures:
                chunk_results = future.result()
                results.extend(chunk_results)
                if progress is not None:
                    progress(len(results), len(numbers))
        except KeyboardInterrupt:
            _end_workers(pool)
            raise SimulationInterrupted(len(results), len(numbers), job.record_dir) from None
        except _Terminated:
            _end_workers(pool)
            raise SimulationTerminated(f"stopped by SIGTERM after {len(results)} of {len(numbers)} "
                                       "games; the worker processes were ended") from None
        except BaseException:
            _end_workers(pool)
            raise
    pool.shutdown()
    return results


@contextlib.contextmanager
def _sigterm_blocked():
    """SIGTERM held back (delivered when the block ends) where signal masks exist (POSIX)."""
    import signal
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


class _Terminated(BaseException):
    """SIGTERM arrived while games were played in processes."""


class _TerminateAsException:
    """While games are played in processes, SIGTERM raises ``_Terminated`` (so the workers are
    ended before this process goes); only in the main thread, where signals are handled."""

    def __enter__(self):
        import signal
        import threading
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            def terminated(signum, frame):
                raise _Terminated()
            self.previous = signal.signal(signal.SIGTERM, terminated)
        return self

    def __exit__(self, *exc_info):
        import signal
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        return False


def _end_workers(pool) -> None:
    processes = list(getattr(pool, "_processes", {}).values())  # no public way to reach them
    for process in processes:
        try:
            process.terminate()
        except Exception:
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)
    # The pool's own thread closes its wake-up pipe as it sees the workers gone; at exit, Python
    # 3.11 would write to that pipe while it is being closed (an "Exception ignored" traceback
    # on the terminal, now and then): let the thread finish first.
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(timeout=5)


def _watch_parent(parent: int) -> None:
    """In a worker: end this process when the parent is gone (a SIGKILL leaves no time to say).
    Ctrl-C reaches the whole process group: the parent alone handles it, and ends the workers.
    A worker is forked while the parent's SIGTERM handler (``_TerminateAsException``) is in
    place: the default is put back, so that ending a worker ends it quietly instead of raising
    in it (a traceback on the terminal, or a worker stuck holding the pool's queue lock)."""
    import signal
    import threading
    import time
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # forked with SIGTERM held back: now it may end us
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)
    threading.Thread(target=watch, name="azul-parent-watch", daemon=True).start()


_LOADED: dict[str, Any] = {}


def _load_variant(ref: str):
    """Load a variant once per process; a ``VariantError`` passes through."""
    variant = _LOADED.get(ref)
    if variant is None:
        from azul_core.variants.loading import load_variant
        variant = _LOADED[ref] = load_variant(ref)
    return variant


def _variant_class():
    from azul_core.variants.loading import Variant
    return Variant


__all__ = ["MAX_ROUNDS", "SimulationError", "SimulationInterrupted", "SeatResult", "GameResult", "Simulation",
           "game_seed", "play_game", "resolve_bots", "simulate", "record_variant_ref"]
