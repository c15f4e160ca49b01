"""Every variant as an environment game-playing agents already speak (``pip install ".[rl]"``).

* PettingZoo: ``azul_core.rl.env(variant="grey-wall", players=3)`` is an AEC
  environment (``azul_core.rl.pettingzoo_env``).
* OpenSpiel: ``import azul_core.rl.openspiel`` registers the game
  ``python_azul`` (parameters ``variant``, ``players``, ``reward``,
  ``max_rounds``, ``memory_size``), with the factory fills (and the opening:
  who starts where the variant draws it, the plugins' secrets) as explicit
  chance nodes.

Both take the variant's rules from the engine: legal moves, line sizes, scores
and the end of the game are whatever the variant's plugins make them; the
plugins' own moves are actions, their memory and each seat's own secrets are
in that seat's observation (never another seat's secret). A variant's extra
kinds of tile (a wild tile) and its counts per colour are counted in the
observation and drawn at OpenSpiel's chance nodes; the actions stay drafts
of its colours. A variant of n colours (4 to 8: an n x n wall, n pattern
lines) has actions and observation blocks of its board's size; the standard
board's numbers stay as they are (``encoding.board_shape``). A phase of
choices a plugin adds is played seat by seat, as the engine asks it; one
chosen at once, in secret, as hidden sequential choices: no seat's
observation shows another's choice before the reveal.
Actions and observations: ``azul_core.rl.encoding`` and docs/ai.md.
"""

from __future__ import annotations

from pathlib import Path


def env(variant: str | Path = "standard", players: int = 2, **options):
    """A PettingZoo AEC environment of ``variant`` (a built-in name or a variant file) for
    ``players`` players; options: ``reward`` ("score", "round", "win"), ``max_rounds``,
    ``render_mode`` ("ansi", "human"), ``memory_size`` (observation numbers per plugin
    memory or secret). See ``azul_core.rl.pettingzoo_env``."""
    from azul_core.rl.pettingzoo_env import AzulEnv
    return AzulEnv(variant, players, **options)


#: PettingZoo's name for the environment without wrappers: the same (it needs none).
raw_env = env

__all__ = ["env", "raw_env"]
