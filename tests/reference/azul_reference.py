"""An independent reference engine for standard Azul, the grey wall and duel.

Written from the rules texts (docs/rules/*.md) and the record format
(docs/records.md) only, without reading the project's engine, so
that records it writes can cross-check the project: both must agree on every
score.  It is deliberately plain: one file, no plugins, no cleverness.
Where the rules never end a game (no row can ever be completed), it follows the
project's documented decisions (docs/variants.md: settings end_when_starved and
end_when_blocked), again written from their description only.

Run it to write records:  python azul_reference.py duel 2 --seed 3 --out game.json
The example records in records/ were made so (tests/test_reference_records.py
checks that they still are):
    python azul_reference.py standard 2 --seed 14 --bots floor,greedy --out records/standard.json
    python azul_reference.py grey-wall 2 --seed 42 --bots floor,greedy --out records/grey-wall.json
    python azul_reference.py duel 2 --seed 170 --bots greedy,random --out records/duel.json
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
from dataclasses import dataclass, field

COLOURS = "BYRKW"          # tile i is COLOURS[i]
MARKER = "M"               # the start marker when it lies on a floor
FLOOR = 5                  # the floor as a draft target (lines are 0..4)
CENTRE = 0                 # the centre as a draft source (factories are 1..F)
TILES_PER_COLOUR = 20
FACTORY_SIZE = 4


@dataclass(frozen=True)
class Variant:
    name: str
    players: tuple[int, ...]
    factories: dict[int, int]
    floor_penalties: tuple[int, ...]
    grey_wall: bool = False         # the player chooses the column
    tile_at_turn_end: bool = False  # duel: a full line is tiled right after the draft
    closed_until_next_round: bool = False  # duel: ... and takes nothing more this round
    marker_aside: bool = False      # duel: the marker takes no floor space
    misplaced_to_floor: bool = False  # duel: a draft onto a line that cannot take it
    duel_scoring: bool = False      # duel: h + v - 1
    # The project's decisions for games the rules never end (docs/variants.md):
    end_when_starved: bool = True   # no row can still get the tiles it misses
    end_when_blocked: bool = False  # grey wall: ... or its colours fit no free spaces


STANDARD = Variant("standard", (2, 3, 4), {2: 5, 3: 7, 4: 9}, (1, 1, 2, 2, 2, 3, 3))
GREY_WALL = Variant("grey-wall", (2, 3, 4), {2: 5, 3: 7, 4: 9}, (1, 1, 2, 2, 2, 3, 3),
                    grey_wall=True, end_when_blocked=True)
DUEL = Variant("duel", (2,), {2: 5}, (1, 1, 2, 2, 3, 3, 4, 4),
               tile_at_turn_end=True, closed_until_next_round=True, marker_aside=True, misplaced_to_floor=True,
               duel_scoring=True)
VARIANTS = {v.name: v for v in (STANDARD, GREY_WALL, DUEL)}


def colour_wall_column(row: int, colour: int) -> int:
    """Column of `colour` in `row` (0-based) on the printed wall: each row is the
    one above shifted one step right, so row 2 starts with white."""
    return (colour + row) % 5


@dataclass
class Board:
    line_colour: list = field(default_factory=lambda: [None] * 5)
    line_count: list = field(default_factory=lambda: [0] * 5)
    wall: list = field(default_factory=lambda: [[None] * 5 for _ in range(5)])
    floor: list = field(default_factory=list)   # tiles (ints) and possibly MARKER
    tiled_this_round: set = field(default_factory=set)  # duel: lines closed until the next round
    score: int = 0

    def full_rows(self) -> int:
        return sum(all(cell is not None for cell in row) for row in self.wall)


@dataclass
class Stats:
    """Which rare paths a game went through, so tests can check they were covered."""
    lid_poured_mid_fill: int = 0
    fill_stopped_short: int = 0
    marker_on_full_floor: int = 0
    floor_overflow_to_lid: int = 0
    misplaced_drafts: int = 0
    draft_onto_closed_line: int = 0  # duel: a misplaced draft naming a line tiled this round
    grey_line_to_floor: int = 0
    grey_single_choice: int = 0
    clamped_to_zero: int = 0
    round_without_centre_draft: int = 0
    tie_broken_by_rows: int = 0
    shared_victory: int = 0
    ended_starved: int = 0        # ended with no row able to get its tiles
    ended_blocked: int = 0        # ... where the grey-wall blocking was needed too


class Game:
    def __init__(self, variant: Variant, players: int, rng: random.Random):
        if players not in variant.players:
            raise ValueError(f"{variant.name} is for {variant.players} players")
        self.variant = variant
        self.n = players
        self.rng = rng
        self.boards = [Board() for _ in range(players)]
        self.bag = [c for c in range(5) for _ in range(TILES_PER_COLOUR)]
        self.lid: list[int] = []
        self.factories: list[list[int]] = []
        self.centre: list[int] = []
        self.marker_in_centre = True
        self.marker_holder: int | None = None
        self.first_player = 0
        self.to_move = 0
        self.over = False
        self.winners: list[int] | None = None
        self.stats = Stats()
        self.rounds: list[dict] = []     # the record's rounds
        self.actions: list[str] = []

    # ---- invariants -------------------------------------------------------
    def tile_total(self) -> list[int]:
        counts = [0] * 5
        pools = [self.bag, self.lid, self.centre] + self.factories
        for pool in pools:
            for t in pool:
                counts[t] += 1
        for b in self.boards:
            for t in b.floor:
                if t != MARKER:
                    counts[t] += 1
            for line in range(5):
                if b.line_count[line]:
                    counts[b.line_colour[line]] += b.line_count[line]
            for row in b.wall:
                for t in row:
                    if t is not None:
                        counts[t] += 1
        return counts

    def check_invariants(self) -> None:
        assert self.tile_total() == [TILES_PER_COLOUR] * 5, self.tile_total()
        assert all(b.score >= 0 for b in self.boards)
        for b in self.boards:
            assert len(b.floor) <= len(self.variant.floor_penalties)

    # ---- filling ------------------------------------------------------------
    def fill_factories(self, wanted: list[str] | None = None) -> None:
        """Factory 1, then 2, ...; pour the lid into the bag when the bag runs out,
        stop when both are empty.  `wanted` (letters per factory) picks the tiles
        instead of chance, for a rare deal a test needs; it must be drawable."""
        count = self.variant.factories[self.n]
        self.factories = [[] for _ in range(count)]
        for index, factory in enumerate(self.factories):
            while len(factory) < FACTORY_SIZE:
                if wanted is not None and len(factory) == len(wanted[index]):
                    break
                if not self.bag:
                    if not self.lid:
                        self.stats.fill_stopped_short += 1
                        break
                    self.bag.extend(self.lid)
                    self.lid.clear()
                    self.stats.lid_poured_mid_fill += 1
                if wanted is None:
                    position = self.rng.randrange(len(self.bag))
                else:
                    position = self.bag.index(COLOURS.index(wanted[index][len(factory)]))
                factory.append(self.bag.pop(position))
        self.centre = []
        self.marker_in_centre = True
        self.marker_holder = None
        self.to_move = self.first_player
        self.rounds.append({"factories": ["".join(COLOURS[t] for t in f) for f in self.factories],
                            "actions": []})
        self.actions = self.rounds[-1]["actions"]

    # ---- drafting -----------------------------------------------------------
    def line_accepts(self, seat: int, colour: int, line: int) -> bool:
        b = self.boards[seat]
        if self.variant.closed_until_next_round and line in b.tiled_this_round:
            return False
        if b.line_count[line] == line + 1:
            return False
        if b.line_count[line] and b.line_colour[line] != colour:
            return False
        return colour not in b.wall[line]

    def source_tiles(self, source: int) -> list[int]:
        return self.centre if source == CENTRE else self.factories[source - 1]

    def sources(self):
        yield CENTRE, self.centre
        for i, f in enumerate(self.factories, start=1):
            yield i, f

    def legal_drafts(self, include_misplaced: bool = False) -> list[tuple[int, int, int]]:
        """(source, colour, line) triples; with include_misplaced (duel only) also
        the drafts onto lines that cannot take the colour."""
        seat = self.to_move
        drafts = []
        for source, tiles in self.sources():
            for colour in sorted(set(tiles)):
                for line in range(5):
                    if self.line_accepts(seat, colour, line) or (
                            include_misplaced and self.variant.misplaced_to_floor):
                        drafts.append((source, colour, line))
                drafts.append((source, colour, FLOOR))
        return drafts

    def drafting_over(self) -> bool:
        return not self.centre and not any(self.factories)

    def to_floor(self, seat: int, tiles: list) -> None:
        floor = self.boards[seat].floor
        for t in tiles:
            if len(floor) < len(self.variant.floor_penalties):
                floor.append(t)
            elif t == MARKER:   # decision: still its holder's, costs nothing more
                self.stats.marker_on_full_floor += 1
            else:
                self.lid.append(t)
                self.stats.floor_overflow_to_lid += 1

    def apply_draft(self, source: int, colour: int, line: int) -> None:
        seat = self.to_move
        b = self.boards[seat]
        pool = self.source_tiles(source)
        taken = [t for t in pool if t == colour]
        assert taken, "no such tile there"
        rest = [t for t in pool if t != colour]
        if source == CENTRE:
            self.centre = rest
            if self.marker_in_centre:
                self.marker_in_centre = False
                self.marker_holder = seat
                if not self.variant.marker_aside:
                    self.to_floor(seat, [MARKER])   # before any of the taken tiles
        else:
            self.factories[source - 1] = []
            self.centre.extend(rest)
        self.actions.append(("C" if source == CENTRE else str(source)) + COLOURS[colour]
                            + ("-" if line == FLOOR else str(line + 1)))
        if line == FLOOR:
            self.to_floor(seat, taken)
        elif not self.line_accepts(seat, colour, line):
            assert self.variant.misplaced_to_floor, "illegal draft"
            self.stats.misplaced_drafts += 1
            if line in b.tiled_this_round:
                self.stats.draft_onto_closed_line += 1
            self.to_floor(seat, taken)
        else:
            room = line + 1 - b.line_count[line]
            fits = taken[:room]
            b.line_colour[line] = colour
            b.line_count[line] += len(fits)
            self.to_floor(seat, taken[room:])
            if self.variant.tile_at_turn_end and b.line_count[line] == line + 1:
                self.tile_line(seat, line)
        self.to_move = (seat + 1) % self.n
        if self.drafting_over():
            self.end_round()

    # ---- tiling and scoring --------------------------------------------------
    def legal_columns(self, seat: int, row: int, colour: int) -> list[int]:
        wall = self.boards[seat].wall
        if not self.variant.grey_wall:
            return [colour_wall_column(row, colour)]
        if colour in wall[row]:
            return []
        return [c for c in range(5)
                if wall[row][c] is None and all(wall[r][c] != colour for r in range(5))]

    def placement_points(self, wall, row: int, col: int) -> int:
        left = right = up = down = 0
        while col - left - 1 >= 0 and wall[row][col - left - 1] is not None:
            left += 1
        while col + right + 1 < 5 and wall[row][col + right + 1] is not None:
            right += 1
        while row - up - 1 >= 0 and wall[row - up - 1][col] is not None:
            up += 1
        while row + down + 1 < 5 and wall[row + down + 1][col] is not None:
            down += 1
        h = 1 + left + right
        v = 1 + up + down
        if self.variant.duel_scoring:
            return h + v - 1
        if h > 1 and v > 1:
            return h + v
        return max(h, v)

    def tile_line(self, seat: int, line: int) -> None:
        """Move the tile of a full line to the wall and score it; the rest to the lid."""
        b = self.boards[seat]
        colour = b.line_colour[line]
        count = b.line_count[line]
        b.line_colour[line] = None
        b.line_count[line] = 0
        if self.variant.tile_at_turn_end:
            b.tiled_this_round.add(line)
        columns = self.legal_columns(seat, line, colour)
        if not columns:
            # grey wall: the whole line goes to the floor, overflow to the lid
            self.stats.grey_line_to_floor += 1
            self.to_floor(seat, [colour] * count)
            return
        if len(columns) == 1 and self.variant.grey_wall:
            self.stats.grey_single_choice += 1
        col = self.rng.choice(columns)
        if self.variant.grey_wall:
            self.actions.append(f"w{line + 1}:{col + 1}")
        b.wall[line][col] = colour
        b.score += self.placement_points(b.wall, line, col)
        self.lid.extend([colour] * (count - 1))

    def end_round(self) -> None:
        if not self.variant.tile_at_turn_end:
            for seat in range(self.n):
                for line in range(5):
                    if self.boards[seat].line_count[line] == line + 1:
                        self.tile_line(seat, line)
        for b in self.boards:
            penalty = sum(self.variant.floor_penalties[:len(b.floor)])
            if penalty > b.score:
                self.stats.clamped_to_zero += 1
            b.score = max(0, b.score - penalty)
            self.lid.extend(t for t in b.floor if t != MARKER)
            b.floor = []
            b.tiled_this_round.clear()
        self.rounds[-1]["scores"] = [b.score for b in self.boards]
        if self.marker_holder is not None:
            self.first_player = self.marker_holder
        else:
            self.stats.round_without_centre_draft += 1
        if any(b.full_rows() for b in self.boards):
            self.finish()
        elif self.variant.end_when_starved or self.variant.end_when_blocked:
            self.end_if_no_row_can_be_completed()

    # ---- the project's end for stalled games (docs/variants.md) ----------------
    def tiles_to_come(self) -> tuple[list[int], set[tuple[int, int]]]:
        """How many tiles of each colour can still reach a pattern line, and which
        partly filled lines (seat, line) can never fill up ("stuck").

        Start from what bag and lid hold.  A line short of k tiles of its colour
        fills up if k are to come; it then sends all its tiles but the wall tile
        to the lid, so the colour has (held - 1) more to come.  Lines that fill
        up may let others fill up in turn: repeat until nothing changes."""
        to_come = [0] * 5
        for tile in self.bag + self.lid:
            to_come[tile] += 1
        waiting = {(seat, line) for seat, b in enumerate(self.boards)
                   for line in range(5) if b.line_count[line]}
        progress = True
        while progress:
            progress = False
            for seat, line in sorted(waiting):
                b = self.boards[seat]
                colour, held = b.line_colour[line], b.line_count[line]
                if line + 1 - held <= to_come[colour]:
                    to_come[colour] += held - 1
                    waiting.discard((seat, line))
                    progress = True
        return to_come, waiting

    def row_can_get_its_tiles(self, seat: int, row: int, to_come, stuck) -> bool:
        """Its pattern line is not stuck, and `row + 1` tiles are to come of every
        colour the row misses (but the one its pattern line holds)."""
        if (seat, row) in stuck:
            return False
        b = self.boards[seat]
        held = b.line_colour[row] if b.line_count[row] else None
        return all(to_come[colour] >= row + 1 for colour in self.missing_colours(seat, row)
                   if colour != held)

    def missing_colours(self, seat: int, row: int) -> list[int]:
        wall = self.boards[seat].wall
        if self.variant.grey_wall:
            return [c for c in range(5) if c not in wall[row]]
        return [c for c in range(5) if wall[row][colour_wall_column(row, c)] is None]

    def row_is_blocked(self, seat: int, row: int) -> bool:
        """Grey wall: no way to give each missing colour its own free space of the
        row with that colour in no other row of the space's column."""
        wall = self.boards[seat].wall
        free = [c for c in range(5) if wall[row][c] is None]
        missing = self.missing_colours(seat, row)

        def fits(colour, column):
            return all(wall[r][column] != colour for r in range(5) if r != row)
        return not any(all(fits(colour, column) for colour, column in zip(order, free))
                       for order in itertools.permutations(missing))

    def end_if_no_row_can_be_completed(self) -> None:
        to_come, stuck = self.tiles_to_come()
        starved = blocked = 0
        for seat in range(self.n):
            for row in range(5):
                if self.variant.end_when_starved and not self.row_can_get_its_tiles(
                        seat, row, to_come, stuck):
                    starved += 1
                elif self.variant.end_when_blocked and self.row_is_blocked(seat, row):
                    blocked += 1
                else:
                    return      # this row may still be completed: play on
        if blocked:
            self.stats.ended_blocked += 1
        else:
            self.stats.ended_starved += 1
        self.finish()

    def bonuses(self, b: Board) -> int:
        rows = b.full_rows()
        columns = sum(all(b.wall[r][c] is not None for r in range(5)) for c in range(5))
        colours = sum(sum(row.count(colour) for row in b.wall) == 5 for colour in range(5))
        return 2 * rows + 7 * columns + 10 * colours

    def finish(self) -> None:
        for b in self.boards:
            b.score += self.bonuses(b)
        best = max(b.score for b in self.boards)
        leaders = [s for s, b in enumerate(self.boards) if b.score == best]
        most_rows = max(self.boards[s].full_rows() for s in leaders)
        self.winners = [s for s in leaders if self.boards[s].full_rows() == most_rows]
        if len(leaders) > 1 and len(self.winners) == 1:
            self.stats.tie_broken_by_rows += 1
        if len(self.winners) > 1:
            self.stats.shared_victory += 1
        self.over = True


