"""The vectorised environment (castellan.vector.VectorEnv): its mask and observation equal
the engine's legal list and the single environment's observation for every game of the
batch; action indices round-trip through the engine's actions; a batch seeded ``s`` plays the
games of ``Game(ruleset, players, seed=s + i)`` and, sampling, those of ``castellan simulate
--seed s``; rewards add up to the final scores, or to zero at every step with ``zero_sum``;
an illegal index raises and plays nothing."""

import random

import numpy as np
import pytest

import castellan
from castellan.vector import VectorEnv


def floats(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=np.float32)


@pytest.mark.parametrize("ruleset,players", [("hig", 2), ("count", 3), ("dungeon-full", 2)])
def test_mask_and_observation_are_the_engines(ruleset, players):
    v = VectorEnv(ruleset, num_envs=4, players=players)
    space = castellan.ActionSpace(ruleset, players)
    obs, _ = v.reset(seed=11)
    rng = random.Random(3)
    for step in range(120):
        for i in range(v.num_envs):
            g = v.game(i)
            n = len(g.legal_actions())
            assert obs["num_legal"][i] == n
            assert obs["action_mask"][i, :n].all() and not obs["action_mask"][i, n:].any()
            assert obs["player"][i] == g.active
            tiles, vector, actions, m = space.observe(g, g.active)
            assert m == n
            assert np.array_equal(obs["tiles"][i].ravel(), floats(tiles))
            assert np.array_equal(obs["vector"][i], floats(vector))
            assert np.array_equal(obs["actions"][i].ravel(), floats(actions))
        picks = np.array([rng.randrange(n) for n in obs["num_legal"]])
        obs, *_ = v.step(picks)


def test_an_index_round_trips_through_the_engines_action():
    v = VectorEnv("hig-full", num_envs=3, observations=False)
    space = castellan.ActionSpace("hig-full", 2)
    obs, _ = v.reset(seed=5)
    rng = random.Random(8)
    for step in range(150):
        games, picks = [], []
        for i in range(v.num_envs):
            g = v.game(i)
            k = rng.randrange(int(obs["num_legal"][i]))
            action = space.action_at(g, k)
            assert action == g.legal_actions()[k]
            assert space.index_of(g, action) == k
            g.apply(action)
            games.append(g)
            picks.append(k)
        obs, _, terminated, _, _ = v.step(np.array(picks))
        for i, g in enumerate(games):
            if not terminated[i]:
                assert v.game(i).history == g.history
                assert list(obs["num_legal"])[i] == len(g.legal_actions())


def test_a_batch_plays_the_single_games_of_its_seeds():
    v = VectorEnv("hig", num_envs=3, observations=False)
    obs, info = v.reset(seed=40)
    assert list(info["seeds"]) == [40, 41, 42]
    singles = [castellan.Game("hig", 2, seed=40 + i) for i in range(3)]
    finals = [None] * 3
    rng = random.Random(1)
    while any(f is None for f in finals):
        picks = np.array([rng.randrange(n) for n in obs["num_legal"]])
        for i, g in enumerate(singles):
            if finals[i] is None:
                g.apply_nth(int(picks[i]))
        obs, _, terminated, _, info = v.step(picks)
        for i in np.flatnonzero(terminated):
            if finals[i] is None:
                finals[i] = list(info["final_scores"][i])
                assert singles[i].is_over
                # The slot goes on with its next game: seed 40 + i + 3.
                assert info["seeds"][i] == 43 + i
    assert finals == [g.scores for g in singles]


def test_random_play_in_a_batch_is_castellan_simulate():
    games = 8
    v = VectorEnv("hig", num_envs=4, observations=False)
    v.reset(seed=100)
    finals = {}
    while len(finals) < games:
        _, _, terminated, _, info = v.step(v.sample())
        for i in np.flatnonzero(terminated):
            # The slot's seed was advanced to its next game: the one that ended is 4 before.
            seed = int(info["seeds"][i]) - 4
            finals.setdefault(seed, list(info["final_scores"][i]))
    # `castellan simulate --seed 100 --games 8 --json`: the same mean scores and wins.
    stats = castellan.simulate_stats("hig", games=games, seed=100, threads=1)
    scores = np.array([finals[s] for s in range(100, 100 + games)], dtype=float)
    assert list(scores.mean(axis=0)) == stats["mean_scores"]
    assert [int((scores[:, s] > scores[:, 1 - s]).sum()) for s in (0, 1)] == stats["wins"]


@pytest.mark.parametrize("players", [2, 3])
def test_rewards_add_up_to_the_scores_or_to_zero(players):
    score = VectorEnv("hig", num_envs=2, players=players, observations=False)
    zero = VectorEnv("hig", num_envs=2, players=players, reward="zero_sum", observations=False)
    score.reset(seed=9)
    zero.reset(seed=9)
    totals = np.zeros((2, players))
    zero_totals = np.zeros((2, players))
    finished = [False, False]
    while not all(finished):
        actions = score.sample().copy()
        _, r, terminated, _, info = score.step(actions)
        _, rz, _, _, zinfo = zero.step(actions)
        assert np.allclose(rz.sum(axis=1), 0.0, atol=1e-4)
        for i in range(2):
            if finished[i]:
                continue
            totals[i] += r[i]
            zero_totals[i] += rz[i]
            if terminated[i]:
                finished[i] = True
                final = info["final_scores"][i].astype(float)
                assert np.array_equal(totals[i], final)
                others = (final.sum() - final) / (players - 1)
                assert np.allclose(zero_totals[i], final - others, atol=1e-3)


def test_an_illegal_index_raises_and_plays_nothing():
    v = VectorEnv("hig", num_envs=3, observations=False)
    obs, _ = v.reset(seed=2)
    before = [v.game(i).history for i in range(3)]
    picks = np.zeros(3, dtype=np.int64)
    picks[1] = obs["num_legal"][1]
    with pytest.raises(castellan.IllegalActionError, match="game 1 of the batch"):
        v.step(picks)
    assert [v.game(i).history for i in range(3)] == before
    with pytest.raises(castellan.IllegalActionError):
        v.step(np.array([0, -1, 0]))
    assert [v.game(i).history for i in range(3)] == before
