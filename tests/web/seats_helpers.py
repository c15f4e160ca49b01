"""Helpers of the seats' tests (reclaim, clocks, rematch): a server in process whose clock the
test moves, and WebSockets that ask for ``seating`` messages."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
import warnings

from test_server import EXAMPLES, receive_json, secret_of

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from azul_core.web.app import Config, create_app


class FakeClock:
    """The server's clock in these tests: it moves only when the test moves it."""

    def __init__(self, start: float = 1_000_000.0):
        self.time = start

    def __call__(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


def seats_config(data, clock: FakeClock | None = None, **options) -> Config:
    seeds = itertools.count(1)
    options.setdefault("bot_delay", 0)
    options.setdefault("think", 0.05)
    if clock is not None:
        options["now"] = clock
    return Config(data=data, variant_dirs=(EXAMPLES,), seed_factory=lambda: f"seats-{next(seeds)}", **options)


@contextlib.contextmanager
def serving(config, catalog):
    """A server in process; yields (client, server) and closes the sockets left open."""
    with TestClient(create_app(config, catalog)) as client:
        sockets: list[Page] = []
        client.sockets = sockets
        try:
            yield client, client.app.server
        finally:
            for socket in sockets:
                socket.close()


class Page:
    """One WebSocket of a table, as the page opens it (with ``seating`` messages): the last
    state and the last seating message it received."""

    def __init__(self, client, table: str, secret: str, seating: bool = True):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        client.sockets.append(self)
        self.ws.send_json({"type": "hello", "secret": secret, "version": None, "seating": seating})
        self.state = None
        self.seating = None
        self.kinds: list[str] = []
        self.refusals: list[dict] = []
        self.wait(lambda page: page.state is not None and (page.seating is not None or not seating))

    def receive(self) -> dict:
        message = receive_json(self.ws)
        self.kinds.append(message["type"])
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "seating":
            self.seating = message
        elif message["type"] == "refused":
            self.refusals.append(message)
        return message

    def wait(self, predicate):
        while not predicate(self):
            self.receive()
        return self

    def wait_synced(self, predicate):
        """Wait for a state and the seating message of the same version, which ``predicate``
        (page -> bool) accepts."""
        return self.wait(lambda page: page.seating["version"] == page.state["version"] and predicate(page))

    def after_move(self) -> int:
        """Make a move and wait until this page sees it made; the version before it. (At a
        table with a clock, a friend arriving moves the version on without a move: the page
        may be told of that after it chose its move, which the server still takes.)"""
        version, last = self.state["version"], self.state["last"]
        self.move()
        while True:
            message = self.receive()
            if message["type"] == "refused":
                raise AssertionError(f"the move was refused: {message['reason']}")
            if message["type"] == "state":
                if message["last"] != last and (message["last"] or {}).get("seat") == message["you"]:
                    return version
                version = message["version"]

    def wait_version(self, version: int):
        return self.wait(lambda page: page.state["version"] >= version)

    def move(self, move: str | None = None) -> None:
        legal = self.state["legal"]
        if move is None:
            move = (legal["columns"] or legal["drafts"])[0]["move"]
        self.ws.send_json({"type": "move", "version": self.state["version"], "move": move})

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self.context.__exit__(None, None, None)


def settle(*pages: "Page") -> None:
    """Wait until every page has been told the latest of their versions (the arrivals of the
    pages opened after it, at a table with a clock)."""
    latest = max(page.state["version"] for page in pages)
    for page in pages:
        page.wait_synced(lambda p: p.state["version"] >= latest)


def create(client, seats=None, variant="standard", **body):
    seats = seats if seats is not None else [{"name": "North"}, {"name": "East"}]
    return client.post("/api/tables", json={"variant": variant, "seats": seats, **body})


def secrets_of(created: dict) -> dict[int, str]:
    return {entry["seat"]: secret_of(entry["url"]) for entry in created["seats"] if entry["url"]}


def bearer(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


def call(client, function, *args):
    """Run ``function`` in the server's event loop (where its tables live)."""
    return client.portal.call(lambda: function(*args))


def post(server, path: str, body: dict, secret: str) -> tuple[int, dict]:
    """A POST to a real server (test_browser's ``Server``) with a bearer secret: (status, JSON)."""
    import json
    import urllib.error
    import urllib.request
    request = urllib.request.Request(server.url + path, method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {secret}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def create_with(server, variant: str, seats: list[dict], **body) -> dict:
    """A table made on a real server with more in the body (a clock)."""
    import json
    import urllib.request
    request = urllib.request.Request(server.url + "/api/tables", method="POST",
                                     data=json.dumps({"variant": variant, "seats": seats, **body}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        return json.load(response)


def screenshot(page, path, size: dict) -> None:
    """A screenshot of the page at a viewport size, the viewport put back after."""
    before = page.viewport_size
    page.set_viewport_size(size)
    page.wait_for_timeout(100)  # let the layout settle before the picture
    page.screenshot(path=str(path), full_page=False)
    page.set_viewport_size(before)


class HeldDelay:
    """The bot delay (``Server.bot_pause``) held shut for the seats in ``held`` until the test
    opens it: what a person does within it is done before the bot wakes, whatever the machine's
    speed. ``waiting``: the seats a bot waited for, in order."""

    def __init__(self, client, server, held: tuple[int, ...]):
        self.client = client
        self.gates = {seat: asyncio.Event() for seat in held}
        self.waiting: list[int] = []

        async def pause(table):
            seat = table.bot_to_move()
            self.waiting.append(seat)
            if seat in self.gates:
                await self.gates[seat].wait()

        server.bot_pause = pause

    def open(self, seat: int) -> None:
        self.client.portal.call(self.gates[seat].set)

    def wait_for(self, seats: list[int]) -> None:
        for _ in range(3000):
            if call(self.client, lambda: list(self.waiting)) == seats:
                return
            time.sleep(0.01)
        raise AssertionError(f"the bots waited for {self.waiting}, not {seats}")
