"""The stopping panel on constructed label sequences whose verdicts are known by hand."""

import math

import numpy as np
import pytest

from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.stopping.panel import (
    default_rules,
    panel,
    screening_panel,
)
from litqeval_gui.metrics.recall_estimate import remaining_interval
from litqeval_gui.metrics.stopping import (
    ConsecutiveIrrelevant,
    HypergeometricTest,
    RandomSampleStop,
)
from tests.support.screening import screening_project


def _verdicts(result):
    return {v.name: v.decision.stop for v in result.verdicts}


def test_a_sharp_knee_after_every_relevant_record_is_found():
    # 20 relevant first, then 200 irrelevant of N = 1000. Knee at 20:
    # rho = (20/20) / ((20 − 20 + 1)/(220 − 20)) = 200 >= 156 − 20 = 136, s = 220 >= 150
    labels = [1] * 20 + [0] * 200
    result = panel(labels, 1000, default_rules(consecutive=150))
    assert (result.screened, result.found, result.knee) == (220, 20, 20)
    knee = next(v for v in result.verdicts if v.name == "knee").decision
    assert knee.stop and knee.evidence["rho"] == pytest.approx(200.0)
    assert _verdicts(result)["consecutive_irrelevant"]  # 200 >= 150
    screened, found = result.curve
    assert screened.tolist() == list(range(221)) and found[-1] == 20 and found[20] == 20


def test_early_in_a_screening_no_rule_says_stop():
    labels = [0, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    result = panel(labels, 1000, default_rules())
    assert not any(_verdicts(result).values())
    assert all(v.title for v in result.verdicts)  # each names its source


@pytest.mark.parametrize(("sample", "stop"), [(180, False), (185, True)])
def test_hypergeometric_verdict_by_hand(sample, stop):
    # 10 relevant first, then ``sample`` irrelevant of N = 200: urn = 190 records,
    # K_tar = floor(10/0.95) + 1 − 10 = 1, p = P(X = 0) = C(189, n)/C(190, n) = (190 − n)/190
    labels = [1] * 10 + [0] * sample
    decision = HypergeometricTest(0.95, 0.95).decide(labels, 200)
    p = math.comb(189, sample) / math.comb(190, sample)
    assert decision.evidence["p_value"] == pytest.approx(p)
    assert decision.evidence["k_tar"] == 1
    assert decision.stop is stop  # 10/190 = 0.053 is not below 0.05; 5/190 = 0.026 is


def test_first_stop_of_a_rule():
    labels = np.array([1, 0, 1, 0, 0, 0, 0])
    assert ConsecutiveIrrelevant(n=3).first_stop(labels, 100) == 6
    assert ConsecutiveIrrelevant(n=9).first_stop(labels, 100) is None
    assert ConsecutiveIrrelevant(n=9).first_stop(labels, 7) == 7  # all screened


def test_the_panel_of_a_screening_counts_maybe_as_relevant(tmp_path):
    path, _ = screening_project(tmp_path, 30)
    with Project.open(path) as project:
        screening = store.create_screening(project, "T", "s", ["L"])
        items = store.items(project, screening.id)
        me = store.Context("Ada")
        for record, label in zip(items, ["include", "exclude", "maybe", "exclude"],
                                 strict=False):
            project.write(store.decide_op(screening, record, label, me))
        project.write(store.decide_op(screening, items[1], "include", me))  # a change keeps its place
        result = screening_panel(project, screening)
        project.write(parameters.set_value_op(parameters.STOP_CONSECUTIVE, 1))
        tight = screening_panel(project, screening)
    assert (result.n_total, result.screened, result.found) == (30, 4, 3)
    assert not _verdicts(result)["consecutive_irrelevant"]  # 1 irrelevant in a row, n = 50
    assert _verdicts(tight)["consecutive_irrelevant"]  # n = 1 from the project's parameters
    assert result.curve[1].tolist() == [0, 1, 2, 3, 3]


def test_the_panel_reports_no_knee_before_the_knee_rule_can_apply():
    early = panel([1, 0, 0] * 4, 320, default_rules())
    assert early.knee is None and early.knee_note == "no knee yet (needs 150 screened)"
    # the project's knee rule decides: with its minimum at 10 the knee of the same
    # history is located — 12·g(i) − 4·i = 8, 4, 0, 8, … peaks first at i = 1
    from litqeval_gui.metrics.stopping import KneeMethod
    located = panel([1, 0, 0] * 4, 320, [KneeMethod(min_screened=10)])
    assert (located.knee, located.knee_note) == (1, "")
    nothing = panel([0] * 160, 320, default_rules())
    assert nothing.knee is None and nothing.knee_note == "no knee (nothing relevant)"


def test_the_recall_estimate_comes_from_the_random_sample():
    # 40 relevant in 300 ranked records, then 100 random records from the 700 left with
    # 2 relevant: K̂ = 2·700/100 = 14, recall ≈ 42/54; the interval is the exact one.
    labels = [1] * 40 + [0] * 260 + [1, 1] + [0] * 98
    ranked = panel(labels, 1000, default_rules())
    assert ranked.estimate is None and "switch to random screening" in ranked.estimate_note
    random = panel(labels, 1000, [RandomSampleStop(random_from=300)])
    low, high = remaining_interval(2, 100, 700, 0.95)
    assert random.estimate.recall == pytest.approx(42 / 54)
    assert (random.estimate.low, random.estimate.high) == (
        pytest.approx(42 / (40 + high)), pytest.approx(42 / (40 + low)))
    assert random.estimate.text().startswith("about 78% found (")
