"""``azul replay``: step through a game record with the board drawn as ``azul play`` draws it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Optional

import typer

from azul_core.cli.app import app
from azul_core.cli.common import USAGE, TrustedVariantOption, TrustOption, fail, fail_with_problems, sealed_note

REPLAY_HELP = """\
Enter or n  next action        p  previous action
r N         start of round N   R:A  round R after action A (A=0: right after the deal)
first, end  first or last position
q           leave"""

# ASCII digits, a few of them: "٣" is not 3 here, and 5,000 digits are not a number int() takes.
_AT = re.compile(r"^\s*([0-9]{1,9})\s*:\s*([0-9]{1,9})\s*$")


@app.command("replay")
def replay_command(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (azul-record/1).")],
    final: Annotated[bool, typer.Option("--final", help="Print the last position and the result, "
                                                        "then exit.")] = False,
    at: Annotated[Optional[str], typer.Option(
        "--at", metavar="ROUND:ACTION",
        help="Print the position in ROUND after ACTION actions (0: right after the deal), then exit.")] = None,
    trusted: TrustedVariantOption = None,
    trust: TrustOption = False,
    web: Annotated[bool, typer.Option(
        "--web", help="Step through it in the browser instead: served on 127.0.0.1 until Ctrl-C.")] = False,
    port: Annotated[int, typer.Option(
        "--port", help="With --web: the port (0, the default, picks a free one).")] = 0,
    no_browser: Annotated[bool, typer.Option(
        "--no-browser", help="With --web: print the address only, open no browser.")] = False,
) -> None:
    """Replay a record: step through it action by action, or print one position (--final, --at).

    A house rule's moves are described in words; the secrets a record holds are shown
    (a copy for one seat reads "sealed" for the others'). --web shows it in the browser, the
    board drawn as at the online table, with the moves in words and each round's scoring."""
    from azul_core.engine.plugins import PluginError
    from azul_core.players.render import make_console
    from azul_core.records.game_record import Positions, RecordError, ReplayError, read_record, record_variant
    from azul_core.variants.loading import Trust, VariantError

    if final and at is not None:
        fail("--final and --at can't be used together", USAGE)
    if web and (final or at is not None):
        fail("--web shows the whole game in the browser: --final and --at don't apply", USAGE)
    if not web and (port or no_browser):
        fail("--port and --no-browser go with --web", USAGE)
    if not 0 <= port <= 65535:
        fail(f"--port must be 0 to 65535, not {port}", USAGE)
    target = None
    if at is not None:
        match = _AT.match(at)
        if not match:
            fail(f"--at '{at}': expected ROUND:ACTION, e.g. 3:0 or 2:14", USAGE)
        target = (int(match.group(1)), int(match.group(2)))
    try:
        saved = read_record(record)
    except RecordError as exc:
        fail(str(exc))
    try:
        variant = record_variant(saved, Trust.of(trusted or [], trust))
    except VariantError as exc:
        fail_with_problems(exc, prefix=f"{record}: variant ")
    if web:
        _serve(saved, variant, record, port, not no_browser)
        return
    # A state every few dozen steps, not one per step: a long record would fill the memory.
    positions = Positions(saved, variant)
    error = None
    try:
        for _step in positions.replay():
            pass
    except ReplayError as exc:
        error = f"{record}: can't be replayed past {exc}"
    except PluginError as exc:
        error = f"{record}: a rule plugin failed while replaying: {' '.join(str(exc).split())}"
    if error and saved.sealed:
        error += f" ({sealed_note(saved.sealed)})"
    if not positions.steps:
        fail(error or f"{record}: the record has no rounds to replay")
    console = make_console(highlight=False)
    viewer = _Viewer(positions, list(saved.players), console, saved.sealed)
    if final or target is not None:
        if target is not None:
            index = viewer.find(*target)
            if index is None:
                fail(viewer.missing(*target))
        else:
            index = len(positions.steps) - 1
        viewer.show(index, result=final)
        if error:
            fail(error)
        return
    if error:
        typer.echo(f"azul: {error}; the steps before it can be viewed", err=True)
    viewer.interact()


def _serve(saved, variant, path: Path, port: int, open_browser: bool) -> None:
    """``--web``: the record replayed once through the engine, served to the browser."""
    from azul_core.engine.plugins import PluginError
    from azul_core.web.replay_page import Replay
    from azul_core.web.replay_server import serve_replay
    try:
        replay = Replay(saved, variant, title=path.name)
    except PluginError as exc:  # a plugin failed before the first step could be made
        fail(f"{path}: a rule plugin failed while replaying: {' '.join(str(exc).split())}")
    if not replay.steps:
        problem = replay.problem or "the record has no rounds to replay"
        fail(f"{path}: {problem}" + (f" ({sealed_note(saved.sealed)})" if saved.sealed else ""))
    if replay.problem:
        typer.echo(f"azul: {path}: {replay.problem}; the steps before it can be viewed", err=True)
    code = serve_replay(replay, port, open_browser,
                        say=lambda line, err=False: typer.echo(line, err=err))
    if code:
        raise typer.Exit(code)


class _Viewer:
    """The replay's positions and the commands that move between them."""

    def __init__(self, positions, names: list[str], console, sealed=()):
        #: ``records.game_record.Positions``: each step's round, action and text, its state on demand
        self.positions = positions
        self.steps = positions.steps
        self.names = names
        self.console = console
        #: the seats whose secrets this copy of a record seals (``records.game_record.sealed_for``)
        self.sealed = tuple(sealed)

    def find(self, round_number: int, action: int) -> int | None:
        for index, step in enumerate(self.steps):
            if step.round == round_number and step.action == action:
                return index
        return None

    def missing(self, round_number: int, action: int) -> str:
        rounds = self.steps[-1].round
        if not 1 <= round_number <= rounds:
            return f"no round {round_number}: the record replays rounds 1 to {rounds}"
        last = max(step.action for step in self.steps if step.round == round_number)
        return f"no action {action} in round {round_number}: it has actions 0 (the deal) to {last}"

    def describe(self, index: int) -> str:
        from azul_core.engine.notation import parse_record_action
        from azul_core.players.render import describe_decision
        step = self.steps[index]
        if step.action == 0:
            return f"round {step.round} dealt: {step.text.removeprefix('deal ')}"
        before = self.positions.state_at(index - 1)
        decision = parse_record_action(step.text, before.rules.colour_letters, before.table.kind_letters)
        return f"{step.action}. {describe_decision(before, decision, self.names)}"

    def show(self, index: int, result: bool = False) -> None:
        from azul_core.engine.state import OVER
        from azul_core.players.render import draw_game, draw_result
        step = self.steps[index]
        state = self.positions.state_at(index)
        self.console.print(draw_game(state, self.names, self.describe(index),
                                     title=f"{state.rules.name}  [{step.round}:{step.action}]",
                                     sealed=self.sealed))
        if result and state.phase == OVER:
            self.console.print(draw_result(state, self.names))

    def interact(self) -> None:
        from rich.text import Text
        index = 0
        self.show(index)
        self.console.print(Text("Enter: next action; p: previous; r N: round N; help for more; q: quit"),
                           soft_wrap=not self.console.is_terminal)
        while True:
            step = self.steps[index]
            try:
                line = input(f"replay {step.round}:{step.action}> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            moved = None
            if line in ("", "n", "next"):
                moved = index + 1 if index + 1 < len(self.steps) else None
                if moved is None:
                    self.say("That was the last position. p goes back, q leaves.")
            elif line in ("p", "prev", "previous", "back"):
                moved = index - 1 if index > 0 else None
                if moved is None:
                    self.say("This is the first position.")
            elif line in ("first", "start"):
                moved = 0
            elif line in ("end", "last", "final"):
                moved = len(self.steps) - 1
            elif line in ("q", "quit", "exit"):
                return
            elif line in ("help", "h", "?"):
                self.say(REPLAY_HELP)
            elif _AT.match(line) or re.match(r"^(r|round)\s*[0-9]{1,9}$", line):
                match = _AT.match(line)
                wanted = (int(match.group(1)), int(match.group(2))) if match else \
                    (int(re.sub(r"[^0-9]", "", line)), 0)
                moved = self.find(*wanted)
                if moved is None:
                    self.say(self.missing(*wanted))
            else:
                self.say(f"'{line}' is not a replay command: Enter, p, r N, R:A, first, end, q, help.")
            if moved is not None:
                index = moved
                self.show(index, result=True)

    def say(self, message: str) -> None:
        from rich.text import Text
        self.console.print(Text(message), soft_wrap=not self.console.is_terminal)
