"""The value types and sizes a rule plugin works with.

Part of the public plugin API: ``TableSetup`` (the answer of
``azul_game_setup``, with ``ExtraTile`` for a kind of tile beyond the five
colours), ``MarkerRule`` (the answer of ``azul_marker_rule``),
``Move`` and ``Outcome`` (the moves a plugin adds and what they do),
``Place`` and ``Transfer`` (the tiles an outcome moves, from any place that
holds tiles to any other) and the fixed board sizes. The variant resolved for play, ``Rules``, lives in the
engine (``azul_core.engine.rulebook``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The standard game's board: five colours, a 5x5 wall, five pattern lines. A variant's own
#: size is its number of colours (``azul_colours``): ``game.size`` in a hook.
PATTERN_LINES = 5
WALL_SIZE = 5
#: The fewest and the most colours a variant may have.
MIN_COLOURS = 4
MAX_COLOURS = 8


@dataclass(frozen=True)
class Colour:
    """One colour of a variant's tiles (the answer of ``azul_colours`` is a tuple of them).

    ``letter``: one upper-case letter that game records and boards show (not
    M, the start marker's); ``name``: the word for it ("orange"); ``look``:
    its colour on the page and at the terminal, as ``#rrggbb``. A variant
    with n colours (4 to 8) has an n x n wall and n pattern lines: colour i
    is the int i everywhere (``draft``, ``wall`` cells, bitmasks).
    """

    letter: str
    name: str
    look: str


#: The standard game's five colours, in the order of their ints 0-4.
STANDARD_COLOURS = (Colour("B", "blue", "#2166c4"), Colour("Y", "yellow", "#f2c42c"),
                    Colour("R", "red", "#c8372d"), Colour("K", "black", "#262626"),
                    Colour("W", "white", "#fbfaf5"))


@dataclass(frozen=True)
class ExtraTile:
    """A kind of tile beyond the colours, such as a wild tile (``TableSetup.extra_tiles``).

    ``letter``: one upper-case letter, not a colour's (B Y R K W in the
    standard game) nor M (the marker), that the game records and the boards show; ``name``: the word
    for it ("wild"); ``count``: how many the game has; ``look``: its colour
    on the page and at the terminal, as ``#rrggbb``. Such a tile is drafted
    only with a colour (``azul_draft_takes`` says how many come along), lies
    on a pattern line only where ``azul_stands_in`` lets it stand in for the
    line's colour, and otherwise falls to the floor; it never goes to the
    wall (the wall takes a tile of the line's own colour).
    """

    letter: str
    name: str
    count: int
    look: str = "#c9a227"


@dataclass(frozen=True)
class TableSetup:
    """What is laid out for a given number of players.

    ``colour_counts``: the tiles of each colour, in the colours' order, when
    they differ (``None``: ``tiles_per_colour`` of each). ``extra_tiles``:
    kinds of tile beyond the colours (``ExtraTile``), at most three. The
    kinds of tile are numbered 0 to n-1 for the variant's n colours (0-4 in
    the standard game), then n, n+1, n+2 for the extra tiles in this order:
    the per-kind counts of the game (factories, centre, bag, lid) have that
    many entries. ``colours`` is filled in by the engine from
    ``azul_colours``: a plugin leaves it out.
    """

    factories: int
    tiles_per_factory: int = 4
    tiles_per_colour: int = 20
    colour_counts: tuple[int, ...] | None = None
    extra_tiles: tuple[ExtraTile, ...] = ()
    colours: tuple[Colour, ...] = STANDARD_COLOURS

    @property
    def kind_counts(self) -> tuple[int, ...]:
        """How many tiles of each kind the game has: the colours, then the extra tiles."""
        colours = self.colour_counts if self.colour_counts is not None \
            else (self.tiles_per_colour,) * len(self.colours)
        return tuple(colours) + tuple(extra.count for extra in self.extra_tiles)

    @property
    def kind_letters(self) -> str:
        """Each kind's letter: the colours' (``BYRKW``) then the extra tiles' (``BYRKWJ``)."""
        return "".join(colour.letter for colour in self.colours) + "".join(extra.letter for extra in self.extra_tiles)

    @property
    def kind_names(self) -> tuple[str, ...]:
        return tuple(colour.name for colour in self.colours) + tuple(extra.name for extra in self.extra_tiles)

    @property
    def kind_looks(self) -> tuple[str, ...]:
        """Each kind's look (``#rrggbb``): the colours', then the extra tiles'."""
        return tuple(colour.look for colour in self.colours) + tuple(extra.look for extra in self.extra_tiles)


