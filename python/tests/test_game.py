"""The game API: records, decisions, legal actions, apply, events, copies, pictures."""

import copy
from pathlib import Path

import pytest

import castellan

RECORD = "tests/records/base/b-deploy.toml"


def test_a_record_replays_to_its_known_scores(root, monkeypatch):
    # tests/records/base/b-deploy.toml (RULES.md §1.4 B-F, §1.7 B-M3): final Red 7, Blue 4.
    # Its ruleset is a test fixture, which records may name from the repository's tree.
    monkeypatch.chdir(root)
    record = castellan.Record.load(root / RECORD)
    assert record.players == ["Red", "Blue"]
    game = record.replay()
    assert game.is_over
    assert game.scores == [7, 4]
    assert len(game.history) == len(record)
    texts = [e.text for e in game.events]
    assert any("Red" in t and "6" in t for t in texts)
    ended = [e.as_dict() for e in game.events if e.kind == "game_ended"]
    assert ended and ended[0]["scores"] == {"Red": 7, "Blue": 4}


def test_the_record_out_replays_to_the_same_game():
    game = castellan.Game("hig", ["Ann", "Bob"], seed=11)
    game.play_random(seed=3)
    again = castellan.Record.parse(game.record()).replay()
    assert again.scores == game.scores
    assert again.history == game.history
    assert [e.text for e in again.events] == [e.text for e in game.events]


def test_decision_and_legal_actions():
    game = castellan.Game("base", 2, seed=1)
    decision = game.decision
    assert decision["kind"] == "place" and decision["player"] == 0 and decision["tile"]
    actions = game.legal_actions()
    assert actions and all(a.kind == "place" for a in actions)
    assert game.num_legal() == len(actions)
    events = game.apply(actions[0])
    assert events[0].kind == "tile_placed"
    assert events[0].as_dict()["player"] == "P1"
    assert game.decision["kind"] == "deploy"
    assert any(a.kind == "pass" for a in game.legal_actions())


def test_an_illegal_action_raises_and_changes_nothing():
    game = castellan.Game("hig", 2, seed=5)
    place = game.legal_actions()[0]
    game.apply(place)
    before = (game.record(), game.scores, game.decision, game.legal_actions(), len(game.events))
    with pytest.raises(castellan.IllegalActionError) as err:
        game.apply(place)  # a placement answers no deploy decision
    assert "deploy" in str(err.value)
    assert (game.record(), game.scores, game.decision, game.legal_actions(), len(game.events)) == before
    with pytest.raises(castellan.IllegalActionError):
        game.apply_nth(10_000)
    assert game.record() == before[0]


def test_copies_are_independent():
    game = castellan.Game("hig", 2, seed=9)
    for other in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        other.play_random(seed=1)
        assert other.is_over
        assert not game.is_over and game.turn == 1 and game.history == []


def test_the_board_draws_as_svg_for_jupyter():
    game = castellan.Game("hig", 2, seed=2)
    game.play_random(seed=2, max_actions=20)
    svg = game.render_svg()
    assert "<svg xmlns=" in svg and svg.rstrip().endswith("</svg>")
    assert f"{game.tiles_left} left to draw" in svg
    assert game._repr_svg_() == svg
    assert "after twenty" in game.render_svg(caption="after twenty")
    assert game.render_text().strip()


def test_rulesets_and_tile_sets_load_bundled_and_from_paths(root):
    assert {"base", "hig", "count", "dungeon"} <= set(castellan.rulesets())
    hig = castellan.Ruleset.load("hig")
    assert hig.name == "hig" and hig.players[0] >= 2 and hig.tile_count > 70
    by_path = castellan.Ruleset.load(root / "rulesets" / "base.toml")
    assert by_path.name == "base"
    assert castellan.Ruleset.load("dungeon").scripted
    tiles = castellan.TileSet.load("base")
    assert len(tiles) == 24 and sum(t["count"] for t in tiles.tiles) == 72
    assert castellan.TileSet.load(root / "tiles" / "count.toml").name
    game = castellan.Game(hig, 3, seed=4)
    assert game.players == ["P1", "P2", "P3"] and game.ruleset == "hig"


