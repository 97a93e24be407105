"""Issue 27 §4: hostile vector files are refused with one line (a VectorFileError, exit 2
in the CLI), and a large .npy is read and scaled in bounded blocks."""

from __future__ import annotations

import re

import numpy as np
import pytest

from litqeval_gui import cli
from litqeval_gui.core.embedding import precomputed
from litqeval_gui.core.embedding.errors import VectorFileError
from litqeval_gui.core.embedding.precomputed import read_vectors


def _npy_with_shape(tmp_path, shape: str):
    np.save(tmp_path / "v.npy", np.ones((2, 3)))
    data = (tmp_path / "v.npy").read_bytes()
    header_end = data.index(b"\n") + 1
    header = data[:header_end].replace(b"(2, 3)", shape.encode()).ljust(header_end - 1)
    (tmp_path / "bad.npy").write_bytes(header[:header_end - 1] + b"\n" + data[header_end:])
    (tmp_path / "ids.txt").write_text("a\nb\n")
    return tmp_path / "bad.npy"


@pytest.mark.parametrize("shape", ["(-2, 3)", "(2, -3)", "(-2, -3)", "(99999999999999999999, 3)"])
def test_a_negative_or_absurd_shape_in_the_npy_header_is_refused(tmp_path, shape):
    path = _npy_with_shape(tmp_path, shape)
    with pytest.raises(VectorFileError, match="bad.npy: "):
        read_vectors(path, tmp_path / "ids.txt")


HOSTILE_JSONL = {
    "deep": ("[" * 200_000 + "]" * 200_000, "line 1 is nested too deeply"),
    "digits": ('{"id": "a", "vector": [' + "1" * 5000 + "]}",
               "line 1: Exceeds the limit (4300 digits)"),
    "digit id": ('{"id": ' + "7" * 5000 + ', "vector": [1, 2]}',
                 "line 1: Exceeds the limit (4300 digits)"),
    "lone surrogate": ('{"id": "ok", "vector": [1, 2]}\n{"id": "x\\ud800", "vector": [1, 2]}',
                       "line 2: the id is not text (surrogates not allowed: '\\ud800')"),
    "300 digits": ('{"id": "a", "vector": [1' + "0" * 300 + ', 1]}',
                   "line 1 (id 'a'): the value 1e+300 is beyond float32's range (±3.4e+38)"),
    "400 digits": ('{"id": "a", "vector": [1' + "0" * 400 + ', 1]}',
                   "line 1: a number beyond float32's range (±3.4e+38)"),
    "1e300": ('{"id": "a", "vector": [1, 2]}\n{"id": "b", "vector": [1e300, 2]}',
              "line 2 (id 'b'): the value 1e+300 is beyond float32's range"),
}


@pytest.mark.filterwarnings("error")  # and no numpy warning before it
@pytest.mark.parametrize("case", HOSTILE_JSONL)
def test_hostile_jsonl_is_one_line(tmp_path, case):
    text, message = HOSTILE_JSONL[case]
    path = tmp_path / "v.jsonl"
    path.write_text(text + "\n")
    with pytest.raises(VectorFileError, match=re.escape(message)) as caught:
        read_vectors(path)
    assert "\n" not in str(caught.value)


def test_the_cli_says_one_line_and_exits_2(tmp_path, capsys):
    project = tmp_path / "p.litq"
    assert cli.main(["new", str(project)]) == 0
    path = tmp_path / "v.jsonl"
    path.write_text("[" * 200_000 + "]" * 200_000 + "\n")
    capsys.readouterr()
    code = cli.main(["embed", str(project), "--topic", "T", "--backend", "precomputed",
                     "--vectors", str(path)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "nested too deeply" in err


def test_a_large_npy_is_scaled_block_by_block_as_a_whole(tmp_path, monkeypatch):
    """Blocks of 3 rows (CHUNK_VALUES 6, dim 2): the result is the whole-matrix one, and a
    bad row is named by its place in the file with the count over every block."""
    monkeypatch.setattr(precomputed, "CHUNK_VALUES", 6)
    rows = np.arange(1, 23, dtype=np.float64).reshape(11, 2)
    np.save(tmp_path / "v.npy", rows)
    (tmp_path / "ids.txt").write_text("".join(f"r{i}\n" for i in range(11)))
    got = read_vectors(tmp_path / "v.npy", tmp_path / "ids.txt")
    expected = (rows / np.linalg.norm(rows, axis=1)[:, None]).astype(np.float32)
    assert np.array_equal(got.vectors, expected) and got.ids[10] == "r10"
    np.save(tmp_path / "f.npy", np.asfortranarray(rows))  # strided rows: read via the map
    fortran = read_vectors(tmp_path / "f.npy", tmp_path / "ids.txt")
    assert np.array_equal(fortran.vectors, expected)
    rows[[4, 7, 8]] = 0.0
    rows[9, 1] = np.nan
    np.save(tmp_path / "v.npy", rows)
    with pytest.raises(VectorFileError, match=r"row 10 \(id 'r9'\) has NaN or infinite "
                                              r"values \(1 such rows\)"):
        read_vectors(tmp_path / "v.npy", tmp_path / "ids.txt")
    rows[9, 1] = 1.0
    np.save(tmp_path / "v.npy", rows)
    with pytest.raises(VectorFileError, match=r"row 5 \(id 'r4'\) is all zeros \(3 such rows\)"):
        read_vectors(tmp_path / "v.npy", tmp_path / "ids.txt")


def test_a_npy_cut_short_is_refused(tmp_path):
    np.save(tmp_path / "v.npy", np.ones((40, 2)))
    data = (tmp_path / "v.npy").read_bytes()
    (tmp_path / "v.npy").write_bytes(data[:-16])
    (tmp_path / "ids.txt").write_text("".join(f"r{i}\n" for i in range(40)))
    with pytest.raises(VectorFileError, match="v.npy: "):
        read_vectors(tmp_path / "v.npy", tmp_path / "ids.txt")
