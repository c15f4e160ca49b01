"""Connections uvicorn alone would keep open forever: slow requests and one address's many sockets.

uvicorn closes an idle keep-alive connection after a response (``timeout_keep_alive``)
and a WebSocket that answers no ping, but not a connection whose request never
completes: a socket that sends nothing, or a header a byte at a time (slowloris),
stays open, and 1,100 of them from one client use up the process's 1,024 file
descriptors. ``guarded_protocols`` gives uvicorn's HTTP/1.1 and WebSocket protocols
two guards:

- a request must arrive whole (head and body) within ``request_timeout`` seconds of
  the connection being opened or of the previous response; else the connection is
  closed;
- one client address (an IPv6 /64 counted as one, as the table limits do) holds at
  most ``per_address`` connections, WebSockets included; one more is closed at
  once. Behind a reverse proxy every connection comes from the proxy: the proxy
  limits them (``per_address`` 0 turns this guard off);
- the server serves at most ``most`` connections, WebSockets included (uvicorn's own
  ``limit_concurrency`` looks only at plain requests, so an upgraded socket was never
  refused and WebSockets could use up every file descriptor). Beyond ``most``,
  ``HEALTH_CHECK_ROOM`` more are accepted, where ``ConnectionLimit`` answers ``/healthz``
  and refuses anything else (503, a WebSocket handshake too); beyond those, a connection
  is closed at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from typing import Callable

from azul_core.web.app import client_key

#: connections accepted beyond the limit to answer ``/healthz`` (and refuse the rest), so a
#: monitor still learns that a full server is up
HEALTH_CHECK_ROOM = 16


class ConnectionGuard:
    """The connections each client address holds, and the limits."""

    def __init__(self, request_timeout: float, per_address: int, most: int = 0):
        self.request_timeout = request_timeout
        self.per_address = per_address
        #: connections served at most, WebSockets included (0: no limit)
        self.most = most
        self.held: Counter[str] = Counter()
        self.total = 0

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """Count a new connection: its address key, or None when the address holds enough or
        the server is full even for health checks."""
        if self.most and self.total >= self.most + HEALTH_CHECK_ROOM:
            return None
        peer = transport.get_extra_info("peername")
        key = client_key(peer[0] if isinstance(peer, (tuple, list)) and peer else None)
        if self.per_address and self.held[key] >= self.per_address:
            return None
        self.held[key] += 1
        self.total += 1
        return key

    def release(self, key: str | None) -> None:
        if key is None:
            return
        self.total -= 1
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]

    @property
    def beyond_limit(self) -> bool:
        """More connections are open than may be served: only ``/healthz`` is answered."""
        return bool(self.most) and self.total > self.most


class ConnectionLimit:
    """The ASGI application seen through ``guard``: while more connections are open than
    the limit, any request but ``/healthz`` is a 503 with a reason, and so is a WebSocket
    handshake (refused before it is upgraded, so the socket is closed after the answer)."""

    def __init__(self, app, guard: ConnectionGuard):
        self.app = app
        self.guard = guard

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket") and scope["path"] != "/healthz" and self.guard.beyond_limit:
            body = json.dumps({"error": f"the server holds as many connections as it serves "
                                        f"({self.guard.most}): try again in a moment"}).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                       (b"retry-after", b"5"), (b"connection", b"close")]
            if scope["type"] == "http":
                await send({"type": "http.response.start", "status": 503, "headers": headers})
                await send({"type": "http.response.body", "body": body})
            elif "websocket.http.response" in scope.get("extensions", {}):
                await send({"type": "websocket.http.response.start", "status": 503, "headers": headers})
                await send({"type": "websocket.http.response.body", "body": body})
            else:  # a server without the extension answers the refused handshake with 403
                await send({"type": "websocket.close", "code": 1013})
            return
        await self.app(scope, receive, send)


class InvalidTextLog(logging.Filter):
    """uvicorn's log of a WebSocket text frame that is not UTF-8 (the socket is closed with
    1007) made one line, at most one per ``every`` seconds, the next one counting those not
    told: uvicorn logs each with its traceback, 30 lines for every frame a client cares to send."""

    UVICORNS_MESSAGE = "Invalid UTF-8 sequence received from client."

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.every = every
        self.clock = clock
        self.told_at: float | None = None
        self.untold = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != self.UVICORNS_MESSAGE:
            return True
        now = self.clock()
        if self.told_at is not None and now - self.told_at < self.every:
            self.untold += 1
            return False
        record.msg = "a WebSocket text frame was not UTF-8: closed with 1007%s"
        record.args = (f" ({self.untold} more since the last such line)" if self.untold else "",)
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        self.told_at, self.untold = now, 0
        return True


def quiet_invalid_text(logger: logging.Logger) -> None:
    """Give ``logger`` (uvicorn's ``uvicorn.error``) one ``InvalidTextLog``, once."""
    if not any(isinstance(existing, InvalidTextLog) for existing in logger.filters):
        logger.addFilter(InvalidTextLog())


def guarded_protocols(guard: ConnectionGuard) -> tuple[type, type]:
    """uvicorn's h11 HTTP protocol and its WebSocket protocol, with ``guard``'s limits (give
    both to ``uvicorn.Config`` as ``http`` and ``ws``)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    class GuardedWebSocket(AutoWebSocketsProtocol):  # type: ignore[valid-type,misc]
        """A WebSocket keeps the address count of the HTTP connection it was upgraded from."""

        address_key: str | None = None

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.address_key)
            self.address_key = None
            super().connection_lost(exc)

    class GuardedHTTP(H11Protocol):
        address_key: str | None = None
        request_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.address_key = guard.admit(transport)
            if self.address_key is None:
                transport.abort()
                return
            self.arm_request_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self.disarm_request_timer()
            guard.release(self.address_key)
            self.address_key = None
            super().connection_lost(exc)

        def arm_request_timer(self) -> None:
            self.disarm_request_timer()
            self.request_timer = self.loop.call_later(guard.request_timeout, self.request_too_slow)

        def disarm_request_timer(self) -> None:
            if self.request_timer is not None:
                self.request_timer.cancel()
                self.request_timer = None

        def request_too_slow(self) -> None:
            self.request_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def handle_events(self) -> None:
            super().handle_events()
            # The whole request is in (or the client is gone): it was not too slow.
            if self.request_timer is not None and self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED):
                self.disarm_request_timer()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self.arm_request_timer()  # the next request on this connection must be quick too

        def handle_websocket_upgrade(self, event) -> None:
            self.disarm_request_timer()
            key, self.address_key = self.address_key, None
            super().handle_websocket_upgrade(event)
            upgraded = self.transport.get_protocol()
            if isinstance(upgraded, GuardedWebSocket):
                upgraded.address_key = key  # released when the WebSocket closes
            else:
                guard.release(key)

    return GuardedHTTP, GuardedWebSocket


__all__ = ["HEALTH_CHECK_ROOM", "ConnectionGuard", "ConnectionLimit", "InvalidTextLog", "guarded_protocols",
           "quiet_invalid_text"]
