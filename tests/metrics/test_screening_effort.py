"""WSS in the project's and asreview-insights' conventions, and the effort figures."""

import numpy as np
import pytest

from litqeval_gui.metrics.screening_effort import (
    effort,
    recall_after,
    screened_to_reach,
    wss_insights,
)


def test_wss_insights_by_hand():
    # 10 records, 4 relevant at 0-based 0, 1, 3, 6. Running count reaches k = 1..4 at
    # indices 0, 1, 3, 6. Reference round(linspace(0, 4, 10)) = 0,0,1,1,2,2,3,3,4,4
    # (0.444→0, 0.889→1, 1.333→1, 1.778→2, 2.222→2, 2.667→3, 3.111→3, 3.556→4) reaches
    # k at 2, 4, 6, 8. WSS@95: the largest k with k/4 <= 0.95 is 3: (6 − 3)/10 = 0.3;
    # WSS@100: k = 4: (8 − 6)/10 = 0.2; WSS@50: k = 2: (4 − 1)/10 = 0.3.
    labels = np.array([1, 1, 0, 1, 0, 0, 1, 0, 0, 0])
    assert np.round(np.linspace(0, 4, 10)).tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert wss_insights(labels, 0.95) == pytest.approx(0.3)
    assert wss_insights(labels, 1.0) == pytest.approx(0.2)
    assert wss_insights(labels, 0.5) == pytest.approx(0.3)
    assert np.isnan(wss_insights(np.zeros(5), 0.95))
    # One relevant record: no count k has k/1 ≤ 0.95, and insights' y[i − 1] wraps to the
    # last value, WSS@100. Relevant at position 3 of 9: the reference round(linspace(0, 1, 9))
    # reaches 1 at index 5 (0.5 rounds to even, 0), the record is found at index 2: (5 − 2)/9.
    one = np.array([0, 0, 1, 0, 0, 0, 0, 0, 0])
    assert wss_insights(one, 0.95) == pytest.approx(3 / 9)
    assert wss_insights(one, 0.95) == wss_insights(one, 1.0)


def test_effort_figures_by_hand():
    # 2 priors (relevant, irrelevant), then 18 more; relevant at 1-based 1, 3, 4, 9, 20.
    labels = np.zeros(20, dtype=bool)
    labels[[0, 2, 3, 8, 19]] = True
    assert recall_after(labels, 0.10) == pytest.approx(1 / 5)  # first 2 records
    assert recall_after(labels, 0.25) == pytest.approx(3 / 5)  # first 5
    assert screened_to_reach(labels, 0.95) == 20  # ⌈0.95·5⌉ = 5th relevant
    assert screened_to_reach(labels, 0.6) == 4  # 3rd relevant
    found = effort(labels, priors=2)
    # project WSS@95 = (N − cutoff)/N − 0.05 = 0/20 − 0.05
    assert found["wss_at_95_project"] == pytest.approx(-0.05)
    assert found["wss_at_100_project"] == pytest.approx(0.0)
    assert found["wss_at_95_insights"] == pytest.approx(wss_insights(labels[2:], 0.95))
    assert found["screened_to_100"] == 20 and found["recall_at_10pct"] == pytest.approx(0.2)
    assert effort(np.zeros(4, dtype=bool), 0)["screened_to_95"] is None
