"""Settings that plugins declare, and the checked values a variant gives them.

A plugin declares each setting it reads (``azul_declare_settings``) with a
kind, a default and limits; a variant file may change the value. Each setting
has exactly one owner, so a value is read in one place only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

#: The kinds of value a setting may hold, with the words used in messages.
KINDS = {
    "int": "a whole number",
    "str": "a string",
    "bool": "true or false",
    "int_list": "a list of whole numbers",
    "int_map": "a mapping of whole numbers to whole numbers",
}

#: Every number a setting holds stays within this, whatever the plugin's own limits: a
#: ``row_bonus`` of 10**309 would overflow the statistics of ``simulate`` and ``compare``.
LIMIT = 10**6
#: The most values in a list or mapping setting, and characters in a string setting.
MAX_ITEMS = 1000


def _short(value: Any, limit: int = 60) -> str:
    if isinstance(value, int) and not -10**50 < value < 10**50:
        return "a number of more than 50 digits"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 4] + "...'"


@dataclass(frozen=True)
class Setting:
    """One setting a plugin reads.

    ``check``, when given, receives the value after its kind was checked and
    returns a message saying why the value can't work, or ``None``.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Any], str | None] | None = None
    owner: str = field(default="", compare=False)

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not acceptable for this setting, or ``None``."""
        kind_problem = _kind_problem(self.kind, value)
        if kind_problem:
            return f"setting '{self.name}' must be {KINDS[self.kind]}, not {kind_problem}"
        if self.choices and value not in self.choices:
            options = ", ".join(repr(c) for c in self.choices)
            return f"setting '{self.name}' must be one of {options}, not {value!r}"
        if self.kind in ("int_list", "int_map") and len(value) > MAX_ITEMS:
            return f"setting '{self.name}': more than {MAX_ITEMS} values"
        if self.kind == "str" and len(value) > MAX_ITEMS:
            return f"setting '{self.name}': a string of more than {MAX_ITEMS} characters"
        for number in _numbers(self.kind, value):
            if not -LIMIT <= number <= LIMIT:
                return (f"setting '{self.name}': {_short(number)} is out of range "
                        f"(every number setting is within -{LIMIT} to {LIMIT})")
            if self.minimum is not None and number < self.minimum:
                return f"setting '{self.name}': {number} is below the minimum {self.minimum}"
            if self.maximum is not None and number > self.maximum:
                return f"setting '{self.name}': {number} is above the maximum {self.maximum}"
        if self.check:
            try:
                reason = self.check(value)
            except BaseException as exc:  # the plugin's own check failed: its fault, said so
                return (f"setting '{self.name}': the plugin's check of {_short(value)} raised "
                        f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
            if reason:
                return f"setting '{self.name}': {reason}"
        return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _describe(value: Any) -> str:
    # A value read from a variant file may be a dict or list that also keeps where it was
    # written: the user wrote a mapping or a list, whatever class holds it here.
    kind = "dict" if isinstance(value, dict) else "list" if isinstance(value, list) else type(value).__name__
    return f"{kind} {value!r}"


def _kind_problem(kind: str, value: Any) -> str | None:
    if kind == "int":
        return None if _is_int(value) else _describe(value)
    if kind == "str":
        return None if isinstance(value, str) else _describe(value)
    if kind == "bool":
        return None if isinstance(value, bool) else _describe(value)
    if kind == "int_list":
        if isinstance(value, (list, tuple)) and all(_is_int(v) for v in value):
            return None
        return _describe(value)
    if kind == "int_map":
        if isinstance(value, Mapping) and all(_is_int(k) and _is_int(v) for k, v in value.items()):
            return None
        return _describe(value)
    raise ValueError(f"unknown setting kind {kind!r}")


def _numbers(kind: str, value: Any) -> Iterator[int]:
    if kind == "int":
        yield value
    elif kind == "int_list":
        yield from value
    elif kind == "int_map":
        yield from value.values()


class Settings(Mapping):
    """The resolved settings of a variant, read-only, also readable as attributes.

    Values are stored as plain attributes as well, because plugins read them while a
    game runs and a plain attribute is the fastest read Python has.
    """

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))
        for name, value in values.items():
            if name.isidentifier() and not hasattr(Mapping, name):
                object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"no setting named {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("settings are read-only")

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Settings({self._values!r})"
