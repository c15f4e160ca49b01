"""``azul tune``: search the settings of a variant's plugins for the values that meet a goal
(a fair first seat, a target game length or score), with Optuna over the lab's seeded games.

Every candidate plays the same games (game ``i`` of every candidate is seeded from the run's
seed and ``i``: common random numbers), so the candidates differ by their settings, not by
their luck. A candidate plays in stages; after each stage its figures, with their intervals,
go to Optuna, and a candidate whose interval already says it can't beat the best one found
is pruned (``IntervalPruner``). A study kept in a file (Optuna's journal storage) is continued
by the next run with the same file.

Optuna is optional: ``pip install ".[tune]"``.
"""

from __future__ import annotations

import math
import os
import tempfile
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from azul_core.lab.simulate import SimulationInterrupted, simulate
from azul_core.lab.stats import CONFIDENCE, mean, normal_quantile, stdev, wilson_interval

INSTALL_TUNE = 'pip install ".[tune]" in the azul-variants folder, or pip install optuna'

#: The study's name inside its file: one study per file.
STUDY_NAME = "azul-tune"

#: A search that proposes only candidates already tried this many times in a row has settled.
MAX_REPEATS = 30


def optuna_available() -> bool:
    try:
        import optuna  # noqa: F401
    except ImportError:
        return False
    return True


class TuneError(Exception):
    """A search that can't run as asked; one line for the user."""


class TuneInterrupted(Exception):
    """Ctrl-C stopped the search: ``result`` holds what was found until then."""

    def __init__(self, result: "TuneResult"):
        super().__init__("interrupted")
        self.result = result


# ---------------------------------------------------------------- what varies


@dataclass(frozen=True)
class Dimension:
    """One value the search chooses: a whole ``setting``, or item ``index`` of a list setting.
    Whole numbers between ``low`` and ``high``, or one of ``choices``."""

    setting: str
    low: int = 0
    high: int = 0
    choices: tuple = ()
    index: int | None = None

    @property
    def name(self) -> str:
        return self.setting if self.index is None else f"{self.setting}[{self.index}]"

    def size(self) -> int:
        return len(self.choices) if self.choices else self.high - self.low + 1

    def values(self) -> list:
        return list(self.choices) if self.choices else list(range(self.low, self.high + 1))

    def describe(self) -> str:
        if self.choices:
            return f"{self.name} in {' | '.join(_text(_shown_choice(c)) for c in self.choices)}"
        return f"{self.name} {self.low}..{self.high}"


def _shown_choice(choice: Any) -> Any:
    """A choice as it was given: a list or a mapping back from the text Optuna stores."""
    if isinstance(choice, str) and choice[:1] in "[{":
        import json
        return json.loads(choice)
    return choice


