"""Take the pictures of the online table that docs/serve.md shows (issue 42), at 1280x800 and at
375x812 (a phone, drawn at twice its pixels): a first turn with a factory's colour picked and its
points previewed, a secret-goal seat's goal in words, two chat messages in the game log, the
creator's "Seats and their links" with a new link made, and the end screen of a finished game.

A real `azul serve` on a free port, with a fixed seed and a temporary data folder; the tables are
made through the HTTP API as the home page makes them, a colour picked, a new link made and
messages sent on the pages by clicks and keys, the end reached by the seats handed to greedy bots. Chromium is driven
by Playwright, as tests/web/test_browser.py drives it.

    python docs/images/take_screenshots.py [--out DIR]

writes table-first-turn-1280.png, table-first-turn-375.png, table-secret-goal-*, table-chat-*,
table-host-seats-* and table-end-screen-* into docs/images (or DIR), each saved again by Pillow
with optimize=True when Pillow is installed. Nothing else in the folder is touched.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: (file name's width, viewport, device scale factor)
SIZES = ((1280, {"width": 1280, "height": 800}, 1), (375, {"width": 375, "height": 812}, 2))
SEED = "docs-screenshots"
#: the longest the greedy bots may take to finish a game
GAME_SECONDS = 180


class Server:
    """`azul serve` on loopback, a free port, the house rules of examples/ on offer."""

    def __init__(self, data: Path):
        command = [sys.executable, "-m", "azul_core.cli", "serve", "--host", "127.0.0.1", "--port", "0",
                   "--data", str(data), "--seed", SEED, "--bot-delay", "0.05",
                   "--variants", str(ROOT / "examples")]
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.output: list[str] = []
        self.url = ""
        found = threading.Event()

        def drain() -> None:
            for line in self.proc.stdout:
                self.output.append(line.rstrip())
                match = re.search(r"Serving on (http://[\w.\-]+:\d+)", line)
                if match and not found.is_set():
                    self.url = match.group(1)
                    found.set()

        threading.Thread(target=drain, daemon=True).start()
        if not found.wait(60):
            self.stop()
            raise SystemExit("azul serve did not start:\n" + "\n".join(self.output[-20:]))
        until_answered(lambda: urllib.request.urlopen(self.url + "/healthz", timeout=2).close())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def post(self, path: str, body: dict, secret: str | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if secret:
            headers["Authorization"] = f"Bearer {secret}"
        request = urllib.request.Request(self.url + path, method="POST", data=json.dumps(body).encode(),
                                         headers=headers)
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def create(self, variant: str, names: list[str]) -> dict:
        """A table as the home page's form makes it: the variant and a person in each seat."""
        return self.post("/api/tables", {"variant": variant, "seats": [{"name": name} for name in names]})


