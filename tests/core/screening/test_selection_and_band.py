"""A filtered selection to screen, tags read back, and simulation over seeds as a band."""

import numpy as np
import pytest

from litqeval_gui.core.errors import JobCancelled, LitqError
from litqeval_gui.core.jobs import CancelToken, run_job
from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Context
from litqeval_gui.core.screening.ranking.features import build_features
from litqeval_gui.core.screening.ranking.selection import selection, selection_size, years
from litqeval_gui.core.screening.simulation.simulate import simulate
from litqeval_gui.core.screening.simulation.simulation_band import (
    LabelSource,
    label_sources,
    simulate_screening,
    spread,
)
from litqeval_gui.core.screening.stopping.panel import project_rules
from litqeval_gui.metrics.tar import tar_at_recall
from tests.support.screening import LABEL_COLUMN, opened_screening


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    with opened_screening(tmp_path_factory.mktemp("band"), 150, 0.15, seed=5) as opened:
        yield opened


def _rows(project, screening):
    return project.db.execute(
        "SELECT r.id, r.title, r.abstract, r.year FROM records r JOIN screening_items i "
        "ON i.record_id = r.id WHERE i.screening_id = ? ORDER BY i.position",
        [screening.id]).fetchall()


def test_a_selection_keeps_the_records_matching_the_text_and_the_years(setup):
    project, screening, _ = setup
    rows = _rows(project, screening)
    known_years = sorted(year for *_, year in rows if year is not None)
    low, high = known_years[len(known_years) // 4], known_years[3 * len(known_years) // 4]
    expected = [rid for rid, title, abstract, year in rows
                if "robotic" in f"{title} {abstract}".lower() and year is not None
                and low <= year <= high]
    chosen = RecordFilter("Robotic", low, high)
    assert 0 < len(expected) < len(rows)
    assert selection(project, "T", ["L"], chosen) == expected
    assert selection_size(project, "T", ["L"], chosen) == len(expected)
    assert selection_size(project, "T", [], chosen) == 0
    assert years(project, "T", ["L"]) == (known_years[0], known_years[-1])
    made = store.create_screening(project, "T", "robotic only", ["L"], record_filter=chosen)
    assert store.items(project, made.id) == expected and made.record_filter == chosen
    before = [s.name for s in store.screenings(project, "T")]
    with pytest.raises(LitqError, match="no record of the chosen lists passes the filter"):
        store.create_screening(project, "T", "none", ["L"],
                               record_filter=RecordFilter("no such words anywhere"))
    assert [s.name for s in store.screenings(project, "T")] == before


def test_the_tags_used_are_read_back_with_the_current_decisions(setup):
    project, screening, _ = setup
    first, second = store.items(project, screening.id)[:2]
    project.write(store.decide_op(screening, first, "include", Context("Ann", tags=("rct", "Adults"))))
    project.write(store.decide_op(screening, second, "exclude", Context("Ann", tags=("animal",))))
    project.write(store.decide_op(screening, first, "maybe", Context("Ann", tags=("rct",)), note="n"))
    now = {e.record_id: (e.label, e.tags, e.note)
           for e in store.current_decisions(project, screening.id)}
    assert now == {first: ("maybe", ("rct",), "n"), second: ("exclude", ("animal",), "")}
    assert store.tags_used(project, screening.id) == ["Adults", "animal", "rct"]


def test_spread_skips_runs_where_a_value_is_undefined():
    found = spread([0.2, None, float("nan"), 0.6, 0.3])
    assert (found.median, found.low, found.high, found.defined, found.runs) == (
        0.3, 0.2, 0.6, 3, 5)
    assert spread([None, None]).defined == 0 and np.isnan(spread([None]).median)


def test_the_band_holds_every_seeds_run_as_simulate_makes_it(setup):
    project, screening, truth = setup
    source = LabelSource("column", LABEL_COLUMN)
    result = run_job(simulate_screening(project, screening, source, model="nb",
                                        prior_included=2, prior_excluded=3, seed=4, runs=3))
    assert result.seeds == (4, 5, 6) and result.records == 150 and result.relevant == truth.sum()
    features = run_job(build_features(project, screening.topic_id,
                                      store.items(project, screening.id)))
    rules = project_rules(project)
    for row, seed in enumerate(result.seeds):  # each row: an independent run of that seed
        run = run_job(simulate(features, truth, model="nb", prior_included=2, prior_excluded=3,
                               seed=seed, rules=rules))
        assert result.found[row].tolist() == [0, *np.cumsum(truth[run.order]).tolist()]
        tar = tar_at_recall(truth[run.order], 0.95)
        assert result.measures["wss_at_95"][row] == pytest.approx(tar.wss)
        assert result.measures["last_rel"][row] == pytest.approx(tar.last_rel)
        assert [result.stopping[r.name][row] for r in rules] == [run.stopping[r.name]
                                                                 for r in rules]
    median, low, high = result.curve()
    assert low.tolist() == result.found.min(axis=0).tolist()
    assert high.tolist() == result.found.max(axis=0).tolist()
    assert median.tolist() == np.median(result.found, axis=0).tolist()
    _, p25, p75 = result.curve(25, 75)
    assert (low <= p25).all() and (p25 <= p75).all() and (p75 <= high).all()
    wss = result.measure("wss_at_95")
    assert (wss.low, wss.median, wss.high) == (min(result.measures["wss_at_95"]),
                                               sorted(result.measures["wss_at_95"])[1],
                                               max(result.measures["wss_at_95"]))
    knee = [run["stopped_at"] for run in result.stopping["knee"]]
    assert result.stopped_at("knee").defined == sum(s is not None for s in knee)
    assert set(result.rules) == {r.name for r in rules}


def test_label_sources_and_their_errors(setup):
    project, screening, _ = setup
    store.create_screening(project, "T", "unfinished", ["L"], record_filter=RecordFilter("a"))
    sources = label_sources(project, screening)
    assert LabelSource("column", LABEL_COLUMN) in sources
    assert LabelSource("core") not in sources  # the topic has no core set
    assert LabelSource("screening", "unfinished") in sources
    assert LabelSource("screening", "s") not in sources  # not itself
    with pytest.raises(LitqError, match="no core set"):
        run_job(simulate_screening(project, screening, LabelSource("core")))
    with pytest.raises(LitqError, match="has not decided"):
        run_job(simulate_screening(project, screening, LabelSource("screening", "unfinished")))


def test_a_cancelled_simulation_stops(setup):
    project, screening, _ = setup
    token = CancelToken(JobCancelled)
    job = simulate_screening(project, screening, LabelSource("column", LABEL_COLUMN), runs=2,
                             token=token)
    next(job)
    token.cancel()
    with pytest.raises(JobCancelled):
        for _ in job:
            pass
