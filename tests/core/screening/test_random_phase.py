"""The random-sampling phase of a screening (issue 28 §3): stored, served in its seeded
order, and read by the stopping panel as Callaghan & Müller-Hansen's random sample —
the p-value, the random records remaining and the recall estimate checked against
scipy's hypergeometric distribution by hand."""

from __future__ import annotations

import math

import pytest
from scipy.stats import hypergeom

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.queue import random_order
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping import phases
from litqeval_gui.core.screening.stopping.panel import screening_panel
from tests.support.screening import screening_project

N = 100


@pytest.fixture
def made(tmp_path):
    path, _ = screening_project(tmp_path, N)
    with Project.open(path) as project:
        store.create_screening(project, "T", "s", ["L"])
    return path


def _open(path):
    project = Project.open(path)
    return project, store.find_screening(project, "T", "s")


def _random_rule(panel):
    return next(v for v in panel.verdicts if v.name == "random_sample").decision


def test_the_switch_is_stored_and_the_random_order_survives_reopening(made):
    project, screening = _open(made)
    session = ScreeningSession(project, screening, "ann")
    items = store.items(project, screening.id)
    for record in items[:10]:
        session.decide("exclude", record_id=record)
    last_event = store.events(project, screening.id)[-1].id
    session.start_random(seed=7)
    expected = [r for r in random_order(items, 7).records if r not in items[:10]]
    assert session.queue.ordering.name == "random sample:7"
    assert session.shown == expected[0]
    session.decide("exclude")
    assert session.shown == expected[1]
    with pytest.raises(LitqError, match="already switched"):
        session.start_random(seed=8)
    project.close()

    project, screening = _open(made)
    round_ = phases.current_round(project, screening.id)
    assert (round_.number, round_.random.after_event, round_.random.seed,
            round_.random.reviewer) == (1, last_event, 7, "ann")
    again = ScreeningSession(project, screening, "ann")  # any ordering asked for
    assert again.random_phase and again.shown == expected[1]
    assert store.events(project, screening.id)[-1].ordering == "random sample:7"
    with pytest.raises(LitqError, match="already switched"):
        project.write(phases.start_random_op(screening, "bob", 3))
    project.close()


def test_the_panel_reads_the_random_sample_as_scipy_does_by_hand(made):
    project, screening = _open(made)
    session = ScreeningSession(project, screening, "ann")
    items = store.items(project, screening.id)
    ranked = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]  # 4 relevant in 10 ranked records
    for record, label in zip(items, ranked, strict=False):
        session.decide("include" if label else "exclude", record_id=record)
    panel = screening_panel(project, screening)
    assert _random_rule(panel).evidence["phase"] == "ranked" and panel.estimate is None
    session.start_random(seed=3)
    sample = [0] * 12 + [1] + [0] * 17  # 30 random records, 1 relevant
    for label in sample:
        session.decide("include" if label else "exclude")
    panel = screening_panel(project, screening)
    decision = _random_rule(panel)
    before, k, n, urn = 4, 1, 30, N - 10
    k_tar = math.floor((before + k) / 0.95) + 1 - before  # ⌊5/0.95⌋ + 1 − 4 = 2
    p = hypergeom.cdf(k, urn, k_tar, n)
    assert (decision.evidence["k_tar"], decision.evidence["urn_size"]) == (2, 90)
    assert decision.evidence["p_value"] == pytest.approx(p)
    assert not decision.stop and p > 0.05  # p = 0.891: one relevant in 30 of 90 proves little
    remaining = next(m for m in range(urn - n + 1)
                     if hypergeom.cdf(k, urn, k_tar, n + m) < 0.05)
    assert decision.evidence["random_remaining"] == remaining
    assert panel.random_from == 10 and panel.screened == 40 and panel.found == 5
    # the estimate: found / (before + k·urn/n), its bounds the Ks whose tails exceed α/2
    k_low = min(K for K in range(urn + 1) if hypergeom.sf(k - 1, urn, K, n) > 0.025)
    k_high = max(K for K in range(urn + 1) if hypergeom.cdf(k, urn, K, n) > 0.025)
    estimate = panel.estimate
    assert estimate.recall == pytest.approx(5 / (4 + 1 * 90 / 30))
    assert (estimate.low, estimate.high) == (pytest.approx(5 / (4 + k_high)),
                                             pytest.approx(5 / (4 + k_low)))
    hyper = next(v for v in panel.verdicts if v.name == "hypergeometric").decision
    assert hyper.evidence["mode"] == "declared random sample"
    project.close()


def test_a_record_decided_out_of_turn_joins_the_sample_only_in_its_turn(made):
    project, screening = _open(made)
    session = ScreeningSession(project, screening, "ann")
    items = store.items(project, screening.id)
    session.decide("include", record_id=items[0])
    session.start_random(seed=11)
    order = [r for r in random_order(items, 11).records if r != items[0]]
    session.decide("include", record_id=order[5])  # picked by hand, not drawn yet
    for _ in range(3):
        session.decide("exclude")  # order[0..2]
    panel = screening_panel(project, screening)
    assert (panel.random_from, panel.screened, panel.found) == (2, 5, 2)
    assert _random_rule(panel).evidence["sample_size"] == 3
    assert _random_rule(panel).evidence["relevant_in_sample"] == 0
    session.decide("exclude")
    session.decide("exclude")  # order[3], order[4]: the sample reaches order[5]
    panel = screening_panel(project, screening)
    assert panel.random_from == 1
    assert _random_rule(panel).evidence["sample_size"] == 6
    assert _random_rule(panel).evidence["relevant_in_sample"] == 1
    session.take_back()  # order[4] undone: the sample ends before it again
    panel = screening_panel(project, screening)
    assert (panel.random_from, _random_rule(panel).evidence["sample_size"]) == (2, 4)
    assert session.shown == order[4]
    project.close()


def test_a_round_with_every_record_decided_cannot_switch(made):
    project, screening = _open(made)
    session = ScreeningSession(project, screening, "ann")
    for record in store.items(project, screening.id):
        session.decide("exclude", record_id=record)
    with pytest.raises(LitqError, match="nothing is left to sample"):
        session.start_random(seed=1)
    assert phases.current_round(project, screening.id).random is None
    project.close()
