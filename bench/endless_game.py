"""The endless game (issue 41): every draft to the floor, so no tile ever reaches a wall.

Drafting only to the floor is legal, and before the round limit (the ``standard`` plugin's
``max_rounds``) nothing ended such a game: a 30,000-move game at an online table made each
move cost 68 ms for a client that reads the record, and its replay blocked the server's
event loop for 1.8 s and took 385 MB. This script makes such a game's record and measures
what it costs to replay:

    python bench/endless_game.py --loop                 # standard: ends at the round limit
    python bench/endless_game.py --rounds 5000 --out endless.json
                                                        # the old attack: a 1 MB record (its
                                                        # variant file written beside it)

``--rounds N`` plays N rounds under a variant file that lifts the limit (``max_rounds``
raised, ``endless.yaml`` written beside the record, which names it); without it the game is
played under ``standard`` until it ends. Reported: the rounds and moves, the record's size,
the seconds and peak memory (tracemalloc) to build the online table's replay of it, and how
many states the replay keeps; with ``--loop``, how late a task standing for another table's
ping (every 10 ms) woke while the replay was made in a worker thread. The record can then be replayed by hand
(``azul replay --final endless.json``, ``azul replay --web endless.json``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from azul_core.engine.state import DEAL, DRAFT, FLOOR, OVER, PLACE, GameState
from azul_core.records.game_record import Recorder, dumps_record, read_record, record_variant
from azul_core.variants.loading import load_variant

#: a variant whose games only the round limit could end, lifted here as far as a setting goes
#: where a game under a variant without the limit is stopped anyway
SAFETY_ROUNDS = 10_000
ENDLESS_VARIANT = "name: endless\nextends: standard\nsettings:\n  max_rounds: 1000000\n"


def floor_only_record(variant_ref: str | Path = "standard", rounds: int | None = None, players: int = 2,
                      seed: int = 1) -> dict:
    """The record (a dict) of a game in which every draft goes to the floor: played until the
    game ends, or for ``rounds`` rounds at most (``SAFETY_ROUNDS`` when not given: a variant
    without a round limit). Deterministic for a seed."""
    rounds = SAFETY_ROUNDS if rounds is None else rounds
    variant = load_variant(variant_ref)
    rng = random.Random(seed)
    state = GameState(variant.rules, players)
    recorder = Recorder(variant_ref if isinstance(variant_ref, str) else Path(variant_ref).name,
                        [f"Seat {seat + 1}" for seat in range(players)], seed)
    while state.phase != OVER:
        if state.phase == DEAL:
            if state.round > rounds:
                break
            state.deal(rng)
            recorder.dealt(state)
            continue
        assert state.phase in (DRAFT, PLACE)
        to_floor = [d for d in state.legal_decisions() if d.__class__ is tuple and len(d) == 3 and d[2] == FLOOR]
        decision = to_floor[0] if to_floor else state.legal_decisions()[0]
        state.apply(decision)
        recorder.decided(decision, state)
    return recorder.to_dict(state)


def write_endless(folder: Path, rounds: int | None, players: int = 2, seed: int = 1) -> Path:
    """Write the floor-only game's record to ``folder`` (and, for ``rounds``, the variant file
    lifting the limit beside it); its path."""
    folder.mkdir(parents=True, exist_ok=True)
    if rounds is None:
        data = floor_only_record("standard", None, players, seed)
    else:
        (folder / "endless.yaml").write_text(ENDLESS_VARIANT, encoding="utf-8")
        data = floor_only_record(folder / "endless.yaml", rounds, players, seed)
    path = folder / "endless.json"
    path.write_text(dumps_record(data), encoding="utf-8")
    return path


def measure(path: Path) -> dict:
    """Read the record, build the online table's replay of it: the figures."""
    from azul_core.web.replay_page import Replay
    record = read_record(path)
    variant = record_variant(record)
    tracemalloc.start()
    started = time.perf_counter()
    replay = Replay(record, variant, public=True)
    seconds = time.perf_counter() - started
    _now, peak = tracemalloc.get_traced_memory()
    kept = replay.positions.states_kept()
    tracemalloc.stop()
    return {"rounds": len(record.rounds), "moves": sum(len(r.actions) for r in record.rounds),
            "record_bytes": path.stat().st_size, "over": record.result is not None,
            "replay_seconds": round(seconds, 3), "replay_peak_mb": round(peak / 2**20, 1),
            "steps": len(replay.steps), "states_kept": kept}


def loop_lag(path: Path, tick: float = 0.01) -> dict:
    """Make the online table's replay of the record as a server does (``KeptReplays``, in a
    worker thread) while a task that stands for another table's ping wakes every ``tick``
    seconds: how late it woke at worst, and how long the replay took."""
    import asyncio
    from types import SimpleNamespace

    from azul_core.web.replay_page import KeptReplays
    record = read_record(path)
    table = SimpleNamespace(id="endless", version=1, over=True, record=lambda seat: record,
                            offered=SimpleNamespace(variant=record_variant(record), key=record.variant),
                            seats=[SimpleNamespace(bot=None) for _ in record.players],
                            progress=SimpleNamespace(log=[]))

    async def run() -> dict:
        lags = []
        making = asyncio.ensure_future(KeptReplays().replay_of(table))
        started = time.perf_counter()
        while not making.done():
            asked = time.perf_counter()
            await asyncio.sleep(tick)
            lags.append(time.perf_counter() - asked - tick)
        seconds = time.perf_counter() - started
        await making
        return {"replay_in_thread_seconds": round(seconds, 3), "ping_late_max_ms": round(max(lags) * 1000, 1),
                "pings": len(lags)}

    return asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=None,
                        help="play this many rounds under a variant without the round limit")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="the record's path (default: a temporary folder)")
    parser.add_argument("--loop", action="store_true",
                        help="also time another table's ping while the replay is made as the server does")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.out is not None:
        path = write_endless(args.out.parent, args.rounds, args.players, args.seed)
        if path != args.out:
            path = path.replace(args.out)
        figures = measure(path)
        if args.loop:
            figures.update(loop_lag(path))
    else:
        with tempfile.TemporaryDirectory() as folder:
            path = write_endless(Path(folder), args.rounds, args.players, args.seed)
            figures = measure(path)
            if args.loop:
                figures.update(loop_lag(path))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>24}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
