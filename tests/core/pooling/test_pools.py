"""Incremental pooling in the project: known k_cr on constructed runs, the low-yield
rule, presets, judgements from screening and qrels, balancing, reopening, SIGKILL."""

import signal
import subprocess
import sys
import textwrap

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.pooling import state, store
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store as screening_store
from litqeval_gui.core.screening.ranking.features import build_features
from litqeval_gui.core.screening.ranking.retrain import retrain, stored_ranking
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.metrics.pooling import AGGRESSIVE
from tests.support.pooling import docid, pool_project, two_run_layers
from tests.support.screening import screening_project


def judge_released(project, pool, relevant, limit=None):
    """Screen the pool's queue through the screening core: relevant docids included."""
    screener = ScreeningSession(project, screening_store.get_screening(project, pool.screening_id), "Ada")
    made = 0
    while (record := screener.shown) is not None and (limit is None or made < limit):
        screener.decide("include" if docid(project, record) in relevant else "exclude")
        made += 1
    return made


def run_to_end(project, pool, relevant):
    while state.pool_state(project, store.get_pool(project, pool.id)).can_advance:
        state.advance(project, pool)
        judge_released(project, pool, relevant)
    return state.pool_state(project, store.get_pool(project, pool.id))


def make(tmp_path, depth, relevant_depths, chosen, qrels=False):
    tmp_path.mkdir(exist_ok=True)
    runs, relevant = two_run_layers(depth, relevant_depths)
    grades = {doc: int(doc in relevant) for docs in runs.values() for doc in docs}
    path = pool_project(tmp_path, runs, grades if qrels else None)
    project = Project.open(path)
    pool = store.create_pool(project, "T", "P", ["A", "B"], chosen,
                             qrels=["qrels"] if qrels else ())
    return project, pool, relevant


def test_known_critical_depth_without_low_yield_rule(tmp_path):
    # nrels = 2, 4, 6, 8, 8, …; window sums S(1..) = 36, 42, 46, 48, 48, …
    # ŕ(1) = (46-36)/12 = 0.83 ≥ 0.8, ŕ(2) = 0.5, ŕ(3) = 0.17, ŕ(4) = 0 → k_cr = 2,
    # decided once depth 2 + l + w + W - 2 = 11 is judged: pooling stops there.
    project, pool, relevant = make(tmp_path, 20, 4, store.settings("aggressive", low_yield=None))
    with project:
        final = run_to_end(project, pool, relevant)
    assert final.decision.k_cr == 2 and final.decision.stop_depth == 2
    assert final.decision.reason == "critical depth"
    assert final.released == final.judged_depth == 11
    assert final.effort == 22 and final.relevant == 8
    assert final.l_run == (2, 4)
    assert final.rate[:2].tolist() == pytest.approx([10 / 12, 6 / 12])


def test_low_yield_rule_needs_depth_20_then_decides(tmp_path):
    # 8 relevant in 40 at depth 20: 0.2 > 0.1, not low-yield: stop at k_cr = 2
    project, pool, relevant = make(tmp_path, 30, 4, store.settings("aggressive"))
    with project:
        final = run_to_end(project, pool, relevant)
    assert (final.decision.stop_depth, final.decision.reason) == (2, "critical depth")
    assert final.judged_depth == 20 and final.decision.low_yield is False


@pytest.mark.parametrize(("relevant_depths", "reason", "judged"),
                         [(2, "low yield", 30), (3, "critical depth", 20)])
def test_low_yield_boundary(tmp_path, relevant_depths, reason, judged):
    # at depth 20: 4/40 = 0.1 ≤ 0.1 is low yield (pool to the full depth 30); 6/40 is not
    project, pool, relevant = make(tmp_path, 30, relevant_depths, store.settings("aggressive"))
    with project:
        final = run_to_end(project, pool, relevant)
    assert final.decision.reason == reason and final.judged_depth == judged
    assert final.finished and not final.can_advance


def test_presets_and_custom(tmp_path):
    # relaxed needs depth i + 6 + 14 + 6 - 2 > 20 for any i: it pools all 20 depths
    efforts = {}
    for preset in ("aggressive", "relaxed"):
        project, pool, relevant = make(tmp_path / preset, 20, 4, store.settings(preset))
        with project:
            final = run_to_end(project, pool, relevant)
        efforts[preset] = final.effort
        assert final.pool.settings.preset == preset
    assert efforts == {"aggressive": 40, "relaxed": 40}  # low-yield check needs depth 20
    custom = store.settings(custom=(6, 2, 0.8, 3))
    assert custom.params == AGGRESSIVE and custom.preset == "custom"
    with pytest.raises(LitqError, match="unknown preset"):
        store.settings("lazy")
    with pytest.raises(LitqError, match="bad pool settings"):
        store.settings(custom=(0, 2, 0.8, 3))


