"""Playing a run's games on a Dask cluster: ``azul simulate --cluster ADDRESS``.

``ADDRESS`` is ``local`` (a ``LocalCluster`` of ``--workers`` processes on this
machine, on the loopback interface) or ``tcp://HOST:PORT`` (a running
``dask scheduler`` with ``dask worker``s that have azul-variants installed).

Games are sent in small chunks of game numbers; each game is seeded from the
run's seed and its number (``simulate.game_seed``), so which worker plays it
changes nothing: the results, put back in game order, are those of
``--workers 1``. A variant given as a file travels with the task: its file,
the files it ``extends`` and its plugin ``.py`` files are sent as bytes and
written to a temporary folder on the worker, so a house rule that works here
works there. Plugins named by an installed name must be installed on every
worker; where one is missing the error names the worker. Records are written
here, as chunks come back, so what finished is kept when a run is stopped.

Dask is optional: ``pip install ".[cluster]"``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

#: How to get Dask, said wherever it is missing.
INSTALL_CLUSTER = 'pip install ".[cluster]" in the azul-variants folder, or pip install "dask[distributed]"'

#: Seconds to wait for a scheduler named by address before giving up.
CONNECT_TIMEOUT = 10


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


class ClusterError(Exception):
    """A cluster that can't be used; one line for the user."""


# ---------------------------------------------------------------- the variant's files


@dataclass(frozen=True)
class VariantFiles:
    """A variant file with the files it needs, as bytes: what a worker writes to disk to
    load the same variant. ``main`` is the variant file's path among ``files``."""

    main: str
    files: tuple[tuple[str, bytes], ...]

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for name, data in self.files:
            h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        return h.hexdigest()[:16]

    def write(self, root: Path) -> Path:
        """Write the files under ``root`` (once per content) and return the variant file's path."""
        folder = root / f"azul-variant-{self.digest}"
        if not (folder / self.main).is_file():
            # The variant file last: workers of one machine take its presence to mean that the
            # files it extends and its plugins are written too.
            for name, data in sorted(self.files, key=lambda file: file[0] == self.main):
                target = folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                partial = target.with_name(target.name + f".{os.getpid()}.part")
                partial.write_bytes(data)
                os.replace(partial, target)  # workers of one machine may write the same files
        return folder / self.main


def variant_files(variant) -> VariantFiles | None:
    """The files a worker needs to load ``variant``; ``None`` for a built-in variant (every
    worker has those, found by name)."""
    from azul_core.variants.loading import builtin_variants
    path = Path(variant.path).resolve()
    if any(builtin.resolve() == path for builtin in builtin_variants().values()):
        return None
    needed = _variant_chain(path)
    needed += [Path(plugin.file).resolve() for plugin in variant.plugins
               if plugin.origin.startswith("file ") and plugin.file]
    needed = list(dict.fromkeys(needed))
    root = Path(os.path.commonpath([str(p.parent) for p in needed]))
    files = tuple((p.relative_to(root).as_posix(), p.read_bytes()) for p in needed)
    return VariantFiles(path.relative_to(root).as_posix(), files)


def _variant_chain(path: Path) -> list[Path]:
    """``path`` and the variant files it extends, built-in variants left out."""
    from azul_core.variants.files import read_mapping
    from azul_core.variants.loading import builtin_variants, find_variant
    builtins = {p.resolve() for p in builtin_variants().values()}
    chain: list[Path] = []
    while path not in chain and path not in builtins:
        chain.append(path)
        data, _problems = read_mapping(path, str(path))
        base = data.get("extends") if isinstance(data, dict) else None
        if not isinstance(base, str) or not base:
            break
        path = find_variant(base, path.parent).resolve()
    return chain


# ---------------------------------------------------------------- on a worker


_WORKER_VARIANTS: dict[str, Any] = {}


