"""What changed between two JSON documents, as a short list of changes a client applies.

The server tells each client the whole of what it sees once (on joining, or
when the client asks after missing something), and from then on only what
changed: a move changes a few cells of one or two boards, the factories and
the centre, while the whole view is 10-30 KB. Nothing here knows what a view
holds: any two documents of JSON values (dicts, lists, strings, numbers,
booleans, null) are compared, so a view that differs from seat to seat is
diffed the same way.

A change is ``{"path": [key or index, ...], "set": VALUE}`` (put VALUE at
that place; an empty path means the whole document) or ``{"path": [...],
"append": [VALUE, ...]}`` (a list grew at its end). The protocol in
docs/serve.md describes them for other clients.
"""

from __future__ import annotations

from typing import Any


def diff(old: Any, new: Any) -> list[dict]:
    """The changes that turn ``old`` into ``new`` (empty when equal)."""
    changes: list[dict] = []
    _diff(old, new, [], changes)
    return changes


def _diff(old: Any, new: Any, path: list, changes: list[dict]) -> None:
    # Containers compare their items by identity first, in C: an unchanged board that was
    # reused costs next to nothing, and the walk goes down only where something differs.
    if old is new or (type(old) is type(new) and old == new):
        return
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        for key, value in new.items():
            _diff(old[key], value, path + [key], changes)
        return
    if isinstance(old, list) and isinstance(new, list) and old and new:
        common = min(len(old), len(new))
        if len(new) >= len(old):
            for index in range(common):
                _diff(old[index], new[index], path + [index], changes)
            if len(new) > common:
                changes.append({"path": path, "append": new[common:]})
            return
    changes.append({"path": path, "set": new})


def apply(document: Any, changes: list[dict]) -> Any:
    """``document`` with ``changes`` made (in place where possible); the new document.
    ``ValueError`` if a change does not fit the document."""
    for change in changes:
        path = change.get("path")
        if not isinstance(path, list):
            raise ValueError("a change without a path")
        if not path:
            if "set" in change:
                document = change["set"]
            elif isinstance(document, list) and isinstance(change.get("append"), list):
                document.extend(change["append"])
            else:
                raise ValueError(f"a change that does not fit the document: {change!r}")
            continue
        try:
            parent = document
            for step in path[:-1]:
                parent = parent[step]
            last = path[-1]
            if "set" in change:
                parent[last] = change["set"]
            elif "append" in change:
                parent[last].extend(change["append"])
            else:
                raise ValueError(f"a change that neither sets nor appends: {change!r}")
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ValueError(f"the change at {path!r} does not fit: {exc!r}") from None
    return document


__all__ = ["diff", "apply"]
