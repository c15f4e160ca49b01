"""``azul play``: a game at the terminal, people against bots, saved after every decision."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from azul_core.cli.app import app
from azul_core.cli.common import USAGE, PlayoutsOption, ThinkOption, check_budget, fail, seed_value
from azul_core.cli.safe_text import safe_line

DEFAULT_PLAYERS = "human,mcts"


@app.command("play")
def play_command(
    variant: Annotated[Optional[str], typer.Option(
        "--variant", metavar="VARIANT_OR_FILE",
        help="A built-in variant name or a variant file. Default: standard. With --resume: the "
             "variant file the record names, which you allow it to use and run. With --join: "
             "the file of the table's house rule.")] = None,
    players: Annotated[Optional[str], typer.Option(
        "--players", metavar="KINDS",
        help="One kind per seat, seat 1 first: 'human' or a bot name (random, greedy, mcts, ...). "
             f"Several 'human' seats play hot-seat. Default: {DEFAULT_PLAYERS}, or you against "
             "mcts bots at the variant's only player count.")] = None,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", metavar="SEED",
        help="Seed of the deals (round n is dealt from seed and n). Default: a fresh one.")] = None,
    record: Annotated[Optional[Path], typer.Option(
        "--record", metavar="PATH",
        help="Save the game record here (after every decision). Default: a new file in "
             "$XDG_DATA_HOME/azul (~/.local/share/azul).")] = None,
    resume: Annotated[Optional[Path], typer.Option(
        "--resume", metavar="PATH", help="Continue the game saved in this record.")] = None,
    think: ThinkOption = None,
    playouts: PlayoutsOption = None,
    trust: Annotated[bool, typer.Option(
        "--trust", help="With --resume: let the variant file the record names run its plugin "
                        "files (by default a record never runs code).")] = False,
    join: Annotated[Optional[str], typer.Option(
        "--join", metavar="SEAT_URL",
        help="Sit at an online table (azul serve): its seat link, with the part after '#'. "
             "Quote it in the shell. A table's house rule is played from its file here: "
             "--variant FILE names it (and lets its plugin files run).")] = None,
) -> None:
    """Play a game at the terminal: you against a bot, by default the standard game.

    Type moves like 2R4 or '2 red 4'; '?' lists the legal moves, 'help' explains.
    """
    from azul_core.engine.plugins import PluginError
    from azul_core.players.registry import BotError
    from azul_core.players.session import GameSession, SessionError

    if join is not None:
        _join(join, variant, trust, players, seed, record, resume, think, playouts)
        return
    check_budget(think, playouts)
    try:
        if resume is not None:
            if variant is not None and not Path(variant).is_file():
                fail("with --resume, --variant can only name the variant file the record names "
                     "(to allow it to be used): the record names its variant", USAGE)
            if seed is not None:
                fail("--seed can't be used with --resume: the record holds its seed", USAGE)
            from azul_core.variants.loading import Trust
            session = GameSession.resume(resume, players, record, think, playouts=playouts,
                                         trust=Trust.of([variant] if variant else [], trust))
        else:
            session = GameSession.new(variant or "standard", players, seed_value(seed), record, think,
                                      playouts=playouts)
    except SessionError as exc:
        for line in exc.lines:
            typer.echo(f"azul: {safe_line(line)}", err=True)
        raise typer.Exit(exc.code) from None
    except (PluginError, BotError) as exc:
        fail(str(exc))
    code = session.run()
    if code:
        raise typer.Exit(code)


def _join(url: str, variant: str | None, trust: bool, *others) -> None:
    """Play one seat of an online table at the terminal. ``--variant FILE`` names the table's
    house-rule variant file, whose plugin files may then run (``--trust``: any variant found
    here by the table's name may run its plugin files)."""
    if any(option is not None for option in others):
        fail("--join plays a seat of an online table: the table decides the players and the "
             "seed (--players, --seed, --record, --resume, --think and --playouts don't apply)", USAGE)
    from azul_core.players.session import SessionError
    from azul_core.variants.loading import Trust
    from azul_core.web.remote import RemoteSession
    if variant is not None and not Path(variant).is_file():
        fail(f"--variant '{variant}': no such file; with --join it names the file of the table's "
             "house rule (the table names its variant)", USAGE)
    consent = Trust.of([variant] if variant else [], trust)
    try:
        code = RemoteSession(url, trust=consent, variant_file=Path(variant) if variant else None).run()
    except SessionError as exc:
        for line in exc.lines:
            typer.echo(f"azul: {safe_line(line)}", err=True)
        raise typer.Exit(exc.code) from None
    if code:
        raise typer.Exit(code)


__all__ = ["play_command"]
