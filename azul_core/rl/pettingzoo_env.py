"""Any variant as a PettingZoo AEC environment: ``azul_core.rl.env(variant="grey-wall", players=3)``.

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Seat 0 starts round 1,
unless the variant draws the first player (``azul_first_player``, as
examples/seeded-start does): then ``reset(seed=s)`` starts with
``rules.opening_seat(players, s)`` (the seat ``azul play --seed s`` starts
with), and an unseeded ``reset()`` draws that seed from the environment's own
generator. The agent to act is the engine's ``to_move``: the drafter, or in
variants where the player chooses a wall column (grey wall), the seat whose
tile is placed. The factories are filled inside the environment from its
seeded generator, so after ``reset(seed=s)`` the game is a function of ``s``
and the actions.

Each observation is ``{"observation": float32 vector, "action_mask": int8
vector}`` (see ``azul_core.rl.encoding``). An action outside the mask is
refused with ``ValueError``: the engine's legal decisions are the only moves.

The spaces follow the variant's board: n colours (an n x n wall, n pattern
lines) give ``encoding.board_shape(rules).move_base`` actions (305 on the
standard board of 5) and observation blocks sized by n. A variant's plugin
moves (a pass, a choice after a draft) are actions after those; its plugins'
memory and the agent's own secrets are numbers after the boards. An agent's
observation holds its own secret and never another seat's (the encoding
reads them through the engine's ``seen_secrets``, as
``GameState.for_seat(seat)`` does).

A phase of choices a plugin adds (``rules.Phase``) is played as the engine asks
it: each seat's choice is an action of that seat's agent, in turn. A phase
chosen at once, in secret, is played the same way, as hidden sequential
choices (this is an AEC environment: no parallel API): until every seat has
chosen, an agent's observation shows which seats have chosen and its own
choice, never another seat's (``encoding.seen_choices``).
"""

from __future__ import annotations

import random
from pathlib import Path

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as missing:
    from azul_core.rl.extra import missing_rl_extra
    raise missing_rl_extra(missing) from None

from azul_core.engine.state import GameState
from azul_core.records.game_record import write_record
from azul_core.rl import encoding
from azul_core.rl.game import MAX_ROUNDS, build_record, check_players, check_reward, load
from azul_core.rl.stepping import EnvSteps

REWARDS = ("score", "round", "win")


def env(variant: str | Path = "standard", players: int = 2, **options) -> AECEnv:
    """The environment of ``variant`` (a built-in name or a variant file) for ``players``.

    It checks the order of calls itself (``step``, ``observe`` and ``agent_iter`` before
    ``reset`` are clear errors, as is an action outside the mask), so it comes without
    PettingZoo's ``OrderEnforcingWrapper``, whose attribute forwarding costs more than a
    third of each step; wrap it if a tool expects the wrapper.
    """
    return AzulEnv(variant, players, **options)


class AzulEnv(EnvSteps, AECEnv):
    """One game of a variant at a time; see the module's docstring.

    ``reward``: ``"score"`` (default) gives each agent, when the game ends, its
    final score minus the mean of the others' (with 2 players, the score
    difference); ``"round"`` gives the change of that difference after every
    round (they add up to the same total); ``"win"`` gives +1 / -1 (0 each for a
    shared victory, as the variant decides winners; with n players
    (n * share - 1) / (n - 1)). A game still going after ``max_rounds`` rounds
    (a house rule that never ends) is truncated, without a final reward.

    ``memory_size``: how many numbers of the observation each plugin's memory and the
    agent's own secret of each plugin take (``encoding.value_numbers``); only variants
    whose plugins keep memory or deal secrets have them.
    """

    metadata = {"name": "azul_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, variant: str | Path = "standard", players: int = 2, reward: str = "score",
                 max_rounds: int = MAX_ROUNDS, render_mode: str | None = None,
                 memory_size: int = encoding.MEMORY_SIZE):
        super().__init__()
        check_reward(reward, REWARDS)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.rules, self.variant_ref = load(variant)
        check_players(self.rules, players)
        self.reward_mode = reward
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.memory_size = encoding.check_memory_size(memory_size)
        self._start = GameState(self.rules, players)
        encoding.check_table(self._start)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = encoding.observation_size(players, self.rules, self.memory_size)
        #: the actions: the board's drafts and placements (305 on the standard board), and one
        #: per plugin move the variant declares
        self.num_actions = encoding.num_actions(self.rules)
        # [-1000, 1000], or up to the greatest count of tiles where a kind has more than 1000
        high = encoding.observation_high(players, self.rules, self.memory_size)
        space = spaces.Dict({
            "observation": spaces.Box(encoding.OBS_LOW, high, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        action_space = spaces.Discrete(self.num_actions)
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self._rng = random.Random()
        self._no_mask = np.zeros(self.num_actions, np.int8)
        self._encoder = encoding.StepEncoder(self.rules, players, self.memory_size)
        #: the drafts by action number (``encoding.decode`` without its arithmetic)
        self._drafts = encoding.board_shape(self.rules).drafts
        self._place_base = encoding.board_shape(self.rules).place_base
        self.game: GameState | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the game

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.reset_seed = seed
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.game = self._start.clone()
        #: the seat that started round 1 (the record's ``first_player``)
        self.opening_seat = 0
        if self.rules.first_player is not None:  # the variant draws who starts
            # Unseeded, from the generator (which never sees it otherwise: every other
            # variant's games stay as they were).
            opening = seed if seed is not None else self._rng.randrange(2 ** 32)
            self.opening_seat = self.rules.opening_seat(len(self.possible_agents), opening)
            self.game.first_player = self.game.current = self.opening_seat
        self._rounds: list[tuple[list, list]] = []
        self._differences = [0.0] * len(self.agents)
        self._scored_rounds = 0
        self._paid = False
        self._legal_at = -1
        self._mask: tuple[int, bytes] = (-1, b"")  # (step, the action mask offered then)
        self._legal: list = []
        self.steps = 0
        self._deal()
        self.agent_selection = self.possible_agents[self.game.to_move]

    # ------------------------------------------------------------ extras

    def record(self, path: str | Path | None = None, names: list[str] | None = None) -> dict:
        """The game so far as an ``azul-record/1`` record (a dict); with ``path``, also written
        there (``azul validate PATH`` checks it; add ``--variant FILE`` for a variant file).
        A variant file is named by its path relative to the record's folder (``path``'s, else
        the current one). ``names``: the players' names (default the agents' names)."""
        if self.game is None:
            raise RuntimeError("reset() the environment before asking for its record")
        data = build_record(self.variant_ref, names or self.possible_agents, self.reset_seed,
                            self._rounds, self.game, Path(path).parent if path is not None else None,
                            first_player=self.opening_seat)
        if path is not None:
            write_record(path, data, durable=False)
        return data

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        # As a watcher sees it: no seat's secret until the game is over.
        text = encoding.observation_text(self.game.for_seat(None), 0)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"azul_v0({self.rules.name}, {len(self.possible_agents)} players)"
