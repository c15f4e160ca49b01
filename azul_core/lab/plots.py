"""The comparison drawn with matplotlib (an optional extra: ``pip install ".[plot]"``)."""

from __future__ import annotations

INSTALL_PLOT = 'pip install matplotlib, or pip install ".[plot]" in the project folder'


def plotting_available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        return False
    return True


def draw_comparison(comparison: dict, runs) -> bytes:
    """The comparison as a PNG picture (``comparison_figure``)."""
    import io

    figure = comparison_figure(comparison, runs)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def comparison_figure(comparison: dict, runs):
    """Score distributions (box: quartiles, whiskers: 5th-95th percentile, diamond: mean),
    rounds per game, and each seat's win share with its 95% interval, per variant."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from azul_core.lab.compare import bots_in_words

    labels = [entry["label"] for entry in comparison["variants"]]
    colours = [f"C{i}" for i in range(len(labels))]
    # The three panels about as wide: each writes a label and a mean under every variant.
    figure = Figure(figsize=(13, 4.6), layout="constrained")
    FigureCanvasAgg(figure)  # measured before it is saved: labels that don't fit are slanted
    scores_axes, rounds_axes, wins_axes = figure.subplots(1, 3, width_ratios=[1.1, 1, 1.15])
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
                           label="seat 1 (starts round 1)" if starts else f"seat {seat + 1}")
    wins_axes.set_xticks(positions, labels, fontsize=9)
    wins_axes.set_xlim(-0.6, len(labels) - 0.4)
    wins_axes.set_title("Win share per seat, 95% interval")
    wins_axes.set_ylabel("% of games won")
    wins_axes.grid(axis="y", alpha=0.3)
    wins_axes.legend(fontsize=8, loc="upper center", ncols=min(players + 1, 3), framealpha=0.9)
    low, high = wins_axes.get_ylim()
    wins_axes.set_ylim(low, high + (high - low) * 0.25)  # room for the legend above the points
    figure.supxlabel("Boxes: quartiles, line: median, \u25c7: mean, whiskers: 5th to 95th percentile. "
                     "Win shares split a victory of several seats; bars: Wilson 95% intervals.", fontsize=8)
    figure.suptitle(f"{comparison['games']} games per variant, {players} players, "
                    f"bots {bots_in_words(comparison)}, seed {comparison['seed']}")
    for axes in (scores_axes, rounds_axes, wins_axes):
        _untangle_ticks(figure, axes)
    return figure


def overlapping_ticks(figure, axes, gap: float = 4.0) -> list[tuple[str, str]]:
    """The pairs of neighbouring x tick labels of ``axes`` that touch (closer than ``gap``
    pixels) once the figure is laid out."""
    import math
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    labels = [label for label in axes.get_xticklabels() if label.get_visible() and label.get_text()]
    angle = labels[0].get_rotation() % 180 if labels else 0
    if angle:
        # Slanted lines of text side by side are parallel: they stay apart when the distance
        # across them (the ticks' spacing times the sine of the slant) exceeds their height.
        xs = [axes.transData.transform((tick, 0))[0] for tick in axes.get_xticks()[:len(labels)]]
        height = max(label.get_fontsize() * (label.get_text().count("\n") + 1) for label in labels) \
            * figure.dpi / 72 * 1.2
        across = math.sin(math.radians(angle))
        return [(left.get_text(), right.get_text())
                for (x0, left), (x1, right) in zip(zip(xs, labels), list(zip(xs, labels))[1:])
                if abs(x1 - x0) * across < height + gap]
    boxes = sorted(((label.get_text(), label.get_window_extent(renderer)) for label in labels),
                   key=lambda item: item[1].x0)
    return [(left[0], right[0]) for left, right in zip(boxes, boxes[1:])
            if right[1].x0 - left[1].x1 < gap and left[1].y0 < right[1].y1 and right[1].y0 < left[1].y1]


def _untangle_ticks(figure, axes) -> None:
    """Labels too wide for their place under a panel (many variants, long names) are written
    on one line and slanted: side by side they need no more room than a line's height."""
    if not overlapping_ticks(figure, axes):
        return
    positions = list(axes.get_xticks())
    texts = [label.get_text().replace("\n", ", ") for label in axes.get_xticklabels()]
    axes.set_xticks(positions, texts, rotation=30, ha="right", rotation_mode="anchor", fontsize=9)
