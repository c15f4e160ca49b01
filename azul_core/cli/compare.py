"""``azul compare``: the same seeded games under several variants, side by side.

Every variant plays games 1..K from the same run seed, so game i starts from the
same deal everywhere and a difference comes from the rules (and what the bots
then do), not from luck of the draw alone. Each variant after the first is
tested against the first: Welch's t-test on per-game means, the two-proportion
z-test on shares of games, both two-sided at 95%.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Callable, Optional

import typer

from .app import app
from .common import (INVALID, BotsOption, PlayersOption, QuietOption, ThinkOption, WorkersOption,
                     check_run_options, fail, load_variant_or_fail, one_line, seed_value)
from .simulate import GameProgress, _number

INSTALL_PLOT = "pip install 'azul-variants[plot]'"


@app.command("compare")
def compare_command(
    variants: Annotated[list[str], typer.Argument(
        metavar="VARIANT_OR_FILE", help="Built-in variant names or variant files; the first is the "
                                           "baseline the others are tested against.")],
    players: PlayersOption = 2,
    bots: BotsOption = "random",
    games: Annotated[int, typer.Option("--games", "-n", help="Games per variant (2 or more).")] = 1000,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", "-s", help="Seed of the run, the same for every variant. "
                             "Default: a fresh seed, printed so the run can be repeated.")] = None,
    workers: WorkersOption = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as one JSON object.")] = False,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", metavar="FILE.png", help="Draw score distributions and win shares (needs matplotlib).")] = None,
    html: Annotated[Optional[Path], typer.Option(
        "--html", metavar="FILE", help="Write a one-page report: the table and the pictures.")] = None,
    quiet: QuietOption = False,
    think: ThinkOption = None,
) -> None:
    """Play the same seeded games under each variant and show them side by side.

    Differences from the first variant that are statistically clear at 95% are marked.
    """
    import random
    import time

    from ..simulate import SimulationError, simulate

    check_run_options(games, 2, workers, think)
    for path in (plot, html):
        if path is not None and not path.parent.is_dir():
            fail(f"can't write {path}: no folder {path.parent}")
    figure_maker = None
    if plot is not None or html is not None:
        figure_maker = _figure_maker()
        if figure_maker is None and plot is not None:
            fail(f"--plot needs matplotlib, which is not installed ({INSTALL_PLOT})")
    loaded = [load_variant_or_fail(ref) for ref in variants]
    refused = [f"'{v.name}' is played by {', '.join(map(str, v.rules.players))} players"
               for v in loaded if players not in v.rules.players]
    if refused:
        fail(f"can't compare with {players} players: variant {'; variant '.join(refused)}")
    run_seed = seed_value(seed) if seed is not None else random.SystemRandom().randrange(10**9)
    labels = _labels(loaded, variants)
    runs, seconds = [], []
    try:
        with GameProgress(quiet) as bar:
            for variant, label in zip(loaded, labels):
                started = time.perf_counter()
                runs.append(simulate(variant, players, games, run_seed, bots, workers,
                                     progress=bar.track(label, games), think=think))
                seconds.append(time.perf_counter() - started)
    except SimulationError as exc:
        fail(f"{label}: {one_line(str(exc))}", INVALID)
    comparison = compare_runs(runs, labels, variants)
    picture = None
    if figure_maker is not None:
        picture = figure_maker(comparison, runs)
        if plot is not None:
            _write(plot, picture)
    if html is not None:
        _write(html, html_report(comparison, picture).encode("utf-8"))
        if picture is None:
            typer.echo(f"azul: the report has no pictures: matplotlib is not installed ({INSTALL_PLOT})",
                       err=True)
    if as_json:
        typer.echo(json.dumps(comparison))
        return
    _print_comparison(comparison, seconds)
    for path in (plot, html):
        if path is not None:
            typer.echo(f"wrote {path}")


def _labels(loaded, refs: list[str]) -> list[str]:
    """Each variant's name; where two share a name, the reference as given (then a number)."""
    names = [variant.name for variant in loaded]
    labels = [name if names.count(name) == 1 else ref for name, ref in zip(names, refs)]
    return [label if labels.count(label) == 1 else f"{label} #{labels[:i + 1].count(label)}"
            for i, label in enumerate(labels)]


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        fail(f"can't write {path}: {exc.strerror or exc}")


# ---------------------------------------------------------------- the comparison

#: What is compared, in table order: key -> (label, test, per-game sample or share of games).
#: A sample gives one number per game (games are independent; seats of one game are not).
METRICS: dict[str, tuple[str, str, Callable]] = {
    "score": ("mean score", "welch", lambda r: sum(r.scores) / len(r.scores)),
    "rounds": ("rounds per game", "welch", lambda r: r.rounds),
    "start_player_win_share": ("start player's win share", "two-proportion",
                               lambda r: 1 / len(r.winners) if r.first_player in r.winners else 0.0),
    "shared_victories": ("shared victories", "two-proportion", lambda r: 1.0 if len(r.winners) > 1 else 0.0),
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
                      "shared victories; a shared victory counts as its share)",
}


