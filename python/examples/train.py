"""Policy-gradient training against the random bot, in numpy alone (a few minutes on a laptop).

    python python/examples/train.py [--iterations 250] [--games 8] [--out curve.png]

The agent plays seat 0 of two-player `hig` games in the PettingZoo environment
(`castellan.env.raw_env`, zero-sum rewards); seat 1 plays uniformly random legal actions, as
the CLI's random bot does. The policy is a softmax over the legal actions of a linear score
of each action's features, read from the observation's `actions` table (what kind of action,
which kind of feature a figure goes on) and from a one-step look-ahead for the decisions
after the tile is laid (the points the action scores at once, for the agent and for the
opponent, on a determinized copy of the game: the copy does not know the bag's order). With
all weights zero the policy is the random bot itself, so the curve starts at the random
bot's level. Training is REINFORCE with a running baseline: after each batch of games, every
decision's log-probability gradient is weighted by that game's final margin (the agent's
score minus the opponent's) minus the baseline.

The learning curve (the margin per batch, and its moving average) is written as a PNG when
matplotlib is installed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Run from a clone, the source folder python/castellan would hide the installed package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() not in (HERE, HERE.parent)]

import numpy as np  # noqa: E402

from castellan.env import raw_env  # noqa: E402

KINDS = ("pass", "place", "deploy", "mechanic", "script")
# A deployment's feature, from the spot and the tile: road, city, field, cloister/centre.
FEATURES = ("road", "city", "field", "centre")
SPOTS = 14


class Features:
    """Turns an observation into one row of features per legal action."""

    def __init__(self, env):
        lay = env.space.layout()
        self.col = {name: i for i, name in enumerate(lay["action_columns"])}
        self.tile_col = {name: i for i, name in enumerate(lay["tile_columns"])}
        self.vec = {name: i for i, name in enumerate(lay["vector"])}
        self.size = len(KINDS) + len(FEATURES) + 4
        # The agent's (seat 0 as it observes) followers in supply.
        self.supply = self.vec[f"supply_seat0_{lay['figures'][0]}"]

    def deploy_feature(self, tiles, x, y, spot):
        """Which kind of feature the spot of the tile at (x, y) is."""
        if spot >= 12:
            return 3
        if spot >= 4:
            return 2
        row = tiles[(tiles[:, 1] == x) & (tiles[:, 2] == y) & (tiles[:, 0] == 1)]
        edge = int(row[0, self.tile_col["edge_" + "NESW"[spot]]]) if len(row) else 0
        return {2: 0, 3: 1}.get(edge, 2)

    def __call__(self, env, obs, seat):
        n = int(obs["action_mask"].sum())
        rows = obs["actions"][:n]
        tiles = obs["tiles"]
        out = np.zeros((n, self.size), np.float32)
        out[:, : len(KINDS)] = rows[:, : len(KINDS)]
        at = len(KINDS)
        for i in np.flatnonzero(rows[:, self.col["deploy"]]):
            spot = int(rows[i, self.col["spot"]]) - 1
            x, y = rows[i, self.col["x"]], rows[i, self.col["y"]]
            out[i, at + self.deploy_feature(tiles, x, y, spot)] = 1.0
        at += len(FEATURES)
        placing = obs["vector"][self.vec["decision_place"]] == 1
        if placing:
            # How many of the 8 cells around each placement hold tiles.
            laid = tiles[tiles[:, 0] == 1][:, 1:3]
            for i in range(n):
                d = np.abs(laid - rows[i, [self.col["x"], self.col["y"]]])
                out[i, at] = np.sum(d.max(axis=1) == 1) / 8.0
        else:
            # Points scored at once, on a determinized copy: the agent's and the opponent's.
            before = env.game.scores
            for i in range(n):
                copy = env.game.determinize(i)
                env.space.apply(copy, i)
                after = copy.scores
                out[i, at + 1] = (after[seat] - before[seat]) / 10.0
                out[i, at + 2] = (after[1 - seat] - before[1 - seat]) / 10.0
        out[:, at + 3] = rows[:, self.col["deploy"]] * obs["vector"][self.supply] / 7.0
        return out


def play(env, feats, theta, rng, seed, learn=True):
    """One game; returns the agent's margin and the sum of its decisions' score gradients."""
    env.reset(seed=seed)
    grad = np.zeros_like(theta)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if agent == "player_1":
            env.step(int(rng.integers(int(obs["action_mask"].sum()))))
            continue
        phi = feats(env, obs, 0)
        logits = phi @ theta
        p = np.exp(logits - logits.max())
        p /= p.sum()
        a = int(rng.choice(len(p), p=p))
        if learn:
            grad += phi[a] - p @ phi
        env.step(a)
    scores = env.game.scores
    return scores[0] - scores[1], grad


def train(iterations=250, games=8, lr=0.02, seed=0, log=print):
    """Trains; returns the weights and the mean margin of each batch."""
    env = raw_env("hig", 2, reward="zero_sum")
    feats = Features(env)
    theta = np.zeros(feats.size)
    rng = np.random.default_rng(seed)
    baseline, curve = 0.0, []
    started = time.process_time()
    for it in range(iterations):
        results = [play(env, feats, theta, rng, seed * 1_000_003 + it * games + g) for g in range(games)]
        margins = np.array([m for m, _ in results], dtype=float)
        for m, grad in results:
            theta += lr * (m - baseline) / 10.0 * grad / games
        baseline = 0.9 * baseline + 0.1 * margins.mean() if it else margins.mean()
        curve.append(margins.mean())
        if log and (it % 10 == 0 or it == iterations - 1):
            recent = np.mean(curve[-20:])
            log(f"iteration {it:4}: margin {margins.mean():+7.1f} (last 20: {recent:+6.1f}), "
                f"{time.process_time() - started:6.0f} CPU s")
    return theta, curve, feats


def plot(curve, out, games):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = np.asarray(curve)
    window = max(1, min(20, len(curve) // 5))
    smooth = np.convolve(curve, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(curve, color="#bbb", lw=0.8, label=f"mean margin of a batch ({games} games)")
    ax.plot(np.arange(window - 1, len(curve)), smooth, color="#c33", lw=2,
            label=f"moving average ({window} batches)")
    ax.axhline(curve[: max(1, window)].mean(), color="#555", ls="--", lw=1,
               label="start: the random bot's policy")
    ax.set_xlabel("training batch")
    ax.set_ylabel("agent's score − random bot's score")
    ax.set_title("REINFORCE (numpy) against the random bot, hig, 2 players")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=250)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="learning-curve.png")
    args = ap.parse_args()
    theta, curve, feats = train(args.iterations, args.games, args.lr, args.seed)
    names = [f"kind:{k}" for k in KINDS] + [f"on:{f}" for f in FEATURES] + [
        "neighbours", "my points", "their points", "deploy×supply"]
    print("weights:", ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, theta)))
    try:
        plot(curve, args.out, args.games)
        print("learning curve:", args.out)
    except ImportError:
        print("(pip install matplotlib to draw the learning curve)")


if __name__ == "__main__":
    main()
