"""Vectors and maps in the project: stored once, resumable, stale when records change."""

import json
import threading

import numpy as np
import pytest

from litqeval_gui.core.embedding.errors import EmbeddingError, EmbeddingPaused
from litqeval_gui.core.embedding.lsa import LsaBackend
from litqeval_gui.core.embedding.precomputed import PrecomputedBackend, read_vectors
from litqeval_gui.core.embedding.registry import backend_by_name
from litqeval_gui.core.evaluation import vector_store
from litqeval_gui.core.evaluation.map_store import load_map, map_topic
from litqeval_gui.core.evaluation.vector_store import (
    decode,
    documents,
    embed_topic,
    encode,
    latest_set,
    live_record_ids,
    load_vectors,
    set_status,
)
from litqeval_gui.core.jobs import NEVER, CancelToken, run_job
from litqeval_gui.core.projectfile.changes import NOTHING
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import CHUNK_ROWS, WritePath
from tests.support.paused import noted_rows
from tests.support.synthetic import topic_records
from tests.support.topics import TOPIC, build_topic, import_list, write_list


class Counting:
    """A backend wrapper counting the documents it was asked to embed."""

    def __init__(self, backend):
        self.backend = backend
        self.seen = []

    @property
    def info(self):
        return self.backend.info

    def embed(self, docs, token=NEVER):
        self.seen.append(len(docs))
        return (yield from self.backend.embed(docs, token))


def test_encode_decode_round_trip_keeps_dtype_shape_and_bytes():
    vector = np.random.default_rng(0).standard_normal(7).astype(np.float32)
    dtype, shape, data = encode(vector)
    assert (dtype, json.loads(shape), len(data)) == ("<f4", [7], 28)
    back = decode(dtype, shape, data)
    assert back.dtype == np.float32 and np.array_equal(back, vector)


def test_vectors_are_computed_once_and_equal_the_backend_on_the_topics_records(tmp_path):
    path = build_topic(tmp_path / "p.litq")
    with Project.open(path) as project:
        topic_id = project.topic_id(TOPIC)
        assert set_status(project.db, topic_id, "lsa") == "missing"
        counting = Counting(LsaBackend())
        emb = run_job(embed_topic(project, TOPIC, counting))
        assert emb.state == "done" and set_status(project.db, topic_id, "lsa") == "ready"
        live = live_record_ids(project.db, topic_id)
        assert counting.seen == [live.size]
        run_job(embed_topic(project, TOPIC, counting))
        assert counting.seen == [live.size]  # nothing computed again
        ids, stored = load_vectors(project.db, emb)
        fresh = run_job(LsaBackend().embed(documents(project.db, live.tolist())))
        assert np.array_equal(ids, live[fresh.rows]) and np.array_equal(stored, fresh.vectors)
        assert emb.info.params["max_dim"] == 256 and emb.dim == fresh.dim


def _paused_after_two_chunks(project, tmp_path) -> EmbeddingPaused:
    """Import 1 350 records of three topics into ``project`` and embed them with lsa,
    cancelled once two chunks of vectors are stored; the pause it raised."""
    records = [r for topic in ("cardiology", "astronomy", "linguistics")
               for r in topic_records(topic, 450)]
    import_list(project, write_list(records, tmp_path / "all.ris"), "results", "all")
    token = CancelToken()

    def cancel_after_two_chunks(progress):
        if progress.message.startswith(f"storing vectors {2 * CHUNK_ROWS:,}"):
            token.cancel()

    with pytest.raises(EmbeddingPaused) as paused:
        run_job(embed_topic(project, TOPIC, LsaBackend(), token), cancel_after_two_chunks)
    return paused.value


def test_a_cancelled_embedding_keeps_its_committed_chunks_and_the_next_run_finishes_them(
        tmp_path):
    with Project.create(tmp_path / "p.litq") as project:
        paused = _paused_after_two_chunks(project, tmp_path)
        assert "1,000 of 1,350 vectors are stored" in str(paused)
        emb = latest_set(project.db, project.topic_id(TOPIC), "lsa")
        assert emb.state == "pending"
        stored = project.db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
        assert stored == 2 * CHUNK_ROWS
        counting = Counting(LsaBackend())
        done = run_job(embed_topic(project, TOPIC, counting))
        assert done.id == emb.id and done.state == "done"
        assert project.db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0] == 1350
        live = live_record_ids(project.db, done.topic_id)
        fresh = run_job(LsaBackend().embed(documents(project.db, live.tolist())))
        assert np.array_equal(load_vectors(project.db, done)[1], fresh.vectors)