def compare_runs(runs, labels: list[str], refs: list[str]) -> dict:
    """The comparison ``azul compare --json`` prints: each run's summary, the per-game means
    compared, and every variant after the first tested against the first."""
    from ..stats import CONFIDENCE, two_proportion_test, welch_test

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
                    "statistic": _finite(result.statistic),
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


def _finite(value: float):
    """A statistic for JSON: infinity (no spread at all, different means) becomes null."""
    return round(value, 4) if value == value and abs(value) != float("inf") else None


def table_rows(comparison: dict) -> list[tuple[str, list[tuple[str, bool]]]]:
    """The side-by-side table: (row label, [(cell text, differs clearly from the baseline)]).
    Rows that describe a tested value (its spread, its interval) follow it, unmarked."""
    variants = comparison["variants"]

    def row(label, cell, key=None):
        return (label, [(cell(entry), bool(key and entry["differences"] and entry["differences"][key]["clear"]))
                        for entry in variants])

    def value(key, form):
        return lambda entry: format(entry["values"][key], form)

    def described(part, key):
        return lambda entry: _number(entry["summary"][part][key])

    return [
        row("mean score", value("score", ".2f"), "score"),
        row("  sd", lambda e: f"{e['summary']['score']['stdev']:.2f}"),
        row("  median", described("score", "median")),
        row("  quartiles", lambda e: f"{described('score', 'q1')(e)}-{described('score', 'q3')(e)}"),
        row("rounds per game", value("rounds", ".2f"), "rounds"),
        row("  min-max", lambda e: f"{e['summary']['min_rounds']}-{e['summary']['max_rounds']}"),
        row("start player wins", value("start_player_win_share", ".1%"), "start_player_win_share"),
        row("  95% interval", lambda e: f"{e['summary']['start_player']['win_share_low'] * 100:.1f}-"
                                        f"{e['summary']['start_player']['win_share_high'] * 100:.1f}"),
        row("shared victories", value("shared_victories", ".1%"), "shared_victories"),
        row("floor tiles/round", value("floor_tiles_per_round", ".2f"), "floor_tiles_per_round"),
        row("placement points", value("placements", ".2f"), "placements"),
        row("bonus points", value("bonuses", ".2f"), "bonuses"),
        row("floor penalties", value("penalties", ".2f"), "penalties"),
    ]


def tests_used_note(comparison: dict) -> str:
    """Which tests mark a difference, in words, for under the table."""
    level = f"{comparison['confidence']:.0%}"
    return (f"* differs clearly from {comparison['baseline']} (two-sided, {level}): "
            f"{TESTS['welch']}; {TESTS['two-proportion']}.")


def _bots(comparison: dict) -> str:
    """The bots in words: one name when every seat has the same bot."""
    bots = comparison["bots"]
    return bots[0] if len(set(bots)) == 1 else ", ".join(bots)


# ---------------------------------------------------------------- text