def test_aggressive_judges_less_than_relaxed(tmp_path):
    efforts = {}
    for preset in ("aggressive", "relaxed"):
        chosen = store.settings(preset, low_yield=None)
        project, pool, relevant = make(tmp_path / preset, 40, 4, chosen)
        with project:
            final = run_to_end(project, pool, relevant)
        efforts[preset] = (final.effort, final.decision.stop_depth)
    # aggressive: k_cr 2 decided at depth 11. relaxed (14, 6, 0.05, 6): window sums
    # S(1..4) = 100, 106, 110, 112 then 112; ŕ(i) = (S(i+6) - S(i))/84: ŕ(1) = 0.14,
    # ŕ(2) = 0.071, ŕ(3) = 0.024 < 0.05 and 0 after → k_cr = 3, decided at 3 + 24 = 27
    assert efforts == {"aggressive": (22, 2), "relaxed": (54, 3)}


def test_qrels_judge_without_screening(tmp_path):
    project, pool, relevant = make(tmp_path, 20, 4, store.settings("aggressive", low_yield=None),
                                   qrels=True)
    with project:
        advances = state.advance_while_judged(project, pool)
        final = state.pool_state(project, store.get_pool(project, pool.id))
        assert [a.added for a in advances] == [0] * 11
        assert screening_store.items(project, pool.screening_id) == []
    assert final.finished and final.decision.stop_depth == 2 and final.judged_depth == 11


def test_advance_sends_only_unjudged_works_and_reopen_continues(tmp_path):
    runs = {"A": ["d1", "d2", "d3"], "B": ["d2", "d4", "d1"]}
    path = pool_project(tmp_path, runs, {"d4": 1})
    with Project.open(path) as project:
        pool = store.create_pool(project, "T", "P", ["A", "list:B"], store.settings(),
                                 qrels=["qrels"])
        first = state.advance(project, pool)
        second = state.advance(project, pool)
        assert (first.message(), second.message()) == ("pool depth 1: 2 new records",
                                                       "pool depth 2: 0 new records")
        queued = [docid(project, r) for r in screening_store.items(project, pool.screening_id)]
        assert queued == ["d1", "d2"]  # d4 (depth 2) is judged by the qrels
        judge_released(project, pool, {"d2"}, limit=1)  # d1 excluded
        before = state.pool_state(project, store.get_pool(project, pool.id)).as_dict()
    with Project.open(path) as project:
        pool = store.find_pool(project, "T", "P")
        after = state.pool_state(project, pool)
        assert after.as_dict() == before
        assert (after.released, after.judged_depth, len(after.pending)) == (2, 0, 1)
        screener = ScreeningSession(project, screening_store.get_screening(project, pool.screening_id),
                            "Ada")
        assert docid(project, screener.shown) == "d2"  # continues where it was
        screener.decide("include")
        after = state.pool_state(project, pool)
        assert after.judged_depth == 2 and after.nrels.tolist() == [1, 2]
        assert [vars(c) for c in after.contributions()] == [
            {"run": "A", "relevant": 1, "only": 0}, {"run": "B", "relevant": 2, "only": 1}]


def test_stale_or_finished_pool_is_refused(tmp_path):
    project, pool, relevant = make(tmp_path, 20, 4, store.settings("aggressive", low_yield=None))
    with project:
        state.advance(project, pool)
        with pytest.raises(LitqError, match="no longer at depth"):
            project.write(store.release_op(pool, 1, []))  # pool (depth 0) is stale
        assert store.get_pool(project, pool.id).depth == 1
        run_to_end(project, pool, relevant)
        with pytest.raises(LitqError, match="has stopped at depth 2"):
            state.advance(project, pool)
        with pytest.raises(LitqError, match="already has a pool"):
            store.create_pool(project, "T", "P", ["A"], store.settings())
        with pytest.raises(LitqError, match="list:NAME, ranking:SCREENING or cosine:LIST"):
            store.create_pool(project, "T", "Q", ["bogus:A"], store.settings())


