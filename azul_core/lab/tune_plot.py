"""The picture of ``azul tune --plot``: each goal's figure against each varied setting, every
candidate with its 95% interval, the target as a dashed line and the best candidate marked
(matplotlib, the optional ``plot`` extra)."""

from __future__ import annotations

import io


def draw_study(result) -> bytes:
    """The study as a PNG: one row of panels per figure a goal reads, one column per
    varied value."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    dimensions = result.options.dimensions
    candidates = [c for c in result.candidates if c.state in ("complete", "pruned")]
    best = result.best
    rows = [(goal_index, part_index, part)
            for goal_index, goal in enumerate(best.judged["goals"])
            for part_index, part in enumerate(goal["figures"])] if best else []
    widest = max((len(d.choices) for d in dimensions), default=0)
    figure = Figure(figsize=(max(7.0, 4.6 * len(dimensions), 0.75 * widest), 0.6 + 3.4 * max(1, len(rows))),
                    layout="constrained")
    FigureCanvasAgg(figure)
    axes_grid = figure.subplots(max(1, len(rows)), len(dimensions), squeeze=False)
    for row, (goal_index, part_index, part) in enumerate(rows):
        percent = part["figure"] == "first-seat edge"
        scale = 100 if percent else 1
        for column, dimension in enumerate(dimensions):
            axes = axes_grid[row][column]
            positions, labels = _positions(dimension)
            for candidate in candidates:
                shown = candidate.judged["goals"][goal_index]["figures"][part_index]
                x = positions[_value_key(_param(candidate.settings, dimension))]
                is_best = best is not None and candidate.number == best.number
                colour = "C3" if is_best else ("0.65" if candidate.state == "pruned" else "C0")
                estimate = scale * shown["estimate"]
                axes.errorbar([x], [estimate], yerr=[[estimate - scale * shown["low"]],
                                                     [scale * shown["high"] - estimate]],
                              fmt="D" if is_best else "o", color=colour, markersize=7 if is_best else 4,
                              capsize=3, linewidth=1.2, zorder=3 if is_best else 2)
            axes.axhline(scale * part["target"], color="black", linestyle="--", linewidth=1,
                         label=f"target {scale * part['target']:.3g}{'%' if percent else ''}")
            if labels is not None:
                long_labels = max(len(label) for label in labels) > 8
                axes.set_xticks(list(range(len(labels))), labels, fontsize=8,
                                rotation=35 if long_labels else 0, ha="right" if long_labels else "center",
                                rotation_mode="anchor")
            axes.set_xlabel(dimension.name)
            axes.set_ylabel(f"{part['words']}{' (%)' if percent else ''}")
            axes.grid(alpha=0.3)
            if column == 0:
                axes.legend(loc="best", fontsize=8)
    from azul_core.lab.tune import settings_in_words
    bots = result.options.bots
    title = (f"{_short_name(result.options.variant)}: {len(candidates)} candidates, up to "
             f"{result.options.games} games each\nbots {bots[0] if len(set(bots)) == 1 else ','.join(bots)}, "
             f"seed {result.options.seed}, the same deals for every candidate")
    if best is not None:
        title += f"\nbest (red diamond): {settings_in_words(best.settings)}; grey: pruned; bars: 95% intervals"
    figure.suptitle(title, fontsize=10)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def _short_name(variant: str) -> str:
    return variant.rsplit("/", 1)[-1]


def _param(settings: dict, dimension):
    value = settings[dimension.setting]
    return value if dimension.index is None else value[dimension.index]


def _value_key(value):
    import json
    return json.dumps(value, sort_keys=True) if isinstance(value, (list, dict)) else repr(value)


def _positions(dimension) -> tuple[dict, list[str] | None]:
    """Where each value stands on the x axis: a number at itself; choices one after another,
    labelled."""
    if not dimension.choices:
        return {repr(v): v for v in dimension.values()}, None
    from azul_core.lab.tune import _shown_choice, _text
    values = [_shown_choice(choice) for choice in dimension.choices]
    return ({_value_key(v): i for i, v in enumerate(values)}, [_text(v) for v in values])
