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

# `azul serve --help` groups its many options by what they are about.
LISTENING = "Where it listens"
STORAGE = "Where the tables are kept"
PLAY = "The tables"
LIMITS = "Limits against hostile clients"


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option(
        "--host", metavar="HOST", rich_help_panel=LISTENING,
        help="Address to listen on (0.0.0.0: all of them).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        "--port", metavar="PORT", rich_help_panel=LISTENING,
        help="Port to listen on; 0: a free one, another at each start.")] = 8000,
    public_url: Annotated[Optional[str], typer.Option(
        "--public-url", metavar="URL", rich_help_panel=LISTENING,
        help="The address people use: links start with it; other host names get 421.")] = None,
    proxy_headers: Annotated[bool, typer.Option(
        "--proxy-headers", rich_help_panel=LISTENING,
        help="Behind a proxy: trust its X-Forwarded-Proto and -For.")] = False,
    forwarded_allow_ips: Annotated[str, typer.Option(
        "--forwarded-allow-ips", metavar="IPS", rich_help_panel=LISTENING,
        help="The proxies --proxy-headers trusts.")] = "127.0.0.1",
    allow_origin: Annotated[Optional[list[str]], typer.Option(
        "--allow-origin", metavar="ORIGIN", rich_help_panel=LISTENING,
        help="Another origin whose pages may create tables. Repeatable.")] = None,
    access_log: Annotated[bool, typer.Option(
        "--access-log", rich_help_panel=LISTENING,
        help="Log every request (never a secret).")] = False,
    data: Annotated[Optional[Path], typer.Option(
        "--data", metavar="DIR", rich_help_panel=STORAGE,
        help="Folder of the SQLite database (default: ~/.local/share/azul/serve).")] = None,
    database: Annotated[Optional[str], typer.Option(
        "--database", metavar="URL", rich_help_panel=STORAGE,
        help="A postgresql:// URL: keep the tables there (the 'postgres' extra).")] = None,
    durable: Annotated[bool, typer.Option(
        "--durable", rich_help_panel=STORAGE,
        help="fsync every move: survives a power cut too; slower.")] = False,
    keep_finished: Annotated[float, typer.Option(
        "--keep-finished", metavar="DAYS", rich_help_panel=STORAGE,
        help="Days a finished table stays after its last move.")] = 30.0,
    keep_idle: Annotated[float, typer.Option(
        "--keep-idle", metavar="DAYS", rich_help_panel=STORAGE,
        help="Days an unfinished table nobody moves in stays (longer by its turn clock's "
             "time).")] = 30.0,
    keep_unjoined: Annotated[float, typer.Option(
        "--keep-unjoined", metavar="HOURS", rich_help_panel=STORAGE,
        help="Hours a table nobody sat at stays.")] = 1.0,
    variants: Annotated[Optional[list[Path]], typer.Option(
        "--variants", metavar="DIR", rich_help_panel=PLAY,
        help="Also offer the variant files under this folder (their plugins run). Repeatable.")] = None,
    think: Annotated[float, typer.Option(
        "--think", metavar="SECONDS", rich_help_panel=PLAY,
        help="Thinking time of the mcts bot per move.")] = 1.0,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", metavar="SECONDS", rich_help_panel=PLAY,
        help="A bot waits this long before moving.")] = 0.6,
    absent_grace: Annotated[float, typer.Option(
        "--absent-grace", metavar="SECONDS", rich_help_panel=PLAY,
        help="A seat's page closed this long may be handed to a bot.")] = 30.0,
    bot_workers: Annotated[int, typer.Option(
        "--bot-workers", metavar="N", rich_help_panel=PLAY,
        help="Processes search bots think in (0: a core's worth, up to 4).")] = 0,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", metavar="SEED", rich_help_panel=PLAY,
        help="Deal the N-th table from SEED:N: foreseeable, for tests only.")] = None,
    tables_per_hour: Annotated[int, typer.Option(
        "--tables-per-hour", metavar="N", rich_help_panel=LIMITS,
        help="Tables one address may create per hour.")] = 20,
    max_open_tables: Annotated[int, typer.Option(
        "--max-open-tables", metavar="N", rich_help_panel=LIMITS,
        help="Unfinished tables at most.")] = 1000,
    search_tables_per_address: Annotated[int, typer.Option(
        "--search-tables-per-address", metavar="N", rich_help_panel=LIMITS,
        help="Unfinished tables with a search bot per address.")] = 3,
    max_connections: Annotated[int, typer.Option(
        "--max-connections", metavar="N", rich_help_panel=LIMITS,
        help="Connections at most, WebSockets too.")] = 1000,
    max_connections_per_address: Annotated[int, typer.Option(
        "--max-connections-per-address", metavar="N", rich_help_panel=LIMITS,
        help="Connections per address (0: no limit).")] = 50,
    request_timeout: Annotated[float, typer.Option(
        "--request-timeout", metavar="SECONDS", rich_help_panel=LIMITS,
        help="Time for a request to arrive whole.")] = 10.0,
    ws_max_size: Annotated[int, typer.Option(
        "--ws-max-size", metavar="BYTES", rich_help_panel=LIMITS,
        help="Largest WebSocket message.")] = 16384,
    ws_ping: Annotated[float, typer.Option(
        "--ws-ping", metavar="SECONDS", rich_help_panel=LIMITS,
        help="Ping each WebSocket this often; closed if silent.")] = 20.0,
) -> None:
    """Run the online table: create a table at http://HOST:PORT/, send each friend their link.

    Tables are kept in SQLite under --data, or in PostgreSQL with --database: stop the server
    (Ctrl-C, even kill -9), start it again, and every table goes on where it was. docs/serve.md
    says more about each option, running it for friends and behind a proxy.
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
