"""read_records options: limit, where, cancel, progress."""

from pathlib import Path

import pytest

from litqeval_gui.core.errors import ImportRefused, JobCancelled
from litqeval_gui.core.jobs import CancelToken, Progress, run_job, scaled
from litqeval_gui.core.records.importing import read_records

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "import"


def big_ris(tmp_path, n=6000):
    path = tmp_path / "big.ris"
    path.write_text("".join(f"TY  - JOUR\nTI  - Title {i}\nKW  - k{i % 3}\nER  - \n\n"
                            for i in range(n)))
    return path


def test_limit_stops_early(tmp_path):
    res = run_job(read_records(big_ris(tmp_path), limit=5))
    assert [r.title for r in res.records] == [f"Title {i}" for i in range(5)]
    assert run_job(read_records(FIX / "scopus.csv", limit=1)).records[0].rank == 1


def test_progress_reports_and_cancel(tmp_path):
    path = big_ris(tmp_path)
    reports: list[Progress] = []
    res = run_job(read_records(path), reports.append)
    assert len(res.records) == 6000 and len(reports) >= 3
    assert reports[-1].done == reports[-1].total == 6000

    token = CancelToken()
    job = read_records(path, token=token)
    next(job)
    token.cancel()
    with pytest.raises(JobCancelled, match='^cancelled'):  # reading, not importing
        run_job(job)


def test_where_on_record_fields_and_lists(tmp_path):
    res = run_job(read_records(big_ris(tmp_path, 9), where={"keywords": "k1"}))
    assert [r.title for r in res.records] == ["Title 1", "Title 4", "Title 7"]
    res = run_job(read_records(FIX / "scopus.csv", where={"Document Type": "article"}))
    assert len(res.records) == 2


def test_where_without_match_lists_values_found():
    with pytest.raises(ImportRefused, match=r"no record matches groups='Core'.*'My core set'"):
        run_job(read_records(FIX / "jabref.bib", where={"groups": "Core"}))


def test_trec_all_topics_rank_per_topic():
    res = run_job(read_records(FIX / "run.txt"))
    assert [(r.raw["topic"], r.rank) for r in res.records] == [
        ("401", 1), ("401", 2), ("401", 3), ("401", 4), ("402", 1), ("402", 2)]
    assert any("2 topics" in note for note in res.notes)


def test_scaled_maps_a_phase_onto_its_share_and_never_goes_back():
    def phase():
        yield Progress(1, 2, "half")
        yield Progress(0, 4, "")  # a new step starting at 0 must not move the bar back
        yield Progress(4, 4, "all")
        return "value"

    reports: list[Progress] = []
    assert run_job(scaled(phase(), 20, 60, 100, "load"), reports.append) == "value"
    assert [(p.done, p.total, p.message) for p in reports] == [
        (40, 100, "load: half"), (40, 100, "load"), (60, 100, "load: all")]
