"""Checking a variant file: it loads, and random games with it keep the engine's invariants.

``check_variant_file`` is what ``azul validate`` runs for a variant file. A
file that loads can still be broken at play time: a plugin may raise, or
return something that breaks an invariant only some positions reach, so the
check plays seeded random games for every player count the variant allows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from azul_core.engine.notation import is_ascii_number
from azul_core.variants.files import Problem

#: A game that has not ended after this many rounds never will (about 7 is usual).
MAX_ROUNDS = 100


@dataclass
class VariantReport:
    """What checking one variant file found."""

    path: str
    name: str | None = None
    problems: list[Problem] = field(default_factory=list)
    games_played: int = 0
    player_counts: tuple[int, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def summary(self) -> str:
        """One line saying what was found."""
        label = f"variant '{self.name}'" if self.name else "variant"
        if self.valid:
            played = ""
            if self.games_played:
                counts = ", ".join(str(c) for c in self.player_counts)
                several = len(self.player_counts) > 1 or self.player_counts[0] != 1
                played = (f"; {self.games_played} random game{'s' if self.games_played != 1 else ''} "
                          f"played ({counts} player{'s' if several else ''})")
            return f"{self.path}: valid {label}{played}"
        count = len(self.problems)
        return f"{self.path}: invalid {label}: {count} problem{'s' if count != 1 else ''}"

    def to_json(self) -> dict:
        return {
            "kind": "variant",
            "path": self.path,
            "valid": self.valid,
            "name": self.name,
            "errors": [problem.to_json() for problem in self.problems],
            "games_played": self.games_played,
        }


def check_variant_file(path: str | Path, play: bool = True, games: int = 200) -> VariantReport:
    """Load the variant at ``path`` and, unless ``play`` is false, play ``games`` seeded random
    games for each of its player counts; every problem is in the report, none is raised."""
    from azul_core.engine.plugins import PluginError
    from azul_core.variants.loading import VariantError, load_variant

    path = Path(path)
    report = VariantReport(str(path))
    try:
        variant = load_variant(path)
    except VariantError as exc:
        report.problems = list(exc.problems)
        return report
    except PluginError as exc:
        report.problems = [Problem(str(path), 1, 1, str(exc))]
        return report
    report.name = variant.name
    report.player_counts = variant.players
    if play:
        for players in variant.players:
            problem = _play_games(variant, players, games, report)
            if problem:
                report.problems.append(problem)
    return report


def _play_games(variant, players: int, games: int, report: VariantReport) -> Problem | None:
    """Play ``games`` random games; the first thing that goes wrong, as a problem."""
    from azul_core.engine.plugins import PluginError
    from azul_core.engine.state import DEAL, GameState, IllegalDecision

    rules = variant.rules
    for number in range(games):
        seed = players * 1_000_003 + number
        where = f"{players} players, game {number + 1} (seed {seed})"
        rng = random.Random(seed)
        choose = random.Random(seed + 1).random
        try:
            state = GameState(rules, players, rules.opening_seat(players, seed))
            expected = list(state.table.kind_counts)
            while not state.over:
                if state.phase == DEAL:
                    if state.round > MAX_ROUNDS:
                        return _variant_problem(variant, f"{where}: the game did not end within "
                                                         f"{MAX_ROUNDS} rounds (azul_game_over: "
                                                         f"{rules.deciders.get('azul_game_over')})")
                    state.deal(rng)
                else:
                    state.apply(state.random_decision(choose))
                broken = _broken_invariant(state, expected)
                if broken:
                    return _variant_problem(variant, f"{where}, round {state.round}: {broken}")
        except PluginError as exc:
            return _plugin_problem(variant, where, exc)
        except IllegalDecision as exc:
            return _variant_problem(variant, f"{where}, round {state.round}: the engine refused a "
                                             f"decision it offered itself: {exc}")
        except Exception as exc:  # an engine failure caused by a plugin's answers: report, don't crash
            return _variant_problem(variant, f"{where}: {type(exc).__name__}: {exc}")
        report.games_played += 1
    return None


def _broken_invariant(state, kind_counts: list[int]) -> str | None:
    counts = state.tile_counts()
    if counts != kind_counts:
        letters = state.table.kind_letters
        shown = ", ".join(f"{letters[kind]} {count}" for kind, count in enumerate(counts))
        wanted = ", ".join(f"{letters[kind]} {count}" for kind, count in enumerate(kind_counts))
        return (f"tiles were lost or made: {shown}, expected {wanted} "
                f"(wall: {state.rules.deciders.get('azul_wall_spaces')})")
    for seat, board in enumerate(state.players):
        if board.score < 0:
            hooks = "azul_end_bonuses" if state.over else "azul_placement_score"
            return (f"seat {seat + 1} has a negative score ({board.score}; {hooks}: "
                    f"{state.rules.deciders.get(hooks)})")
    return None


def _variant_problem(variant, message: str) -> Problem:
    file, line = _origin(variant, "plugins")
    return Problem(file, line, 1, message)


def _plugin_problem(variant, where: str, exc) -> Problem:
    """A plugin failure, placed at the plugin's own file and line when known."""
    location = getattr(exc, "location", "")
    file, _, line = location.rpartition(":")
    if file and is_ascii_number(line):
        return Problem(file, int(line), 1, f"{where}: {exc}")
    file, line = _origin(variant, "plugins")
    return Problem(file, line, 1, f"{where}: {exc}")


def _origin(variant, key: str) -> tuple[str, int]:
    origin = variant.origins.get(key, "")
    file, _, line = origin.rpartition(":")
    if file and is_ascii_number(line):
        return file, int(line)
    return str(variant.path), 1
