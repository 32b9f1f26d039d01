"""The README's notebook example runs as written."""

import re

import castellan


def test_the_readme_python_example_runs(root, capsys):
    text = (root / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has a Python example"
    example = blocks[0]
    assert 'castellan.Game("hig"' in example and "castellan.compare(" in example
    namespace = {}
    exec(compile(example, "README.md", "exec"), namespace)
    game, rows = namespace["game"], namespace["rows"]
    assert game.is_over and sum(game.scores) > 0
    assert len(rows) == 400 and set(rows["ruleset"]) == {"hig", "house-fairy-five"}
    out = capsys.readouterr().out
    assert "house-fairy-five" in out and "mean score, seat 1" in out
    assert isinstance(game, castellan.Game)


def test_the_readme_vectorised_loop_runs(root):
    text = (root / "README.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "VectorEnv(" in b]
    assert blocks, "the README shows the vectorised loop"
    # The loop as written, for 100 steps instead of 10,000.
    example = blocks[0].replace("range(10_000)", "range(100)")
    namespace = {}
    exec(compile(example, "README.md", "exec"), namespace)
    venv, rewards = namespace["venv"], namespace["rewards"]
    assert venv.num_envs == 64 and rewards.shape == (64, 2)
    assert abs(float(rewards.sum())) < 1e-3  # zero-sum rewards
