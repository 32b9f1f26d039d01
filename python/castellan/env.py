"""A multi-agent environment for any castellan ruleset, following PettingZoo's AEC API.

``env(ruleset="hig", players=2)`` makes one. Agents are ``player_0`` ... in seat order; the
agent to act is the seat of the game's pending decision (the same agent may act several times
in a row: place, then deploy, then a dragon step ...).

- Actions: legal-index actions with a bounded mask. ``Discrete(space.size)``: action ``i`` is
  the ``i``-th legal action of the pending decision, in the engine's order; the mask's first
  ``n`` entries are set (``n`` legal actions) and the observation's ``actions`` table says,
  one row per legal action, what each index does (kind, where, rotation, spot, figure,
  mechanic). docs/python.md argues the choice.
- Observation: a dict of ``tiles`` (one row per tile laid: position, type, rotation, edges,
  the feature part at each edge and half-edge, centre, pennants, princess, symbols, markers,
  dragon, fairy, each seat's figures by kind as a bit per spot), ``vector`` (decision,
  acting seat, drawn tile, tiles left, turn, scores, supplies, tiles to come by type, the
  Count's quarters, goods), ``actions`` and ``action_mask`` (int8). Seats are counted from
  the observer. Everything in it is public at the table; the bag's order is not in it.
- Rewards: ``reward="score"`` (default) gives each player its change of score at every step,
  so an episode's rewards add up to the final scores; ``reward="zero_sum"`` gives its change
  minus the mean change of the others, so the rewards of a step add up to zero and an
  episode's to the final score minus the others' mean.
- Rendering: ``render_mode="ansi"`` (the board as text) or ``"rgb_array"`` (the board as a
  numpy array of shape (height, width, 3), uint8, from the PNG renderer).
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._castellan import ActionSpace, Game, Ruleset

__all__ = ["CastellanEnv", "env", "raw_env", "REWARDS"]

#: The reward schemes: ``score`` (each player's change of score) and ``zero_sum`` (its change
#: minus the mean change of the others).
REWARDS = ("score", "zero_sum")


class CastellanEnv(AECEnv):
    """The AEC environment (unwrapped); :func:`env` adds PettingZoo's usual wrappers."""

    metadata = {
        "name": "castellan_v1",
        "render_modes": ["ansi", "rgb_array"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: Any = "hig",
        players: int = 2,
        render_mode: Optional[str] = None,
        reward: str = "score",
        max_actions: Optional[int] = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported: use 'ansi' or 'rgb_array' "
                "(no window is opened; show the array or Game.render_svg() yourself)"
            )
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r} is not one of {REWARDS}")
        self.rules = ruleset if isinstance(ruleset, Ruleset) else Ruleset.load(ruleset)
        self.space = ActionSpace(self.rules, players, max_actions)
        self.render_mode = render_mode
        self.reward = reward
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.space.size
        observation = spaces.Dict(
            {
                "tiles": spaces.Box(-np.inf, np.inf, self.space.tiles_shape, np.float32),
                "vector": spaces.Box(0.0, np.inf, (self.space.vector_size,), np.float32),
                "actions": spaces.Box(-np.inf, np.inf, self.space.actions_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self._observation_spaces = {a: observation for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.game: Optional[Game] = None
        self._legal = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**63))
        self.game = Game(self.rules, list(self.possible_agents), int(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._scores = list(self.game.scores)
        self._legal = self.game.num_legal()
        self.agent_selection = self.possible_agents[self.game.active]

    def action_mask(self, agent: str) -> np.ndarray:
        """The legal actions of ``agent`` now (int8, 1 = legal): the first ``n``."""
        mask = np.zeros(self.space.size, dtype=np.int8)
        if self.game is not None and not self.game.is_over and agent == self.agent_selection:
            mask[: self._legal] = 1
        return mask

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        assert self.game is not None, "reset() the environment first"
        tiles, vector, actions, n = self.space.observe(self.game, self.agent_name_mapping[agent])
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[:n] = 1
        return {
            "tiles": np.frombuffer(tiles, dtype=np.float32).reshape(self.space.tiles_shape),
            "vector": np.frombuffer(vector, dtype=np.float32),
            "actions": np.frombuffer(actions, dtype=np.float32).reshape(self.space.actions_shape),
            "action_mask": mask,
        }

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        # An index past the legal ones raises here and changes nothing.
        self._legal = self.space.apply(self.game, int(action))
        self._cumulative_rewards[agent] = 0
        scores = self.game.scores
        gains = [now - before for now, before in zip(scores, self._scores)]
        if self.reward == "zero_sum" and len(gains) > 1:
            total = sum(gains)
            others = len(gains) - 1
            gains = [g - (total - g) / others for g in gains]
        for seat, name in enumerate(self.possible_agents):
            if name in self.rewards:
                self.rewards[name] = gains[seat]
        self._scores = list(scores)
        if self.game.is_over:
            for name in self.agents:
                self.terminations[name] = True
        else:
            self.agent_selection = self.possible_agents[self.game.active]
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; use 'ansi' or 'rgb_array'")
            return None
        if self.game is None:
            return None
        if self.render_mode == "rgb_array":
            height, width, pixels = self.game.render_rgb()
            return np.frombuffer(pixels, dtype=np.uint8).reshape(height, width, 3)
        return self.game.render_text()

    def close(self) -> None:
        pass


def raw_env(
    ruleset: Any = "hig",
    players: int = 2,
    render_mode: Optional[str] = None,
    reward: str = "score",
    max_actions: Optional[int] = None,
) -> CastellanEnv:
    """The unwrapped environment."""
    return CastellanEnv(ruleset, players, render_mode, reward, max_actions)


def env(
    ruleset: Any = "hig",
    players: int = 2,
    render_mode: Optional[str] = None,
    reward: str = "score",
    max_actions: Optional[int] = None,
) -> AECEnv:
    """The environment with PettingZoo's order and bounds checks."""
    e = raw_env(ruleset, players, render_mode, reward, max_actions)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
