"""The lab from Python: the same rows as the CLI's JSON lines, the same report."""

import json

import pandas as pd

import castellan


def lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_simulate_rows_equal_the_cli_json_lines(cli, tmp_path):
    out = tmp_path / "games.jsonl"
    cli("simulate", "-r", "hig", "-g", "12", "-s", "40", "--out", str(out))
    rows = castellan.simulate("hig", games=12, seed=40)
    assert isinstance(rows, pd.DataFrame) and len(rows) == 12
    assert lines(castellan.rows_to_lines(rows)) == lines(out.read_text())


def test_compare_report_equals_the_cli_table(cli):
    rows = castellan.compare(["base", "hig"], bots="random,greedy", games=6, seed=3)
    assert list(rows["ruleset"].unique()) == ["base", "hig"]
    table = cli("compare", "base", "hig", "-b", "random,greedy", "-g", "6", "-s", "3")
    assert castellan.report(rows) == table
    summary = castellan.report(rows, format="json")
    assert summary == json.loads(
        cli("compare", "base", "hig", "-b", "random,greedy", "-g", "6", "-s", "3", "--json")
    )


def test_shards_merge_like_castellan_report(cli, tmp_path):
    parts = [castellan.compare(["base", "count"], "random,random", 7, 1, shard=(k, 3)) for k in (1, 2, 3)]
    merged = pd.concat(parts[::-1])
    files = []
    for k, part in enumerate(parts):
        path = tmp_path / f"shard{k}.jsonl"
        path.write_text(castellan.rows_to_lines(part))
        files.append(str(path))
    assert castellan.report(merged) == cli("report", *files)
    whole = castellan.compare(["base", "count"], "random,random", 7, 1)
    assert castellan.report(whole) == castellan.report(merged)


def test_simulate_stats_is_the_cli_summary(cli):
    stats = castellan.simulate_stats("base", games=30, seed=2, threads=1)
    cli_stats = json.loads(cli("simulate", "-r", "base", "-g", "30", "-s", "2", "--json"))
    for key in ("games", "bots", "mean_scores", "wins", "ties", "mean_turns"):
        assert stats[key] == cli_stats[key]


def test_games_run_with_the_interpreter_released():
    import threading
    import time

    done = threading.Event()
    span = []

    def play():
        start = time.perf_counter()
        castellan.simulate_stats("hig", games=600, seed=0, threads=1)
        span.extend([start, time.perf_counter()])
        done.set()

    worker = threading.Thread(target=play)
    ticks = []
    worker.start()
    while not done.is_set():  # this thread runs only while the games do not hold the GIL
        ticks.append(time.perf_counter())
    worker.join()
    start, end = span
    middle = (start + (end - start) / 4, end - (end - start) / 4)
    assert any(middle[0] <= t <= middle[1] for t in ticks)
