"""The PettingZoo environment: PettingZoo's own API test for every shipped ruleset; the
legal-index action space (every legal action has one index and back, the mask holds exactly
the legal ones, the `actions` table tells the actions apart); the observation against the
game's own state; zero-sum rewards; rendering."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

import castellan
from castellan.env import env, raw_env

SPOTS = ["N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR", "C", "I"]


def seats(ruleset: str) -> int:
    return max(2, castellan.Ruleset.load(ruleset).players[0])


@pytest.mark.parametrize("ruleset", castellan.rulesets())
def test_pettingzoo_api_test(ruleset):
    api_test(env(ruleset, seats(ruleset)), num_cycles=300, verbose_progress=False)


def test_pettingzoo_api_test_with_three_players_and_zero_sum_rewards():
    api_test(env("hig", players=3, reward="zero_sum"), num_cycles=200, verbose_progress=False)


def column(space, table: str, name: str) -> int:
    return space.layout()[table].index(name)


@pytest.mark.parametrize("ruleset", ["hig", "hig-full", "count", "dungeon"])
def test_every_legal_action_has_one_index_and_back(ruleset):
    players = seats(ruleset)
    space = castellan.ActionSpace(ruleset, players)
    names = space.layout()["action_columns"]
    x, y, rot, spot = (names.index(c) for c in ("x", "y", "rotation", "spot"))
    rng = random.Random(ruleset)
    kinds = set()
    for seed in range(3):
        game = castellan.Game(ruleset, players, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            indices = space.legal_indices(game)
            assert indices == list(range(len(legal))) and len(legal) <= space.size
            for i, action in enumerate(legal):
                assert space.action_at(game, i) == action
                assert space.index_of(game, action) == i
            table = np.frombuffer(space.describe(game), np.float32).reshape(space.actions_shape)
            rows = {tuple(r) for r in table[: len(legal)]}
            assert len(rows) == len(legal), "two legal actions look the same in the table"
            assert not table[len(legal) :].any()
            tiles, vector, actions, n = space.observe(game, game.active)
            assert n == len(legal) and actions == space.describe(game)
            for action, row in zip(legal, table):
                t = action.table
                if action.kind == "place":
                    assert (row[x], row[y], row[rot] * 90) == tuple(t["place"])
                elif action.kind == "deploy":
                    assert (row[x], row[y]) == tuple(t["deploy"][:2])
                    assert SPOTS[int(row[spot]) - 1] == t["deploy"][2]
            kinds.update(a.kind for a in legal)
            pick = rng.randrange(len(legal))
            space.apply(game, pick)
            assert game.history[-1] == legal[pick]
        with pytest.raises(castellan.IllegalActionError):
            space.action_at(game, 0)
    assert {"place", "deploy"} <= kinds


def test_the_mask_marks_exactly_the_legal_actions_and_rewards_are_scores():
    e = raw_env("hig", 2)
    e.reset(seed=8)
    totals = {a: 0 for a in e.possible_agents}
    rng = np.random.default_rng(0)
    while not e.game.is_over:
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        assert list(np.flatnonzero(mask)) == list(range(len(e.game.legal_actions())))
        other = [a for a in e.possible_agents if a != agent][0]
        assert e.observe(other)["action_mask"].sum() == 0
        assert not e.observe(other)["actions"].any()
        e.step(int(rng.choice(np.flatnonzero(mask))))
        for a in e.possible_agents:
            totals[a] += e.rewards[a]
    assert [totals[a] for a in e.possible_agents] == e.game.scores


def test_zero_sum_rewards_add_up_to_zero_and_to_the_margin_over_the_others():
    e = raw_env("hig", 3, reward="zero_sum")
    e.reset(seed=2)
    totals = {a: 0.0 for a in e.possible_agents}
    rng = np.random.default_rng(1)
    while not e.game.is_over:
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
        assert sum(e.rewards.values()) == pytest.approx(0.0)
        for a in e.possible_agents:
            totals[a] += e.rewards[a]
    scores = e.game.scores
    assert sum(scores) > 0
    for seat, a in enumerate(e.possible_agents):
        others = [s for k, s in enumerate(scores) if k != seat]
        assert totals[a] == pytest.approx(scores[seat] - sum(others) / 2)
    with pytest.raises(ValueError):
        raw_env("hig", 2, reward="win")


def test_an_illegal_index_raises_and_changes_nothing():
    e = raw_env("base", 2)
    e.reset(seed=1)
    before = e.game.record()
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(castellan.IllegalActionError):
        e.step(illegal)
    assert e.game.record() == before


def test_the_observation_shows_the_board_not_the_bag():
    # Two games that differ only in the order of the bag look the same but for the drawn
    # tile: the same start tile, scores, supplies, tiles to come (the drawn one counted).
    first, second = raw_env("base", 2), raw_env("base", 2)
    first.reset(seed=3)
    second.reset(seed=4)
    a, b = first.observe("player_0"), second.observe("player_0")
    assert a["tiles"][:, 0].sum() == 1  # the start tile alone
    assert np.array_equal(a["tiles"], b["tiles"])
    names = first.space.layout()["vector"]
    drawn = np.array([n.startswith("drawn_") for n in names])
    assert np.array_equal(a["vector"][~drawn], b["vector"][~drawn])
    assert a["vector"][drawn].any()
    to_come = np.array([n.startswith("to_come_") for n in names])
    # RULES.md §1 (base game): 72 tiles, the start tile on the table, the rest to come.
    assert a["vector"][to_come].sum() == 71


def test_the_tiles_table_holds_each_tile_and_figure_where_the_game_says():
    e = raw_env("hig", 2)
    e.reset(seed=11)
    space, game = e.space, e.game
    rng = random.Random(4)
    for _ in range(60):
        space.apply(game, rng.randrange(game.num_legal()))
    lay = space.layout()
    columns = lay["tile_columns"]
    tiles = e.observe("player_1")["tiles"]
    laid = tiles[tiles[:, 0] == 1]
    placed = [e for e in game.events if e.kind in ("start_tile", "tile_placed")]
    assert len(laid) == len(placed)
    for row, event in zip(laid, placed):
        d = event.as_dict()
        assert (row[1], row[2]) == (d["x"], d["y"])
        assert lay["tile_types"][int(row[3]) - 1] == d["tile"]
    figures = game.state()["figures"]
    assert figures, "after 60 actions some figure stands on the board"
    seen = 0
    for f in figures:
        at = np.flatnonzero((laid[:, 1] == f["x"]) & (laid[:, 2] == f["y"]))[0]
        # player_1 observes: its own seat is 0, the other 1.
        seat = 0 if f["player"] == "player_1" else 1
        bits = int(laid[at, columns.index(f"seat{seat}_{f['kind']}")])
        assert bits & (1 << SPOTS.index(f["spot"]))
        seen += 1
    total = sum(bin(int(v)).count("1") for v in laid[:, 32:].ravel())
    assert total == seen == len(figures)


def test_rgb_array_is_the_png_renderer_picture_and_human_is_refused():
    e = raw_env("base", 2, render_mode="rgb_array")
    e.reset(seed=1)
    picture = e.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert picture.shape[0] > 100 and picture.shape[1] > 100
    assert picture.min() < 100 < picture.max()  # a drawing, not a blank page
    e.step(0)
    assert e.render().shape != picture.shape or not np.array_equal(e.render(), picture)
    with pytest.raises(ValueError, match="human"):
        raw_env("base", 2, render_mode="human")


def test_a_bigger_decision_than_the_bound_is_an_error_not_a_cut():
    space = castellan.ActionSpace("base", 2, max_actions=2)
    game = castellan.Game("base", 2, seed=0)
    assert game.num_legal() > 2
    with pytest.raises(castellan.CastellanError, match="bound of 2"):
        space.legal_indices(game)


def test_seats_are_counted_from_the_observer():
    e = raw_env("hig", 3)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    while len(set(e.game.scores)) < 3 and not e.game.is_over:
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    scores = e.game.scores
    assert len(set(scores)) == 3  # three different scores tell the seats apart
    names = e.space.layout()["vector"]
    at = names.index("score_seat0")
    for seat, agent in enumerate(e.possible_agents):
        vector = e.observe(agent)["vector"]
        assert list(vector[at : at + 3]) == [scores[(seat + k) % 3] for k in range(3)]


def test_a_determinized_copy_looks_the_same_to_every_seat():
    # The observation holds nothing of the bag's order: a copy whose hidden tiles are
    # reshuffled is observed exactly as the original, mid-game, by every seat.
    space = castellan.ActionSpace("hig", 2)
    game = castellan.Game("hig", 2, seed=21)
    rng = random.Random(21)
    for _ in range(80):
        space.apply(game, rng.randrange(game.num_legal()))
    for seed in (1, 2):
        copy = game.determinize(seed)
        for seat in (0, 1):
            assert space.observe(copy, seat) == space.observe(game, seat)
