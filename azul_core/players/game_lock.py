"""One process per saved game: a lock beside the record, held while the game is played.

Two ``azul play --resume FILE`` of the same file would each save their own
game over the other's. The lock is an advisory ``flock`` on a small file
beside the record (``.NAME.lock``), so it is released by the system when the
process ends, however it ends: a crash leaves no stale lock.
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks here, the game is not locked
    fcntl = None  # type: ignore[assignment]


class GameLocked(Exception):
    """Another process is playing (and saving) this game."""


def lock_path(record: Path) -> Path:
    return record.parent / f".{record.name}.lock"


class GameLock:
    """Hold with ``GameLock.acquire(record)``; ``release()`` when the game is left."""

    def __init__(self, handle: int | None, path: Path):
        self.handle = handle
        self.path = path

    @classmethod
    def acquire(cls, record: Path) -> "GameLock":
        path = lock_path(record)
        if fcntl is None:
            return cls(None, path)
        path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(handle)
                raise GameLocked(f"{record} is being played by another azul process "
                                 f"(lock {path}): leave that game first") from None
            except OSError:
                os.close(handle)  # a file system without locks: play unlocked
                return cls(None, path)
            # The holder before us may have removed the file as we opened it: lock the file
            # that is there now, or two processes would each hold a lock on a different one.
            try:
                same = os.stat(path).st_ino == os.fstat(handle).st_ino
            except FileNotFoundError:
                same = False
            if same:
                return cls(handle, path)
            os.close(handle)

    def release(self) -> None:
        if self.handle is None:
            return
        try:
            os.unlink(self.path)  # while still holding it, so that no one locks a removed file
        except OSError:
            pass
        os.close(self.handle)
        self.handle = None