# ---- players ------------------------------------------------------------------
def random_player(game: Game, rng: random.Random) -> tuple[int, int, int]:
    """Any legal draft; in duel, one time in ten a misplaced one when there is one."""
    drafts = game.legal_drafts()
    if game.variant.misplaced_to_floor and rng.random() < 0.1:
        misplaced = [d for d in game.legal_drafts(include_misplaced=True) if d not in drafts]
        if misplaced:
            return rng.choice(misplaced)
    return rng.choice(drafts)


def floor_player(game: Game, rng: random.Random) -> tuple[int, int, int]:
    """Mostly sends everything to the floor: floors overflow, many tiles go to the
    lid, scores hit the clamp, and the marker is taken onto a full floor."""
    drafts = game.legal_drafts()
    if rng.random() < 0.8:
        drafts = [d for d in drafts if d[2] == FLOOR]
    if game.marker_in_centre:
        floor_full = len(game.boards[game.to_move].floor) >= len(game.variant.floor_penalties)
        wanted = [d for d in drafts if (d[0] == CENTRE) == floor_full]
        drafts = wanted or drafts
    if rng.random() < 0.7:     # the biggest handful fills the floor fastest
        most = max(game.source_tiles(d[0]).count(d[1]) for d in drafts)
        drafts = [d for d in drafts if game.source_tiles(d[0]).count(d[1]) == most]
    return rng.choice(drafts)


