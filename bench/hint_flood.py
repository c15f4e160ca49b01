"""The hint flood (issue 41): do people asking for hints hold up another table's search bot?

Starts ``azul serve --port 0`` on loopback (fresh data folder, ``--bot-delay 0``, the default
``--search-tables-per-address``), then for ``--seconds`` seconds:

- **the flood**: ``--attackers`` players from 127.0.0.1 each make a table of four people with
  hints and play it: at each turn the seat to move asks for a hint and moves at once, without
  waiting for it; a finished game (or a table refused, 429) makes the next. Counted: the tables
  made and refused, the moves, the hints answered and those told the table moved on;
- **the victim**: from 127.0.0.2, a person and an ``mcts`` bot; the person plays a random legal
  move, timed until the bot's answer is in (one ``--think`` of search, plus its wait for a
  worker behind the hints).

Before issue 41 the flood's twelve tables were all taken, each question's search ran to its end
after its table had moved on, and the victim's bot answered in 47.7 s where it took 1.0 s.

    python bench/hint_flood.py                        # 12 attackers, think 1 s, 30 s
    python bench/hint_flood.py --seconds 60 --json -- --bot-workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import signal
import subprocess
import tempfile
import time
from collections import Counter
from urllib.parse import urlsplit

from web_bots import next_of, open_seat, secret, start_server, summary


def post_from(url: str, source: str, body: dict) -> tuple[int, dict]:
    """``POST /api/tables`` from the loopback address ``source`` (the limits count addresses)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(source, 0))
    try:
        connection.request("POST", "/api/tables", json.dumps(body), {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


async def attacker(url: str, deadline: float, rng: random.Random, counts: Counter) -> None:
    body = {"variant": "standard", "hints": True, "seats": [{"name": f"P{n}"} for n in range(4)]}
    while time.monotonic() < deadline:
        status, created = await asyncio.to_thread(post_from, url, "127.0.0.1", body)
        if status != 201:
            counts["tables refused"] += 1
            await asyncio.sleep(0.5)
            continue
        counts["tables made"] += 1
        await play_with_hints(url, created, deadline, rng, counts)


async def play_with_hints(url: str, created: dict, deadline: float, rng: random.Random, counts: Counter) -> None:
    sockets = [await open_seat(url, created["table"], secret(seat["url"])) for seat in created["seats"]]
    latest: list[dict | None] = [None] * len(sockets)
    heard = asyncio.Event()

    async def listen(index: int) -> None:
        async for raw in sockets[index]:
            message = json.loads(raw)
            if message["type"] == "state":
                latest[index] = message
                heard.set()
            elif message["type"] == "hint":
                counts["hints answered" if message["move"] else "hints told the table moved on"] += 1

    listeners = [asyncio.create_task(listen(index)) for index in range(len(sockets))]
    played = -1
    try:
        while time.monotonic() < deadline:
            state = latest[0]
            if state is not None and state["view"]["phase"] == "over":
                break
            mover = None if state is None else latest[state["view"]["to_move"]]
            if (state is None or mover is None or mover["version"] != state["version"]
                    or mover["legal"] is None or state["version"] == played):
                heard.clear()
                try:
                    await asyncio.wait_for(heard.wait(), 1)
                except asyncio.TimeoutError:
                    pass
                continue
            options = mover["legal"]["columns"] or mover["legal"]["drafts"]
            socket = sockets[state["view"]["to_move"]]
            await socket.send(json.dumps({"type": "hint", "version": state["version"]}))
            await socket.send(json.dumps({"type": "move", "version": state["version"],
                                          "move": rng.choice(options)["move"]}))
            played = state["version"]
            counts["moves"] += 1
    finally:
        for task in listeners:
            task.cancel()
        for socket in sockets:
            await socket.close()


async def victim(url: str, deadline: float, rng: random.Random) -> list[float]:
    times: list[float] = []
    while time.monotonic() < deadline:  # a new table when a game ends
        status, created = await asyncio.to_thread(
            post_from, url, "127.0.0.2", {"variant": "standard", "seats": [{"name": "Ana"}, {"bot": "mcts"}]})
        assert status == 201, created
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
            while True:  # the bot's answer is in once the person may move again (or the game is over)
                state = await next_of(socket, "state")
                if state["legal"] is not None or state["view"]["phase"] == "over":
                    break
            if state["view"]["to_move"] == 0:
                times.append(time.perf_counter() - sent)
        await socket.close()
    return times


def measure(attackers: int, think: float, seconds: float, seed: int, options: list[str]) -> dict:
    counts: Counter = Counter()
    with tempfile.TemporaryDirectory() as data:
        # start_server lifts the search-table limit for its own bench: the default is put back
        process, url = start_server(data, think, ["--search-tables-per-address", "3", *options])
        try:
            async def both():
                deadline = time.monotonic() + seconds
                flood = [attacker(url, deadline, random.Random(seed * 100 + n), counts) for n in range(attackers)]
                results = await asyncio.gather(victim(url, deadline, random.Random(seed)), *flood)
                return results[0]
            replies = asyncio.run(both())
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
    return {"attackers": attackers, "think_s": think, "seconds": seconds, "server_options": options,
            "victim_bot_reply": summary(replies), "flood": dict(counts),
            "load_average": round(os.getloadavg()[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, default=12, help="players making tables of four with hints")
    parser.add_argument("--think", type=float, default=1.0, help="mcts thinking time per move, seconds")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to measure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("server_options", nargs="*", help="more `azul serve` options (after --)")
    args = parser.parse_args()
    result = measure(args.attackers, args.think, args.seconds, args.seed, args.server_options)
    if args.json:
        print(json.dumps(result))
        return
    figures = result["victim_bot_reply"]
    print(f"{result['attackers']} attackers asking for hints (think {result['think_s']} s), {result['seconds']} s, "
          f"load average {result['load_average']}")
    print(f"  the victim's mcts reply: {figures.get('count')} samples, p50 {figures.get('p50_ms')} ms, "
          f"p95 {figures.get('p95_ms')} ms, max {figures.get('max_ms')} ms")
    print("  the flood: " + ", ".join(f"{count} {what}" for what, count in sorted(result["flood"].items())))


if __name__ == "__main__":
    main()
