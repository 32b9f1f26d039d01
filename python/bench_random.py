"""Random games per second: the CLI (`castellan simulate -r RULESET --threads 1`) against the
same games through Python, in CPU seconds (steadier than wall-clock on a busy machine; each
row is the best of three runs).

    python python/bench_random.py [RULESET] [GAMES] [ENV_GAMES]

Rows: the CLI; the documented loop of the vectorised environment (`castellan.vector.VectorEnv`,
64 games a call: `sample()`, `step(actions)`) until GAMES games ended, without observations
(masks, rewards, terminations) and, on ENV_GAMES games, with them (`tiles`, `vector`,
`actions` written every step); `castellan.simulate_stats` (the same batch, called from Python); a Python loop
that chooses every action as a user would (`random.randrange` over `num_legal`, `apply_nth`:
the choice is made in Python, so the loop pays for `randrange` and the interpreter as well as
for the engine); that loop's Python alone (as many `randrange` calls, each around a call into
the extension that does no new work, as random games make: what the loop would cost with an
engine that took no time); the same loop with Action objects
(`random.choice(game.legal_actions())`, `apply`); `castellan.simulate` (one DataFrame row per
game, the lab's tally of every event: compare with the CLI's `simulate --out`); and the
PettingZoo environment's documented loop (`agent_iter`, `last`, a random legal action from the
mask, `step`), wrapped as `castellan.env.env` makes it and bare (`raw_env`), on ENV_GAMES
games (default GAMES / 20: it is the slowest), and that loop on an environment that does no
work (PettingZoo's and Gymnasium's share: the loop's floor).
"""

import random
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# `python python/bench_random.py` puts python/ first on the path, where the source folder
# castellan/ (without its compiled extension) would hide the installed package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import numpy as np  # noqa: E402
import pandas  # noqa: E402,F401  (imported up front: the import is not the games' time)

import castellan  # noqa: E402


REPEATS = 3


def cpu(run) -> float:
    """The fewest CPU seconds `run()` took in REPEATS runs."""

    def once() -> float:
        start = time.process_time()
        run()
        return time.process_time() - start

    return min(once() for _ in range(REPEATS))


def cli(*args: str) -> float:
    """The fewest CPU seconds the CLI took with `args` in REPEATS runs."""

    def once() -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([str(ROOT / "target" / "release" / "castellan"), *args], check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    return min(once() for _ in range(REPEATS))


def main() -> None:
    ruleset = sys.argv[1] if len(sys.argv) > 1 else "hig"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    env_games = int(sys.argv[3]) if len(sys.argv) > 3 else max(1, games // 20)
    rules = castellan.Ruleset.load(ruleset)
    rng = random.Random(0)

    def by_index():
        for seed in range(games):
            game = castellan.Game(rules, 2, seed)
            n = game.num_legal()
            while n:
                n = game.apply_nth(rng.randrange(n))

    # Python's share of that loop: as many calls of `randrange`, each around a call into the
    # extension that does nothing new (the count it answers is kept), as random games make.
    calls = sum(castellan.Game(rules, 2, seed).play_random(seed) for seed in range(games))

    def python_alone():
        game = castellan.Game(rules, 2, 0)
        for _ in range(calls):
            rng.randrange(game.num_legal())

    def by_object():
        for seed in range(games):
            game = castellan.Game(rules, 2, seed)
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))

    def env_loop(make):
        def run():
            e = make(rules, 2)
            for seed in range(env_games):
                e.reset(seed=seed)
                for agent in e.agent_iter():
                    obs, reward, termination, truncation, info = e.last()
                    if termination or truncation:
                        action = None
                    else:
                        action = e.action_space(agent).sample(obs["action_mask"])
                    e.step(action)

        return run

    from castellan.env import env, raw_env

    # The loop's floor: the same loop on an environment that does no work of its own (the
    # same spaces, a fixed observation, as many steps a game as the random games make).
    steps = calls // games

    def null_env(rules, players, wrapped=True):
        from pettingzoo.utils import wrappers

        class Null(raw_env(rules, players).__class__):
            def reset(self, seed=None, options=None):
                super().reset(seed=seed)
                self._fixed = super().observe(self.agent_selection)
                self._left = steps

            def observe(self, agent):
                return self._fixed

            def step(self, action):
                agent = self.agent_selection
                if self.terminations[agent]:
                    self._was_dead_step(action)
                    return
                self._left -= 1
                self._cumulative_rewards[agent] = 0
                if self._left == 0:
                    self.terminations = {a: True for a in self.agents}
                self._accumulate_rewards()

        e = Null(rules, players)
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(e)) if wrapped else e

    from castellan.vector import VectorEnv

    def vector_loop(wanted, observations, num_envs=64):
        def run():
            v = VectorEnv(rules, num_envs=num_envs, observations=observations)
            v.reset(seed=0)
            ended = 0
            while ended < wanted:
                _, rewards, terminations, _, _ = v.step(v.sample())
                ended += int(terminations.sum())

        return run

    rows = [
        ("CLI simulate --threads 1", cli("simulate", "-r", ruleset, "-g", str(games), "--threads", "1")),
        ("castellan.simulate_stats(threads=1)", cpu(lambda: castellan.simulate_stats(ruleset, games=games, threads=1))),
        ("Python loop: apply_nth", cpu(by_index)),
        ("  of which Python alone (randrange, a call)", cpu(python_alone)),
        ("Python loop: Action objects", cpu(by_object)),
        ("CLI simulate --out (lab rows)", cli("simulate", "-r", ruleset, "-g", str(games), "--threads", "1", "--out", "/dev/null")),
        ("castellan.simulate(threads=1) DataFrame", cpu(lambda: castellan.simulate(ruleset, games=games, threads=1))),
    ]
    rows = [(name, games, seconds) for name, seconds in rows]
    rows[1:1] = [
        ("VectorEnv(64): sample, step", games, cpu(vector_loop(games, False))),
        ("VectorEnv(16): sample, step", games, cpu(vector_loop(games, False, 16))),
        ("VectorEnv(64) with observations", env_games, cpu(vector_loop(env_games, True))),
    ]
    np.random.seed(0)
    rows += [
        ("env loop: env() (PettingZoo wrappers)", env_games, cpu(env_loop(env))),
        ("env loop: raw_env()", env_games, cpu(env_loop(raw_env))),
        ("  the same loop, an env doing nothing", env_games, cpu(env_loop(null_env))),
        ("  the same bare loop, an env doing nothing", env_games, cpu(env_loop(lambda r, p: null_env(r, p, False)))),
    ]
    base = games / rows[0][2]
    for name, played, seconds in rows:
        rate = played / seconds
        print(f"{name:42} {rate:8.0f} games per CPU second  ({base / rate:.2f}x the CLI's time)")


if __name__ == "__main__":
    main()
