"""Variants side by side: the same seeded games under each, and each variant
after the first tested against the first.

Every variant plays games 1..K from the same run seed, so game i starts from the
same deal everywhere and a difference comes from the rules (and what the bots
then do), not from luck of the draw alone. Welch's t-test compares per-game
means, the two-proportion z-test shares of games, both two-sided at 95%.
"""

from __future__ import annotations

from typing import Callable

from azul_core.lab.stats import CONFIDENCE, two_proportion_test, welch_test


def variant_labels(loaded, refs: list[str]) -> list[str]:
    """Each variant's name; where two share a name, the reference as given (then a number)."""
    names = [variant.name for variant in loaded]
    labels = [name if names.count(name) == 1 else ref for name, ref in zip(names, refs)]
    return [label if labels.count(label) == 1 else f"{label} #{labels[:i + 1].count(label)}"
            for i, label in enumerate(labels)]


#: What is compared, in table order: key -> (label, test, per-game sample or share of games).
#: A sample gives one number per game (games are independent; seats of one game are not).
METRICS: dict[str, tuple[str, str, Callable]] = {
    "score": ("mean score", "welch", lambda r: sum(r.scores) / len(r.scores)),
    "rounds": ("rounds per game", "welch", lambda r: r.rounds),
    "start_player_win_share": ("start player's win share", "two-proportion",
                               lambda r: 1 / len(r.winners) if r.first_player in r.winners else 0.0),
    "shared_victories": ("games with several winners", "two-proportion", lambda r: 1.0 if len(r.winners) > 1 else 0.0),
    "floor_tiles_per_round": ("floor tiles per round", "welch",
                              lambda r: sum(s.floor_tiles for s in r.seats) / (r.rounds * len(r.seats))),
    "placements": ("placement points", "welch",
                   lambda r: sum(s.placement_points for s in r.seats) / len(r.seats)),
    "bonuses": ("bonus points", "welch", lambda r: sum(s.bonus_points for s in r.seats) / len(r.seats)),
    "penalties": ("floor penalties", "welch", lambda r: sum(s.penalty_points for s in r.seats) / len(r.seats)),
}

TESTS = {
    "welch": "Welch's t-test on per-game means (mean score per player, rounds, floor tiles, points)",
    "two-proportion": "two-proportion z-test on shares of games (start player's win share, "
                      "a victory of several seats counting as its share; games with several winners)",
}


def compare_runs(runs, labels: list[str], refs: list[str]) -> dict:
    """The comparison ``azul compare --json`` prints: each run's summary, the per-game means
    compared, and every variant after the first tested against the first."""
    samples = [{key: [sample(r) for r in run.results] for key, (_l, _t, sample) in METRICS.items()}
               for run in runs]
    first = runs[0]
    variants = []
    for index, (run, label, ref) in enumerate(zip(runs, labels, refs)):
        mine = samples[index]
        entry = {
            "label": label,
            "variant": run.variant,
            "variant_ref": ref,
            "values": {key: round(sum(values) / len(values), 4) for key, values in mine.items()},
            "differences": None,
            "summary": run.summary(),
        }
        if index:
            differences = {}
            for key, (_label, test, _sample) in METRICS.items():
                base = samples[0][key]
                if test == "welch":
                    result = welch_test(base, mine[key])
                else:
                    result = two_proportion_test(sum(base), len(base), sum(mine[key]), len(mine[key]))
                differences[key] = {
                    "difference": round(result.difference, 4),
                    "test": test,
                    "statistic": finite_statistic(result.statistic),
                    "df": None if result.df is None else round(result.df, 2),
                    "p_value": float(f"{result.p_value:.4g}"),
                    "clear": result.clear(CONFIDENCE),
                }
            entry["differences"] = differences
        variants.append(entry)
    return {
        "players": first.players,
        "games": len(first.results),
        "seed": first.seed,
        "bots": list(first.bots),
        "confidence": CONFIDENCE,
        "baseline": labels[0],
        "metrics": {key: {"label": label, "test": test} for key, (label, test, _s) in METRICS.items()},
        "tests": dict(TESTS),
        "variants": variants,
    }


def finite_statistic(value: float):
    """A statistic for JSON: infinity (no spread at all, different means) becomes null."""
    return round(value, 4) if value == value and abs(value) != float("inf") else None


def bots_in_words(comparison: dict) -> str:
    """The bots in words: one name when every seat has the same bot."""
    bots = comparison["bots"]
    return bots[0] if len(set(bots)) == 1 else ", ".join(bots)
