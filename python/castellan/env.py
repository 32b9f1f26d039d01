"""A multi-agent environment for any castellan ruleset, following PettingZoo's AEC API.

``env(ruleset="hig", players=2)`` makes one. Agents are ``player_0`` ... in seat order; the
agent to act is the seat of the game's pending decision (the same agent may act several times
in a row: place, then deploy, then a dragon step ...).

- Actions: ``Discrete(space.size)``, a fixed layout per ruleset and number of players (see
  docs/python.md): pass, script offers, mechanic actions without a position, and per cell of
  the board window the placements x rotations, deployments (spot x figure) and positional
  mechanic actions (dragon steps, fairy moves, ...). The observation's ``action_mask`` marks
  exactly the legal actions of the acting agent (all zero for the others).
- Observation: a dict of ``observation`` (board planes, float32, shape (planes, side, side):
  tile present, edge kinds N E S W, each player's figures counted from the observer, dragon,
  fairy), ``vector`` (decision kind, acting seat, the drawn tile, tiles left, turn, scores,
  supplies; seats counted from the observer) and ``action_mask`` (int8). Everything in it is
  public in the game; the order of the bag is not in it.
- Rewards: each step, every player's change of score (so an episode's rewards add up to the
  final scores). The episode ends (terminations) when the game is over.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._castellan import ActionSpace, Game, Ruleset

__all__ = ["CastellanEnv", "env", "raw_env"]


class CastellanEnv(AECEnv):
    """The AEC environment (unwrapped); :func:`env` adds PettingZoo's usual wrappers."""

    metadata = {"name": "castellan_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: Any = "hig", players: int = 2, render_mode: Optional[str] = None):
        super().__init__()
        self.rules = ruleset if isinstance(ruleset, Ruleset) else Ruleset.load(ruleset)
        self.space = ActionSpace(self.rules, players)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.space.size
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, self.space.board_shape, np.float32),
                "vector": spaces.Box(0.0, np.inf, (self.space.vector_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self._observation_spaces = {a: observation for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.game: Optional[Game] = None

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
        self.agent_selection = self.possible_agents[self.game.active]

    def action_mask(self, agent: str) -> np.ndarray:
        """The legal actions of ``agent`` now (int8, 1 = legal)."""
        mask = np.zeros(self.space.size, dtype=np.int8)
        if self.game is not None and not self.game.is_over and agent == self.agent_selection:
            mask[self.space.legal_indices(self.game)] = 1
        return mask

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        assert self.game is not None, "reset() the environment first"
        board, vector = self.space.observe(self.game, self.agent_name_mapping[agent])
        return {
            "observation": np.frombuffer(board, dtype=np.float32).reshape(self.space.board_shape),
            "vector": np.frombuffer(vector, dtype=np.float32),
            "action_mask": self.action_mask(agent),
        }

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        # An illegal index raises here and changes nothing.
        self.space.apply(self.game, int(action))
        self._cumulative_rewards[agent] = 0
        scores = self.game.scores
        for seat, name in enumerate(self.possible_agents):
            if name in self.rewards:
                self.rewards[name] = scores[seat] - self._scores[seat]
        self._scores = list(scores)
        if self.game.is_over:
            for name in self.agents:
                self.terminations[name] = True
        else:
            self.agent_selection = self.possible_agents[self.game.active]
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; use env(render_mode='ansi')")
            return None
        return None if self.game is None else self.game.render_text()

    def close(self) -> None:
        pass


def raw_env(ruleset: Any = "hig", players: int = 2, render_mode: Optional[str] = None) -> CastellanEnv:
    """The unwrapped environment."""
    return CastellanEnv(ruleset, players, render_mode)


def env(ruleset: Any = "hig", players: int = 2, render_mode: Optional[str] = None) -> AECEnv:
    """The environment with PettingZoo's order and bounds checks."""
    e = raw_env(ruleset, players, render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
