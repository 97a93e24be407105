"""A process embedding a topic is SIGKILLed between two committed chunks: the project
opens, and the next run resumes and finishes with the vectors a clean run makes."""

import signal
import subprocess
import sys
import textwrap

import numpy as np

from litqeval_gui.core.embedding.lsa import LsaBackend
from litqeval_gui.core.evaluation.vector_store import (
    documents,
    embed_topic,
    latest_set,
    live_record_ids,
    load_vectors,
)
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import CHUNK_ROWS
from tests.support.synthetic import topic_records
from tests.support.topics import TOPIC, import_list, write_list

EMBEDDER = textwrap.dedent(f"""
    import sys, time
    from litqeval_gui.core.embedding.lsa import LsaBackend
    from litqeval_gui.core.evaluation.vector_store import embed_topic
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.projectfile.project import Project

    def report(p):
        print(p.done, p.message, flush=True)
        if p.message.endswith("storing vectors {2 * CHUNK_ROWS:,} of 1,350"):
            time.sleep(60)  # two chunks are committed: wait here for the kill
    with Project.open(sys.argv[1]) as project:
        run_job(embed_topic(project, {TOPIC!r}, LsaBackend()), report)
    print("finished", flush=True)
""")


def test_sigkill_mid_embedding_then_the_next_run_resumes(tmp_path):
    path = tmp_path / "p.litq"
    records = [r for topic in ("cardiology", "astronomy", "linguistics")
               for r in topic_records(topic, 450)]
    with Project.create(path) as project:
        import_list(project, write_list(records, tmp_path / "all.ris"), "results", "all")
    child = subprocess.Popen([sys.executable, "-c", EMBEDDER, str(path)],
                             stdout=subprocess.PIPE, text=True)
    lines = []
    for line in child.stdout:
        lines.append(line.strip())
        if f"storing vectors {2 * CHUNK_ROWS:,}" in line:
            child.send_signal(signal.SIGKILL)
            break
    child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL, lines
    with Project.open(path) as project:
        emb = latest_set(project.db, project.topic_id(TOPIC), "lsa")
        assert emb.state == "pending"
        assert project.db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0] == 2 * CHUNK_ROWS
        done = run_job(embed_topic(project, TOPIC, LsaBackend()))
        assert done.id == emb.id and done.state == "done"
        live = live_record_ids(project.db, done.topic_id)
        fresh = run_job(LsaBackend().embed(documents(project.db, live.tolist())))
        ids, vectors = load_vectors(project.db, done)
        assert np.array_equal(ids, live[fresh.rows])
        assert np.array_equal(vectors, fresh.vectors)
