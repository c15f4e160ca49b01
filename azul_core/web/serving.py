"""Running the table server with uvicorn: bind, say where, serve until Ctrl-C or a signal."""

from __future__ import annotations

import logging
import socket
import sys
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from azul_core.web.app import Config, create_app, public_origin
from azul_core.web.catalog import build_catalog
from azul_core.web.store import StoreError


@dataclass
class ServeOptions:
    """How to listen (uvicorn's part); ``tables`` is what the table server itself is told."""

    tables: Config
    host: str = "127.0.0.1"
    port: int = 8000
    proxy_headers: bool = False
    forwarded_allow_ips: str = "127.0.0.1"
    ws_max_size: int = 16384
    access_log: bool = False
    log_level: str = "warning"
    #: seconds a request has to arrive whole (slowloris), from the connection or the last answer
    request_timeout: float = 10.0
    #: connections served at most, WebSockets included: beyond, requests and WebSocket
    #: handshakes get 503 (``/healthz`` is still answered, on a few more)
    max_connections: int = 1000
    #: connections one client address (an IPv6 /64) may hold; 0: no limit (behind a proxy)
    max_connections_per_address: int = 50
    #: seconds between WebSocket pings; one not answered within as long closes the socket
    ws_ping: float = 20.0
    #: the address people use (https://azul.example.org): its origin and host name are allowed
    public_url: str | None = None


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: a free one), so the real port is known before serving."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _tune_garbage_collector() -> None:
    """Fewer collections of the cyclic garbage collector, none of what was loaded at start.

    A server holding hundreds of tables and thousands of sockets has a million objects or more;
    a full collection walks them all while every table waits (up to 0.28 s of CPU measured with
    500 tables, seven times in 45 s: a fifth of the server's CPU went to collecting). Objects are
    freed by reference counting as soon as unused; the collector only finds cycles, which are
    few here, so it may run far less often. The modules, variants and plugins loaded so far live
    as long as the process: frozen, no collection looks at them again.
    """
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def served_host_names(host: str, public_url: str | None) -> tuple[str, ...]:
    """The host names a request may name in ``Host`` (besides any IP address): localhost, this
    machine's names, the --host name, the --public-url's. Any other name is a DNS rebinding."""
    names = {"localhost", socket.gethostname(), socket.getfqdn()}
    if host and not _is_address(host):
        names.add(host)
    if public_url:
        public = urlsplit(public_url).hostname
        if public:
            names.add(public)
    return tuple(sorted(name.lower() for name in names if name))


def _is_address(host: str) -> bool:
    import ipaddress
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _room_for_connections(wanted: int) -> int:
    """Raise the soft limit of open files toward ``wanted`` (the hard limit caps it); how many
    connections fit (a few files are kept for the database and the log)."""
    try:
        import resource
    except ImportError:  # not a Unix: the limit is the system's
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted + 64 if hard == resource.RLIM_INFINITY else min(wanted + 64, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else max(1, min(wanted, soft - 64))


def uvicorn_config(app, options: ServeOptions):
    """uvicorn's settings: the guarded protocols, the limits, the logs asked for. The HTTP
    protocol is uvicorn's h11 one (pure Python; ``httptools`` would be picked otherwise when
    installed), which ``web.connections`` extends with the request timeout, the per-address
    limit and the limit of all connections, WebSockets included (in place of uvicorn's
    ``limit_concurrency``, which lets WebSockets through)."""
    import uvicorn

    from azul_core.web.connections import (
        HEALTH_CHECK_ROOM,
        ConnectionGuard,
        ConnectionLimit,
        guarded_protocols,
        quiet_invalid_text,
    )
    per_address = 0 if options.proxy_headers else options.max_connections_per_address
    most = max(1, _room_for_connections(options.max_connections + HEALTH_CHECK_ROOM) - HEALTH_CHECK_ROOM)
    guard = ConnectionGuard(options.request_timeout, per_address, most)
    http, ws = guarded_protocols(guard)
    config = uvicorn.Config(
        ConnectionLimit(app, guard), http=http, ws=ws, ws_max_size=options.ws_max_size,
        proxy_headers=options.proxy_headers, forwarded_allow_ips=options.forwarded_allow_ips,
        access_log=options.access_log, log_level=options.log_level, server_header=False, lifespan="on",
        ws_ping_interval=options.ws_ping, ws_ping_timeout=options.ws_ping)
    quiet_invalid_text(logging.getLogger("uvicorn.error"))  # after uvicorn.Config set up its logging
    if options.access_log:
        # uvicorn sets its access logger to the log level (warning): requests are logged at info.
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    return config


def serve(options: ServeOptions) -> int:
    """Serve until stopped; the exit code (1 when the server can't start)."""
    import uvicorn

    def say(line: str, err: bool = False) -> None:
        stream = sys.stderr if err else sys.stdout
        if stream.isatty():
            # Wrapped between words: the terminal would break the long lines (the variants, the
            # notes) in the middle of one. To a file or a pipe each stays whole, as in text_console.
            import shutil
            import textwrap
            line = "\n".join(textwrap.wrap(line, shutil.get_terminal_size().columns, subsequent_indent="  ",
                                           break_long_words=False, break_on_hyphens=False))
        print(line, file=stream, flush=True)

    catalog = build_catalog(list(options.tables.variant_dirs))
    for problem in catalog.problems:
        say(f"azul: warning: variant not offered: {problem}", err=True)
    for note in catalog.notes:
        say(f"azul: note: {note}", err=True)
    config = replace(options.tables, allowed_hosts=(
        *options.tables.allowed_hosts, *served_host_names(options.host, options.public_url)))
    if options.public_url:
        config = replace(config, public_url=options.public_url,
                         allowed_origins=(*config.allowed_origins, public_origin(options.public_url)))
    try:
        # Opened here, so a database that can't be used (or another server's) is one line, not a
        # traceback; the application keeps it (an SQLite folder stays locked while serving).
        store = config.open_store()
    except StoreError as exc:
        say(f"azul: {exc}", err=True)
        return 1
    try:
        sock = _bind(options.host, options.port)
    except (OSError, UnicodeError) as exc:
        store.close()
        say(f"azul: can't listen on {options.host}:{options.port}: {getattr(exc, 'strerror', None) or exc}",
            err=True)
        return 1
    port = sock.getsockname()[1]
    app = create_app(config, catalog, store)
    _tune_garbage_collector()
    server = uvicorn.Server(uvicorn_config(app, options))
    say(f"Serving on http://{_url_host(options.host)}:{port}")
    say(f"Offering {len(catalog.variants)} variants: {', '.join(catalog.variants)}; "
        f"tables kept in {store.describe()}. Ctrl-C stops.")
    if options.port == 0 and not options.public_url:
        # The links given out name the port: a restart picks another one and they stop working.
        say(f"azul: note: --port 0 picked port {port}; the table links name it, so they break if the "
            f"server restarts on another port: give a fixed port (--port {port}) for tables that "
            "must survive a restart", err=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        store.close()  # closed by the application already, unless it never started
    return 0
