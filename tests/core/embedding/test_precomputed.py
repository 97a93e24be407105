"""``precomputed``: vectors from a file, matched to records, every miss reported."""

from __future__ import annotations

import json

import numpy as np
import pytest

from litqeval_gui.core.embedding import precomputed
from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.embedding.errors import VectorFileError
from litqeval_gui.core.embedding.precomputed import (
    PrecomputedBackend,
    match_vectors,
    read_vectors,
)
from litqeval_gui.core.jobs import run_job

DOCS = [
    Document("Heart failure in the elderly", doi="10.1000/heart.1"),
    Document("Statins after infarction", ids={"pmid": "123456"}),
    Document("Galaxy rotation curves: a review"),
    Document("Quasar spectra", doi="10.1000/quasar.9"),
]
# Row i of the file, its id, and the record it should reach.
ROWS = [[3.0, 4.0], [0.0, 2.0], [1.0, 1.0], [5.0, 0.0]]
IDS = ["https://doi.org/10.1000/HEART.1", "PMID: 123456", "galaxy rotation curves — a review",
       "10.9999/nobody"]


def write_npy(tmp_path, rows=ROWS, ids=IDS):
    np.save(tmp_path / "v.npy", np.asarray(rows))
    (tmp_path / "ids.txt").write_text("\n".join(ids) + "\n")
    return read_vectors(tmp_path / "v.npy", tmp_path / "ids.txt")


def embed(vector_file, docs=DOCS):
    return run_job(PrecomputedBackend(vector_file, model="test-model").embed(docs))


def test_npy_rows_match_by_doi_identifier_and_title_and_misses_are_counted(tmp_path):
    vector_file = write_npy(tmp_path)
    taken, report = run_job(match_vectors(vector_file, DOCS))
    assert taken.tolist() == [0, 1, 2, -1]
    assert report.by_key == {"doi": 1, "identifier": 1, "title": 1}
    assert report.unmatched_ids == ("10.9999/nobody",)
    assert report.without_vector == (3,)
    result = embed(vector_file)
    assert result.rows.tolist() == [0, 1, 2]
    np.testing.assert_allclose(result.vectors, [[0.6, 0.8], [0, 1], [2**-0.5, 2**-0.5]],
                               rtol=1e-6)
    assert result.vectors.dtype == np.float32
    assert result.notes == (
        "3 of 4 records got one of 4 2-dimensional vectors (1 by doi, 1 by identifier, "
        "1 by title)",
        "1 records have no vector, e.g. 10.1000/quasar.9",
        "1 ids in the file match no record, e.g. '10.9999/nobody'",
    )
    assert result.info.name == "precomputed" and result.info.model == "test-model"


def test_a_doi_match_wins_over_a_title_match_and_the_other_id_is_reported(tmp_path):
    docs = [Document("Heart failure in the elderly", doi="10.1000/heart.1")]
    vector_file = write_npy(tmp_path, [[1.0, 0.0], [0.0, 1.0]],
                            ["Heart failure in the elderly", "10.1000/heart.1"])
    taken, report = run_job(match_vectors(vector_file, docs))
    assert taken.tolist() == [1]
    assert report.by_key == {"doi": 1, "identifier": 0, "title": 0}
    assert report.unused_ids == ("Heart failure in the elderly",)


def test_one_work_in_several_records_gets_its_vector_in_each(tmp_path):
    docs = [Document("A", doi="10.1000/x"), Document("A (copy)", doi="10.1000/X")]
    vector_file = write_npy(tmp_path, [[1.0, 2.0]], ["10.1000/x"])
    assert run_job(match_vectors(vector_file, docs))[0].tolist() == [0, 0]


def test_csv_with_header_and_jsonl_read_the_same_vectors(tmp_path):
    lines = ["id,d0,d1"] + [f'"{i}",{r[0]},{r[1]}' for i, r in zip(IDS, ROWS, strict=True)]
    (tmp_path / "v.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "v.jsonl").write_text("".join(
        json.dumps({"id": i, "embedding": r}) + "\n\n" for i, r in zip(IDS, ROWS, strict=True)))
    from_npy = write_npy(tmp_path)
    for name in ("v.csv", "v.jsonl"):
        vector_file = read_vectors(tmp_path / name)
        assert vector_file.ids == tuple(IDS)
        assert vector_file.vectors.tobytes() == from_npy.vectors.tobytes()
        assert vector_file.digest() == from_npy.digest()