def _text(value: Any) -> str:
    """A setting's value as the user writes it on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def split_top_level(text: str) -> list[str]:
    """``text`` cut at the commas outside brackets: ``"a,b=[1,2]"`` -> ``["a", "b=[1,2]"]``."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "[{"
        depth -= char in "]}"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [part.strip() for part in parts if part.strip()]


def parse_vary(specs: Sequence[str], declared: dict, current: dict) -> list[Dimension]:
    """The dimensions of ``--vary`` specs: ``NAME`` (its declared range or choices),
    ``NAME=LOW..HIGH``, or ``NAME=A|B|C`` (a value of the setting's kind each). A list
    setting with a range varies each of its items in that range, ``NAME[i]=LOW..HIGH`` its item
    ``i`` alone; ``declared``: the variant's
    settings by name (``Setting``), ``current``: their values."""
    import yaml
    dimensions: list[Dimension] = []
    for spec in (part for text in specs for part in split_top_level(text)):
        name, _, given = (piece.strip() for piece in spec.partition("="))
        name, item = _item(name)
        setting = declared.get(name)
        if setting is None:
            known = ", ".join(sorted(declared)) or "none"
            raise TuneError(f"--vary: the variant has no setting '{name}' (its settings: {known})")
        if any(d.setting == name and (item is None or d.index is None or d.index == item) for d in dimensions):
            raise TuneError(f"--vary: '{name}' is named twice")
        if item is not None and (setting.kind != "int_list" or not 0 <= item < len(current[name])):
            raise TuneError(f"--vary {name}[{item}]: an item is of a list setting, counted from 0 "
                            f"({name} is {_text(current[name])})")
        if "|" in given and item is not None:
            raise TuneError(f"--vary {name}[{item}]: give the item a range, like {name}[{item}]=-5..0")
        if "|" in given:
            choices = []
            for option in given.split("|"):
                try:
                    value = yaml.safe_load(option.strip())
                except yaml.YAMLError:
                    raise TuneError(f"--vary {name}: can't read '{option.strip()}' as a value") from None
                if setting.kind == "int_map" and isinstance(value, dict):
                    value = {int(k) if isinstance(k, str) and k.lstrip("-").isdigit() else k: v
                             for k, v in value.items()}
                problem = setting.problem(value)
                if problem:
                    raise TuneError(f"--vary: {problem}")
                choices.append(value)
            dimensions.append(Dimension(name, choices=tuple(_frozen(c) for c in choices)))
            continue
        if given:
            low, high = _range(name, given)
        elif setting.choices:
            dimensions.append(Dimension(name, choices=tuple(setting.choices)))
            continue
        elif setting.kind == "bool":
            dimensions.append(Dimension(name, choices=(False, True)))
            continue
        elif setting.kind in ("int", "int_list") and setting.minimum is not None and setting.maximum is not None:
            low, high = setting.minimum, setting.maximum
        elif setting.kind in ("int", "int_list"):
            raise TuneError(f"--vary {name}: its plugin declares no "
                            f"{'maximum' if setting.minimum is not None else 'range'}; give one, "
                            f"like {name}=0..10")
        else:
            raise TuneError(f"--vary {name}: a setting of kind {setting.kind} varies over values you "
                            f"give, like {name}=A|B")
        if setting.kind not in ("int", "int_list"):
            raise TuneError(f"--vary {name}: a range is for whole numbers; {name} is {setting.kind}: "
                            f"give values, like {name}=A|B")
        for bound in (low, high):
            if setting.minimum is not None and bound < setting.minimum or \
                    setting.maximum is not None and bound > setting.maximum:
                raise TuneError(f"--vary {name}={low}..{high} leaves the setting's declared range "
                                f"{_declared_range(setting)}")
        if setting.kind == "int":
            dimensions.append(Dimension(name, low, high))
        elif item is not None:
            dimensions.append(Dimension(name, low, high, index=item))
        else:
            dimensions.extend(Dimension(name, low, high, index=i) for i in range(len(current[name])))
    if not dimensions:
        raise TuneError("--vary: name at least one setting to vary")
    return dimensions


def _item(name: str) -> tuple[str, int | None]:
    """``"floor_penalties[0]"`` -> ``("floor_penalties", 0)``: one item of a list setting."""
    if name.endswith("]") and "[" in name:
        base, _, index = name[:-1].partition("[")
        try:
            return base.strip(), int(index)
        except ValueError:
            raise TuneError(f"--vary {name}: an item is named by its number, like {base}[0]") from None
    return name, None


def _frozen(value: Any) -> Any:
    """A choice as Optuna stores it (a plain, hashable value): lists and mappings as text."""
    if isinstance(value, (list, dict)):
        import json
        return json.dumps(value)
    return value


def _thawed(value: Any, kind: str) -> Any:
    if kind in ("int_list", "int_map") and isinstance(value, str):
        import json
        data = json.loads(value)
        return {int(k): v for k, v in data.items()} if kind == "int_map" else data
    return value


def _range(name: str, text: str) -> tuple[int, int]:
    low, dots, high = text.partition("..")
    try:
        bounds = int(low), int(high)
    except ValueError:
        bounds = None
    if not dots or bounds is None or bounds[0] > bounds[1]:
        raise TuneError(f"--vary {name}={text}: give a range LOW..HIGH of whole numbers (like "
                        f"{name}=0..10) or values A|B")
    return bounds


def _declared_range(setting) -> str:
    low = "" if setting.minimum is None else str(setting.minimum)
    high = "" if setting.maximum is None else str(setting.maximum)
    return f"{low}..{high}"


def settings_of(params: dict, dimensions: Sequence[Dimension], declared: dict, current: dict) -> dict:
    """The settings a candidate's parameters stand for (list items put back in their list)."""
    settings: dict = {}
    for dimension in dimensions:
        value = params[dimension.name]
        kind = declared[dimension.setting].kind
        if dimension.index is None:
            settings[dimension.setting] = _thawed(value, kind)
        else:
            items = settings.setdefault(dimension.setting, list(current[dimension.setting]))
            items[dimension.index] = value
    return settings


# ---------------------------------------------------------------- goals


#: Each goal's figure, in words, and the unit its miss is counted in (so that a mix adds
#: like with like: a percentage point of win share weighs as a tenth of a round or a point).
GOAL_KINDS = {
    "first-seat edge": ("first seat wins", 0.01),
    "rounds": ("rounds per game", 0.1),
    "score": ("mean score", 1.0),
    "spread": ("score spread (sd)", 1.0),
    "net": ("net points per player", 1.0),
}
ALIASES = {"first-seat edge": "first-seat edge", "first seat edge": "first-seat edge", "fair": "first-seat edge",
           "edge": "first-seat edge", "rounds": "rounds", "length": "rounds", "score": "score",
           "mean score": "score", "spread": "spread", "like": "like", "net": "net"}
#: The statistics "like VARIANT" compares.
LIKE_FIGURES = ("first-seat edge", "rounds", "score", "spread")


@dataclass(frozen=True)
class Goal:
    """One goal: ``kind`` (a ``GOAL_KINDS`` key, or ``like``), its ``target`` (None: the fair
    share for the first-seat edge; for ``like``: the reference variant's figures, measured on
    the same games), a ``weight`` in a mix, and the ``reference``: the variant of ``like``, the
    end-bonus labels of ``net`` (joined by ``+``)."""

    kind: str
    target: float | None = None
    weight: float = 1.0
    reference: str | None = None

    @property
    def label(self) -> str:
        if self.kind == "like":
            return f"like {self.reference}"
        if self.kind == "first-seat edge":
            return "first-seat edge"
        if self.kind == "net":
            return f"net {self.reference}"
        return f"{self.kind} {_number(self.target)}"


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def parse_goal(text: str) -> Goal:
    """``NAME``, ``NAME=TARGET``, either with ``*WEIGHT``: ``"first-seat edge"``, ``"rounds=6"``,
    ``"score=45*0.5"``, ``"like=standard"``, ``"net=pillar toll+pillar bonus"``."""
    body, star, weight_text = text.partition("*")
    weight = 1.0
    if star:
        try:
            weight = float(weight_text)
        except ValueError:
            weight = -1.0
        if not weight > 0 or math.isinf(weight):
            raise TuneError(f"--goal {text}: the weight after * must be a positive number")
    name, equals, target_text = (piece.strip() for piece in body.partition("="))
    kind = ALIASES.get(name.lower())
    if kind is None:
        raise TuneError(f"--goal: unknown goal '{name}' (goals: first-seat edge, rounds=N, score=N, "
                        "spread=N, like=VARIANT, net=LABEL+LABEL; several mixed as separate --goal options, each "
                        "weighted with *W)")
    if kind == "like":
        if not target_text:
            raise TuneError("--goal like=VARIANT: name the variant to be like (standard, or a file)")
        return Goal("like", None, weight, target_text)
    if kind == "net":
        labels = [label.strip() for label in target_text.split("+")]
        if not all(labels):
            raise TuneError("--goal net=LABEL+LABEL: name the end bonuses whose points must balance, "
                            "as azul simulate labels them, like net=pillar toll+pillar bonus")
        return Goal("net", 0.0, weight, "+".join(labels))
    if kind == "first-seat edge":
        if equals:
            raise TuneError("--goal first-seat edge takes no target: its target is the fair share, 1/players")
        return Goal(kind, None, weight)
    try:
        target = float(target_text)
    except ValueError:
        raise TuneError(f"--goal {kind}=N: give the target as a number, like {kind}=6") from None
    if math.isnan(target) or math.isinf(target):
        raise TuneError(f"--goal {kind}=N: give the target as a number, like {kind}=6")
    return Goal(kind, target, weight)


def read_goal_file(path: Path) -> list[Goal]:
    """Goals from a YAML file: a list of ``{goal: rounds, target: 6, weight: 0.5}``
    (``target`` of ``like``: the variant)."""
    import yaml
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TuneError(f"can't read the goal file {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise TuneError(f"the goal file {path} is not YAML: {' '.join(str(exc).split())[:200]}") from None
    if isinstance(data, dict) and "goals" in data:
        data = data["goals"]
    if not isinstance(data, list) or not data:
        raise TuneError(f"the goal file {path} must hold a list of goals, like - {{goal: rounds, target: 6}}")
    goals = []
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, dict) or "goal" not in entry or set(entry) - {"goal", "target", "weight"}:
            raise TuneError(f"{path}: goal {number}: give 'goal', and 'target' and 'weight' if needed")
        text = str(entry["goal"])
        if entry.get("target") is not None:
            text += f"={entry['target']}"
        if entry.get("weight") is not None:
            text += f"*{entry['weight']}"
        try:
            goals.append(parse_goal(text))
        except TuneError as exc:
            raise TuneError(f"{path}: goal {number}: {str(exc).removeprefix('--goal').strip()}") from None
    return goals


@dataclass
class Sample:
    """What a candidate's games say, kept per game so stages add up: the first seat's share of
    each game (a victory of several seats counts as its share), rounds, every seat's score, and
    the end bonuses' points per player by label."""

    first_seat: list[float] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    bonuses: list[dict[str, float]] = field(default_factory=list)

    def add(self, results) -> None:
        for result in results:
            self.first_seat.append(1 / len(result.winners) if result.first_player in result.winners else 0.0)
            self.rounds.append(result.rounds)
            self.scores.extend(result.scores)
            by_label: dict[str, float] = {}
            for seat in result.seats:
                for label, points in seat.bonuses:
                    by_label[label] = by_label.get(label, 0) + points / len(result.seats)
            self.bonuses.append(by_label)

    def labels(self) -> set[str]:
        """Every end bonus's label met in these games."""
        return {label for game in self.bonuses for label in game}

    @property
    def games(self) -> int:
        return len(self.rounds)

    def figure(self, kind: str, labels: Sequence[str] = ()) -> tuple[float, float, float]:
        """(estimate, low, high) of a goal's figure at 95%; ``net``: of the end bonuses ``labels``."""
        z = normal_quantile(CONFIDENCE)
        if kind == "net":
            # One value a game (its players' mean), so the interval rests on independent games.
            nets = [sum(game.get(label, 0.0) for label in labels) for game in self.bonuses]
            centre = mean(nets) if nets else 0.0
            half = z * stdev(nets) / math.sqrt(len(nets)) if len(nets) > 1 else 0.0
            return (centre, centre - half, centre + half)
        if kind == "first-seat edge":
            wins, games = sum(self.first_seat), self.games
            low, high = wilson_interval(wins, games) if games else (0.0, 1.0)
            return (wins / games if games else 0.0, low, high)
        if kind in ("rounds", "score"):
            values = self.rounds if kind == "rounds" else self.scores
            centre = mean(values)
            half = z * stdev(values) / math.sqrt(len(values)) if values else 0.0
            return (centre, centre - half, centre + half)
        values = self.scores  # spread: the sd, with the normal approximation of its error
        spread = stdev(values)
        half = z * spread / math.sqrt(2 * (len(values) - 1)) if len(values) > 1 else spread
        return (spread, max(0.0, spread - half), spread + half)


def _miss(estimate: float, low: float, high: float, target: float, unit: float) -> tuple[float, float, float]:
    """How far a figure is from its target, in ``unit``s: the estimate's, and the least and most
    its interval allows (0 at least when the interval holds the target)."""
    least = 0.0 if low <= target <= high else min(abs(low - target), abs(high - target))
    most = max(abs(low - target), abs(high - target))
    return (abs(estimate - target) / unit, least / unit, most / unit)


def judge(sample: Sample, goals: Sequence[Goal], players: int, references: dict) -> dict:
    """Each goal's figures with their intervals and whether it is met, and the weighted miss
    of the mix (``value``, with ``low`` and ``high``: what the intervals allow)."""
    figures, value, low, high = [], 0.0, 0.0, 0.0
    for goal in goals:
        kinds = LIKE_FIGURES if goal.kind == "like" else (goal.kind,)
        parts = []
        for kind in kinds:
            words, unit = GOAL_KINDS[kind]
            labels: list[str] = []
            if goal.kind == "like":
                target = references[goal.reference][kind]
            else:
                target = 1 / players if goal.target is None else goal.target
            if goal.kind == "net":
                labels = str(goal.reference).split("+")
                words = f"net points of {goal.reference} per player"
            estimate, lo, hi = sample.figure(kind, labels)
            miss = _miss(estimate, lo, hi, target, unit)
            scale = goal.weight / len(kinds)
            value += scale * miss[0]
            low += scale * miss[1]
            high += scale * miss[2]
            parts.append({"figure": kind, "words": words, "target": _round(target), "estimate": _round(estimate),
                          "low": _round(lo), "high": _round(hi), "met": lo <= target <= hi})
        figures.append({"goal": goal.label, "weight": goal.weight, "figures": parts,
                        "met": all(part["met"] for part in parts)})
    return {"games": sample.games, "goals": figures, "value": _round(value), "low": _round(low),
            "high": _round(high)}


def _round(value: float) -> float:
    return round(value, 6)


# ---------------------------------------------------------------- the search


@dataclass(frozen=True)
class TuneOptions:
    """What a search is run with; a study file continues only with the same options."""

    variant: str
    players: int
    bots: list[str]
    seed: Any
    dimensions: list[Dimension]
    goals: list[Goal]
    games: int = 1000
    stage: int = 200

    def key(self) -> dict:
        """What must match for a study file to be continued."""
        data = asdict(self)
        data["dimensions"] = [asdict(d) | {"choices": list(d.choices)} for d in self.dimensions]
        data["goals"] = [asdict(g) for g in self.goals]
        return data


@dataclass
class Candidate:
    number: int
    settings: dict
    state: str  # "complete", "pruned" or "stopped" (Ctrl-C, budget)
    judged: dict

    def to_json(self) -> dict:
        return {"number": self.number, "settings": self.settings, "state": self.state, **self.judged}


@dataclass
class TuneResult:
    """The study as it stands: every candidate, the best first among those that finished."""

    options: TuneOptions
    candidates: list[Candidate]
    games_played: int
    budget: int
    sampler: str
    space: int | None
    continued: int = 0  # candidates found in the study file when this run started
    settled: bool = False

    def ranked(self) -> list[Candidate]:
        finished = [c for c in self.candidates if c.state == "complete"]
        return sorted(finished, key=lambda c: (c.judged["value"], c.judged["high"], c.number))

    @property
    def best(self) -> Candidate | None:
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def not_told_apart(self) -> list[Candidate]:
        """The finished candidates the intervals can't tell from the best: a candidate is only
        worse when the least it can miss by is more than the most the best can."""
        ranked = self.ranked()
        if not ranked:
            return []
        best = ranked[0]
        return [c for c in ranked[1:] if c.judged["low"] <= best.judged["high"]]

    def to_json(self) -> dict:
        best = self.best
        ranked = self.ranked()
        tied = self.not_told_apart()
        return {
            "variant": self.options.variant,
            "players": self.options.players,
            "bots": self.options.bots,
            "seed": self.options.seed,
            "vary": [asdict(d) | {"name": d.name, "choices": list(d.choices)} for d in self.options.dimensions],
            "goals": [{"goal": g.label, "kind": g.kind, "target": g.target, "weight": g.weight,
                       "reference": g.reference} for g in self.options.goals],
            "games_per_candidate": self.options.games,
            "stage": self.options.stage,
            "budget": self.budget,
            "games_played": self.games_played,
            "sampler": self.sampler,
            "space": self.space,
            "confidence": CONFIDENCE,
            "best": best.to_json() if best else None,
            "runners_up": [c.to_json() for c in ranked[1:4]],
            "clearly_best": best is not None and not tied,
            "not_told_apart": [c.number for c in tied],
            "candidates": [c.to_json() for c in self.candidates],
        }


class IntervalPruner:
    """Prune a candidate once the least it can miss the goal by (its intervals at this stage)
    is more than the most the best finished candidate misses by: it can't turn out better.
    Made an Optuna pruner by ``_optuna_pruner``, so that this module imports without Optuna."""

    @staticmethod
    def prune(study, trial) -> bool:
        low = trial.user_attrs.get("low")
        if low is None:
            return False
        from optuna.trial import TrialState
        highs = [t.user_attrs["high"] for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
                 if "high" in t.user_attrs]
        return bool(highs) and low > min(highs)


def _optuna_pruner():
    from optuna.pruners import BasePruner

    class _Pruner(BasePruner):
        def prune(self, study, trial) -> bool:
            return IntervalPruner.prune(study, trial)
    return _Pruner()


def _sampler_seed(seed: Any) -> int:
    return zlib.crc32(f"azul-tune:{seed}".encode())


def tune(variant, options: TuneOptions, budget: int, study_file: Path | None = None,
         workers: int = 1, cluster=None, think: float | None = None, playouts: int | None = None,
         progress: Callable[[int, int], Any] | None = None,
         on_start: Callable[[int, int], Any] | None = None) -> TuneResult:
    """Search ``options.dimensions`` for the settings of ``variant`` (a loaded ``Variant``)
    that best meet ``options.goals``, in ``budget`` games in all (those already in
    ``study_file`` count). Each candidate plays games 1 to ``options.games`` of the seed
    (fewer when pruned or when the budget runs out), ``options.stage`` at a time.
    ``progress(games played, budget)`` after each stage; ``on_start(candidates, games)``
    once, with what the study file already held. Ctrl-C raises ``TuneInterrupted`` with
    what was found; the study file keeps every finished candidate."""
    if not optuna_available():
        raise TuneError(f"azul tune needs Optuna, which is not installed: {INSTALL_TUNE}")
    import optuna
    from optuna.trial import TrialState
    optuna.logging.set_verbosity(optuna.logging.WARNING)

    declared = variant.declared
    current = dict(variant.settings)
    space = _space_size(options.dimensions)
    affordable = max(1, budget // options.games)
    exhaustive = space is not None and space <= affordable
    sampler = optuna.samplers.TPESampler(seed=_sampler_seed(options.seed), n_startup_trials=5)
    if exhaustive:
        grid = _grid(options.dimensions, options.seed)
        sampler_name = f"every candidate (all {space} fit in the budget), in a seeded order"
    else:
        sampler_name = "TPE (Optuna's tree-structured Parzen estimator)"
    storage = _storage(study_file)
    study = optuna.create_study(storage=storage, sampler=sampler, pruner=_optuna_pruner(),
                                study_name=STUDY_NAME, direction="minimize", load_if_exists=True)
    key = options.key()
    stored = study.user_attrs.get("options")
    if stored is None:
        study.set_user_attr("options", key)
    elif stored != key:
        raise TuneError(f"the study {study_file} was made with other options ({_difference(stored, key)}): "
                        "give the same options to continue it, or a new --study file")
    for left in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        # Left running by a run that was killed: its games are lost; counted as failed.
        study.tell(left.number, state=TrialState.FAIL)
    distributions = _distributions(options.dimensions)
    references = _references(options, variant, workers, cluster, think, playouts)
    candidates_dir = Path(tempfile.mkdtemp(prefix="azul-tune-"))
    result = TuneResult(options, [], 0, budget, sampler_name, space)
    _collect(study, result, declared, current)
    result.continued = len(result.candidates)
    if on_start is not None:
        on_start(result.continued, result.games_played)
    repeats = 0
    unchecked_labels = any(goal.kind == "net" for goal in options.goals)
    tried = {_params_key(t.params) for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,
                                                                                   TrialState.PRUNED))}
    trial: Any = None
    try:
        while budget - result.games_played >= min(options.stage, options.games):
            if exhaustive:
                untried = [params for params in grid if _params_key(params) not in tried]
                if not untried:
                    break
                study.enqueue_trial(untried[0])
            trial = study.ask(distributions)
            params_key = _params_key(trial.params)
            if params_key in tried:
                # The same settings play the same games: nothing to learn by playing them again.
                repeats += 1
                study.tell(trial, state=TrialState.FAIL)
                trial = None
                if repeats >= MAX_REPEATS:
                    result.settled = True
                    break
                continue
            repeats = 0
            settings = settings_of(trial.params, options.dimensions, declared, current)
            trial.set_user_attr("settings", settings)
            candidate_variant = _candidate_variant(variant, settings, candidates_dir, trial.number)
            sample = Sample()
            games = min(options.games, budget - result.games_played)
            pruned = False
            while sample.games < games:
                count = min(options.stage, games - sample.games)
                run = simulate(candidate_variant, options.players, count, options.seed, options.bots,
                               workers, cluster=cluster, think=think, playouts=playouts,
                               first_game=sample.games + 1)
                sample.add(run.results)
                result.games_played += count
                if unchecked_labels:
                    _check_labels(options.goals, sample.labels())
                    unchecked_labels = False
                judged = judge(sample, options.goals, options.players, references)
                trial.set_user_attr("judged", judged)
                trial.set_user_attr("low", judged["low"])
                trial.set_user_attr("high", judged["high"])
                trial.report(judged["value"], sample.games)
                if progress is not None:
                    progress(result.games_played, budget)
                if sample.games < games and trial.should_prune():
                    pruned = True
                    break
            if pruned:
                study.tell(trial, state=TrialState.PRUNED)
            else:
                study.tell(trial, judged["value"])
            tried.add(params_key)
            result.candidates.append(Candidate(trial.number, settings, "pruned" if pruned else "complete", judged))
            trial = None
    except (KeyboardInterrupt, SimulationInterrupted):
        if trial is not None:
            study.tell(trial, state=TrialState.FAIL)
        raise TuneInterrupted(result) from None
    except BaseException:
        if trial is not None:  # a failing game or a refused candidate: not left running in the file
            study.tell(trial, state=TrialState.FAIL)
        raise
    finally:
        import shutil
        shutil.rmtree(candidates_dir, ignore_errors=True)
    return result


def _check_labels(goals: Sequence[Goal], seen: set[str]) -> None:
    """A ``net`` goal whose labels no end bonus bore in the first games is a typo, not a rule
    that pays nothing: its figure would be 0 for every candidate."""
    for goal in goals:
        if goal.kind == "net" and not seen.intersection(str(goal.reference).split("+")):
            known = ", ".join(sorted(seen)) or "none"
            raise TuneError(f"--goal net={goal.reference}: no end bonus of these games is labelled so "
                            f"(their labels: {known})")


def _space_size(dimensions: Sequence[Dimension]) -> int | None:
    size = 1
    for dimension in dimensions:
        size *= dimension.size()
        if size > 10**6:
            return None
    return size


def _distributions(dimensions: Sequence[Dimension]) -> dict:
    from optuna.distributions import CategoricalDistribution, IntDistribution
    return {d.name: CategoricalDistribution(list(d.choices)) if d.choices else IntDistribution(d.low, d.high)
            for d in dimensions}


def _params_key(params: dict) -> tuple:
    return tuple(sorted((name, repr(value)) for name, value in params.items()))


def _grid(dimensions: Sequence[Dimension], seed: Any) -> list[dict]:
    """Every candidate of a small space, in an order drawn from the seed (so that an early stop
    has not tried only the low values)."""
    import itertools
    import random
    names = [d.name for d in dimensions]
    grid = [dict(zip(names, values)) for values in itertools.product(*(d.values() for d in dimensions))]
    random.Random(_sampler_seed(seed)).shuffle(grid)
    return grid


def _storage(study_file: Path | None):
    if study_file is None:
        return None  # in memory: the study ends with the run
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend
    try:
        return JournalStorage(JournalFileBackend(str(study_file)))
    except OSError as exc:
        raise TuneError(f"can't open the study file {study_file}: {exc.strerror or exc}") from None


def _difference(stored: dict, key: dict) -> str:
    different = [name for name in key if stored.get(name) != key[name]]
    words = []
    for name in different[:3]:
        was = stored.get(name)
        words.append(f"{name} {was!r}" if not isinstance(was, (list, dict)) else name)
    return "it had " + ", ".join(words) if words else "another version"


def _collect(study, result: TuneResult, declared: dict, current: dict) -> None:
    """The candidates a study file already holds, and the games they played."""
    from optuna.trial import TrialState
    for trial in study.get_trials(deepcopy=False):
        judged = trial.user_attrs.get("judged")
        if judged is None:
            continue
        result.games_played += judged["games"]
        if trial.state == TrialState.COMPLETE:
            state = "complete"
        elif trial.state == TrialState.PRUNED:
            state = "pruned"
        else:
            state = "stopped"
        settings = {name: ({int(k): v for k, v in value.items()} if isinstance(value, dict) else value)
                    for name, value in trial.user_attrs["settings"].items()}  # JSON made the keys text
        result.candidates.append(Candidate(trial.number, settings, state, judged))


def _references(options: TuneOptions, variant, workers, cluster, think, playouts) -> dict:
    """The figures of each ``like`` goal's variant, on the games every candidate plays."""
    references = {}
    for goal in options.goals:
        if goal.kind != "like" or goal.reference in references:
            continue
        from azul_core.variants.loading import VariantError, load_variant
        try:
            reference = load_variant(str(goal.reference))
        except VariantError as exc:
            raise TuneError(f"--goal like={goal.reference}: {exc.problems[0].message}") from None
        run = simulate(reference, options.players, options.games, options.seed, options.bots, workers,
                       cluster=cluster, think=think, playouts=playouts)
        sample = Sample()
        sample.add(run.results)
        references[goal.reference] = {kind: sample.figure(kind)[0] for kind in LIKE_FIGURES}
    return references


def variant_text(variant, settings: dict, folder: Path, name: str, description: str) -> str:
    """A variant file, to be written in ``folder``, that extends ``variant`` with ``settings``."""
    import yaml

    from azul_core.variants.loading import builtin_variants
    path = Path(variant.path).resolve()
    base = next((builtin_name for builtin_name, builtin in builtin_variants().items()
                 if builtin.resolve() == path), None)
    if base is None:
        # Relative, so that the pair travels together (a cluster's workers rebuild the tree).
        base = Path(os.path.relpath(path, folder.resolve())).as_posix()
    plain = {key: (dict(value) if isinstance(value, dict) else list(value) if isinstance(value, (list, tuple))
                   else value) for key, value in settings.items()}
    return yaml.safe_dump({"name": name, "description": description, "extends": base, "settings": plain},
                          sort_keys=False, default_flow_style=None, width=100)


def _candidate_variant(variant, settings: dict, folder: Path, number: int):
    from azul_core.variants.loading import VariantError, load_variant
    path = folder / f"candidate-{number}.yaml"
    path.write_text(variant_text(variant, settings, folder, variant.name,
                                 f"{variant.name}, a candidate of azul tune"), encoding="utf-8")
    try:
        return load_variant(path)
    except VariantError as exc:
        # A value within its declared range that the plugin's own checks refuse (a floor
        # penalty list out of order): the user's range, said in one line.
        settings_text = ", ".join(f"{k}={_text(v)}" for k, v in settings.items())
        raise TuneError(f"the candidate {settings_text} is refused by the variant: "
                        f"{exc.problems[0].message}") from None


def settings_in_words(settings: dict) -> str:
    return ", ".join(f"{name}={_text(value)}" for name, value in settings.items())


__all__ = ["INSTALL_TUNE", "TuneError", "TuneInterrupted", "Dimension", "Goal", "TuneOptions", "TuneResult",
           "Candidate", "Sample", "parse_vary", "parse_goal", "read_goal_file", "judge", "tune",
           "variant_text", "settings_in_words", "optuna_available", "split_top_level"]
