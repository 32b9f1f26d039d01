"""The PettingZoo environment: PettingZoo's own API test, and the action space covers every
decision of every shipped ruleset with a mask of exactly the legal actions."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

import castellan
from castellan.env import env, raw_env


@pytest.mark.parametrize("ruleset", ["base", "hig", "count", "dungeon"])
def test_pettingzoo_api_test(ruleset):
    api_test(env(ruleset), num_cycles=300, verbose_progress=False)


def test_pettingzoo_api_test_with_three_players():
    api_test(env("hig", players=3), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("ruleset", castellan.rulesets())
def test_every_legal_action_has_its_own_index(ruleset):
    rules = castellan.Ruleset.load(ruleset)
    players = max(2, rules.players[0])
    space = castellan.ActionSpace(rules, players)
    rng = random.Random(ruleset)
    kinds = set()
    for seed in range(2):
        game = castellan.Game(rules, players, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            indices = space.legal_indices(game)
            assert len(indices) == len(legal) == len(set(indices))
            assert all(0 <= i < space.size for i in indices)
            pick = rng.randrange(len(legal))
            assert space.action_at(game, indices[pick]) == legal[pick]
            assert space.index_of(game, legal[pick]) == indices[pick]
            kinds.update(a.kind for a in legal)
            space.apply(game, indices[pick])
    assert "place" in kinds


def test_the_mask_marks_exactly_the_legal_actions_and_rewards_are_scores():
    e = raw_env("hig", 2)
    e.reset(seed=8)
    totals = {a: 0 for a in e.possible_agents}
    rng = np.random.default_rng(0)
    while not e.game.is_over:
        agent = e.agent_selection
        obs = e.observe(agent)
        mask = obs["action_mask"]
        legal = set(e.space.legal_indices(e.game))
        assert set(np.flatnonzero(mask)) == legal
        other = [a for a in e.possible_agents if a != agent][0]
        assert e.observe(other)["action_mask"].sum() == 0
        e.step(int(rng.choice(sorted(legal))))
        for a in e.possible_agents:
            totals[a] += e.rewards[a]
    assert [totals[a] for a in e.possible_agents] == e.game.scores


def test_an_illegal_index_raises_and_changes_nothing():
    e = raw_env("base", 2)
    e.reset(seed=1)
    before = e.game.record()
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(castellan.IllegalActionError):
        e.step(illegal)
    assert e.game.record() == before


def test_the_observation_shows_the_board_not_the_bag():
    # Two games that differ only in the order of the bag look the same before the first draw
    # is known: the same board, scores, supplies and tiles left; only the drawn tile differs.
    first, second = raw_env("base", 2), raw_env("base", 2)
    first.reset(seed=3)
    second.reset(seed=4)
    a, b = first.observe("player_0"), second.observe("player_0")
    assert a["observation"][0].sum() == 1  # the start tile alone
    assert a["observation"].shape == first.space.board_shape
    assert np.array_equal(a["observation"], b["observation"])
    drawn = slice(5 + 2, 5 + 2 + 5)  # after the decision kind and the acting seat
    rest = np.ones(first.space.vector_size, dtype=bool)
    rest[drawn] = False
    assert np.array_equal(a["vector"][rest], b["vector"][rest])
    assert a["vector"][drawn].any()


def test_seats_are_counted_from_the_observer():
    e = raw_env("hig", 3)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    while len(set(e.game.scores)) < 3 and not e.game.is_over:
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    scores = e.game.scores
    assert len(set(scores)) == 3  # three different scores tell the seats apart
    size = e.space.vector_size
    for seat, agent in enumerate(e.possible_agents):
        vector = e.observe(agent)["vector"]
        at = 5 + 3 + 5 + 2  # the scores, seats counted from the observer
        assert list(vector[at : at + 3]) == [scores[(seat + k) % 3] for k in range(3)]
        assert vector.shape == (size,)
