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
    # reused costs next to nothing, and the walk goes down only where something differs. The
    # types are compared too: to Python's ==, True equals 1 and 1 equals 1.0, not in JSON.
    if old is new or (type(old) is type(new) and old == new):
        return
    if type(old) is dict and type(new) is dict and old.keys() == new.keys():
        for key, value in new.items():
            _diff_item(old[key], value, path, key, changes)
        return
    if type(old) is list and type(new) is list and old and len(new) >= len(old):
        common = len(old)
        for index in range(common):
            _diff_item(old[index], new[index], path, index, changes)
        if len(new) > common:
            changes.append({"path": path, "append": new[common:]})
        return
    changes.append({"path": path, "set": new})


def _diff_item(old: Any, new: Any, path: list, step: Any, changes: list[dict]) -> None:
    """One member of two containers: most are equal (skipped here, without a call), and a
    differing scalar needs no walk."""
    if old is new or (type(old) is type(new) and old == new):
        return
    if type(new) in _CONTAINERS and type(old) is type(new):
        _diff(old, new, path + [step], changes)
    else:
        changes.append({"path": path + [step], "set": new})


_CONTAINERS = (dict, list)


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
