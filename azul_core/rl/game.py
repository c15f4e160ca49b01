"""What both adapters share: loading a variant by name or file, returns, and game records.

Nothing here decides a rule: a game is an engine ``GameState``, its legal
moves are ``legal_decisions()``, its scores and winners what the variant's
plugins made of it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from azul_core.engine.notation import format_decision
from azul_core.engine.rulebook import Rules
from azul_core.engine.state import GameState, letters
from azul_core.records.game_record import Recorder, RoundRecord
from azul_core.variants import builtin_variants, find_variant, load_variant

#: A game still going after this many rounds is cut short (a house rule that never ends).
MAX_ROUNDS = 100
#: The final returns both adapters offer (PettingZoo adds per-round payments of the first).
REWARDS = ("score", "win")

_loaded: dict[tuple, tuple] = {}


def load(variant: str | Path) -> tuple[Rules, str]:
    """The resolved rules of a variant (a built-in name or a variant file) and how to find it
    again: the built-in name, else the file's absolute path (``record_ref`` makes it relative).

    Loaded once per file version; ``VariantError`` (every problem with its place) otherwise.
    """
    path = find_variant(str(variant))
    resolved = path.resolve()
    key = (str(resolved), resolved.stat().st_mtime_ns)
    found = _loaded.get(key)
    if found is None:
        ref = next((name for name, builtin in builtin_variants().items()
                    if builtin.resolve() == resolved), resolved.as_posix())
        found = _loaded[key] = (load_variant(path).rules, ref)
    return found


def check_players(rules: Rules, players: int) -> None:
    if not isinstance(players, int) or isinstance(players, bool) or players not in rules.players:
        allowed = ", ".join(str(p) for p in rules.players)
        raise ValueError(f"variant '{rules.name}' is for {allowed} players, not {players!r}")


def check_reward(reward: str, choices: tuple[str, ...] = REWARDS) -> None:
    if reward not in choices:
        raise ValueError(f"reward must be one of {', '.join(choices)}, not {reward!r}")


def score_differences(scores: Sequence[float]) -> list[float]:
    """Each seat's score minus the mean of the others' (zero-sum; with 2 players, the plain
    difference)."""
    n = len(scores)
    total = sum(scores)
    return [score - (total - score) / (n - 1) for score in scores]


def win_returns(state: GameState) -> list[float]:
    """Zero-sum win returns from the variant's winners: with 2 players +1 / -1 (0 each for a
    shared victory); with n, a winner's share s (1/number of winners) gives (n*s - 1)/(n - 1)."""
    n = len(state.players)
    share = 1 / len(state.winners) if state.winners else 0
    return [(n * (share if seat in state.winners else 0) - 1) / (n - 1) for seat in range(n)]


def final_returns(state: GameState, reward: str) -> list[float]:
    return win_returns(state) if reward == "win" else score_differences(state.scores())


def record_ref(ref: str, folder: str | Path | None = None) -> str:
    """How a record kept in ``folder`` (default: the current folder) names the variant: a
    built-in by its name, a variant file by its path relative to that folder, as
    ``azul simulate --record-dir`` does. (``azul validate`` then wants the file named with
    ``--variant FILE`` when it lies outside the record's folder or runs plugin files.)"""
    if not Path(ref).is_absolute():
        return ref
    return Path(os.path.relpath(ref, Path(folder or ".").resolve())).as_posix()


def build_record(ref: str, names: Sequence[str], seed: Any, rounds: Sequence[tuple],
                 state: GameState, folder: str | Path | None = None, *, first_player: int = 0) -> dict:
    """An ``azul-record/1`` record (as a dict) of a game: ``rounds`` holds, per round, the
    factory fills (counts per kind of tile per factory, written with the variant's letters)
    and the decisions taken; scores and the result come from ``state``, the game's position
    now. ``folder``: where the record will be kept (see ``record_ref``). ``first_player``:
    the seat that started round 1 (the variant's ``azul_first_player``; the record names it
    when it is not seat 0, and a replay starts with it)."""
    recorder = Recorder(record_ref(ref, folder), list(names), seed)
    recorder.first_player = first_player
    kind_letters = state.table.kind_letters
    colour_letters = state.rules.colour_letters  # also tells format_decision where the floor is
    recorder.rounds = [RoundRecord([letters(counts, kind_letters) for counts in fills],
                                   [format_decision(d, colour_letters) for d in decisions])
                       for fills, decisions in rounds]
    return recorder.to_dict(state)
