"""The end screen's points by source for each seat (``records.score_sources``), as the view's
``final.sources``: worked out from the finished game's record, which every seat may see by then."""

from __future__ import annotations

import logging

from azul_core.records.score_sources import score_sources

log = logging.getLogger(__name__)

#: a plugin's bonus label or name is shown as text; a longer one is cut
MAX_NAME = 40


def final_sources(record, rules) -> list[list[dict]] | None:
    """Each seat's sources as ``{"kind", "name", "points"}``, adding up to its final score;
    None when the record does not replay (a plugin failing: logged), so the page leaves them out."""
    try:
        seats = score_sources(record, rules)
    except Exception as exc:  # a plugin's error replaying: the end screen still shows the scores
        log.warning("the points by source of a finished table could not be worked out: %s: %s",
                    type(exc).__name__, exc)
        return None
    return [[{"kind": source.kind, "name": source.name[:MAX_NAME], "points": source.points}
             for source in seat] for seat in seats]