@dataclass(frozen=True)
class MarkerRule:
    """What taking the start marker does (the answer of ``azul_marker_rule``).

    placement: ``"floor"`` (leftmost free floor space, counts like a tile) or
        ``"aside"`` (kept in front of its holder, no space, no cost).
    full_floor: with ``"floor"``, what happens when the floor is full:
        ``"keep"`` (taken all the same, no space, no extra cost) or ``"bump"``
        (it takes the last space; the tile there is discarded like a full
        floor's overflow, see ``azul_discard_pile``).
    unclaimed: who starts the next round when nobody took it: ``"same"``
        player again or the ``"next"`` seat.

    A part left ``None`` is no opinion: the next plugin's answer fills it, so
    a plugin can change one part and leave the others to their owner.
    """

    placement: str | None = None
    full_floor: str | None = None
    unclaimed: str | None = None

    CHOICES = {"placement": ("floor", "aside"), "full_floor": ("keep", "bump"),
               "unclaimed": ("same", "next")}


#: What a move's name may be: the record writes it after a ``+`` (``+pass``, ``+shift:2:4``).
MOVE_NAME_PATTERN = r"[a-z][a-z0-9-]{0,23}"
#: The most arguments a move has, and the largest argument.
MAX_MOVE_ARGS = 4
MAX_MOVE_ARG = 99


@dataclass(frozen=True)
class Move:
    """A kind of decision a plugin adds to the game: a pass, a power after a draft, a choice.

    ``name`` (lower-case letters, digits and ``-``, starting with a letter)
    and ``args`` (at most 4 whole numbers from 0 to 99, their meaning the
    plugin's) are the move itself, written ``+name`` or ``+name:2:4`` in a
    game record. ``label`` is the words players see on a button or in a
    list ("Pass this turn"); it does not take part in comparing moves.
    ``exclusive``: while a move declared with ``exclusive=True`` is on offer,
    the seat can't draft (a choice that must come first); the declaration
    decides it, whatever an offer says.

    A plugin declares every move it may ever offer (``azul_declare_moves``),
    offers some of them when a seat is to move (``azul_offer_moves``) and says
    what taking one does (``azul_apply_move``, answering an ``Outcome``).
    """

    name: str
    args: tuple[int, ...] = ()
    label: str = field(default="", compare=False)
    exclusive: bool = field(default=False, compare=False)

    @property
    def notation(self) -> str:
        """The move as a game record writes it: ``+pass``, ``+shift:2:4``."""
        return "+" + ":".join((self.name, *(str(arg) for arg in self.args)))

    def __str__(self) -> str:
        return self.label or self.notation


#: The moments a plugin may add a phase of choices at (``Phase.stage``), beside the stages
#: every variant has: ``"turn"`` (moves beside the drafts) and ``"after_draft"``.
PHASE_STAGES = ("round_start", "after_turn", "round_end", "game_end")


@dataclass(frozen=True)
class Phase:
    """A phase of choices a plugin adds to the round (the answer of ``azul_declare_phases``).

    ``stage``: when it comes: ``"round_start"`` (after the factories are
    filled, before the first draft), ``"after_turn"`` (after each turn, its
    tiling at the turn's end included, before the next seat's turn),
    ``"round_end"`` (after the wall tiling, before the floors are paid) or
    ``"game_end"`` (once the game is over, before the end bonuses). Each
    seat in turn, from the round's first player (``after_turn``: from the
    seat that just played), is offered the plugins' moves of that stage
    (``azul_offer_moves``) and takes one (a seat offered none is passed
    over); an ``Outcome(ends_turn=False)`` has the same seat choose again,
    at most 16 times in a row. ``at_once``: every seat chooses once, in secret: each choice is
    kept from the other seats (their pages, bots and records) until every
    seat has chosen, then all are carried out together, in seat order (a
    sealed bid, with no cryptography in the plugin). ``words``: what the
    seats choose, in players' words ("Buy a tile from the lid for 2 points,
    or nothing"), told after the stage's name on every front end (at most
    120 printable characters; "" tells the stage alone).
    """

    stage: str
    at_once: bool = False
    words: str = ""


#: The kinds of place that hold tiles (``Place.what``).
PLACE_KINDS = ("bag", "lid", "box", "factory", "centre", "line", "floor", "wall")


@dataclass(frozen=True)
class Place:
    """A place that holds tiles: the ``bag``, the ``lid``, the ``box`` (out of the game), a
    ``factory`` (``number`` 1, 2, ...), the ``centre``, or a seat's pattern ``line``
    (``number`` 0-4, to n-1 on a board of n colours), ``floor`` or ``wall`` space (row ``number``, ``column``).

    Write them with the functions beside it: ``BAG``, ``LID``, ``BOX``,
    ``CENTRE``, ``factory(2)``, ``line(seat, 3)``, ``floor(seat)``,
    ``wall(seat, 0, 4)``. Seats, lines, rows and columns count from 0,
    factories from 1 (as a record writes them).
    """

    what: str
    seat: int | None = None
    number: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.what == "factory":
            return f"factory {self.number}"
        if self.what == "line":
            return f"pattern line {self.number + 1} of seat {self.seat}"
        if self.what == "floor":
            return f"the floor of seat {self.seat}"
        if self.what == "wall":
            return f"wall space ({self.number + 1}, {self.column + 1}) of seat {self.seat}"
        return f"the {self.what}"


