"""A vectorised environment: many games of one ruleset stepped by one call into Rust.

``VectorEnv("hig", num_envs=64)`` holds 64 games. Every array it returns is allocated once
and written in place by each call (copy what you keep):

- ``obs["action_mask"]`` (int8, N x size) and ``obs["num_legal"]`` (int32, N): action ``i``
  of a game is the ``i``-th legal action of its pending decision, as in
  :class:`castellan.ActionSpace` and :mod:`castellan.env`;
- ``obs["player"]`` (int32, N): the seat that acts in each game;
- ``obs["tiles"]``, ``obs["vector"]``, ``obs["actions"]`` (float32): the acting seat's
  observation, as in :mod:`castellan.env`, when made with ``observations=True``;
- ``rewards`` (float32, N x players): every seat's reward of the step (``reward="score"``:
  its change of score; ``"zero_sum"``: its change minus the mean change of the others);
- ``terminations`` (bool, N): the step ended that game; the slot already holds its next game
  (seeded ``seed + i + k * N`` for the slot's ``k``-th game), whose observation is the one
  returned, and ``infos["final_scores"]`` has the final scores of the game that ended.

``sample()`` draws a random legal action for every game in Rust, exactly as the CLI's random
bot of that game draws: random play in a batch seeded ``s`` plays the games of
``castellan simulate --seed s``. docs/python.md argues the design against PettingZoo's,
Gymnasium's and OpenSpiel's conventions.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from ._castellan import Batch, Game

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` games of ``ruleset`` stepped together, auto-reset when they end."""

    def __init__(
        self,
        ruleset: Any = "hig",
        num_envs: int = 64,
        players: int = 2,
        reward: str = "score",
        max_actions: Optional[int] = None,
        observations: bool = True,
    ):
        self._batch = Batch(ruleset, num_envs, players, reward, max_actions, observations)
        self.num_envs = num_envs
        self.players = players
        #: The number of actions of one game: the length of a row of the mask.
        self.size = self._batch.size
        arrays = {
            name: np.frombuffer(buf, dtype=dtype).reshape(shape)
            for name, (buf, dtype, shape) in self._batch.arrays().items()
        }
        self._actions = arrays["actions"]
        self.rewards = arrays["rewards"]
        self.terminations = arrays["terminated"].view(np.bool_)
        self.truncations = np.zeros(num_envs, dtype=np.bool_)
        self.observation = {
            "action_mask": arrays["action_mask"],
            "num_legal": arrays["num_legal"],
            "player": arrays["player"],
        }
        if observations:
            self.observation.update(
                tiles=arrays["tiles"], vector=arrays["vector"], actions=arrays["action_table"]
            )
        self.infos = {
            "scores": arrays["scores"],
            "final_scores": arrays["final_scores"],
            "seeds": arrays["seeds"],
        }

    def reset(self, seed: Optional[int] = None) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        """Starts every game anew (game ``i`` with seed ``seed + i``); returns (obs, infos)."""
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63))
        self._batch.reset(int(seed))
        return self.observation, self.infos

    def sample(self) -> np.ndarray:
        """A random legal action for every game (the CLI's random bot of that game)."""
        self._batch.sample()
        return self._actions

    def step(
        self, actions: np.ndarray
    ) -> Tuple[Dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Plays ``actions[i]`` in game ``i``; returns (obs, rewards, terminations,
        truncations, infos). An index that is not legal in its game raises
        ``IllegalActionError`` and plays nothing."""
        if actions is not self._actions:
            self._actions[:] = actions
        self._batch.step()
        return self.observation, self.rewards, self.terminations, self.truncations, self.infos

    def game(self, i: int) -> Game:
        """A copy of game ``i`` as a :class:`castellan.Game`."""
        return self._batch.game(i)

    def close(self) -> None:
        pass
