"""The bundled demo project: content, determinism, safety and embedding structure.

The demo is built once for the module (about 10 s); one more build checks determinism.
"""

import json
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer

from litqeval_gui.core.demo import build_demo
from litqeval_gui.core.errors import ImportCancelled, JobCancelled, ProjectError, ProjectLockedError
from litqeval_gui.core.evaluation import recall_report
from litqeval_gui.core.jobs import CancelToken, run_job
from litqeval_gui.core.projectfile.locking import ProjectLock
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.matches import matches
from litqeval_gui.core.records.queries import lists

TOPICS = [
    "Deep learning for polyp detection in colonoscopy",
    "Soil carbon sequestration under cover crops",
    "Misinformation spread on social media",
]
BROAD, NARROW = (1500, 2500), (200, 500)  # distinct works in a result list


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    path = tmp_path_factory.mktemp("demo") / "demo.litq"
    progress = []
    assert run_job(build_demo(path), progress.append) == path
    project = Project.open(path)
    yield project, progress
    project.close()


def _titles(project):
    return [t for (t,) in project.db.execute("SELECT title FROM records ORDER BY id")]


def test_topics_lists_and_sizes(demo):
    project, _ = demo
    names = [n for (n,) in project.db.execute("SELECT name FROM topics ORDER BY id")]
    assert names == TOPICS
    for topic in TOPICS:
        infos = lists(project, topic)
        core = [i for i in infos if i.role == "core"]
        results = {i.name.split()[0]: i for i in infos if i.role == "results"}
        assert len(core) == 1 and 25 <= core[0].size <= 50
        assert set(results) == {"broad", "narrow"}
        assert BROAD[0] <= results["broad"].size <= BROAD[1]
        assert NARROW[0] <= results["narrow"].size <= NARROW[1]
        assert all(i.query for i in results.values())


def test_real_importers_are_exercised(demo):
    project, _ = demo
    formats = {(i.format, i.database) for t in TOPICS for i in lists(project, t)}
    assert {f for f, _ in formats} == {"ris", "csv", "medline", "bibtex", "xlsx"}
    assert ("csv", "scopus") in formats and ("medline", "pubmed") in formats
    rejected = project.db.execute("SELECT SUM(n_rejected) FROM imports").fetchone()[0]
    assert rejected == 0


# Each list's (read, new, duplicate, matched) as the demo built it with its own Scopus and
# PubMed writers (seed 2024), before every file went through core/exporting.
IMPORTED = [
    ("core set (Zotero)", 40, 40, 0, 0), ("broad (Scopus)", 2100, 2068, 32, 32),
    ("narrow (PubMed)", 320, 59, 261, 28), ("core set (JabRef)", 32, 32, 0, 0),
    ("broad (Web of Science)", 1700, 1672, 28, 28), ("narrow (Scopus)", 260, 60, 200, 23),
    ("core set (spreadsheet)", 45, 45, 0, 0), ("broad (Scopus)", 2400, 2364, 36, 36),
    ("narrow (Web of Science)", 410, 58, 352, 27),
]


def test_lists_import_as_they_did_before_the_writers_moved(demo):
    project, _ = demo
    assert project.db.execute("SELECT name, n_read, n_new, n_duplicate, n_matched "
                              "FROM imports ORDER BY id").fetchall() == IMPORTED
    scopus = project.db.execute(
        "SELECT COUNT(*), SUM(json_extract(r.ids, '$.scopus_eid') LIKE '2-s2.0-85%'), "
        "SUM(r.url LIKE 'https://www.scopus.com/%'), SUM(r.volume != '' AND r.pages LIKE '%-%'),"
        " SUM(r.authors LIKE '%.\"%') FROM records r JOIN imports i ON i.id = r.import_id "
        "WHERE i.database = 'scopus'").fetchone()
    assert scopus == (4760,) * 5  # EIDs, links, pages and short author names, as Scopus
    pubmed = project.db.execute(
        "SELECT COUNT(*), SUM(r.language = 'eng'), SUM(r.pmid != '') FROM records r "
        "JOIN imports i ON i.id = r.import_id WHERE i.database = 'pubmed'").fetchone()
    assert pubmed == (320,) * 3


def test_recall_is_below_one_and_narrow_finds_less(demo):
    project, _ = demo
    for topic in TOPICS:
        report = {r.name.split()[0]: r for r in recall_report(project, topic).lists}
        for entry in report.values():
            assert 0 < entry.recall < 1
            assert entry.missed  # the missed core records are listed
        assert report["narrow"].recall < report["broad"].recall


