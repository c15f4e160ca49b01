"""Bots by name: the built-in ones, those installed under the entry-point group
``azul.bots``, then those the variant's plugins offer through the
``azul_register_bots`` hook (a later source's name replaces an earlier one).
"""

from __future__ import annotations

from importlib import metadata
from typing import Any, Callable

from azul_core.engine.plugins import PluginError
from azul_core.players.bots import GreedyBot, RandomBot, seen_by_mover

BOT_ENTRY_POINT_GROUP = "azul.bots"


def _search_bot(seed: Any = None, think: float | None = None, playouts: int | None = None):
    from azul_core.players.search import MctsBot  # imported on demand: the command line stays quick to start
    return MctsBot(seed=seed, think=think, iterations=playouts)


BUILTIN_BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": _search_bot,
}

#: The kind of player that is a person at the keyboard, not a bot.
HUMAN = "human"


def installed_bots() -> dict[str, Callable[..., Any]]:
    """Bots installed under the ``azul.bots`` entry-point group (a factory or a class each).

    A bot that fails to import is left out here; ``broken_bots`` says why.
    """
    found = {}
    for ep in metadata.entry_points(group=BOT_ENTRY_POINT_GROUP):
        try:
            found[ep.name] = ep.load()
        except Exception:  # third-party code: reported by broken_bots, never fatal
            continue
    return found


def broken_bots() -> dict[str, str]:
    """Installed bots that fail to import, with the reason in one line."""
    broken = {}
    for ep in metadata.entry_points(group=BOT_ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception as exc:
            broken[ep.name] = f"{type(exc).__name__}: {exc}"
    return broken


def available_bots(rules=None) -> dict[str, Callable[..., Any]]:
    """Every bot by name: built-in ones, installed ones, then those the variant's plugins register."""
    bots = dict(BUILTIN_BOTS)
    bots.update(installed_bots())
    if rules is not None:
        bots.update(rules.bots())
    return bots


def make_bot(name: str, rules=None, seed: Any = None, think: float | None = None,
             playouts: int | None = None):
    """A bot by name; ``KeyError`` with the known names when there is none."""
    bots = available_bots(rules)
    if name not in bots:
        raise KeyError(f"unknown bot '{name}' (known: {', '.join(sorted(bots))})")
    try:
        return build_bot(bots[name], seed, think, playouts)
    except BaseException as exc:  # third-party code: its failure is a message
        raise BotError(f"bot '{name}' could not be made: {type(exc).__name__}{_where(exc)}: "
                       f"{' '.join(str(exc).split())[:300]}") from exc


def build_bot(factory: Callable[..., Any], seed: Any, think: float | None, playouts: int | None):
    """Call a bot factory. ``playouts`` (a search bot's budget of playouts per move, which
    makes its games depend on the seed alone) is passed only when given, so factories
    written before it existed keep working."""
    if playouts is None:
        return factory(seed=seed, think=think)
    return factory(seed=seed, think=think, playouts=playouts)


class BotError(Exception):
    """A bot that failed to choose: it raised (even ``SystemExit``), or returned nothing."""


def ask_bot(bot, name: str, state) -> tuple:
    """``bot.choose(state)``, with a bot's failure turned into a one-line ``BotError`` naming
    the bot and where it failed; a bot is third-party code and must not end the program.

    The bot is given the game as its seat may know it (``seen_by_mover``: without the other
    seats' secrets); the caller applies the decision to the real game."""
    try:
        decision = bot.choose(seen_by_mover(state))
    except PluginError:
        raise  # a rule plugin failed while the bot looked ahead: that plugin is named already
    except BaseException as exc:
        raise BotError(f"bot '{name}' raised {type(exc).__name__} in choose{_where(exc)}: "
                       f"{' '.join(str(exc).split())[:300]}") from exc
    if decision is None:
        raise BotError(f"bot '{name}' returned nothing from choose: expected a decision "
                       "(one of state.legal_decisions())")
    return decision


def _where(exc: BaseException) -> str:
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    return f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
