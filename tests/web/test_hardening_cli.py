"""``azul serve`` as a real process against slow, silent and greedy clients (issue 21): request
timeouts, connections per address, WebSocket pings, the access log, Host names."""

from __future__ import annotations

import json
import signal
import socket
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn")
from test_server_cli import RunningServer  # noqa: E402


@pytest.fixture
def servers():
    started = []

    def start(*args):
        server = RunningServer(*args)
        started.append(server)
        return server
    yield start
    for server in started:
        server.stop(signal.SIGKILL)


def address(server) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").split(":")
    return host, int(port)


def open_socket(server, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.create_connection(address(server), timeout=10, source_address=(source, 0))
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (whatever it sent before)."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


def health(server, source: str = "127.0.0.1") -> dict:
    sock = open_socket(server, source)
    try:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    finally:
        sock.close()
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])


def test_a_silent_or_slow_request_is_closed_and_healthz_still_answers(tmp_path, servers):
    server = servers(tmp_path / "data", "--request-timeout", "1")
    silent = open_socket(server)
    slow = open_socket(server)
    slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
    for _ in range(10):  # a header line every 0.3 s: never a whole request
        time.sleep(0.3)
        try:
            slow.sendall(b"X-Slow: 1\r\n")
        except (BrokenPipeError, ConnectionResetError):
            break
    assert closed_within(slow, 5)
    assert closed_within(silent, 5)
    assert health(server) == {"ok": True}


def test_one_address_holds_a_bounded_number_of_connections(tmp_path, servers):
    server = servers(tmp_path / "data", "--max-connections-per-address", "5", "--request-timeout", "60")
    held = [open_socket(server, "127.0.0.2") for _ in range(5)]
    extra = open_socket(server, "127.0.0.2")
    assert closed_within(extra, 5)  # the sixth from that address is closed at once
    assert not closed_within(held[0], 0.5)
    assert health(server) == {"ok": True}  # another address is served
    for sock in held:
        sock.close()
    for _ in range(50):  # the address's connections are given back as the server sees them close
        try:
            assert health(server, "127.0.0.2") == {"ok": True}
            break
        except (ConnectionResetError, IndexError):
            time.sleep(0.2)
    else:
        raise AssertionError("the address's connections were not given back")


def test_a_websocket_that_answers_no_ping_is_closed(tmp_path, servers):
    server = servers(tmp_path / "data", "--ws-ping", "0.5")
    created = server.post("/api/tables", {"variant": "standard", "seats": [{"name": "A"}, {"name": "B"}]})
    sock = open_socket(server)
    host, port = address(server)
    sock.sendall((f"GET /ws/{created['table']} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    sock.settimeout(5)
    assert sock.recv(12) == b"HTTP/1.1 101"
    assert closed_within(sock, 10)  # never answered a ping (nor sent its hello: that waits 30 s)


def test_access_log_logs_requests(tmp_path, servers):
    server = servers(tmp_path / "data", "--access-log")
    assert json.loads(server.get("/healthz")) == {"ok": True}
    server.stop()
    logged = server.process.stdout.read() + server.process.stderr.read()
    assert "GET /healthz HTTP/1.1" in logged and " 200" in logged


def test_a_host_name_the_server_does_not_serve_is_refused(tmp_path, servers):
    server = servers(tmp_path / "data", "--public-url", "https://azul.example.org")
    body = json.dumps({"variant": "standard", "seats": [{"name": "A"}, {"name": "B"}]}).encode()

    def post(host: str, origin: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json", "Host": host}
        if origin:
            headers["Origin"] = origin
        request = urllib.request.Request(server.url + "/api/tables", data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read())

    status, answer = post("rebound.evil.example", "http://rebound.evil.example")
    assert status == 421 and "host name" in answer["error"]
    status, answer = post("azul.example.org", "https://azul.example.org")
    assert status == 201 and answer["watch_url"].startswith("https://azul.example.org/t/")
    assert post("localhost:1")[0] == 201 and post(address(server)[0])[0] == 201


def test_forwarded_addresses_are_not_trusted_without_proxy_headers(tmp_path, servers):
    """uvicorn's own default trusts X-Forwarded-For from 127.0.0.1: azul serve does not, unless
    told --proxy-headers (else one client would be a new address with every request)."""
    server = servers(tmp_path / "data", "--tables-per-hour", "2")
    body = json.dumps({"variant": "standard", "seats": [{"name": "A"}, {"name": "B"}]}).encode()
    statuses = []
    for number in range(3):
        request = urllib.request.Request(server.url + "/api/tables", data=body, method="POST", headers={
            "Content-Type": "application/json", "X-Forwarded-For": f"198.51.100.{number}"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as refused:
            statuses.append(refused.code)
    assert statuses == [201, 201, 429]


def test_the_server_holds_at_most_max_connections(tmp_path, servers):
    server = servers(tmp_path / "data", "--max-connections", "4", "--request-timeout", "60")
    held = [open_socket(server, f"127.0.0.{2 + n}") for n in range(4)]
    sock = open_socket(server)
    sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    sock.settimeout(10)
    assert sock.recv(12) == b"HTTP/1.1 503"
    assert health(server) == {"ok": True}  # health checks are still answered at the limit
    for other in held + [sock]:
        other.close()


def masked_text_frame(payload: bytes) -> bytes:
    """A client's WebSocket text frame (clients mask theirs), whatever the bytes."""
    mask = b"\x01\x02\x03\x04"
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_text_frames_that_are_not_utf8_log_one_line_not_a_traceback_each(tmp_path, servers):
    server = servers(tmp_path / "data")
    created = server.post("/api/tables", {"variant": "standard", "seats": [{"name": "A"}, {"name": "B"}]})
    host, port = address(server)
    for _ in range(5):
        sock = open_socket(server)
        sock.sendall((f"GET /ws/{created['table']} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        sock.settimeout(5)
        assert sock.recv(12) == b"HTTP/1.1 101"
        sock.sendall(masked_text_frame(b"\xff\xfe not UTF-8"))
        assert closed_within(sock, 5)  # closed (1007) at once
        sock.close()
    server.stop()
    logged = server.process.stdout.read() + server.process.stderr.read()
    assert "Traceback" not in logged and "UnicodeDecodeError" not in logged
    lines = [line for line in logged.splitlines() if "UTF-8" in line]
    assert len(lines) == 1 and "a WebSocket text frame was not UTF-8: closed with 1007" in lines[0], logged


def test_the_invalid_text_line_is_logged_at_most_once_a_minute_with_the_count_untold():
    import logging

    from azul_core.web.connections import InvalidTextLog
    now = [1000.0]
    quiet = InvalidTextLog(every=60.0, clock=lambda: now[0])

    def invalid() -> logging.LogRecord:
        try:
            b"\xff".decode()
        except UnicodeDecodeError:
            import sys
            return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                                     "Invalid UTF-8 sequence received from client.", (), sys.exc_info())
        raise AssertionError("decoded")

    first = invalid()
    assert quiet.filter(first) and first.exc_info is None and first.levelname == "WARNING"
    assert first.getMessage() == "a WebSocket text frame was not UTF-8: closed with 1007"
    now[0] += 59.0
    assert not quiet.filter(invalid()) and not quiet.filter(invalid())
    now[0] += 1.0
    later = invalid()
    assert quiet.filter(later)
    assert later.getMessage() == "a WebSocket text frame was not UTF-8: closed with 1007 (2 more since the last such line)"
    other = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application\n", (), None)
    assert quiet.filter(other) and other.getMessage() == "Exception in ASGI application\n"