def test_an_import_makes_lsa_vectors_and_the_map_stale_and_both_are_recomputed(tmp_path):
    path = build_topic(tmp_path / "p.litq")
    with Project.open(path) as project:
        topic_id = project.topic_id(TOPIC)
        emb = run_job(embed_topic(project, TOPIC, LsaBackend()))
        stored = run_job(map_topic(project, emb, "pca"))
        assert not stored.stale and stored.coords.shape == (len(stored.record_ids), 2)
        assert 0 < stored.fidelity <= 1
        again = load_map(project.db, emb, "pca")
        assert again.id == stored.id and np.array_equal(again.coords, stored.coords)
        more = topic_records("linguistics", 30)
        import_list(project, write_list(more, tmp_path / "more.ris"), "results", "more")
        assert set_status(project.db, topic_id, "lsa") == "stale"
        assert load_map(project.db, emb, "pca").stale
        new = run_job(embed_topic(project, TOPIC, LsaBackend()))
        assert new.id != emb.id and set_status(project.db, topic_id, "lsa") == "ready"
        assert project.db.execute("SELECT COUNT(*) FROM embedding_sets").fetchone()[0] == 1
        assert project.db.execute("SELECT COUNT(*) FROM maps").fetchone()[0] == 0  # went with it
        remapped = run_job(map_topic(project, new, "pca"))
        assert not remapped.stale and len(remapped.record_ids) == len(stored.record_ids) + 30


def _vector_file(tmp_path, keyed):
    """A JSONL file of (id, vector) rows."""
    path = tmp_path / "vectors.jsonl"
    path.write_text("".join(json.dumps({"id": key, "vector": vector}) + "\n"
                            for key, vector in keyed))
    return path


def test_precomputed_vectors_match_by_doi_and_title_and_report_what_has_none(tmp_path):
    path = build_topic(tmp_path / "p.litq", n_core=6, found=3, extra=4, noise=0)
    with Project.open(path) as project:
        topic_id = project.topic_id(TOPIC)
        rows = project.db.execute("SELECT MIN(id), doi, title FROM live_records WHERE "
                                  "topic_id = ? GROUP BY work_id ORDER BY 1",
                                  [topic_id]).fetchall()  # one record per work
        rng = np.random.default_rng(1)
        keyed, want = [], {}
        for i, (key, doi, title) in enumerate(rows[:8]):
            vector = rng.standard_normal(5).round(3).tolist()
            keyed.append((doi if i % 2 else title, vector))
            want[key] = np.asarray(vector, np.float32) / np.linalg.norm(vector)
        keyed.append(("10.9999/nobody", [1, 2, 3, 4, 5]))
        backend = PrecomputedBackend(read_vectors(_vector_file(tmp_path, keyed)), "test-model")
        emb = run_job(embed_topic(project, TOPIC, backend))
        ids, vectors = load_vectors(project.db, emb)
        assert set(ids.tolist()) >= set(want)  # and the same works' other records
        n_records = project.db.execute("SELECT COUNT(*) FROM live_records").fetchone()[0]
        for key, vector in zip(ids.tolist(), vectors, strict=True):
            if key in want:
                np.testing.assert_allclose(vector, want[key], rtol=1e-6)
        assert emb.info.model == "test-model" and emb.dim == 5
        assert any("have no vector" in note for note in emb.notes)
        assert any("1 ids in the file match no record" in note for note in emb.notes)
        null = project.db.execute("SELECT COUNT(*) FROM vectors WHERE set_id = ? AND data IS "
                                  "NULL", [emb.id]).fetchone()[0]
        assert null == n_records - len(ids) > 0


def test_precomputed_rows_of_different_widths_are_refused(tmp_path):
    path = _vector_file(tmp_path, [("10.1/a", [1.0, 0.0, 0.0]), ("10.1/b", [1.0, 0.0])])
    with pytest.raises(Exception, match="line 2") as err:
        backend_by_name("precomputed", path)
    assert "3" in str(err.value) and "2" in str(err.value)


