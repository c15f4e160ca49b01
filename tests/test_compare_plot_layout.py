"""``azul compare --plot``: no label under a panel runs into its neighbour (issue 23). The middle
panel's labels (a variant and its mean rounds) overlapped with four variants; the panels are now
about as wide, and labels that still don't fit (many variants, long names) are slanted.
Measured on the laid-out figure: each pair of neighbouring tick labels keeps a gap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from azul_core.lab.compare import compare_runs, variant_labels  # noqa: E402
from azul_core.lab.plots import comparison_figure, draw_comparison, overlapping_ticks  # noqa: E402
from azul_core.lab.simulate import simulate  # noqa: E402
from azul_core.variants import builtin_variants, load_variant  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DOCS = ["standard", "grey-wall", "duel", str(EXAMPLES / "family-floor" / "family-floor.yaml")]
MANY = DOCS + [str(EXAMPLES / name / f"{name}.yaml") for name in ("floor-to-bag", "lead-by-forty", "double-columns")]


def compared(refs: list[str], games: int = 20):
    known = builtin_variants()
    variants = [load_variant(known[ref]) if ref in known else load_variant(ref) for ref in refs]
    runs = [simulate(variant, 2, games, 1, "random") for variant in variants]
    return compare_runs(runs, variant_labels(variants, refs), refs), runs


@pytest.mark.parametrize("refs", [DOCS, MANY], ids=["the docs' four variants", "seven variants"])
def test_no_tick_label_touches_its_neighbour(refs):
    comparison, runs = compared(refs)
    figure = comparison_figure(comparison, runs)
    for axes in figure.axes:
        assert overlapping_ticks(figure, axes) == [], axes.get_title()
    assert draw_comparison(comparison, runs).startswith(b"\x89PNG")


def test_the_docs_four_variants_keep_their_labels_level_with_the_mean_under_them():
    comparison, runs = compared(DOCS)
    figure = comparison_figure(comparison, runs)
    scores, rounds, _wins = figure.axes
    for axes in (scores, rounds):
        labels = axes.get_xticklabels()
        assert all(label.get_rotation() == 0 for label in labels)
        assert [label.get_text().split("\n")[0] for label in labels] == ["standard", "grey-wall", "duel",
                                                                          "family-floor"]
        assert all(label.get_text().split("\n")[1].startswith("mean ") for label in labels)


def test_a_label_that_does_not_fit_is_slanted_on_one_line():
    comparison, runs = compared(MANY)
    figure = comparison_figure(comparison, runs)
    rounds = figure.axes[1]
    labels = rounds.get_xticklabels()
    assert all(label.get_rotation() == 30 for label in labels)
    assert labels[0].get_text().startswith("standard, mean ")
