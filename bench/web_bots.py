"""Search bots against the other tables: does a table of people stay quick while bots think?

Starts ``azul serve --port 0`` on loopback (fresh data folder, ``--bot-delay 0``), creates
``--bot-tables`` tables of four ``mcts`` bots (``--think`` seconds a move), then, while they
think, measures on two more tables for ``--seconds`` seconds:

- **ping**: a seat of a table of two people sends ``{"type": "ping"}`` every 50 ms and times
  the ``pong`` (the event loop's responsiveness, as a page feels it);
- **bot reply**: at a table of a person and a ``random`` bot, the person plays a random legal
  move; the time from sending it to receiving the state after the bot's answer (the judging,
  the commit and the quick bot's thread, behind the search bots).

Also counted: the moves the bot tables made (the workers' throughput). Reported: p50, p95 and
max of each, with the load average.

    python bench/web_bots.py                           # 10 tables of four mcts, think 1 s, 30 s
    python bench/web_bots.py --bot-tables 10 --seconds 60 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request


def start_server(data: str, think: float, options: list[str]) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-c", "from azul_core.cli import main; main()", "serve", "--host", "127.0.0.1",
               "--port", "0", "--data", data, "--bot-delay", "0", "--think", str(think),
               "--tables-per-hour", "1000", "--search-tables-per-address", "1000", *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = process.stdout.readline()
    match = re.match(r"Serving on (http://127\.0\.0\.1:\d+)", line)
    if not match:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, match.group(1)


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def secret(seat_url: str) -> str:
    return seat_url.split("#seat=", 1)[1]


async def open_seat(url: str, table: str, seat_secret: str):
    from websockets.asyncio.client import connect
    socket = await connect(url.replace("http", "ws") + f"/ws/{table}", max_size=4 * 1024 * 1024)
    await socket.send(json.dumps({"type": "hello", "secret": seat_secret, "version": None}))
    return socket


async def next_of(socket, kind: str) -> dict:
    while True:
        message = json.loads(await socket.recv())
        if message["type"] == kind:
            return message


async def pings(url: str, seconds: float) -> list[float]:
    created = post(url, {"variant": "standard", "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    socket = await open_seat(url, created["table"], secret(created["seats"][0]["url"]))
    await next_of(socket, "state")
    times = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        sent = time.perf_counter()
        await socket.send('{"type":"ping"}')
        await next_of(socket, "pong")
        times.append(time.perf_counter() - sent)
        await asyncio.sleep(0.05)
    await socket.close()
    return times


async def bot_replies(url: str, seconds: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    times: list[float] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:  # a new table when a game ends
        created = post(url, {"variant": "standard", "seats": [{"name": "Ana"}, {"bot": "random"}]})
        socket = await open_seat(url, created["table"], secret(created["seats"][0]["url"]))
        state = await next_of(socket, "state")
        while time.monotonic() < deadline and state["view"]["phase"] != "over":
            if state["legal"] is None:
                state = await next_of(socket, "state")
                continue
            options = state["legal"]["columns"] or state["legal"]["drafts"]
            sent = time.perf_counter()
            await socket.send(json.dumps({"type": "move", "version": state["version"],
                                          "move": rng.choice(options)["move"]}))
            # The bot's answer is in once the person may move again (or the game is over).
            while True:
                state = await next_of(socket, "state")
                if state["legal"] is not None or state["view"]["phase"] == "over":
                    break
            if state["view"]["to_move"] == 0:
                times.append(time.perf_counter() - sent)
        await socket.close()
    return times


def bot_moves(url: str, tables: list[dict]) -> int:
    total = 0
    for created in tables:
        request = urllib.request.Request(url + f"/api/tables/{created['table']}/record",
                                         headers={"Authorization": f"Bearer {created['admin_secret']}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            record = json.loads(answer.read())
        total += sum(len(r["actions"]) for r in record["rounds"])
    return total


def summary(times: list[float]) -> dict:
    ordered = sorted(times)
    if not ordered:
        return {"count": 0}

    def at(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000, 1)
    return {"count": len(ordered), "p50_ms": at(50), "p95_ms": at(95), "max_ms": round(ordered[-1] * 1000, 1)}


def measure(bot_tables: int, think: float, seconds: float, seed: int, options: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as data:
        process, url = start_server(data, think, options)
        try:
            tables = [post(url, {"variant": "standard", "seats": [{"bot": "mcts"}] * 4}) for _ in range(bot_tables)]
            before = bot_moves(url, tables)

            async def both():
                return await asyncio.gather(pings(url, seconds), bot_replies(url, seconds, seed))
            ping_times, reply_times = asyncio.run(both())
            moved = bot_moves(url, tables) - before
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
    return {"bot_tables": bot_tables, "think_s": think, "seconds": seconds, "server_options": options,
            "ping": summary(ping_times), "bot_reply": summary(reply_times),
            "search_bot_moves": moved, "load_average": round(os.getloadavg()[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-tables", type=int, default=10, help="tables of four mcts bots")
    parser.add_argument("--think", type=float, default=1.0, help="mcts thinking time per move, seconds")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("server_options", nargs="*", help="more `azul serve` options (after --)")
    args = parser.parse_args()
    result = measure(args.bot_tables, args.think, args.seconds, args.seed, args.server_options)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['bot_tables']} tables of four mcts (think {result['think_s']} s), {result['seconds']} s, "
          f"load average {result['load_average']}")
    for label, key in (("ping", "ping"), ("random bot's reply", "bot_reply")):
        figures = result[key]
        print(f"  {label}: {figures.get('count')} samples, p50 {figures.get('p50_ms')} ms, "
              f"p95 {figures.get('p95_ms')} ms, max {figures.get('max_ms')} ms")
    print(f"  search bots made {result['search_bot_moves']} moves")


if __name__ == "__main__":
    main()
