"""Running the table server with uvicorn: bind, say where, serve until Ctrl-C or a signal."""

from __future__ import annotations

import socket
import sys
from dataclasses import dataclass

from azul_core.web.app import Config, create_app
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


def serve(options: ServeOptions) -> int:
    """Serve until stopped; the exit code (1 when the server can't start)."""
    import uvicorn

    def say(line: str, err: bool = False) -> None:
        stream = sys.stderr if err else sys.stdout
        print(line, file=stream, flush=True)

    catalog = build_catalog(list(options.tables.variant_dirs))
    for problem in catalog.problems:
        say(f"azul: warning: variant not offered: {problem}", err=True)
    config = options.tables
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
    server = uvicorn.Server(uvicorn.Config(
        app, ws_max_size=options.ws_max_size, proxy_headers=options.proxy_headers,
        forwarded_allow_ips=options.forwarded_allow_ips, access_log=options.access_log,
        log_level=options.log_level, server_header=False, lifespan="on"))
    say(f"Serving on http://{_url_host(options.host)}:{port}")
    say(f"Offering {len(catalog.variants)} variants: {', '.join(catalog.variants)}; "
        f"tables kept in {store.describe()}. Ctrl-C stops.")
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        store.close()  # closed by the application already, unless it never started
    return 0