def _print_comparison(comparison: dict, seconds: list[float]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    games = comparison["games"]
    console.print(f"{games} games per variant, {comparison['players']} players, bots {_bots(comparison)}, "
                  f"seed {comparison['seed']} (the same seeds for every variant)")
    table = Table(box=None, pad_edge=False)
    table.add_column("", no_wrap=True)
    for entry in comparison["variants"]:
        table.add_column(entry["label"], justify="right", no_wrap=True)
    for label, cells in table_rows(comparison):
        table.add_row(label, *[text + (" *" if marked else "  ") for text, marked in cells])
    console.print(table)
    console.print(tests_used_note(comparison))
    timing = ", ".join(f"{entry['label']} {spent:.1f} s" for entry, spent in zip(comparison["variants"], seconds))
    console.print(f"time: {timing}")


# ---------------------------------------------------------------- pictures


def _figure_maker():
    """The function that draws the comparison as PNG bytes, or ``None`` without matplotlib."""
    try:
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        return None
    return draw_comparison


def draw_comparison(comparison: dict, runs) -> bytes:
    """Score distributions (box: quartiles, whiskers: 5th-95th percentile, diamond: mean),
    rounds per game, and each seat's win share with its 95% interval, per variant."""
    import io

    from matplotlib.figure import Figure

    labels = [entry["label"] for entry in comparison["variants"]]
    colours = [f"C{i}" for i in range(len(labels))]
    figure = Figure(figsize=(12, 4.2), layout="constrained")
    scores_axes, rounds_axes, wins_axes = figure.subplots(1, 3, width_ratios=[1.3, 1, 1.2])
    positions = list(range(len(labels)))

    def boxes(axes, samples, title, unit):
        drawn = axes.boxplot(samples, positions=positions, whis=(5, 95), showfliers=False,
                             showmeans=True, patch_artist=True, widths=0.6,
                             meanprops={"marker": "D", "markerfacecolor": "white",
                                        "markeredgecolor": "black", "markersize": 6},
                             medianprops={"color": "black", "linewidth": 1.5})
        for box, colour in zip(drawn["boxes"], colours):
            box.set_facecolor(colour)
            box.set_alpha(0.75)
        means = [sum(values) / len(values) for values in samples]
        axes.set_xticks(positions, [f"{label}\nmean {mean:.2f}" for label, mean in zip(labels, means)],
                        fontsize=9)
        axes.set_title(title)
        axes.set_ylabel(unit)
        axes.grid(axis="y", alpha=0.3)

    boxes(scores_axes, [[s for r in run.results for s in r.scores] for run in runs],
          "Final score per player", "points")
    boxes(rounds_axes, [[r.rounds for r in run.results] for run in runs], "Rounds per game", "rounds")

    players = comparison["players"]
    fair = 100 / players
    wins_axes.axhline(fair, color="grey", linestyle="--", linewidth=1, label=f"fair share {fair:.0f}%")
    step = 0.6 / players
    for seat in range(players):
        shares, below, above = [], [], []
        for entry in comparison["variants"]:
            data = entry["summary"]["seats"][seat]
            shares.append(data["win_share"] * 100)
            below.append((data["win_share"] - data["win_share_low"]) * 100)
            above.append((data["win_share_high"] - data["win_share"]) * 100)
        offsets = [p - 0.3 + step * (seat + 0.5) for p in positions]
        starts = seat == 0
        wins_axes.errorbar(offsets, shares, yerr=[below, above], fmt="o" if starts else "s", capsize=4,
                           markersize=7 if starts else 5, color="black" if starts else f"C{seat + 1}",
                           markerfacecolor="black" if starts else "white", linewidth=1.2,
                           label="seat 0 (starts round 1)" if starts else f"seat {seat}")
    wins_axes.set_xticks(positions, labels, fontsize=9)
    wins_axes.set_xlim(-0.6, len(labels) - 0.4)
    wins_axes.set_title("Win share per seat, 95% interval")
    wins_axes.set_ylabel("% of games won")
    wins_axes.grid(axis="y", alpha=0.3)
    wins_axes.legend(fontsize=8, loc="upper center", ncols=min(players + 1, 3), framealpha=0.9)
    low, high = wins_axes.get_ylim()
    wins_axes.set_ylim(low, high + (high - low) * 0.25)  # room for the legend above the points
    figure.supxlabel("Boxes: quartiles, line: median, \u25c7: mean, whiskers: 5th to 95th percentile. "
                     "Win shares split shared victories; bars: Wilson 95% intervals.", fontsize=8)
    figure.suptitle(f"{comparison['games']} games per variant, {players} players, "
                    f"bots {_bots(comparison)}, seed {comparison['seed']}")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


# ---------------------------------------------------------------- HTML


def html_report(comparison: dict, picture: bytes | None) -> str:
    """One self-contained page: the table, the tests used, and the picture inlined as base64."""
    import base64
    from html import escape

    head = "".join(f"<th>{escape(entry['label'])}</th>" for entry in comparison["variants"])
    body = []
    for label, cells in table_rows(comparison):
        tds = "".join(f'<td class="clear">{escape(text)} *</td>' if marked else f"<td>{escape(text)}</td>"
                      for text, marked in cells)
        heading = f'<th class="sub">{escape(label.strip())}</th>' if label.startswith(" ") \
            else f"<th>{escape(label)}</th>"
        body.append(f"<tr>{heading}{tds}</tr>")
    refs = "".join(f"<li><b>{escape(e['label'])}</b>: {escape(str(e['variant_ref']))}</li>"
                   for e in comparison["variants"])
    if picture is not None:
        image = (f'<img alt="score distributions, rounds and win shares per variant" '
                 f'src="data:image/png;base64,{base64.b64encode(picture).decode("ascii")}">')
    else:
        image = f"<p><i>No pictures: matplotlib was not installed ({escape(INSTALL_PLOT)}).</i></p>"
    title = "Azul variants compared: " + ", ".join(e["label"] for e in comparison["variants"])
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 75em; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: 0.3em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }}
tr th:first-child {{ text-align: left; }}
td.clear {{ font-weight: bold; background: #fff3c4; }}
th.sub {{ font-weight: normal; padding-left: 2em; color: #555; }}
img {{ max-width: 100%; }}
</style>
</head>
<body>
<h1>{escape(title)}</h1>
<p>{comparison['games']} games per variant, {comparison['players']} players, bots
{escape(_bots(comparison))}, seed {escape(str(comparison['seed']))}: every variant
played the same seeds.</p>
<ul>{refs}</ul>
<table>
<tr><th></th>{head}</tr>
{chr(10).join(body)}
</table>
<p>{escape(tests_used_note(comparison))}</p>
{image}
</body>
</html>
"""
