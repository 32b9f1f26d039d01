"""The lab on Ray: a local Ray instance runs the shards and the report equals the CLI's."""

import pytest

import castellan

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_a_local_ray_run_gives_the_cli_table(local_ray, cli):
    rows = castellan.compare(["base", "hig"], bots="random,random", games=9, seed=5, cluster="local", shards=4)
    assert len(rows) == 18
    local = castellan.compare(["base", "hig"], bots="random,random", games=9, seed=5)
    # The same games; only the run's size says how many shards it was cut into.
    assert [s["shards"] for s in rows["run"]] == [4] * 18
    same = lambda r: castellan.rows_to_lines(r.drop(columns="run"))  # noqa: E731
    assert same(rows) == same(local)
    table = cli("compare", "base", "hig", "-b", "random,random", "-g", "9", "-s", "5")
    assert castellan.report(rows) == table


def test_simulate_on_ray(local_ray):
    rows = castellan.simulate("base", games=5, seed=1, cluster="local", shards=2)
    assert list(rows["index"]) == [0, 1, 2, 3, 4]