def hoarding_player(game: Game, rng: random.Random) -> tuple[int, int, int]:
    """Keeps tiles off the floor, so that few go to the lid: in 4-player games
    bag and lid both run dry and factories stay partly filled."""
    drafts = game.legal_drafts()
    b = game.boards[game.to_move]

    def overflow(d):
        source, colour, line = d
        n = game.source_tiles(source).count(colour)
        if line == FLOOR:
            return n + 10
        room = line + 1 - b.line_count[line]
        return max(0, n - room)
    best = min(overflow(d) for d in drafts)
    return rng.choice([d for d in drafts if overflow(d) == best])


def greedy_player(game: Game, rng: random.Random) -> tuple[int, int, int]:
    """Fills pattern lines with little overflow, so walls grow and games reach
    the end-of-game bonuses (rows, columns, colours)."""
    drafts = game.legal_drafts()
    b = game.boards[game.to_move]

    def value(d):
        source, colour, line = d
        n = game.source_tiles(source).count(colour)
        if line == FLOOR:
            return -2 * n
        room = line + 1 - b.line_count[line]
        fits = min(n, room)
        return fits - 2 * (n - fits) + (2 if fits == room else 0) + rng.random()
    return max(drafts, key=value)


PLAYERS = {"random": random_player, "floor": floor_player, "hoard": hoarding_player,
           "greedy": greedy_player}


