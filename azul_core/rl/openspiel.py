"""Any variant as an OpenSpiel game: ``import azul_core.rl.openspiel`` registers ``python_azul``.

    import pyspiel
    import azul_core.rl.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_azul", {"variant": "grey-wall", "players": 3})

Parameters: ``variant`` (a built-in name or a variant file), ``players``,
``reward`` (``"score"``: each seat's final score minus the mean of the
others', with 2 players the score difference; ``"win"``: +1 / -1, 0 for a
shared victory) and ``max_rounds`` (a game still going then is cut short and
scored as it stands; only a house rule that never ends gets there).

The factory fills are explicit chance nodes: one tile drawn at a time, each
colour with its share of the bag, factory 1 first; when the bag runs out the
lid is poured in, and when both are empty the fill stops. The drawn tiles are
then laid by the engine (``GameState.deal_tiles``, which checks that they
could have come out of the bag and lid). Chance action ``c`` is "a tile of
colour ``c``" (0..4). Player actions are ``azul_core.rl.encoding``'s.

The game has perfect information (the bag's contents are known; only the
order of the draws is chance), so the information state is the observation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel

from azul_core.colours import COLOURS, LETTERS, NAMES
from azul_core.engine.state import DEAL, OVER, GameState
from azul_core.records.game_record import write_record
from azul_core.rl import encoding
from azul_core.rl.game import MAX_ROUNDS, build_record, check_players, check_reward, final_returns, load

SHORT_NAME = "python_azul"
DEFAULTS = {"variant": "standard", "players": 2, "reward": "score", "max_rounds": MAX_ROUNDS}
#: Final returns lie within these bounds with reward="score" (no variant comes near).
SCORE_BOUND = 1000.0

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Azul (any variant of azul-variants)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=9,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class AzulGame(pyspiel.Game):
    """``python_azul``: one variant for a number of players."""

    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        rules, ref = load(params["variant"])
        players = params["players"]
        check_players(rules, players)
        check_reward(params["reward"])
        start = GameState(rules, players)
        encoding.check_table(start)
        table = start.table
        tiles_per_round = table.factories * table.tiles_per_factory
        max_rounds = int(params["max_rounds"])
        if params["reward"] == "win":
            low, high = -1.0 / (players - 1), 1.0
        else:
            low, high = -SCORE_BOUND, SCORE_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.NUM_ACTIONS,
            max_chance_outcomes=len(COLOURS),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            # A draft takes at least one tile, and each tile reaches a wall at most once.
            max_game_length=max_rounds * 2 * tiles_per_round,
        )
        super().__init__(_GAME_TYPE, info, params)
        self.rules = rules
        self.variant_ref = ref
        self.reward = params["reward"]
        self.max_rounds = max_rounds
        self.start = start

    def new_initial_state(self):
        return AzulState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return AzulObserver(self.num_players())


class _Episode:
    """The engine state and what happened so far (for records), copied cheaply.

    OpenSpiel clones a Python state by deep-copying its attributes: this one
    copies with the engine's ``clone()`` and shares the history, which is
    never changed in place, only extended into a new tuple chain.
    """

    __slots__ = ("game", "state", "drawn", "draws_left", "draw_count", "pool_now", "bag_size",
                 "events")

    def __init__(self, game: AzulGame):
        self.game = game
        self.state = game.start.clone()
        self.drawn: list[list[int]] | None = None  # the factories being filled
        self.draws_left = 0
        self.draw_count = 0  # tiles drawn so far in this fill
        self.pool_now: list[int] = []  # what the next tile is drawn from, by colour
        self.bag_size = 0  # the bag's tiles when the fill started
        self.events = None  # (previous events, event): ("fill", counts) or ("act", decision)

    def __deepcopy__(self, memo):
        other = _Episode.__new__(_Episode)
        other.game = self.game
        other.state = self.state.clone()
        other.drawn = None if self.drawn is None else [f[:] for f in self.drawn]
        other.draws_left = self.draws_left
        other.draw_count = self.draw_count
        other.pool_now = self.pool_now[:]
        other.bag_size = self.bag_size
        other.events = self.events
        return other

    def __reduce__(self):
        # Serialised as the game's parameters, the events and the tiles of a fill under way
        # (factory by factory: their order within a factory does not matter), then replayed
        # through the engine.
        drawn_tiles = _colours_of(self.drawn) if self.drawn is not None else []
        return (_rebuild, (self.game.get_parameters(), self.history(), drawn_tiles))

    def history(self) -> list[tuple]:
        """The events so far, oldest first."""
        events = []
        node = self.events
        while node is not None:
            node, event = node
            events.append(event)
        events.reverse()
        return events

    def log(self, event) -> None:
        self.events = (self.events, event)

    # ------------------------------------------------------------ chance

    def start_fill(self) -> None:
        """At a round's start: how many tiles the fill draws (all of bag and lid at most)."""
        state = self.state
        table = state.table
        self.bag_size = len(state.bag)
        self.draws_left = min(self.bag_size + sum(state.lid), table.factories * table.tiles_per_factory)
        self.draw_count = 0
        self.drawn = [[0] * len(COLOURS) for _ in range(table.factories)]
        self.pool_now = [state.bag.count(c) for c in COLOURS]
        if not self.bag_size:
            self.pool_now = state.lid[:]
        if not self.draws_left:
            self.finish_fill()

    def pool(self) -> list[int]:
        """Colour counts the next tile is drawn from: the bag, or once it is drawn out, the
        lid poured in."""
        return self.pool_now

    def draw(self, colour: int) -> None:
        if not self.pool_now[colour]:
            raise ValueError(f"no {NAMES[colour]} tile is left to draw")
        per = self.state.table.tiles_per_factory
        self.drawn[self.draw_count // per][colour] += 1
        self.draw_count += 1
        self.draws_left -= 1
        self.pool_now[colour] -= 1
        if self.draw_count == self.bag_size:  # the bag is empty: the lid is poured in
            self.pool_now = [a + b for a, b in zip(self.pool_now, self.state.lid)]
        if not self.draws_left:
            self.finish_fill()

    def finish_fill(self) -> None:
        fills = self.drawn
        self.drawn = None
        self.state.deal_tiles(fills)
        self.log(("fill", tuple(tuple(f) for f in fills)))

    def apply(self, decision: tuple) -> None:
        self.state.apply(decision)
        self.log(("act", decision))
        self.after_move()

    def after_move(self) -> None:
        if self.state.phase == DEAL and self.state.round <= self.game.max_rounds:
            self.start_fill()

    @property
    def cut_short(self) -> bool:
        return self.state.phase == DEAL and self.state.round > self.game.max_rounds

    def rounds(self) -> list[tuple[list, list]]:
        """Per round: the factory fills and the decisions taken (what a record holds)."""
        rounds: list[tuple[list, list]] = []
        for kind, value in self.history():
            if kind == "fill":
                rounds.append(([list(f) for f in value], []))
            else:
                rounds[-1][1].append(value)
        return rounds


def _rebuild(params, events, drawn_tiles):
    game = pyspiel.load_game(SHORT_NAME, params)
    episode = _Episode(game)
    episode.start_fill()
    for kind, value in events:
        if kind == "act":
            episode.apply(value)
        elif episode.drawn is not None:  # a fill: its tiles drawn again (an empty one makes itself)
            for colour in _colours_of(value):
                episode.draw(colour)
    for colour in drawn_tiles:
        episode.draw(colour)
    return episode


def _colours_of(fills) -> list[int]:
    return [colour for factory in fills for colour in COLOURS for _ in range(factory[colour])]


class AzulState(pyspiel.State):
    """A position: a chance node while the factories are filled, else the engine's ``to_move``
    decides."""

    def __init__(self, game: AzulGame):
        super().__init__(game)
        self.episode = _Episode(game)
        self.episode.start_fill()

    @property
    def engine_state(self) -> GameState:
        """The engine's ``GameState`` (read it, don't change it)."""
        return self.episode.state

    def current_player(self):
        episode = self.episode
        if episode.drawn is not None:
            return pyspiel.PlayerId.CHANCE
        if episode.state.phase == OVER or episode.cut_short:
            return pyspiel.PlayerId.TERMINAL
        return episode.state.to_move

    def _legal_actions(self, player):
        if player != self.current_player():
            return []
        return encoding.legal_actions(self.episode.state)

    def chance_outcomes(self):
        pool = self.episode.pool()
        total = sum(pool)
        return [(colour, count / total) for colour, count in enumerate(pool) if count]

    def _apply_action(self, action):
        episode = self.episode
        if episode.drawn is not None:
            episode.draw(int(action))
        else:
            episode.apply(encoding.decode(int(action), episode.state))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {NAMES[action]}"
        if action >= encoding.PLACE_BASE:
            state = self.episode.state
            row = state.placing[1] if state.placing is not None else None
            return f"w{'?' if row is None else row + 1}:{action - encoding.PLACE_BASE + 1}"
        return encoding.action_name(action)

    def is_terminal(self):
        episode = self.episode
        return episode.drawn is None and (episode.state.phase == OVER or episode.cut_short)

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.episode.state.num_players
        game = self.episode.game
        return final_returns(self.episode.state, game.reward)

    def record(self, path=None, names=None) -> dict:
        """The game so far as an ``azul-record/1`` record (a dict); with ``path``, also written
        there. ``azul validate`` replays it (add ``--variant FILE`` for a variant file, which
        the record names by its path relative to the record's folder: ``path``'s, else the
        current one). ``names``: the players' names (default ``player_0``...)."""
        episode = self.episode
        state = episode.state
        names = names or [f"player_{seat}" for seat in range(state.num_players)]
        folder = Path(path).parent if path is not None else None
        data = build_record(episode.game.variant_ref, names, None, episode.rounds(), state, folder)
        if path is not None:
            write_record(path, data, durable=False)
        return data

    def __str__(self):
        episode = self.episode
        text = encoding.observation_text(episode.state, 0)
        if episode.drawn is not None:
            drawn = " ".join("".join(LETTERS[c] * f[c] for c in COLOURS) or "-" for f in episode.drawn)
            text += f"\nfilling: {drawn} ({episode.draws_left} to draw)"
        state = episode.state
        return text + f"\nfirst player {state.first_player}, pending {state.pending}"


class AzulObserver:
    """OpenSpiel's observer: ``tensor`` is ``azul_core.rl.encoding.observation`` of the state
    as ``player`` sees it; ``dict`` splits it by ``observation_layout``."""

    def __init__(self, players: int):
        self.tensor = np.zeros(encoding.observation_size(players), np.float32)
        self.dict = {name: self.tensor[start:start + size]
                     for name, start, size in encoding.observation_layout(players)}

    def set_from(self, state, player):
        self.tensor[:] = encoding.observation(state.episode.state, player)

    def string_from(self, state, player):
        return encoding.observation_text(state.episode.state, player)


pyspiel.register_game(_GAME_TYPE, AzulGame)
