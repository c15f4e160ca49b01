"""``azul serve``: the private online table, a small web service for friends.

The web stack (Starlette, uvicorn) is imported inside the command only, so
that ``azul --help`` and the other commands start fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from azul_core.cli.app import app
from azul_core.cli.common import USAGE, fail


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on. 0.0.0.0 listens on every interface; behind a "
                       "reverse proxy keep 127.0.0.1.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        "--port", help="Port to listen on; 0 picks a free one (the 'Serving on' line shows it), "
                       "another at each start: the links name the port, so a table that must "
                       "survive restarts needs a fixed one.")] = 8000,
    data: Annotated[Optional[Path], typer.Option(
        "--data", metavar="DIR",
        help="Folder of the tables' database. Default: $XDG_DATA_HOME/azul/serve "
             "(~/.local/share/azul/serve).")] = None,
    database: Annotated[Optional[str], typer.Option(
        "--database", metavar="URL",
        help="Keep the tables in PostgreSQL instead of SQLite under --data (a postgresql:// URL "
             "with user, password, host and database); several azul serve processes may then "
             "share them. Needs azul-variants' 'postgres' extra (docs/serve.md).")] = None,
    variants: Annotated[Optional[list[Path]], typer.Option(
        "--variants", metavar="DIR",
        help="Also offer the variant files in this folder and its subfolders (their plugins "
             "run). Repeatable. The shipped variants are always offered.")] = None,
    proxy_headers: Annotated[bool, typer.Option(
        "--proxy-headers", help="Behind a reverse proxy: trust its X-Forwarded-Proto and "
                                "X-Forwarded-For (from --forwarded-allow-ips).")] = False,
    forwarded_allow_ips: Annotated[str, typer.Option(
        "--forwarded-allow-ips", metavar="IPS",
        help="Comma-separated addresses of the proxies trusted with --proxy-headers.")] = "127.0.0.1",
    allow_origin: Annotated[Optional[list[str]], typer.Option(
        "--allow-origin", metavar="ORIGIN",
        help="Another origin (https://example.org) whose pages may create tables and open "
             "sockets. Repeatable. The server's own origin is always allowed.")] = None,
    think: Annotated[float, typer.Option(
        "--think", metavar="SECONDS", help="Thinking time of the mcts bot per move.")] = 1.0,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", metavar="SECONDS", help="A bot waits this long before moving, so "
                                               "people can follow.")] = 0.6,
    absent_grace: Annotated[float, typer.Option(
        "--absent-grace", metavar="SECONDS", help="A seat's page must have been closed this long "
                                                  "before its creator is offered to hand it to a bot.")] = 30.0,
    tables_per_hour: Annotated[int, typer.Option(
        "--tables-per-hour", help="Tables one client address may create per hour.")] = 20,
    max_open_tables: Annotated[int, typer.Option(
        "--max-open-tables", help="Unfinished tables the server holds at most.")] = 1000,
    keep_finished: Annotated[float, typer.Option(
        "--keep-finished", metavar="DAYS",
        help="Days a finished table (and its record) stays after its last move.")] = 30.0,
    keep_idle: Annotated[float, typer.Option(
        "--keep-idle", metavar="DAYS",
        help="Days an unfinished table nobody moves in stays; a table with a turn clock stays "
             "its clock's time longer (a slow game of days a move is kept while a player may "
             "still think).")] = 30.0,
    ws_max_size: Annotated[int, typer.Option(
        "--ws-max-size", metavar="BYTES", help="Largest WebSocket message uvicorn accepts.")] = 16384,
    durable: Annotated[bool, typer.Option(
        "--durable", help="fsync every move (survives a power cut too; slower). A killed "
                          "server loses nothing either way.")] = False,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", metavar="SEED",
        help="Deal every table from SEED:N (the N-th table created): the same deals each run. "
             "Anyone who knows it foresees the deals: for tests and demonstrations only.")] = None,
    access_log: Annotated[bool, typer.Option(
        "--access-log", help="Log every request (addresses and paths; never a secret).")] = False,
    public_url: Annotated[Optional[str], typer.Option(
        "--public-url", metavar="URL",
        help="The address people use (https://azul.example.org): links start with it, and its "
             "host name and origin are accepted. Requests naming any other host name are refused "
             "(421), except IP addresses, localhost and this machine's names: DNS rebinding.")] = None,
    keep_unjoined: Annotated[float, typer.Option(
        "--keep-unjoined", metavar="HOURS",
        help="Hours a table whose seats nobody opened stays (all-bot tables too); until then it "
             "counts as open.")] = 1.0,
    request_timeout: Annotated[float, typer.Option(
        "--request-timeout", metavar="SECONDS",
        help="A request must arrive whole within this time, else the connection is closed "
             "(slow or silent clients).")] = 10.0,
    max_connections: Annotated[int, typer.Option(
        "--max-connections", help="Connections at most, WebSockets included; beyond, requests and "
                                  "WebSocket handshakes get 503, /healthz is still answered (the "
                                  "limit of open files is raised to fit when it can be).")] = 1000,
    max_connections_per_address: Annotated[int, typer.Option(
        "--max-connections-per-address", metavar="N",
        help="Connections (WebSockets included) one client address may hold, an IPv6 /64 as "
             "one; 0: no limit. Off with --proxy-headers (limit them at the proxy).")] = 50,
    bot_workers: Annotated[int, typer.Option(
        "--bot-workers", metavar="N",
        help="Worker processes search bots (mcts, plugins' bots) think in; tables take turns. "
             "0: one per core but one, at most 4.")] = 0,
    search_tables_per_address: Annotated[int, typer.Option(
        "--search-tables-per-address", metavar="N",
        help="Unfinished tables with a search bot one client address may have at once.")] = 3,
    ws_ping: Annotated[float, typer.Option(
        "--ws-ping", metavar="SECONDS",
        help="Ping each WebSocket this often; one that answers no ping within as long is "
             "closed.")] = 20.0,
) -> None:
    """Run the online table: create a table at http://HOST:PORT/, send each friend their link.

    Tables are kept in SQLite under --data (or in PostgreSQL with --database): stop the server
    (Ctrl-C, even kill -9) and start it again, every table continues where it was. docs/serve.md
    explains running it for friends, and several processes on one PostgreSQL database.

    Against hostile clients: tables per hour count an IPv6 /64 as one address; a table nobody
    joined expires after --keep-unjoined; slow or silent requests are closed (--request-timeout);
    connections are bounded (--max-connections, --max-connections-per-address); search bots
    think in --bot-workers processes; a Host name not served (--public-url) is refused.
    """
    if not 0 <= port <= 65535:
        fail(f"--port must be 0 to 65535, not {port}", USAGE)
    for name, value in (("--tables-per-hour", tables_per_hour), ("--max-open-tables", max_open_tables)):
        if value < 1:
            fail(f"{name} must be 1 or more, not {value}", USAGE)
    for name, value in (("--keep-finished", keep_finished), ("--keep-idle", keep_idle)):
        if not value > 0:
            fail(f"{name} must be a positive number of days, not {value}", USAGE)
    if database is not None and not database.startswith(("postgresql://", "postgres://")):
        fail("--database takes a PostgreSQL URL (postgresql://USER:PASSWORD@HOST/DB); "
             "SQLite tables live under --data", USAGE)
    if not think > 0:
        fail(f"--think must be a positive number of seconds, not {think}", USAGE)
    if bot_delay < 0:
        fail(f"--bot-delay can't be negative ({bot_delay})", USAGE)
    if absent_grace < 0:
        fail(f"--absent-grace can't be negative ({absent_grace})", USAGE)
    if ws_max_size < 1024:
        fail(f"--ws-max-size must be 1024 bytes or more, not {ws_max_size}", USAGE)
    for name, value in (("--keep-unjoined", keep_unjoined), ("--request-timeout", request_timeout),
                        ("--ws-ping", ws_ping)):
        if not value > 0:
            fail(f"{name} must be a positive number, not {value}", USAGE)
    if bot_workers < 0:
        fail(f"--bot-workers can't be negative ({bot_workers})", USAGE)
    if search_tables_per_address < 1:
        fail(f"--search-tables-per-address must be 1 or more, not {search_tables_per_address}", USAGE)
    if max_connections < 1:
        fail(f"--max-connections must be 1 or more, not {max_connections}", USAGE)
    if max_connections_per_address < 0:
        fail(f"--max-connections-per-address can't be negative ({max_connections_per_address})", USAGE)
    if public_url is not None:
        from urllib.parse import urlsplit
        parts = urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            fail(f"--public-url must be an http:// or https:// address, not '{public_url}'", USAGE)
    for folder in variants or []:
        if not folder.is_dir():
            fail(f"--variants {folder}: no such folder")
    from azul_core.players.session import data_folder
    from azul_core.web.app import Config
    from azul_core.web.serving import ServeOptions, serve

    tables = Config(data=data if data is not None else data_folder() / "serve", database_url=database,
                    variant_dirs=tuple(variants or ()), allowed_origins=tuple(allow_origin or ()),
                    think=think, bot_delay=bot_delay, tables_per_hour=tables_per_hour,
                    max_open_tables=max_open_tables, keep_finished_days=keep_finished, keep_idle_days=keep_idle,
                    keep_unjoined_hours=keep_unjoined, bot_workers=bot_workers,
                    search_tables_per_address=search_tables_per_address,
                    durable=durable, max_message=min(4096, ws_max_size), seed=seed,
                    absent_grace=absent_grace)
    options = ServeOptions(tables, host=host, port=port, proxy_headers=proxy_headers,
                           forwarded_allow_ips=forwarded_allow_ips, ws_max_size=ws_max_size,
                           access_log=access_log, request_timeout=request_timeout,
                           max_connections=max_connections,
                           max_connections_per_address=max_connections_per_address, ws_ping=ws_ping,
                           public_url=public_url)
    code = serve(options)
    if code:
        raise typer.Exit(code)


__all__ = ["serve_command"]