def test_actions_compare_and_read_as_records():
    game = castellan.Game("base", 2, seed=1)
    a, b = game.legal_actions()[:2]
    assert a == game.legal_actions()[0] and a != b
    assert len({a, b, game.legal_actions()[0]}) == 2
    x, y, degrees = a.table["place"]
    assert degrees in (0, 90, 180, 270)
    assert f"({x},{y})" in a.words


def test_apply_nth_answers_with_the_next_decisions_count():
    game = castellan.Game("base", 2, seed=3)
    n, steps = game.num_legal(), 0
    while n:
        legal = game.legal_actions()
        n = game.apply_nth(steps % n)
        assert game.history[-1] == legal[steps % len(legal)]
        assert n == game.num_legal()
        steps += 1
    assert game.is_over and len(game.history) == steps


def test_apply_nth_stays_right_when_mixed_with_the_other_ways_to_play():
    # `apply_nth` keeps the count of the pending decision between calls: whatever changes the
    # game in between (an Action object, random bots, a refused action) or copies it, the
    # count and the n-th action stay those of the legal list. hig's deployments list the
    # fairy's moves and may be passed; count's decisions include the Count's.
    for ruleset in ("hig", "count", "dungeon"):
        game = castellan.Game(ruleset, 2, seed=7)
        n, step = game.num_legal(), 0
        while n:
            legal = game.legal_actions()
            assert n == len(legal) == game.num_legal()
            if step % 4 == 1:
                game.apply(legal[-1])
                n = game.num_legal()
            elif step % 4 == 2:
                twin = game.copy()
                assert twin.num_legal() == n
                k = (7 * step) % n
                assert twin.apply_nth(k) == game.apply_nth(k)
                assert twin.history == game.history and twin.history[-1] == legal[k]
                n = game.num_legal()
            elif step % 4 == 3 and step < 60:
                game.play_random(seed=step, max_actions=1)
                n = game.num_legal()
            else:
                n = game.apply_nth(n - 1)
                assert game.history[-1] == legal[-1]
            step += 1
        assert game.is_over and game.legal_actions() == [] and game.num_legal() == 0


def test_apply_nth_past_the_end_raises_and_changes_nothing():
    game = castellan.Game("hig", 2, seed=5)
    game.apply_nth(0)  # a placement: the deployment that follows lists the fairy's moves
    n, record, events = game.num_legal(), game.record(), len(game.events)
    legal = game.legal_actions()
    with pytest.raises(castellan.IllegalActionError, match=f"there are {n} legal actions, no action {n}"):
        game.apply_nth(n)
    assert (game.record(), len(game.events), game.num_legal()) == (record, events, n)
    with pytest.raises(castellan.IllegalActionError):
        game.apply(castellan.Action.from_table({"dragon": [0, 0]}))
    assert game.num_legal() == n
    game.apply_nth(n - 1)
    assert game.history[-1] == legal[-1]
    game.play_random(seed=1)
    with pytest.raises(castellan.IllegalActionError, match="there are 0 legal actions, no action 0"):
        game.apply_nth(0)


@pytest.mark.parametrize("ruleset", ["hig", "dungeon"])  # dungeon: scripted, replayed too
def test_the_event_log_is_whole_however_the_game_was_played(ruleset):
    # apply_nth, apply and play_random keep no log until `events` is read; reading it replays
    # the history (here at action 20, and after five applied actions), and from then on every
    # action's events are logged as they come. The log always equals the replayed record's,
    # whichever way each action was played, and ends with the events `apply` returned.
    game = castellan.Game(ruleset, 2, seed=11)
    n = game.num_legal()
    for step in range(60):
        if step % 3 == 0:
            returned = [e.text for e in game.apply(game.legal_actions()[step % n])]
            if step > 20:  # the log is kept by now
                assert [e.text for e in game.events][len(game.events) - len(returned) :] == returned
            n = game.num_legal()
        else:
            n = game.apply_nth(step % n)
        if step % 20 == 19:
            again = castellan.Record.parse(game.record()).replay()
            assert [e.text for e in game.events] == [e.text for e in again.events]
    fresh = castellan.Game(ruleset, 2, seed=11)
    for action in game.history[:5]:
        fresh.apply(action)
    replayed = castellan.Record.parse(fresh.record()).replay()
    assert [e.text for e in fresh.events] == [e.text for e in replayed.events]
    fresh.play_random(seed=2)
    replayed = castellan.Record.parse(fresh.record()).replay()
    assert [e.as_dict() for e in fresh.events] == [e.as_dict() for e in replayed.events]
    assert fresh.events[-1].kind == "game_ended"


