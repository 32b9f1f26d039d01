"""The lab on a Ray cluster: a run's shards as Ray tasks, merged as ``castellan report``
merges shard files.

Every game depends only on its ruleset, its bots and its index, so shard ``k`` of ``n``
(the same slices as ``castellan compare --shard k/n``) can run anywhere; the rows of all
shards, put in (ruleset, index) order, are exactly the rows of one run on one machine.

Use it through ``castellan.compare(..., cluster=ADDRESS)`` (or ``simulate``), or call
:func:`run_lines` directly. ``ADDRESS`` is ``"local"`` (start Ray on this machine),
``"auto"`` (the cluster this machine belongs to) or ``"ray://head:10001"`` (Ray Client).
Every node needs the castellan package installed (``pip install castellan-*.whl``, or a
``runtime_env``), and the rulesets must be shipped ones or exist at the same paths there.
"""

from __future__ import annotations

from typing import List, Optional, Sequence

from . import _castellan

_remote = None


def _shard_lines(rulesets, bots, games, seed, k, n):
    # One core per task: Ray spreads the tasks over the cores of the cluster.
    return _castellan.lab_lines(list(rulesets), list(bots), games, seed, 1, (k, n))


def _connect(address: str):
    import ray

    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    return ray


def run_lines(
    rulesets: Sequence[str],
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    address: str = "local",
    shards: Optional[int] = None,
) -> str:
    """Plays the run as ``shards`` Ray tasks (default: one per core of the cluster, at most
    one per game) and returns the JSON lines of its games, shard after shard."""
    global _remote
    ray = _connect(address)
    if _remote is None:
        _remote = ray.remote(num_cpus=1)(_shard_lines)
    if shards is None:
        shards = max(1, int(ray.cluster_resources().get("CPU", 1)))
    shards = max(1, min(int(shards), int(games)))
    futures = [
        _remote.remote(list(rulesets), list(bots), games, seed, k, shards)
        for k in range(1, shards + 1)
    ]
    parts: List[str] = ray.get(futures)
    return "".join(parts)
