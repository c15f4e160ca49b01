"""Load test of the online table (``azul serve``), on loopback only, bounded in count and time.

For each N (default 50, 200, 500): start ``azul serve --port 0`` on a fresh data folder (or
``--processes`` of them on one fresh PostgreSQL schema with ``--database``), create N
four-player standard tables, open four WebSocket clients per table (one per seat; with several
processes the seats of a table are spread over them, as a proxy without sticky sessions would)
and let each client play random legal moves on its turn until every table has made ``--moves``
moves (or ``--limit`` seconds passed). The clients ask for changes (``update`` messages) unless
``--whole`` asks for the whole state each time, as before; they read the version and the legal
moves from a message and do not apply the changes (a page would). Reported per N:

- moves per second accepted by the server (all tables together);
- the 50th and 99th percentile time from a move sent to the moment the last of its
  table's four clients received the update carrying it (the server's judging, its SQLite
  commit, the fan-out, and the load generator's own delays).

``--think`` is the time a client waits before sending its move (uniform between 0.5x and
1.5x), as a person would, and the tables' first moves are spread over two think times;
``--think 0`` plays as fast as possible (a saturation run, where latency is mostly queueing).
The load generator runs in this process on the other core; ``--pin`` makes sure of it: the
server processes run on one core (``taskset``) and the load generator on another, so they do
not take each other's CPU (other jobs of the machine still may: each run reports the load
average, 1, 5 and 15 minutes, before and after it, how many cores the server kept busy (its
CPU time over the run's time) and how long the server and the load generator were ready to
run but waited for a CPU (``/proc/PID/schedstat``): the part of the latency the machine's
other jobs are to blame for).

    python bench/web_load.py                      # 50, 200, 500 tables, think 1 s
    python bench/web_load.py --tables 200 --think 0 --moves 30 --json
    python bench/web_load.py --tables 500 --database postgresql://azul@127.0.0.1/azul --processes 2
    python bench/web_load.py --tables 500 --pin              # server on one core, clients on another
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from contextlib import contextmanager
from urllib.parse import quote

VERSION = re.compile(r'"version":(\d+)')


class Table:
    """One table of the run: its moves so far, the move in flight and who has heard it."""

    def __init__(self, number: int, created: dict, budget: int):
        self.number = number
        self.id = created["table"]
        self.secrets = [seat["url"].split("#seat=", 1)[1] for seat in created["seats"]]
        self.budget = budget
        self.sent = 0
        #: version that carries a move -> (when it was sent, the seats that have heard it)
        self.pending: dict[int, tuple[float, set]] = {}
        self.done = asyncio.Event()


class Run:
    def __init__(self, urls: list[str], tables: int, moves: int, think: float, limit: float, seed: int,
                 whole: bool = False):
        self.urls = urls
        self.url = urls[0]
        self.whole = whole
        self.count = tables
        self.moves = moves
        self.think = think
        self.limit = limit
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.accepted = 0
        self.refused = 0
        self.errors = 0
        #: bytes the clients received after the state on joining (every message, all clients)
        self.received = 0

    def create_tables(self) -> list[Table]:
        tables = []
        body = json.dumps({"variant": "standard", "seats": [{"name": f"P{i}"} for i in range(4)]}).encode()
        for number in range(self.count):
            url = self.urls[number % len(self.urls)]
            request = urllib.request.Request(url + "/api/tables", data=body, method="POST",
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                tables.append(Table(number, json.loads(answer.read()), self.moves))
        return tables

    async def client(self, table: Table, seat: int, ready: asyncio.Barrier, start: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        url = self.urls[(table.number + seat) % len(self.urls)]
        ws_url = url.replace("http://", "ws://") + f"/ws/{table.id}"
        async with connect(ws_url, proxy=None, max_size=2 ** 20, compression=None) as socket:
            await socket.send(json.dumps({"type": "hello", "secret": table.secrets[seat], "version": None,
                                          "changes": not self.whole}))
            await ready.wait()
            await start.wait()
            # The first state may have come before the start: read it now.
            joined = False
            async for text in socket:
                now = time.perf_counter()
                if joined:  # the state on joining is whole either way: not counted
                    self.received += len(text)
                joined = True
                if not text.startswith(('{"type":"state"', '{"type":"update"')):
                    if text.startswith('{"type":"refused"'):
                        self.refused += 1
                    continue
                version = int(VERSION.search(text, 0, 40).group(1))
                for carrying in [v for v in table.pending if v <= version]:
                    sent_at, heard = table.pending[carrying]
                    heard.add(seat)
                    if len(heard) == 4:
                        del table.pending[carrying]
                        self.latencies.append(now - sent_at)
                        self.accepted += 1
                if table.sent >= table.budget and not table.pending:
                    table.done.set()
                if table.done.is_set():
                    return
                if '"legal":{' not in text:
                    continue
                message = json.loads(text)
                legal = message["legal"]
                options = legal["columns"] or legal["drafts"]
                if not options:
                    table.done.set()
                    return
                if table.sent >= table.budget:
                    continue
                move = self.rng.choice(options)["move"]
                if self.think:
                    # Tables start at different moments (spread over two think times), as people
                    # arrive; then each move after a think time.
                    spread = 2 * self.think * self.rng.random() if table.sent == 0 else 0.0
                    await asyncio.sleep(spread + self.think * (0.5 + self.rng.random()))
                table.sent += 1
                table.pending[message["version"] + 1] = (time.perf_counter(), set())
                await socket.send(json.dumps({"type": "move", "version": message["version"], "move": move}))

    async def play(self, tables: list[Table]) -> float:
        ready = asyncio.Barrier(len(tables) * 4 + 1)
        start = asyncio.Event()
        tasks = [asyncio.create_task(self.client(t, seat, ready, start)) for t in tables for seat in range(4)]
        await ready.wait()
        began = time.perf_counter()
        start.set()
        done = asyncio.gather(*(t.done.wait() for t in tables))
        try:
            await asyncio.wait_for(done, self.limit)
        except asyncio.TimeoutError:
            pass
        elapsed = time.perf_counter() - began
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        self.errors = sum(1 for r in results if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError))
        return elapsed


def start_server(data: str, database: str | None = None, core: int | None = None) -> tuple[subprocess.Popen, str]:
    """``azul serve`` on a free port (on CPU ``core`` alone, when given): the process and its URL."""
    pinned = ["taskset", "--cpu-list", str(core)] if core is not None else []
    command = [*pinned, sys.executable, "-c", "from azul_core.cli import main; main()", "serve", "--host", "127.0.0.1",
               "--port", "0", "--data", data, "--bot-delay", "0", "--tables-per-hour", "1000000",
               "--max-open-tables", "1000000", *(["--database", database] if database else []),
               # every client is one address here (loopback): no per-address bound; room for 2,000
               "--max-connections-per-address", "0", "--max-connections", "10000"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    match = re.match(r"Serving on (http://127\.0\.0\.1:\d+)", line)
    if not match:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, match.group(1)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stream:
        fields = stream.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_for_cpu(pid: int | str) -> float:
    """Seconds the threads of process ``pid`` (``"self"``: this one) have been ready to run but
    waited for a CPU (the second field of each thread's ``schedstat``)."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{thread}/schedstat") as stream:
                total += int(stream.read().split()[1])
        except (OSError, IndexError, ValueError):  # a thread that ended, a kernel without schedstat
            continue
    return total / 1e9


@contextmanager
def fresh_schema(database: str | None):
    """The database URL with a schema of its own for one run (dropped after); None: SQLite."""
    if database is None:
        yield None
        return
    import psycopg
    schema = f"azul_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield database + ("&" if "?" in database else "?") + "options=" + quote(f"-csearch_path={schema}")
    finally:
        with psycopg.connect(database, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


def postgres_cpu_seconds() -> float:
    """CPU of every PostgreSQL process of the machine (the bench's are most of it)."""
    total = 0.0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/comm") as stream:
                    if stream.read().strip() != "postgres":
                        continue
                total += cpu_seconds(int(pid))
            except OSError:
                continue
    return total


def two_cores() -> tuple[int, int]:
    """The CPUs of ``--pin``: the server's and the load generator's (the first two this process may use)."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("--pin needs two CPUs; this process may use only " + ", ".join(map(str, cores)))
    return cores[0], cores[1]


def load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def measure(tables: int, moves: int, think: float, limit: float, seed: int, whole: bool = False,
            database: str | None = None, processes: int = 1, pin: bool = False) -> dict:
    server_core, client_core = two_cores() if pin else (None, None)
    load_before = load_average()
    allowed = os.sched_getaffinity(0)
    with tempfile.TemporaryDirectory() as data, fresh_schema(database) as url_of_schema:
        started = []
        try:
            for number in range(processes):
                started.append(start_server(os.path.join(data, str(number)), url_of_schema, server_core))
            if client_core is not None:
                os.sched_setaffinity(0, {client_core})
            run = Run([url for _process, url in started], tables, moves, think, limit, seed, whole)
            created = run.create_tables()
            cpu_before = sum(cpu_seconds(process.pid) for process, _url in started)
            server_wait_before = sum(waited_for_cpu(process.pid) for process, _url in started)
            client_wait_before = waited_for_cpu("self")
            database_before = postgres_cpu_seconds() if database else 0.0
            mine_before = resource.getrusage(resource.RUSAGE_SELF)
            elapsed = asyncio.run(run.play(created))
            server_cpu = sum(cpu_seconds(process.pid) for process, _url in started) - cpu_before
            server_waited = sum(waited_for_cpu(process.pid) for process, _url in started) - server_wait_before
            client_waited = waited_for_cpu("self") - client_wait_before
            database_cpu = postgres_cpu_seconds() - database_before if database else 0.0
            mine = resource.getrusage(resource.RUSAGE_SELF)
            client_cpu = mine.ru_utime + mine.ru_stime - mine_before.ru_utime - mine_before.ru_stime
        finally:
            os.sched_setaffinity(0, allowed)
            for process, _url in started:
                process.send_signal(signal.SIGTERM)
            for process, _url in started:
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
    latencies = sorted(run.latencies)

    def percentile(p: float) -> float | None:
        if not latencies:
            return None
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] * 1000

    return {"tables": tables, "clients": tables * 4, "think_s": think, "updates": "whole" if whole else "changes",
            "store": "postgresql" if database else "sqlite", "processes": processes, "moves": run.accepted,
            "seconds": round(elapsed, 2), "moves_per_s": round(run.accepted / elapsed, 1) if elapsed else None,
            "p50_ms": round(percentile(50), 1) if latencies else None,
            "p99_ms": round(percentile(99), 1) if latencies else None,
            "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
            "server_cpu_s": round(server_cpu, 2),
            "server_cpu_ms_per_move": round(server_cpu / run.accepted * 1000, 2) if run.accepted else None,
            "database_cpu_ms_per_move": round(database_cpu / run.accepted * 1000, 2) if run.accepted else None,
            "client_cpu_s": round(client_cpu, 2),
            "kb_received_per_move": round(run.received / run.accepted / 1024, 1) if run.accepted else None,
            "server_cores_busy": round(server_cpu / elapsed, 2) if elapsed else None,
            "server_waited_for_cpu_s": round(server_waited, 2), "clients_waited_for_cpu_s": round(client_waited, 2),
            "pinned": pin, "load_average_before": load_before, "load_average_after": load_average(),
            "refused": run.refused, "client_errors": run.errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,200,500", help="table counts to run, comma-separated")
    parser.add_argument("--moves", type=int, default=20, help="moves per table (bounded run)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a client waits before moving")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds a run may last at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--whole", action="store_true", help="clients ask for the whole state at each move")
    parser.add_argument("--database", metavar="URL",
                        help="a PostgreSQL database to serve from (each run in a fresh schema of it)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (with --database)")
    parser.add_argument("--pin", action="store_true",
                        help="run the server processes on one CPU and the load generator on another (taskset)")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    if options.processes > 1 and not options.database:
        parser.error("several processes share tables only through --database")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # 4 sockets per table, both ends
    results = []
    for count in (int(n) for n in options.tables.split(",")):
        result = measure(count, options.moves, options.think, options.limit, options.seed, options.whole,
                         options.database, options.processes, options.pin)
        results.append(result)
        if not options.json:
            print(f"{count:4d} tables ({count * 4} clients), think {options.think:g} s, {result['updates']}, "
                  f"{result['store']} x {options.processes} process(es): "
                  f"{result['moves']} moves in {result['seconds']} s = {result['moves_per_s']} moves/s; "
                  f"move -> all 4 clients p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms; "
                  f"server {result['server_cpu_ms_per_move']} CPU ms/move, database "
                  f"{result['database_cpu_ms_per_move']} CPU ms/move, load generator "
                  f"{result['client_cpu_s']} CPU s; clients received {result['kb_received_per_move']} KB/move; "
                  f"server busy {result['server_cores_busy']} core(s)"
                  f"{' (pinned: server and clients on a core each)' if options.pin else ''}, "
                  f"waited {result['server_waited_for_cpu_s']} s for a CPU (clients "
                  f"{result['clients_waited_for_cpu_s']} s); "
                  f"load average (1/5/15 min) {result['load_average_before']} before, "
                  f"{result['load_average_after']} after; "
                  f"refused {result['refused']}, client errors {result['client_errors']}", flush=True)
    if options.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