def play_chunk(job, variant: str | VariantFiles, numbers: list[int]):
    """Run on a worker: load the variant (once per worker process) and play games ``numbers``."""
    from azul_core.engine.plugins import PluginError
    from azul_core.lab.simulate import SimulationError, _play_games
    from azul_core.variants.loading import VariantError, load_variant
    key = variant if isinstance(variant, str) else variant.digest
    loaded = _WORKER_VARIANTS.get(key)
    if loaded is None:
        try:
            ref = variant if isinstance(variant, str) else \
                str(variant.write(Path(tempfile.gettempdir())))
            loaded = _WORKER_VARIANTS[key] = load_variant(ref)
        except VariantError as exc:
            reasons = "; ".join(problem.message for problem in exc.problems)
            raise SimulationError(f"worker {_worker_address()} can't load the variant: {reasons} "
                                  "(a plugin named by its installed name must be installed on every "
                                  "worker)") from None
        except PluginError as exc:
            raise SimulationError(f"worker {_worker_address()} can't load the variant: {exc}",
                                  plugin=exc.plugin, hook=exc.hook) from None
    return _play_games(job, numbers, loaded)


def _worker_address() -> str:
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):
        return "(unknown)"
    return str(worker.address)


# ---------------------------------------------------------------- here


class Cluster:
    """A connection to a Dask cluster, opened by ``open_cluster`` and closed when done
    (a local cluster is stopped with it). One can serve several runs (``azul compare``)."""

    def __init__(self, address: str, workers: int):
        if not dask_available():
            raise ClusterError(f"--cluster needs Dask, which is not installed: {INSTALL_CLUSTER}")
        import logging

        from distributed import Client, LocalCluster
        self.address = address
        self.local = None
        try:
            if address == "local":
                with _workers_ignore_ctrl_c():
                    self.local = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                              processes=True, host="127.0.0.1", dashboard_address=None,
                                              silence_logs=logging.ERROR)
                self.client = Client(self.local, set_as_default=False)
            elif address.startswith(("tcp://", "tls://")):
                self.client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
            else:
                raise ClusterError(f"--cluster takes 'local' or a scheduler's address like "
                                   f"tcp://HOST:8786, not '{address}'")
        except ClusterError:
            raise
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(f"can't reach the Dask scheduler at {address}: {exc}") from None

    def play(self, job, variant, numbers: list[int], progress=None) -> list:
        """Play games ``numbers`` of ``job`` here (see ``play_on_cluster``)."""
        return play_on_cluster(self, job, variant, numbers, progress)

    def slots(self) -> int:
        """How many games can be played at once: the workers' threads."""
        return max(1, sum(self.client.nthreads().values()))

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.local is not None:
            self.local.close()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


@contextlib.contextmanager
def _workers_ignore_ctrl_c():
    """Start worker processes with Ctrl-C ignored (they inherit it): Ctrl-C at the terminal
    reaches the whole process group, and here, not in each worker, the run is stopped,
    the games not started cancelled and the cluster closed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def open_cluster(address: str, workers: int = 1) -> Cluster:
    return Cluster(address, workers)


def play_on_cluster(cluster: Cluster, job, variant, numbers: list[int],
                    progress: Callable[[int, int], Any] | None = None,
                    on_interrupt: Callable[[list], Any] | None = None) -> list:
    """Play games ``numbers`` on ``cluster``; the results in game order.

    Records asked for by ``job.record_dir`` are written here as chunks come back. On
    Ctrl-C the games not started are cancelled and ``SimulationInterrupted`` says how
    many finished.
    """
    from distributed import KilledWorker, as_completed

    from azul_core.lab.simulate import SimulationError, SimulationInterrupted, write_records
    sent = variant_files(variant) or variant.name
    remote_job = replace(job, record_dir=None, keep_records=job.record_dir is not None)
    size = max(1, min(50, len(numbers) // (cluster.slots() * 8)))
    chunks = [numbers[i:i + size] for i in range(0, len(numbers), size)]
    client = cluster.client
    futures = [client.submit(play_chunk, remote_job, sent, chunk, pure=False) for chunk in chunks]
    done: list = []
    try:
        for future in as_completed(futures, loop=client.loop):
            for result in future.result():
                if job.record_dir is not None:
                    write_records(job.record_dir, [result])
                done.append(result)  # after its record: what counts as finished has one
            if progress is not None:
                progress(len(done), len(numbers))
    except KeyboardInterrupt:
        client.cancel(futures)
        raise SimulationInterrupted(len(done), len(numbers), job.record_dir) from None
    except (KilledWorker, OSError) as exc:  # a worker died, the scheduler went away
        client.cancel(futures)
        raise SimulationError(f"the cluster at {cluster.address} failed: {type(exc).__name__}: {exc}") from None
    except BaseException:
        client.cancel(futures)
        raise
    done.sort(key=lambda result: result.game)
    return done