def until_answered(ask: Callable[[], None], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            ask()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


class Camera:
    """Opens pages at both sizes and saves what they show."""

    def __init__(self, browser, out: Path):
        self.browser = browser
        self.out = out
        self.saved: list[Path] = []

    def open(self, url: str, width: int):
        _, viewport, scale = next(size for size in SIZES if size[0] == width)
        context = self.browser.new_context(viewport=viewport, device_scale_factor=scale,
                                           reduced_motion="reduce")
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.on("pageerror", lambda error: print(f"page error: {error}", file=sys.stderr))
        page.goto(url)
        page.wait_for_selector("body[data-version]")
        return page

    def take(self, page, name: str, width: int, show: str | None = None, block: str = "nearest",
             down_to: str | None = None) -> None:
        """The viewport, scrolled so that ``show`` is in sight (``block``: where, as scrollIntoView
        says it); with ``down_to``, the page from the top of ``show`` to the bottom of ``down_to``
        instead, however tall."""
        page.wait_for_timeout(150)  # let the layout and any transition settle before the picture
        path = self.out / f"{name}-{width}.png"
        if show and down_to:
            top = page.locator(show).first.evaluate("element => element.getBoundingClientRect().top + scrollY")
            bottom = page.locator(down_to).first.evaluate(
                "element => element.getBoundingClientRect().bottom + scrollY")
            clip = {"x": 0, "y": max(0, top - 8), "width": page.viewport_size["width"], "height": bottom - top + 16}
            page.screenshot(path=str(path), full_page=True, clip=clip)
        else:
            if show:
                page.locator(show).first.evaluate("(element, block) => element.scrollIntoView({block})", block)
            page.screenshot(path=str(path))
        optimise(path)
        self.saved.append(path)


def optimise(path: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        image.load()
    image.save(path, optimize=True)


def first_turn(server: Server, camera: Camera) -> None:
    """Ann's first turn at a two-player standard table: factory 1's first colour picked, its
    points previewed on her lines and floor."""
    for width, *_ in SIZES:
        table = server.create("standard", ["Ann", "Bob"])
        page = camera.open(table["seats"][0]["url"], width)
        page.locator("#factories [data-source='1'] button.tile.pickable").first.click()
        page.wait_for_selector(".board.mine .target")
        camera.take(page, "table-first-turn", width, show=".board.mine" if width == 375 else None, block="start")
        page.context.close()


def secret_goal(server: Server, camera: Camera) -> None:
    """A secret-goal seat: its goal in words under the move panel."""
    for width, *_ in SIZES:
        table = server.create("secret-goal", ["Ann", "Bob"])
        page = camera.open(table["seats"][0]["url"], width)
        page.wait_for_selector("#plugin-info li")
        camera.take(page, "table-secret-goal", width, show="#plugin-info", block="center")
        page.context.close()


def chat(server: Server, camera: Camera) -> None:
    """Ann and Bob write a message each; Ann's page shows them in the log above the box."""
    for width, *_ in SIZES:
        table = server.create("standard", ["Ann", "Bob"])
        ann = camera.open(table["seats"][0]["url"], width)
        bob = camera.open(table["seats"][1]["url"], 1280)
        say(ann, "Good luck, Bob!")
        ann.wait_for_selector(".log-chat[data-seat='0']")
        say(bob, "Thanks! I'm after the blue row.")
        ann.wait_for_selector(".log-chat[data-seat='1']")
        ann.fill("#chat-input", "We'll see")
        camera.take(ann, "table-chat", width, show="#game-log", block="center")
        bob.context.close()
        ann.context.close()


def say(page, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def host_seats(server: Server, camera: Camera) -> None:
    """The creator's page: "Seats and their links", a new link made for Bob and shown with Copy link."""
    for width, *_ in SIZES:
        table = server.create("standard", ["Ann", "Bob", "Cy"])
        page = camera.open(table["seats"][0]["url"] + "&admin=" + table["admin_secret"], width)
        page.wait_for_selector("#seat-link:not([hidden]) li[data-seat='1']")
        page.click("[data-new-link='1']")
        page.click("[data-confirm-link='1']")
        page.wait_for_selector("[data-copy-link='1']")
        page.click("[data-copy-link='1']")
        page.wait_for_selector("li[data-seat='1'] .copied:text('copied')")
        camera.take(page, "table-host-seats", width, show="#seat-link", block="start")
        page.context.close()


def end_screen(server: Server, camera: Camera) -> None:
    """A game the greedy bots finish for Ann and Bob: the rematch offer, the final scores, the points
    by source and Watch the replay, on Ann's page."""
    for width, *_ in SIZES:
        table = server.create("standard", ["Ann", "Bob"])
        page = camera.open(table["seats"][0]["url"], width)
        for seat in (0, 1):
            server.post(f"/api/tables/{table['table']}/seats/{seat}/bot", {"bot": "greedy"}, table["admin_secret"])
        page.wait_for_selector("#final-panel #score-sources .sources-table", timeout=GAME_SECONDS * 1000)
        page.wait_for_selector("#rematch-box:not([hidden])")
        camera.take(page, "table-end-screen", width, show="#rematch-box", down_to="#replay-link")
        page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=IMAGES, help="the folder the PNGs go to")
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        server = Server(Path(data))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        camera = Camera(browser, arguments.out)
        try:
            for take in (first_turn, secret_goal, chat, host_seats, end_screen):
                take(server, camera)
        finally:
            browser.close()
            server.stop()
    for path in camera.saved:
        print(f"{path.stat().st_size // 1024:4d} KB  {path}")


if __name__ == "__main__":
    main()
