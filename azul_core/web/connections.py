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
  limits them (``per_address`` 0 turns this guard off).
"""

from __future__ import annotations

import asyncio
from collections import Counter

from azul_core.web.app import client_key


class ConnectionGuard:
    """The connections each client address holds, and the limits."""

    def __init__(self, request_timeout: float, per_address: int):
        self.request_timeout = request_timeout
        self.per_address = per_address
        self.held: Counter[str] = Counter()

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """Count a new connection: its address key, or None when the address holds enough."""
        peer = transport.get_extra_info("peername")
        key = client_key(peer[0] if isinstance(peer, (tuple, list)) and peer else None)
        if self.per_address and self.held[key] >= self.per_address:
            return None
        self.held[key] += 1
        return key

    def release(self, key: str | None) -> None:
        if key is None:
            return
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]


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


__all__ = ["ConnectionGuard", "guarded_protocols"]
