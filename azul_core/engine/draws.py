"""Tiles a plugin's outcome draws at random from the bag (``rules.Draw``): chance events.

An outcome's draws wait in ``GameState.drawing`` while the game is in phase
``DRAW``. Each is then drawn at random (``sample_draw``, as a round's deal
draws) or laid as a record gives it (``Drawn``, checked by ``drawn_problem``
against the bag and lid as they stand), so a seeded game, its replay and a
game typed in from a real table agree tile for tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from azul_core.colours import LETTERS

#: How a record writes what a draw brought: ``~`` and the tiles' letters (``~RRB``; ``~`` alone
#: when bag and lid were empty).
DRAWN_MARK = "~"


@dataclass(frozen=True)
class Drawn:
    """What one ``Draw`` brought out of the bag: ``tiles``, a count per kind of tile (the
    colours, then the variant's extra tiles). ``letters``: the kinds' letters, for its
    notation (``~RRB``); they take no part in comparing."""

    tiles: tuple[int, ...]
    letters: str = field(default=LETTERS, compare=False)

    @property
    def notation(self) -> str:
        return DRAWN_MARK + "".join(letter * count for letter, count in zip(self.letters, self.tiles))

    def __str__(self) -> str:
        return self.notation


def parse_drawn(text: str, kind_letters: str) -> Drawn | None:
    """``~RRB`` as a ``Drawn`` of the variant's kinds of tile (``kind_letters``); None when
    ``text`` is not a draw's notation or names a tile the variant doesn't have."""
    if not text.startswith(DRAWN_MARK):
        return None
    counts = [0] * len(kind_letters)
    for letter in text[1:].upper():
        where = kind_letters.find(letter)
        if where < 0:
            return None
        counts[where] += 1
    return Drawn(tuple(counts), kind_letters)


def sample_draw(bag: list[int], lid: list[int], count: int, random: Callable[[], float]) -> list[int]:
    """``count`` tiles drawn at random from ``bag`` (a list of kinds), the ``lid`` (counts per
    kind) poured in when it runs out: a count per kind. Changes neither."""
    kinds = len(lid)
    drawn = [0] * kinds
    left, poured = bag[:], False
    for _ in range(count):
        if not left:
            if poured or not any(lid):
                break
            left, poured = [kind for kind in range(kinds) for _ in range(lid[kind])], True
        i = int(random() * len(left))
        drawn[left[i]] += 1
        left[i] = left[-1]
        left.pop()
    return drawn


def drawn_problem(bag: list[int], lid: list[int], drawn: tuple[int, ...], count: int,
                  names: tuple[str, ...]) -> str | None:
    """Why ``drawn`` (a count per kind) could not have come out of a draw of ``count`` tiles from
    ``bag`` and ``lid`` (counts per kind) as they stand, or None."""
    if len(drawn) != len(bag) or any(n.__class__ is not int or n < 0 for n in drawn):
        return f"expected a count for each of the {len(bag)} kinds of tile"
    total = sum(drawn)
    if total > count:
        return f"{total} tiles were drawn, the rule draws {count}"
    in_bag = all(n <= held for n, held in zip(drawn, bag))
    if in_bag and (total == count or (total == sum(bag) and not any(lid))):
        return None
    whole_bag = all(n >= held for n, held in zip(drawn, bag))
    if whole_bag and all(n - held <= more for n, held, more in zip(drawn, bag, lid)) and \
            (total == count or total == sum(bag) + sum(lid)):
        return None
    for kind, (n, held) in enumerate(zip(drawn, bag)):
        if n > held + lid[kind]:
            return f"{n} {names[kind]} drawn: the bag and lid hold {held + lid[kind]}"
    if total < count:
        return f"{total} tiles drawn of {count}, but the bag and lid held more"
    return "the lid is poured into the bag only once the bag is empty"


def bag_after(bag: list[int], lid: list[int], drawn: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """The bag and lid (counts per kind) after a possible draw of ``drawn`` from them: from the
    bag alone when it held them, else from the bag with the lid poured in."""
    if all(n <= held for n, held in zip(drawn, bag)):
        return [held - n for held, n in zip(bag, drawn)], lid[:]
    return [held + more - n for held, more, n in zip(bag, lid, drawn)], [0] * len(lid)
