"""``azul replay --web FILE``: one record's replay page, served on loopback until Ctrl-C.

The record was read and its variant loaded by the command, with the user's
consent for any plugin files (as ``azul replay``); nothing the browser sends
loads or runs code: it only asks for the steps.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from azul_core.web import paths  # noqa: F401  (registers the {...:index} of the routes below)
from azul_core.web.app import STATIC, HostGuard, SecurityHeaders
from azul_core.web.replay_page import Replay, page, step_answer


def replay_app(replay: Replay):
    """The application ``azul replay --web`` serves: the page, the steps, the static files."""
    async def home(request: Request) -> Response:
        return page()

    async def index(request: Request) -> Response:
        return JSONResponse(replay.index())

    async def step(request: Request) -> Response:
        return step_answer(replay, request)

    routes = [
        Route("/", home),
        Route("/api/replay", index),
        Route("/api/replay/{step:index}", step),
        Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    # Loopback only, and a page of another site that renames itself to 127.0.0.1 (DNS
    # rebinding) is refused by its host name: the record stays the user's.
    return SecurityHeaders(HostGuard(Starlette(routes=routes), ("localhost",)))


def serve_replay(replay: Replay, port: int = 0, open_browser: bool = True, say=None) -> int:
    """Serve ``replay`` on 127.0.0.1 until Ctrl-C (``port`` 0: a free one); say the URL and
    open it in the browser. The exit code (1 when the port can't be had). ``say(line, err)``
    prints a line (to stderr with ``err``)."""
    import sys

    import uvicorn

    if say is None:
        def say(line: str, err: bool = False) -> None:
            print(line, file=sys.stderr if err else sys.stdout, flush=True)

    from azul_core.web.serving import _bind
    try:
        sock = _bind("127.0.0.1", port)
    except OSError as exc:
        say(f"azul: can't listen on 127.0.0.1:{port}: {exc.strerror or exc}", err=True)
        return 1
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server = uvicorn.Server(uvicorn.Config(replay_app(replay), log_level="warning", access_log=False,
                                           server_header=False, lifespan="off"))
    say(f"Replay of {replay.title} on {url}")
    say("Ctrl-C stops.")
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0


__all__ = ["replay_app", "serve_replay"]