def test_effort_goes_to_the_topic_still_finding_relevant_records(tmp_path):
    runs, relevant = two_run_layers(20, 4)
    path = pool_project(tmp_path, runs, topics=("T", "U"))
    with Project.open(path) as project:
        pools = [store.create_pool(project, topic, "P", ["A", "B"], store.settings())
                 for topic in ("T", "U")]
        states = [state.pool_state(project, p) for p in pools]
        assert state.next_to_judge(states) == (states[0], None)  # nothing judged: advance
        for pool, found in zip(pools, (relevant, set()), strict=True):
            state.advance(project, pool)
            judge_released(project, pool, found)  # T finds 2 of 2, U none
        states = [state.pool_state(project, store.get_pool(project, p.id)) for p in pools]
        assert [s.pool.topic for s in state.schedule(states)] == ["T", "U"]
        state.advance(project, pools[0])
        states[0] = state.pool_state(project, store.get_pool(project, pools[0].id))
        chosen, record = state.next_to_judge(states)
        assert chosen.pool.topic == "T" and docid(project, record) == "a2"


KILLED = textwrap.dedent("""
    import os, signal, sys
    from litqeval_gui.core.pooling import state, store
    from litqeval_gui.core.projectfile.project import Project
    from litqeval_gui.core.screening.log import store as screening_store
    from litqeval_gui.core.screening.session import ScreeningSession

    project = Project.open(sys.argv[1])
    pool = store.find_pool(project, "T", "P")
    state.advance(project, pool)
    state.advance(project, pool)
    screener = ScreeningSession(project, screening_store.get_screening(project, pool.screening_id), "Ada")
    for label in ("include", "exclude", "include"):
        screener.decide(label)
    print("decided", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
""")


def test_sigkill_loses_no_judgement(tmp_path):
    runs, _ = two_run_layers(20, 4)
    path = pool_project(tmp_path, runs)
    with Project.open(path) as project:
        store.create_pool(project, "T", "P", ["A", "B"], store.settings())
    child = subprocess.run([sys.executable, "-c", KILLED, str(path)], capture_output=True,
                           text=True, check=False)
    assert child.returncode == -signal.SIGKILL and child.stdout == "decided\n"
    with Project.open(path) as project:
        after = state.pool_state(project, store.find_pool(project, "T", "P"))
    assert after.released == 2 and after.effort == 3 and after.relevant == 2
    assert after.judged_depth == 1 and after.nrels.tolist() == [1]
    assert [docid_ for docid_ in after.pending] == [after.layers[1][1]]


def test_a_stored_model_ranking_is_a_run_fixed_at_creation(tmp_path):
    path, labels = screening_project(tmp_path, 40, 0.25)
    with Project.open(path) as project:
        screening = screening_store.create_screening(project, "T", "s", ["L"])
        items = screening_store.items(project, screening.id)
        screener = ScreeningSession(project, screening, "Ada")
        for record, label in list(zip(items, labels, strict=True))[:12]:
            screener.decide("include" if label else "exclude", record_id=record)
        features = run_job(build_features(project, screening.topic_id, items))
        ranking = run_job(retrain(project, screening, features))
        pool = store.create_pool(project, "T", "P", ["ranking:s", "L"], store.settings())
        assert [r.records for r in store.runs(project, pool)] == [ranking.records, tuple(items)]
        run_job(retrain(project, screening, features, model="nb"))  # a later ranking
        assert stored_ranking(project, screening.id).model != ranking.model
        assert store.runs(project, pool)[0].records == ranking.records
        first = state.advance(project, pool)
        assert first.added == len({ranking.records[0], items[0]})
        with pytest.raises(LitqError, match="no stored model ranking"):
            empty = screening_store.create_screening(project, "T", "t", ["L"])
            store.create_pool(project, "T", "Q", [f"ranking:{empty.name}"], store.settings())


def test_a_pool_that_fails_to_be_written_leaves_no_screening_behind(tmp_path, monkeypatch):
    """The new screening "pool: P" and the pool are one write: a failure (here the disk,
    when the pool's row is written) leaves neither."""
    runs, _ = two_run_layers(5, 2)
    with Project.open(pool_project(tmp_path, runs)) as project:
        def full_disk():
            raise OSError("No space left on device")

        monkeypatch.setattr(store, "now", full_disk)
        with pytest.raises(OSError, match="No space"):
            store.create_pool(project, "T", "P", ["A", "B"], store.settings())
        assert screening_store.screenings(project, "T") == []
        assert store.pools(project, "T") == []
        monkeypatch.undo()
        pool = store.create_pool(project, "T", "P", ["A", "B"], store.settings())
        [screening] = screening_store.screenings(project, "T")
        assert screening.name == "pool: P" and pool.screening_id == screening.id
