"""castellan for Python: the castellan rules engine (Carcassonne, The Princess & the Dragon,
their editions and house rules), its variant lab and a multi-agent environment.

The game API is the Rust engine itself (``castellan._castellan``, built by maturin); this
package adds the lab's results as pandas DataFrames, the PettingZoo environment
(``castellan.env``) and the lab on a Ray cluster (``castellan.cluster``). See docs/python.md.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

from ._castellan import (
    Action,
    ActionSpace,
    CastellanError,
    DataError,
    Event,
    Game,
    IllegalActionError,
    Record,
    Ruleset,
    TileSet,
    __version__,
    bot_move,
    rulesets,
    simulate_stats,
    tile_sets,
)
from . import _castellan

__all__ = [
    "Action",
    "ActionSpace",
    "CastellanError",
    "DataError",
    "Event",
    "Game",
    "IllegalActionError",
    "Record",
    "Ruleset",
    "TileSet",
    "__version__",
    "bot_move",
    "compare",
    "report",
    "rows_to_lines",
    "rulesets",
    "simulate",
    "simulate_stats",
    "tile_sets",
]

Bots = Union[str, Sequence[str]]


def _bot_list(bots: Bots) -> list:
    if isinstance(bots, str):
        return [b.strip() for b in bots.split(",")]
    return list(bots)


def _frame(lines: str):
    import pandas as pd

    rows = [json.loads(line) for line in lines.splitlines() if line.strip()]
    rows.sort(key=lambda r: (r["position"], r["index"]))
    return pd.DataFrame(rows)


def _plain(value: Any) -> Any:
    """A DataFrame cell as plain JSON data: numpy numbers as Python numbers, NaN as None,
    whole floats (pandas' ints next to a missing value) as ints."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return _plain(value.tolist())
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if value.is_integer():
            return int(value)
    return value


def rows_to_lines(rows: Any) -> str:
    """Game rows (a DataFrame from ``simulate``/``compare``, or a list of dicts) as the JSON
    lines ``castellan compare --out`` writes, for ``castellan report`` or :func:`report`."""
    if hasattr(rows, "to_dict"):
        rows = rows.to_dict("records")
    return "".join(json.dumps(_plain(r), separators=(",", ":")) + "\n" for r in rows)


def _run(
    rulesets: Sequence[str],
    bots: Bots,
    games: int,
    seed: int,
    threads: Optional[int],
    shard: Optional[Tuple[int, int]],
    cluster: Optional[str],
    shards: Optional[int],
):
    names = [str(r) for r in rulesets]
    bot_list = _bot_list(bots)
    if cluster is not None:
        from . import cluster as ray_cluster

        lines = ray_cluster.run_lines(names, bot_list, games, seed, address=cluster, shards=shards)
    else:
        lines = _castellan.lab_lines(names, bot_list, games, seed, threads or 0, shard)
    return _frame(lines)


def simulate(
    ruleset: str = "hig",
    games: int = 1000,
    seed: int = 0,
    bots: Optional[Bots] = None,
    players: int = 2,
    threads: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    cluster: Optional[str] = None,
    shards: Optional[int] = None,
):
    """Plays ``games`` seeded games (seed, seed + 1, ...) under one ruleset between ``bots``
    (default: ``players`` random bots) and returns one row per game as a pandas DataFrame:
    the rows of ``castellan simulate --out`` (ruleset, position, index, seed, bots, scores,
    turns, points, firings, lead_changes, decided_turn). Runs on every core (``threads``)
    with the interpreter released, or as shards on a Ray cluster (``cluster="local"`` or
    ``"ray://host:port"``)."""
    if bots is None:
        bots = ["random"] * players
    return _run([ruleset], bots, games, seed, threads, shard, cluster, shards)


def compare(
    rulesets: Iterable[str],
    bots: Bots = "mcts:500,mcts:500",
    games: int = 100,
    seed: int = 0,
    threads: Optional[int] = None,
    shard: Optional[Tuple[int, int]] = None,
    cluster: Optional[str] = None,
    shards: Optional[int] = None,
):
    """Plays the same seeded games under every ruleset (the first is the baseline) and
    returns one row per game as a pandas DataFrame, as ``castellan compare --out`` writes
    them; :func:`report` turns them into the comparison table. ``cluster`` runs the shards as
    Ray tasks (``"local"`` starts Ray on this machine)."""
    return _run(list(rulesets), bots, games, seed, threads, shard, cluster, shards)


def report(rows: Any, format: str = "table") -> Any:
    """The report of ``castellan report`` over game rows (a DataFrame, a list of dicts or JSON
    lines; one run or its shards in any order): ``table`` (text), ``json`` (a dict) or
    ``html`` (a page with plots)."""
    lines = rows if isinstance(rows, str) else rows_to_lines(rows)
    return _castellan.report(lines, format)
