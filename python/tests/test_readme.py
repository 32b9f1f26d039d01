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