def test_uncertain_matches_include_a_preprint(demo):
    project, _ = demo
    for topic in TOPICS:
        uncertain = matches(project, topic, uncertain=True)
        assert 1 <= len(uncertain) <= 15
        preprints = [m for m in uncertain if m.a.role == "core" or m.b.role == "core"
                     if m.a.doi and m.b.doi and m.a.doi != m.b.doi
                     and abs(m.a.year - m.b.year) == 1]
        assert preprints, topic


def test_progress_is_reported_and_ends_complete(demo):
    _, progress = demo
    assert len(progress) > 20
    assert progress[-1].fraction == 1.0
    fractions = [p.fraction for p in progress[:-1]]
    assert fractions == sorted(fractions) and fractions[-1] <= 1.0
    assert any("broad" in p.message for p in progress)


def test_same_seed_gives_the_same_demo(demo, tmp_path):
    project, _ = demo
    again = tmp_path / "again.litq"
    run_job(build_demo(again))
    assert [p.name for p in tmp_path.iterdir()] == ["again.litq"]  # no partial, WAL or lock
    with Project.open(again, readonly=True) as other:
        assert _titles(other) == _titles(project)


def test_refuses_an_existing_path(tmp_path):
    path = tmp_path / "mine.litq"
    path.write_text("not mine to overwrite")
    with pytest.raises(ProjectError, match="already exists"):
        run_job(build_demo(path))
    assert path.read_text() == "not mine to overwrite"


def test_cancel_leaves_no_file(tmp_path):
    path = tmp_path / "demo.litq"
    token = CancelToken()

    def cancel_in_second_import(progress):
        if "broad" in progress.message:
            token.cancel()

    with pytest.raises(ImportCancelled):
        run_job(build_demo(path, token), cancel_in_second_import)
    assert list(tmp_path.iterdir()) == []


def test_a_partial_demo_left_by_a_killed_build_is_replaced(tmp_path):
    path = tmp_path / "demo.litq"
    partial = tmp_path / "demo.litq.tmp"
    partial.write_text("half a database")
    Path(f"{partial}-wal").write_text("x")
    Path(f"{partial}.lock").write_text(json.dumps({"pid": _dead_pid(),
                                                   "host": socket.gethostname()}))
    token = CancelToken()
    token.cancel()  # stop at the first step: past creating the project file
    with pytest.raises(JobCancelled):
        run_job(build_demo(path, token))
    assert list(tmp_path.iterdir()) == []


def test_a_partial_demo_of_a_live_build_is_left_alone(tmp_path):
    partial = tmp_path / "demo.litq.tmp"
    partial.write_text("being built")
    lock = ProjectLock(partial)
    lock.acquire()  # this process is the live builder
    try:
        with pytest.raises(ProjectLockedError, match="another window"):
            run_job(build_demo(tmp_path / "demo.litq"))
        assert partial.read_text() == "being built"
    finally:
        lock.release()


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_closing_the_job_leaves_no_file(tmp_path):
    path = tmp_path / "demo.litq"
    job = build_demo(path)
    for _ in range(3):
        next(job)
    job.close()
    assert list(tmp_path.iterdir()) == []


def test_topics_separate_and_core_records_cluster(demo):
    """TF-IDF + LSA(100) on title + abstract of every record (SPEC §1 embeds the same text)."""
    project, _ = demo
    rows = project.db.execute(
        "SELECT t.name, i.role, r.work_id, r.title || ' ' || COALESCE(r.abstract, '') "
        "FROM records r JOIN imports i ON i.id = r.import_id JOIN topics t ON t.id = r.topic_id "
        "ORDER BY r.id").fetchall()
    topic = np.array([r[0] for r in rows])
    role = np.array([r[1] for r in rows])
    work = np.array([r[2] for r in rows])
    tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(
        [r[3] for r in rows])
    emb = TruncatedSVD(100, random_state=0).fit_transform(tfidf)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)

    def centroid(mask):
        c = emb[mask].mean(axis=0)
        return c / np.linalg.norm(c)

    centroids = np.array([centroid(topic == t) for t in TOPICS])
    predicted = np.array(TOPICS)[(emb @ centroids.T).argmax(axis=1)]
    assert (predicted == topic).mean() >= 0.95  # measured 0.999
    for t in TOPICS:
        core = (topic == t) & (role == "core")
        c = centroid(core)
        non_core = (topic == t) & (role == "results") & ~np.isin(work, work[core])
        margin = (emb[core] @ c).mean() - (emb[non_core] @ c).mean()
        assert margin >= 0.3, (t, margin)  # measured 0.38-0.45