@pytest.mark.parametrize(("name", "text", "message"), [
    ("ragged.csv", "a,1,2\nb,1,2,3\n", "line 2 (id 'b') has 3 dimensions; line 1 has 2"),
    ("ragged.jsonl", '{"id": "a", "vector": [1, 2]}\n{"id": "b", "vector": [1]}\n',
     "line 2 (id 'b') has 1 dimensions; line 1 has 2"),
    ("nan.csv", "a,1,2\nb,nan,2\nc,inf,1\n", "line 2 (id 'b') has NaN or infinite values (2 such"),
    ("zero.csv", "a,1,2\nb,0,0\n", "line 2 (id 'b') is all zeros"),
    ("twice.csv", "a,1,2\na,2,1\n", "id 'a' appears twice (line 1 and line 2)"),
    ("word.csv", "a,1,2\nb,1,x\n", "line 2: 'x' is not a number"),
    ("first.csv", "a,1,x\nb,1,2\n", "line 1: 'x' is not a number"),
    ("nested.jsonl", '{"id": "a", "vector": [[1, 2]]}\n', "line 1 (id 'a') has no vector"),
    ("text.jsonl", '{"id": "a", "vector": ["one"]}\n', "line 1: the vector is not a list"),
    ("noid.jsonl", '{"vector": [1, 2]}\n', 'needs an object with "id"'),
    ("broken.jsonl", '{"id": "a", "vector": [1, 2\n', "line 1 is not JSON"),
    ("empty.csv", "\n\n", "no vectors in the file"),
    ("vectors.txt", "a 1 2\n", "unknown vector file type '.txt'"),
])
def test_hostile_text_files_give_one_clear_line(tmp_path, name, text, message):
    (tmp_path / name).write_text(text)
    with pytest.raises(VectorFileError) as err:
        read_vectors(tmp_path / name)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_npy_shape_dtype_and_id_count_are_checked(tmp_path):
    np.save(tmp_path / "cube.npy", np.ones((2, 2, 2)))
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    (tmp_path / "ids.txt").write_text("a\nb\n")
    with pytest.raises(VectorFileError, match=r"shape \(2, 2, 2\)"):
        read_vectors(tmp_path / "cube.npy", tmp_path / "ids.txt")
    with pytest.raises(VectorFileError, match="not a readable numeric .npy"):
        read_vectors(tmp_path / "objects.npy", tmp_path / "ids.txt")
    np.save(tmp_path / "none.npy", np.ones((0, 3)))
    (tmp_path / "no-ids.txt").write_text("")
    with pytest.raises(VectorFileError, match=r"no vectors in the file \(shape \(0, 3\)\)"):
        read_vectors(tmp_path / "none.npy", tmp_path / "no-ids.txt")
    with pytest.raises(VectorFileError, match="needs an id list"):
        read_vectors(tmp_path / "cube.npy")
    with pytest.raises(VectorFileError, match="3 ids for the 4 rows"):
        write_npy(tmp_path, ROWS, IDS[:3])
    with pytest.raises(VectorFileError, match="line 2 is empty"):
        write_npy(tmp_path, ROWS, ["a", "", "b", "c"])


def test_huge_files_are_refused_before_they_are_loaded(tmp_path, monkeypatch):
    monkeypatch.setattr(precomputed, "MAX_LINE_CHARS", 50)
    (tmp_path / "long.csv").write_text("a," + ",".join(["1"] * 40) + "\n")
    with pytest.raises(VectorFileError, match="line 1 is longer than 50 characters"):
        read_vectors(tmp_path / "long.csv")
    monkeypatch.setattr(precomputed, "MAX_VALUES", 5)
    (tmp_path / "many.csv").write_text("a,1,2\nb,1,2\nc,1,2\n")
    with pytest.raises(VectorFileError, match="more than 5 numbers"):
        read_vectors(tmp_path / "many.csv")
    with pytest.raises(VectorFileError, match="more than 5 numbers"):
        write_npy(tmp_path)
