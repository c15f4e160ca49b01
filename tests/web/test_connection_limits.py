"""``azul serve`` as a real process against a WebSocket flood (issue 41): WebSockets count toward
``--max-connections`` and ``--max-connections-per-address``, a full server still answers
``/healthz``, and sockets beyond that room are closed at once, so the file descriptors last.

Each socket here is read until the server closes it, so the server has let go of it before
the next one is opened: the counts are exact, not a race."""

from __future__ import annotations

import json
import signal
import socket

import pytest

pytest.importorskip("uvicorn")
from test_hardening_cli import address, closed_within, health, open_socket  # noqa: E402
from test_server_cli import RunningServer  # noqa: E402

from azul_core.web.connections import HEALTH_CHECK_ROOM  # noqa: E402

SEATS = [{"name": "A"}, {"name": "B"}]


@pytest.fixture
def servers():
    started = []

    def start(*args):
        server = RunningServer(*args)
        started.append(server)
        return server
    try:
        yield start
    finally:
        for server in started:
            server.stop(signal.SIGKILL)


def read_until_closed(sock: socket.socket) -> bytes:
    sock.settimeout(10)
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass
    return answer


def request(server, method: str, path: str, body: dict | None = None, source: str = "127.0.0.1") -> tuple[int, dict]:
    """A request on its own connection, read until the server closes it: (status, JSON answer)."""
    data = json.dumps(body).encode() if body is not None else b""
    sock = open_socket(server, source)
    try:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
        answer = read_until_closed(sock)
    finally:
        sock.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(payload)


def open_websocket(server, table: str, source: str) -> tuple[socket.socket, bytes]:
    """A WebSocket handshake to ``table`` from ``source``: the socket and the server's answer
    (its head only when upgraded; when refused, all of it, read until the server closed)."""
    sock = open_socket(server, source)
    host, port = address(server)
    answer = b""
    try:  # a connection refused at once may be reset before the handshake is even sent
        sock.sendall((f"GET /ws/{table} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        sock.settimeout(10)
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(65536)
            if not chunk:
                return sock, answer
            answer += chunk
    except (ConnectionResetError, BrokenPipeError):
        return sock, answer
    if not answer.startswith(b"HTTP/1.1 101"):
        answer += read_until_closed(sock)
    return sock, answer


def test_a_websocket_flood_from_many_addresses_is_bounded_by_max_connections(tmp_path, servers):
    """8 addresses opening 5 WebSockets each against --max-connections 20 (the attack held 281
    against 200 and used up every file descriptor): 20 are upgraded, the others refused with
    503 and a reason; /healthz still answers, any other request is a 503 too."""
    server = servers(tmp_path / "data", "--max-connections", "20", "--request-timeout", "60")
    status, created = request(server, "POST", "/api/tables", {"variant": "standard", "seats": SEATS})
    assert status == 201
    upgraded, refused = [], []
    try:
        for attacker in range(8):
            for _ in range(5):
                sock, answer = open_websocket(server, created["table"], f"127.0.1.{attacker + 1}")
                (upgraded if answer.startswith(b"HTTP/1.1 101") else refused).append((sock, answer))
        assert len(upgraded) == 20 and len(refused) == 20
        for sock, answer in refused:
            assert answer.startswith(b"HTTP/1.1 503")
            assert b"the server holds as many connections as it serves (20): try again in a moment" in answer
        assert health(server, "127.0.2.1") == {"ok": True}
        status, answer = request(server, "GET", "/api/variants", source="127.0.2.2")
        assert (status, answer) == (503, {"error": "the server holds as many connections as it serves (20): "
                                                  "try again in a moment"})
    finally:
        for sock, _answer in upgraded + refused:
            sock.close()


def test_sockets_beyond_the_health_check_room_are_closed_at_once(tmp_path, servers):
    server = servers(tmp_path / "data", "--max-connections", "2", "--request-timeout", "60")
    status, created = request(server, "POST", "/api/tables", {"variant": "standard", "seats": SEATS})
    held = []
    try:
        for number in range(2):
            sock, answer = open_websocket(server, created["table"], f"127.0.1.{number + 1}")
            held.append(sock)
            assert answer.startswith(b"HTTP/1.1 101")
        idle = [open_socket(server, "127.0.3.1") for _ in range(HEALTH_CHECK_ROOM - 1)]
        held += idle
        assert health(server, "127.0.3.2") == {"ok": True}  # the last place of the room
        held.append(open_socket(server, "127.0.3.3"))
        extra = open_socket(server, "127.0.3.4")
        held.append(extra)
        assert closed_within(extra, 5)  # the room is full: closed without an answer
        assert not closed_within(idle[0], 0.5)
    finally:
        for sock in held:
            sock.close()


def test_websockets_count_toward_the_connections_of_one_address(tmp_path, servers):
    server = servers(tmp_path / "data", "--max-connections-per-address", "3", "--request-timeout", "60")
    status, created = request(server, "POST", "/api/tables", {"variant": "standard", "seats": SEATS})
    held = []
    try:
        for _ in range(3):
            sock, answer = open_websocket(server, created["table"], "127.0.1.1")
            held.append(sock)
            assert answer.startswith(b"HTTP/1.1 101")
        sock, answer = open_websocket(server, created["table"], "127.0.1.1")
        held.append(sock)
        assert answer == b""  # the fourth from that address is closed at once
        assert health(server, "127.0.1.2") == {"ok": True}  # another address is served
    finally:
        for sock in held:
            sock.close()
