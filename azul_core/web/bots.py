"""Where the table server's bots think: the quick ones in a thread, search bots in worker processes.

A search bot (``mcts``, and any bot a plugin or a package brings: its cost is
unknown) thinks for a second or more of pure Python. In a thread it would hold
the interpreter lock against the event loop, and every other table would wait:
with 10 tables of four ``mcts`` bots another table's ping took 0.4 s. So it
thinks in a bounded pool of worker processes, which the event loop only awaits:

- a job is the table's record so far (plain data), the bot's name and seed: the
  worker loads the variant once, replays the record through the engine and asks
  a bot made for this decision (seeded by the table and the version, so a
  restart asks it the same way); the decision comes back in record notation, and
  the server judges it like any other;
- a table asks for one decision at a time, and the tables wait for a worker in
  the order they asked (``asyncio.Semaphore`` wakes its waiters first come, first
  served): ten busy tables can't starve an eleventh;
- a caller that stops waiting (a hint whose table moved on) leaves the queue: its search
  never runs. One already in a worker can't be stopped there, so its worker stays counted
  as busy until it is done: the next search waits for it in the queue, in its turn, rather
  than pile up unseen in the process pool's own queue;
- ``random`` and ``greedy`` answer in about a millisecond: they think in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

#: Bots that answer at once: they think in a thread of the server's process.
QUICK_BOTS = frozenset({"random", "greedy"})


def is_search_bot(name: str | None) -> bool:
    """Whether the bot ``name`` thinks in a worker process (any bot but the quick built-in ones)."""
    return name is not None and name not in QUICK_BOTS


def default_workers() -> int:
    """One worker per core but one (the event loop's), at least one, at most four."""
    return min(4, max(1, (os.cpu_count() or 2) - 1))


class BotPool:
    """A bounded pool of worker processes, started on the first search bot's turn."""

    def __init__(self, workers: int, think: float | None):
        self.workers = max(1, workers)
        self.think = think
        self._executor: ProcessPoolExecutor | None = None
        self._slots: asyncio.Semaphore | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            import multiprocessing
            # spawn: a fork of a process running an event loop and threads is not safe
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start, initargs=(os.getpid(),))
        return self._executor

    async def choose(self, variant_ref: str, record: dict, bot: str, seed: str,
                     sealed: tuple = ((), None, None)) -> str:
        """The bot's decision (record notation) at the end of ``record`` (and the choices made
        in secret since: ``sealed``, as ``think`` takes them). Tables wait for a free worker in
        the order they asked."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        await self._slots.acquire()
        future = None
        try:
            for attempt in range(2):
                try:
                    future = self._pool().submit(think, variant_ref, record, bot, seed, self.think, sealed)
                    return await asyncio.wrap_future(future)
                except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh, once
                    self.close()
                    if attempt:
                        raise
            raise AssertionError("unreachable")
        finally:
            self._free_when_done(self._slots, future)

    @staticmethod
    def _free_when_done(slots: asyncio.Semaphore, future) -> None:
        """The worker's slot is free once its job is done: at once, unless the caller stopped
        waiting while the job runs in a worker (cancelling the wrapped future could not stop
        it); then when the worker is done."""
        if future is None or future.done():
            slots.release()
            return
        loop = asyncio.get_running_loop()

        def free(_done) -> None:  # in the pool's thread: the semaphore belongs to the loop
            with contextlib.suppress(RuntimeError):  # the loop closed first (the server stopped)
                loop.call_soon_threadsafe(slots.release)
        future.add_done_callback(free)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


# ---------------------------------------------------------------- in the worker process

_VARIANTS: dict[str, Any] = {}


def think(variant_ref: str, record: dict, bot: str, seed: str, think_time: float | None,
          sealed: tuple = ((), None, None)) -> str:
    """In a worker: the decision of bot ``bot`` at the end of ``record`` (record notation).
    In a phase chosen at once the record a seat may see ends before the phase's choices:
    ``sealed`` is (the seats that have chosen since, in order; the bot's seat's own choice in
    notation, or None; the bot's seat: ``Table.sealed_choices``), put back with the others'
    unknown (``with_sealed_choices``), so that the bot decides for its own seat."""
    from azul_core.engine.notation import format_decision, parse_decision
    from azul_core.players.phase_words import with_sealed_choices
    from azul_core.players.registry import make_bot
    from azul_core.records.game_record import record_from_data, replay_state
    from azul_core.variants import load_variant

    variant = _VARIANTS.get(variant_ref)
    if variant is None:
        variant = _VARIANTS[variant_ref] = load_variant(variant_ref)
    state = replay_state(record_from_data(record, "the table"), variant)
    chosen, own, seat = sealed
    if chosen:
        own_choice = None if own is None else parse_decision(own, variant.rules.colour_letters,
                                                             variant.rules.colour_names)
        state = with_sealed_choices(state, list(chosen), own_choice, seat)
    # The game as the seat to move may know it: a bot never sees another seat's secret.
    seen = state.for_seat(state.to_move)
    return format_decision(make_bot(bot, variant.rules, seed=seed, think=think_time).choose(seen),
                           variant.rules.colour_letters)


def _worker_start(parent: int) -> None:
    """Ctrl-C reaches the whole process group: the server alone handles it (and ends the pool).
    A worker whose server is gone, however it went, ends itself."""
    import signal
    import threading
    import time
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(1)
            if os.getppid() != parent:
                os._exit(1)
    threading.Thread(target=watch, name="azul-server-watch", daemon=True).start()


__all__ = ["BotPool", "QUICK_BOTS", "default_workers", "is_search_bot", "think"]