def play_game(variant: str | Variant, players: int, seed: int, bots=("random",),
              max_rounds: int = 60, check: bool = True,
              deals: dict[int, list[str]] | None = None) -> Game:
    """Play one game of a built-in variant (by name) or of a Variant (e.g. one
    with a stall rule turned off); `bots` is cycled over the seats; `deals` maps a round number
    (from 1) to the factories to lay instead of drawing.  A game still running after
    `max_rounds` is left unfinished (a safety net: games where no row can ever be
    completed end by the project's decisions, see end_if_no_row_can_be_completed)."""
    rng = random.Random(seed)
    game = Game(VARIANTS[variant] if isinstance(variant, str) else variant, players, rng)
    game.seed = seed
    seat_bots = [PLAYERS[bots[s % len(bots)]] for s in range(players)]
    while not game.over:
        if len(game.rounds) >= max_rounds:
            break
        game.fill_factories((deals or {}).get(len(game.rounds) + 1))
        if check:
            game.check_invariants()
        if game.drafting_over():     # nothing was dealt at all
            game.end_round()
            continue
        while not game.drafting_over():     # the last draft ends the round
            game.apply_draft(*seat_bots[game.to_move](game, rng))
            if check:
                game.check_invariants()
    return game


def record(game: Game, names=None, variant: str | None = None) -> dict:
    """The game as an `azul-record/1` document; an unfinished game has no result.
    `variant` names the variant in the record instead of the built-in name (a
    variant file, for a game played with a setting changed)."""
    doc = {
        "format": "azul-record/1",
        "variant": variant or game.variant.name,
        "players": list(names or [f"ref{s}" for s in range(game.n)]),
        "seed": game.seed,
        "rounds": game.rounds,
    }
    if game.over:
        doc["result"] = {"scores": [b.score for b in game.boards], "winners": game.winners}
    return doc


def dumps_record(doc: dict) -> str:
    """JSON text with one round per line, easy to read and to diff."""
    rounds = ",\n".join("  " + json.dumps(r) for r in doc["rounds"])
    head = {k: v for k, v in doc.items() if k not in ("rounds", "result")}
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append(f'  "rounds": [\n{rounds}\n  ]' + ("," if "result" in doc else ""))
    if "result" in doc:
        lines.append(f'  "result": {json.dumps(doc["result"])}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("players", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default="random", help="cycled over the seats, comma-separated: " + ", ".join(PLAYERS))
    parser.add_argument("--out", help="file to write (default: stdout)")
    args = parser.parse_args()
    game = play_game(args.variant, args.players, args.seed, tuple(args.bots.split(",")))
    text = dumps_record(record(game))
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