def test_per_record_vectors_embed_only_the_records_of_a_new_import(tmp_path):
    path = build_topic(tmp_path / "p.litq", n_core=6, found=3, extra=4, noise=0)
    with Project.open(path) as project:
        rows = project.db.execute("SELECT MIN(id), doi FROM live_records GROUP BY work_id "
                                  "ORDER BY 1").fetchall()
        more = topic_records("astronomy", 3)
        keyed = [(doi, [float(i), 1.0, 0.5]) for i, (_, doi) in enumerate(rows)]
        keyed += [(r.doi, [0.0, 1.0, float(i)]) for i, r in enumerate(more)]
        counting = Counting(PrecomputedBackend(read_vectors(_vector_file(tmp_path, keyed))))
        emb = run_job(embed_topic(project, TOPIC, counting))
        import_list(project, write_list(more, tmp_path / "more.ris"), "results", "more")
        assert set_status(project.db, emb.topic_id, "precomputed") == "stale"
        again = run_job(embed_topic(project, TOPIC, counting))
        n_records = project.db.execute("SELECT COUNT(*) FROM live_records").fetchone()[0]
        assert again.id == emb.id and counting.seen == [n_records - 3, 3]
        assert vector_store.missing_records(project.db, again).size == 0


def test_backends_are_chosen_by_name_and_an_unknown_name_is_refused():
    assert backend_by_name("lsa").info.name == "lsa"
    assert backend_by_name("minilm").info.name == "minilm"  # loads its model only to embed
    with pytest.raises(EmbeddingError, match="unknown embedding backend 'word2vec'"):
        backend_by_name("word2vec")
    with pytest.raises(EmbeddingError, match="needs a vector file"):
        backend_by_name("precomputed")


def test_a_resumed_lsa_set_is_rewritten_from_one_fit(tmp_path):
    """Rows committed by a fit in another process (here: one component's sign flipped,
    as svd_flip can do when a fit differs in its last bits) never stay beside the
    resumed fit's rows."""
    with Project.create(tmp_path / "p.litq") as project:
        _paused_after_two_chunks(project, tmp_path)
        rows = project.db.execute("SELECT record_id, data FROM vectors").fetchall()
        other_fit = []
        for record_id, data in rows:
            vector = np.frombuffer(data, dtype=np.float32).copy()
            vector[-2] = -vector[-2]
            other_fit.append((vector.tobytes(), record_id))
        project.db.conn.executemany("UPDATE vectors SET data = ? WHERE record_id = ?", other_fit)
        project.db.conn.commit()
        done = run_job(embed_topic(project, TOPIC, LsaBackend()))
        live = live_record_ids(project.db, done.topic_id)
        fresh = run_job(LsaBackend().embed(documents(project.db, live.tolist())))
        assert np.array_equal(load_vectors(project.db, done)[1], fresh.vectors)


def test_merged_vectors_of_a_resumed_lsa_set_are_what_is_read_back(tmp_path):
    """The evaluation maps and scores the merged vectors before reading the set back:
    a resumed lsa set rewrites every row, so the paused rows must not stay beside them."""
    with Project.create(tmp_path / "p.litq") as project:
        _paused_after_two_chunks(project, tmp_path)
        plan = vector_store.plan_embedding(project, TOPIC, LsaBackend(), with_existing=True)
        assert plan.existing[0].size == 2 * CHUNK_ROWS and plan.todo.size == 1350
        result = run_job(vector_store.compute_embedding(plan))
        ids, vectors = vector_store.merged_vectors(plan, result)
        done = run_job(vector_store.store_embedding(project, plan, result))
        stored_ids, stored = load_vectors(project.db, done)
        assert ids.size == 1350 and np.array_equal(ids, stored_ids)
        assert np.array_equal(vectors, stored)


def test_storing_vectors_gives_way_to_a_decision_after_one_row(tmp_path, monkeypatch):
    """A decision queued while an embedding stores its vectors waits for the row being
    written, not for a chunk of CHUNK_ROWS rows."""
    with Project.create(tmp_path / "p.litq") as project:
        import_list(project, write_list(topic_records("cardiology", CHUNK_ROWS + 50),
                                        tmp_path / "all.ris"), "results", "all")
        project.writes = WritePath(project)
        written, first_row, go_on, outcome = [], threading.Event(), threading.Event(), {}
        insert = vector_store._insert_vectors

        def held(p, rows):
            return insert(p, noted_rows(rows, written, first_row, go_on))

        def job():
            sibling = project.sibling()
            try:
                outcome["set"] = run_job(embed_topic(sibling, TOPIC, LsaBackend()))
            finally:
                sibling.close()

        monkeypatch.setattr(vector_store, "_insert_vectors", held)
        worker = threading.Thread(target=job)
        worker.start()
        try:
            assert first_row.wait(60)
            decision = project.writes.submit(lambda p: written.append("decision") or NOTHING)
        finally:
            go_on.set()
            worker.join(60)
        assert decision.result(10) == NOTHING
        project.writes.close()
        assert written.index("decision") == 1
        assert outcome["set"].state == "done" and len(written) == CHUNK_ROWS + 51