def test_actions_read_from_their_record_tables():
    game = castellan.Game("hig", 2, seed=6)
    for _ in range(40):
        for action in game.legal_actions():
            assert castellan.Action.from_table(action.table) == action
        game.apply_nth(0)
    assert castellan.Action.from_table({"pass": True}).kind == "pass"
    with pytest.raises(castellan.CastellanError, match="takes 3 values"):
        castellan.Action.from_table({"place": [0, 1]})
    with pytest.raises(castellan.CastellanError, match="unknown key"):
        castellan.Action.from_table({"jump": 1})


def future_draws(game, actions=40):
    """The tiles drawn over the next `actions` actions, each played as the first legal one."""
    drawn = []
    for _ in range(actions):
        if game.is_over:
            break
        decision = game.decision
        if decision["kind"] == "place":
            drawn.append(decision["tile"])
        game.apply_nth(0)
    return drawn


def test_a_determinized_copy_keeps_what_is_public_and_reshuffles_the_bag():
    game = castellan.Game("hig", 2, seed=3)
    for _ in range(20):
        game.apply_nth(0)
    copies = [game.determinize(s) for s in (1, 2)] + [game.copy(hide=True, seed=1)]
    for c in copies:
        # What the players see now is the same: the legal actions, scores, tiles left.
        assert c.legal_actions() == game.legal_actions()
        assert (c.scores, c.tiles_left, c.decision) == (game.scores, game.tiles_left, game.decision)
    original = future_draws(game.copy())
    first, second, again = (future_draws(c) for c in copies)
    assert first != original and second != original and first != second
    assert again == first  # the same seed reshuffles the same way
    assert first and game.copy().history == game.history
    with pytest.raises(castellan.CastellanError, match="determinized"):
        copies[0].record()


def test_bots_give_a_legal_move_for_any_state_deterministic_with_a_seed():
    game = castellan.Game("hig", 2, seed=5)
    for _ in range(30):
        game.apply_nth(game.num_legal() - 1)
    before = game.history
    for bot in ("random", "greedy", "mcts:30"):
        move = castellan.bot_move(game, bot, seed=7)
        assert move in game.legal_actions()
        assert castellan.bot_move(game, bot, seed=7) == move
    assert game.history == before  # asking changes nothing
    picks = {castellan.bot_move(game, "random", seed=s) for s in range(8)}
    assert len(picks) > 1
    with pytest.raises(ValueError, match="unknown bot"):
        castellan.bot_move(game, "clever")
    over = castellan.Game("base", 2, seed=1)
    over.play_random(1)
    with pytest.raises(castellan.CastellanError, match="over"):
        castellan.bot_move(over, "random")


def test_rulesets_are_loaded_once_per_name_and_again_when_the_file_changes(tmp_path):
    assert castellan.Ruleset.load("hig") is castellan.Ruleset.load("hig")
    assert castellan.Game("hig").ruleset == "hig"
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\ndescription = "first"\nextends = "base"\n')
    first = castellan.Ruleset.load(str(path))
    assert castellan.Ruleset.load(str(path)) is first
    path.write_text('name = "mine"\ndescription = "second"\nextends = "base"\n')
    second = castellan.Ruleset.load(str(path))
    assert second is not first and second.description == "second"


def test_the_extension_library_is_under_20_mb():
    # docs/python.md, Install: stripped and without the `serve` feature, 10.7 MB; with its
    # symbols and line tables it was 63 to 67 MB.
    assert Path(castellan._castellan.__file__).stat().st_size < 20_000_000
