"""core.scaleout.map_tasks: serial, local processes and a Dask cluster give one result."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from dask import distributed

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.scaleout import map_tasks


def heavy_sum(seed: int) -> float:
    """A task whose float result depends on every step (so order matters if misapplied)."""
    return float(np.random.default_rng(seed).random(1000).cumsum()[-1] / (seed + 1))


def fail_on_three(item: int) -> int:
    if item == 3:
        raise ValueError("task 3 failed")
    return item


ITEMS = list(range(8))


def test_local_processes_match_the_serial_run_in_order():
    seen = []
    serial = map_tasks(heavy_sum, ITEMS, progress=seen.append)
    assert [p.done for p in seen] == list(range(1, 9)) and seen[-1].total == 8
    assert map_tasks(heavy_sum, ITEMS, jobs=2) == serial == [heavy_sum(i) for i in ITEMS]


def test_a_failing_task_raises_here():
    with pytest.raises(ValueError, match="task 3"):
        map_tasks(fail_on_three, ITEMS, jobs=2)
    with pytest.raises(LitqError, match="--jobs"):
        map_tasks(heavy_sum, ITEMS, jobs=0)


def test_dask_local_cluster_matches_the_serial_run():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        seen = []
        result = map_tasks(heavy_sum, ITEMS, dask_address=cluster.scheduler_address,
                           progress=seen.append)
    assert result == map_tasks(heavy_sum, ITEMS)
    assert len(seen) == 8


def test_without_dask_the_message_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails
    with pytest.raises(LitqError, match=r'pip install "litqeval-gui\[dask\]"'):
        map_tasks(heavy_sum, ITEMS, dask_address="tcp://127.0.0.1:1")
