"""``azul tune``: the settings that make a rule meet a goal, found by a search over seeded bot
games (the search itself is ``azul_core.lab.tune``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from azul_core.cli.app import app
from azul_core.cli.common import (
    INTERRUPTED,
    USAGE,
    ClusterOption,
    PlayersOption,
    PlayoutsOption,
    QuietOption,
    ThinkOption,
    WorkersOption,
    check_budget,
    check_cluster,
    cluster_session,
    fail,
    load_variant_or_fail,
    seed_value,
    simulation_failed,
    text_console,
)


@app.command("tune")
def tune_command(
    variant: Annotated[str, typer.Argument(
        metavar="VARIANT_OR_FILE", help="The variant whose settings are searched: a file or a built-in name.")],
    vary: Annotated[list[str], typer.Option(
        "--vary", metavar="SETTING[=LOW..HIGH|=A|B]",
        help="A setting to vary, within its declared range or the one given; several separated by "
             "commas or repeated. A list setting with a range varies each of its items.")],
    goal: Annotated[Optional[list[str]], typer.Option(
        "--goal", metavar="GOAL",
        help="'first-seat edge' (the default), rounds=N, score=N, spread=N, like=VARIANT or "
             "net=LABEL+LABEL (the end bonuses so labelled bring as many points as they cost); "
             "*W weights a goal in a mix of several.")] = None,
    goal_file: Annotated[Optional[Path], typer.Option(
        "--goal-file", metavar="FILE.yaml", help="Goals from a YAML list of {goal, target, weight}.")] = None,
    players: PlayersOption = 2,
    bots: Annotated[str, typer.Option(
        "--bots", "-b", help="A bot for every seat, or one per seat (random bots score about 3 points "
                             "a game: their games say little about a rule's balance).")] = "greedy",
    budget: Annotated[int, typer.Option("--budget", help="Games in all, those already in the study included.")] = 20000,
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games per candidate at most (fewer when it is pruned).")] = 1000,
    stage: Annotated[int, typer.Option(
        "--stage", help="Games between two looks at a candidate, when a clearly worse one is pruned.")] = 200,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", "-s", help="Seed of the games, the same for every candidate, and of the search. "
                             "Default: a fresh seed, printed so the search can be repeated.")] = None,
    study: Annotated[Optional[Path], typer.Option(
        "--study", metavar="FILE", help="Keep the study in this file: running again with it continues "
                                        "the search (after Ctrl-C too).")] = None,
    write: Annotated[Optional[Path], typer.Option(
        "--write", metavar="FILE.yaml",
        help="Write a variant file extending the input with the best settings.")] = None,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", metavar="FILE.png", help="Draw each goal's figure against each setting (needs matplotlib).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole study as one JSON object.")] = False,
    workers: WorkersOption = 1,
    cluster: ClusterOption = None,
    think: ThinkOption = None,
    playouts: PlayoutsOption = None,
    quiet: QuietOption = False,
) -> None:
    """Search a variant's settings for the values that meet a goal: a fair first seat, a game
    length, a score.

    Every candidate plays the same seeded games; a candidate is called better only when the 95%
    intervals say so. Ctrl-C prints the best found so far and exits with 130; the --study file
    keeps it.
    """
    import random

    from azul_core.cli.simulate import GameProgress
    from azul_core.lab.plots import INSTALL_PLOT, plotting_available
    from azul_core.lab.simulate import SimulationError, resolve_bots
    from azul_core.lab.tune import (
        INSTALL_TUNE,
        TuneError,
        TuneInterrupted,
        TuneOptions,
        optuna_available,
        parse_goal,
        parse_vary,
        read_goal_file,
        tune,
    )

    if not optuna_available():
        fail(f"azul tune needs Optuna, which is not installed: {INSTALL_TUNE}")
    for name, value, least in (("--budget", budget, 1), ("--games", games, 2), ("--stage", stage, 2)):
        if value < least:
            fail(f"{name} must be {least} or more, not {value}", USAGE)
    if workers < 0:
        fail(f"--workers must be 0 (one per CPU) or more, not {workers}", USAGE)
    check_budget(think, playouts)
    check_cluster(cluster)
    for path in (write, plot, study):
        if path is not None and not path.parent.is_dir():
            fail(f"can't write {path}: no folder {path.parent}")
    if plot is not None and not plotting_available():
        fail(f"--plot needs matplotlib, which is not installed ({INSTALL_PLOT})")
    loaded = load_variant_or_fail(variant)
    if players not in loaded.rules.players:
        fail(f"variant '{loaded.name}' is played by {', '.join(map(str, loaded.rules.players))} players, "
             f"not {players}")
    try:
        dimensions = parse_vary(vary, loaded.declared, dict(loaded.settings))
        goals = [parse_goal(text) for text in goal or []]
        if goal_file is not None:
            goals += read_goal_file(goal_file)
        bot_names = resolve_bots(bots, players, loaded.rules)
    except TuneError as exc:
        fail(str(exc), USAGE)
    except SimulationError as exc:
        fail(str(exc), USAGE)
    if not goals:
        goals = [parse_goal("first-seat edge")]
    run_seed = seed_value(seed) if seed is not None else random.SystemRandom().randrange(10**9)
    options = TuneOptions(_variant_key(loaded, variant), players, bot_names, run_seed, dimensions, goals,
                          min(games, budget), min(stage, games))

    def said_on_start(candidates: int, played: int) -> None:
        if candidates and not as_json:
            typer.echo(f"azul: continuing the study in {study}: {candidates} candidates, {played} games "
                       "so far", err=True)

    interrupted = False
    try:
        with GameProgress(quiet) as bar, cluster_session(cluster, workers) as session:
            result = tune(loaded, options, budget, study, workers, session, think, playouts,
                          progress=bar.track("games", budget), on_start=said_on_start)
    except TuneError as exc:
        fail(str(exc))
    except SimulationError as exc:
        simulation_failed(exc)
    except TuneInterrupted as exc:
        result = exc.result
        interrupted = True
        typer.echo(f"azul: interrupted after {result.games_played} games; the best found so far:"
                   + (f" (the study in {study} keeps it: run again to continue)" if study else ""), err=True)
    if result.best is not None:
        if write is not None:
            _write_variant(write, loaded, result)
        if plot is not None:
            from azul_core.lab.tune_plot import draw_study
            _write_bytes(plot, draw_study(result))
    if as_json:
        typer.echo(json.dumps(result.to_json()))
    else:
        _print_result(result, write, plot)
    if interrupted:
        raise typer.Exit(INTERRUPTED)


def _bots(names: list[str]) -> str:
    return names[0] if len(set(names)) == 1 else ",".join(names)


def _variant_key(loaded, ref: str) -> str:
    """The variant as a study file remembers it: its file, resolved, or its built-in name."""
    from azul_core.variants.loading import builtin_variants
    path = Path(loaded.path).resolve()
    for name, builtin in builtin_variants().items():
        if builtin.resolve() == path:
            return name
    return str(path)


def _write_variant(path: Path, loaded, result) -> None:
    from azul_core.lab.tune import settings_in_words, variant_text
    best = result.best
    figures = "; ".join(_goal_in_words(g) for g in best.judged["goals"])
    description = (f"{loaded.name} with the settings azul tune found ({settings_in_words(best.settings)}): "
                   f"{figures}, in {best.judged['games']} games of bots {_bots(result.options.bots)}, "
                   f"seed {result.options.seed}")
    text = variant_text(loaded, best.settings, path.parent, f"{loaded.name}-tuned", description)
    _write_bytes(path, text.encode("utf-8"))


def _write_bytes(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        fail(f"can't write {path}: {exc.strerror or exc}")


def _percent(goal_kind: str, value: float) -> str:
    return f"{100 * value:.1f}%" if goal_kind == "first-seat edge" else f"{value:.2f}"


def _figure_in_words(part: dict, with_target: bool = True) -> str:
    kind = part["figure"]
    low, high = _percent(kind, part["low"]), _percent(kind, part["high"])
    if kind == "first-seat edge":
        low = low.removesuffix("%")
    between = " to " if part["low"] < 0 else "-"  # -1.79 to -1.38, not -1.79--1.38
    text = f"{part['words']} {_percent(kind, part['estimate'])}, 95% interval {low}{between}{high}"
    if with_target:
        text += f" (target {_percent(kind, part['target'])}: {'met' if part['met'] else 'not met'})"
    return text


def _goal_in_words(goal: dict) -> str:
    return "; ".join(_figure_in_words(part) for part in goal["figures"])


def _print_result(result, write: Path | None, plot: Path | None) -> None:
    from azul_core.lab.tune import settings_in_words
    console = text_console()
    options = result.options
    states = [c.state for c in result.candidates]
    console.print(f"{Path(options.variant).name if '/' in options.variant else options.variant}: "
                  f"{options.players} players, bots {_bots(options.bots)}, seed {options.seed}; "
                  f"{len(states)} candidates ({states.count('pruned')} pruned), {result.games_played} "
                  f"of {result.budget} games, up to {options.games} per candidate, the same deals for every "
                  "candidate")
    console.print("varied: " + "; ".join(d.describe() for d in options.dimensions) + f"; search: {result.sampler}")
    console.print("goal: " + " + ".join(f"{g.label}" + (f" (weight {g.weight:g})" if g.weight != 1 else "")
                                         for g in options.goals))
    best = result.best
    if best is None:
        console.print("no candidate finished its games yet: nothing to recommend")
        return
    console.print(f"best: {settings_in_words(best.settings)}  ({best.judged['games']} games)")
    for goal in best.judged["goals"]:
        for part in goal["figures"]:
            console.print(f"  {_figure_in_words(part)}")
    if not all(goal["met"] for goal in best.judged["goals"]):
        console.print("no candidate met the goal: the best one's interval doesn't hold the target")
    ranked = result.ranked()
    if len(ranked) > 1:
        console.print("runners-up:")
        for candidate in ranked[1:4]:
            figures = "; ".join(_figure_in_words(part, False) for goal in candidate.judged["goals"]
                                for part in goal["figures"])
            fewer = f" ({candidate.judged['games']} games)" if candidate.judged["games"] < options.games else ""
            console.print(f"  {settings_in_words(candidate.settings)}{fewer}: {figures}")
    tied = result.not_told_apart()
    if len(ranked) == 1:
        console.print("only one candidate finished: the budget was too small to compare candidates")
    elif tied:
        names = ", ".join(settings_in_words(c.settings) for c in tied[:5])
        more = f" and {len(tied) - 5} more" if len(tied) > 5 else ""
        console.print(f"not clearly better than {names}{more}: their intervals overlap the best's, so "
                      f"the budget was too small to tell them apart (a larger --budget and --games narrow "
                      "the intervals)")
    else:
        console.print("clearly better than every other finished candidate: the intervals separate (95%)")
    if result.settled:
        console.print("the search settled: it kept proposing candidates already played")
    for path in (write, plot):
        if path is not None:
            console.print(f"wrote {path}")