BAG, LID, BOX, CENTRE = Place("bag"), Place("lid"), Place("box"), Place("centre")


def factory(number: int) -> Place:
    """Factory ``number`` (from 1)."""
    return Place("factory", None, number)


def line(seat: int, row: int) -> Place:
    """Pattern line ``row`` (0-4; 0 to n-1 on a board of n colours) of ``seat``."""
    return Place("line", seat, row)


def floor(seat: int) -> Place:
    """The floor of ``seat``."""
    return Place("floor", seat)


def wall(seat: int, row: int, column: int) -> Place:
    """The wall space at ``row``, ``column`` (0-4 each; to n-1 on a board of n colours) of
    ``seat``."""
    return Place("wall", seat, row, column)


@dataclass(frozen=True)
class Transfer:
    """``count`` tiles of ``kind`` (a colour 0-4, or an extra tile 5, 6, 7; on a board of n
    colours, 0 to n-1 and n on) moved from the place ``source`` to the place ``target`` (an
    ``Outcome``'s ``transfers``).

    The engine checks each against the rules, in order, and carries out all of
    an outcome's transfers or none: the source holds the tiles (a pattern
    line gives tiles of its colour, and keeps one with any tiles standing in
    for it; a wall space gives its one tile); a pattern line takes them only
    if it takes their colour and has room (an extra tile: where it may stand
    in for the line's colour, ``azul_stands_in``); a wall space takes one
    tile of a colour the wall lets go there (``azul_wall_spaces``) and is
    not scored (give points with ``Outcome.points`` or ``scores``); a floor
    takes any tiles and what it can't hold goes where a full floor's overflow
    goes (``azul_discard_pile``); the bag, the lid, the box, the factories
    and the centre take any tiles. Tiles are never made or lost.
    """

    source: Place
    target: Place
    kind: int
    count: int = 1


#: The kinds of place a ``Draw`` may fill: each takes any tile.
DRAW_TARGETS = ("lid", "box", "factory", "centre", "floor")


@dataclass(frozen=True)
class Draw:
    """``count`` tiles drawn at random from the bag onto the place ``target`` (an ``Outcome``'s
    ``draws``): a factory, the centre, the lid, the box or a seat's floor.

    The bag is refilled from the lid when it runs out, as for a round's deal;
    when both are empty the draw stops short. What was drawn is a chance event
    of the game: the record writes it (``~RRB``), a replay lays the same
    tiles, OpenSpiel draws it tile by tile at its chance nodes. The plugin
    that asked for the draw learns what came out through
    ``azul_tiles_drawn``. A factory or the centre takes drawn tiles only while
    the round's drafting goes on (not in a ``round_end`` or ``game_end``
    phase, when the next deal fills them).
    """

    target: Place
    count: int = 1


@dataclass(frozen=True)
class Outcome:
    """What taking a plugin's move does (the answer of ``azul_apply_move``).

    ``memory``: the plugin's new memory (``None``, the default: unchanged). ``points``:
    added to the seat's score at once (a negative amount never takes it
    below 0); ``scores``: ``(seat, points)`` pairs for any seat's score, the
    same way. ``transfers``: tiles moved between any places (``Transfer``),
    any seat's board included, all or none. ``shift``: ``(from_line, to_line,
    count)`` is a short way to write ``Transfer(line(seat, from_line),
    line(seat, to_line), colour, count)`` for the seat's own lines (``to_line``
    5: its floor; the colour is the line's). The engine checks every transfer
    (see ``Transfer``) and refuses the outcome as the plugin's error
    otherwise. ``ends_turn``: for a move taken instead of a draft or in a
    plugin's phase (``Phase``), whether the turn passes to the next seat
    (``True``) or the same seat decides again (``False``: after a choice that
    comes first). After a move offered after
    a draft, the engine asks for more such moves and passes the turn when
    none is offered. ``draws``: tiles drawn at random from the bag (``Draw``),
    after the transfers and before the game goes on.
    """

    memory: Any = None
    points: int = 0
    shift: tuple[int, int, int] | None = None
    ends_turn: bool = True
    transfers: tuple[Transfer, ...] = ()
    scores: tuple[tuple[int, int], ...] = ()
    draws: tuple[Draw, ...] = ()
