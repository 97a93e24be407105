"""Property-based corruption of what an evaluated project stores (issue 27 §1).

Each case damages one stored value — a vector's bytes, dtype or shape, the vector set's
parameters or notes, the map's coordinates, record ids, shape, parameters or fidelity, a
stored outcome or its relevant mask, an evaluation parameter — in one row or all rows,
by cutting it, flipping bytes or replacing it (text, JSON of another shape, 3e38, NaN…),
then runs ``evaluate`` (also with a θ that makes SP cos read the vectors) or ``report``.

Properties: exit 0 or 2, never 3; exit 2 is one line without a traceback; exit 0 says on
stderr only notes (a damaged cache computed again). Cutting a stored array never gives
silent garbage: either it is refused or the evaluation equals the intact file's.
"""

import contextlib
import io
import json
import shutil
import sqlite3
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from litqeval_gui import cli
from litqeval_gui.core.projectfile.project import Project
from tests.fuzz.support import COUNTS, examples
from tests.support.pooling import pool_project, two_run_layers
from tests.support.topics import build_topic, evaluate_pca

TARGETS = [  # (table, column, blob)
    ("vectors", "data", True), ("vectors", "dtype", False), ("vectors", "shape", False),
    ("embedding_sets", "params", False), ("embedding_sets", "notes", False),
    ("embedding_sets", "dim", False), ("maps", "coords", True), ("maps", "record_ids", True),
    ("maps", "shape", False), ("maps", "dtype", False), ("maps", "params", False),
    ("maps", "fidelity", False), ("evaluation_results", "outcome", False),
    ("evaluation_results", "relevant", True), ("parameters", "value", False),
]
ARRAYS = {("vectors", "data"), ("maps", "coords"), ("maps", "record_ids"),
          ("evaluation_results", "relevant")}
COMMANDS = [("evaluate", "--json"), ("evaluate", "--theta", "0.3", "--json"), ("report",)]

replacement = st.one_of(
    st.sampled_from(["", "[]", "{}", "[15", "null", "true", "\"x\"", "[-1]", "[1e400]",
                     "Infinity", "NaN", "|O", "<f8", "[150, 0]", "[[1, 2, 3]]",
                     '{"method": "cos"}', "9" * 400]),
    st.sampled_from([3e38, -1, 0, 7.5, float("nan"), float("inf"), 2**62]),
    st.binary(max_size=64), st.text(max_size=20),
    st.recursive(st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=3),
                 lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                 max_leaves=8).map(json.dumps),
)
mutation = st.one_of(
    st.tuples(st.just("cut"), st.floats(0, 0.99)),
    st.tuples(st.just("flip"), st.lists(st.tuples(st.integers(0, 10**4), st.integers(1, 255)),
                                        min_size=1, max_size=4)),
    st.tuples(st.just("replace"), replacement),
)


@pytest.fixture(scope="module")
def workspace():
    folder = Path(tempfile.mkdtemp(prefix="litq-fuzz-stored-"))
    base = build_topic(folder / "base.litq", n_core=12, found=9, extra=40, noise=40)
    evaluate_pca(base, save=True)
    intact = {}
    for number, command in enumerate(COMMANDS[:2]):
        copy = Path(shutil.copyfile(base, folder / f"intact{number}.litq"))
        code, out, _ = _run(command[0], copy, "--topic", "cardio", *command[1:])
        assert code == 0
        intact[command] = json.loads(out)
    yield folder, base, intact
    shutil.rmtree(folder, ignore_errors=True)


def _run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def _damage(path: Path, table: str, column: str, blob: bool, one: bool, kind: str,
            arg) -> bool:
    """Damage the column (one row or all); False when the schema refuses the damage."""
    with Project.open(path) as project:
        conn = project.db.conn
        where = f" WHERE rowid = (SELECT MIN(rowid) FROM {table})" if one else ""
        rows = conn.execute(f"SELECT rowid, {column} FROM {table}{where}").fetchall()
        for rowid, value in rows:
            data = (value if isinstance(value, bytes) else
                    str(value).encode("latin-1", "replace") if value is not None else b"")
            if kind == "cut":
                data = data[:int(arg * len(data))]
            elif kind == "flip":
                changed = bytearray(data or b"\0")
                for offset, xor in arg:
                    changed[offset % len(changed)] ^= xor
                data = bytes(changed)
            new = (arg if kind == "replace" else
                   data if blob else data.decode("latin-1"))
            try:
                conn.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", [new, rowid])
            except sqlite3.IntegrityError:  # NULL (NaN binds as NULL) where the schema says no
                return False
    return True


@given(target=st.sampled_from(TARGETS), one=st.booleans(), change=mutation,
       command=st.sampled_from(COMMANDS))
@examples(quick=12, full=600)
def test_damaged_stored_data_is_one_line_or_recomputed_never_internal(
        workspace, target, one, change, command):
    folder, base, intact = workspace
    table, column, blob = target
    case = Path(tempfile.mkdtemp(dir=folder))  # a new path: no cache of another case
    path = Path(shutil.copyfile(base, case / "p.litq"))
    assume(_damage(path, table, column, blob, one, *change))
    argv = [*command, case / "r.html"] if command == ("report",) else command
    code, out, err = _run(argv[0], path, "--topic", "cardio", *argv[1:])
    COUNTS[f"stored data: {table}.{column} exit {code}"] += 1
    assert code in (0, 2), err
    assert "Traceback" not in err and "internal error" not in err, err
    if code == 2:
        assert err.startswith("litqeval: error: ") and err.count("\n") == 1, err
        assert len(err) <= 302
    else:
        assert all(line.startswith("litqeval: note: ") for line in err.splitlines()), err
        if change[0] == "cut" and (table, column) in ARRAYS and command in intact:
            assert json.loads(out) == intact[command]  # never silent garbage
    shutil.rmtree(case, ignore_errors=True)


def test_the_campaign_reads_a_damaged_mask_as_damaged(workspace):
    """The property's premise: the intact evaluation's masks are what a cut one is not."""
    folder, base, intact = workspace
    path = Path(shutil.copyfile(base, Path(tempfile.mkdtemp(dir=folder)) / "p.litq"))
    _damage(path, "evaluation_results", "relevant", True, False, "cut", 0.4)
    code, out, err = _run("evaluate", path, "--topic", "cardio", "--json")
    assert code == 0 and "relevant mask: 2 bytes for 49 rows" in err, err
    assert json.loads(out) == intact[COMMANDS[0]]
    assert np.isfinite([item["recall"] for item in json.loads(out)["lists"]]).all()


POOL_TARGETS = [("pools", "params", False), ("pools", "qrels", False),
                ("pool_runs", "records", True), ("screenings", "source", False),
                ("screenings", "reasons", False)]


@pytest.fixture(scope="module")
def pool_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz-pool")
    path = pool_project(folder, two_run_layers(6, 2)[0])
    code, _, err = _run("pool-create", path, "--topic", "T", "--pool", "P", "--runs", "list:A",
                        "list:B", "--no-low-yield")
    assert code == 0, err
    return path


@given(target=st.sampled_from(POOL_TARGETS), one=st.booleans(), change=mutation,
       command=st.sampled_from([("pool-status",), ("pool-advance",)]))
@examples(quick=8, full=300)
def test_a_damaged_pool_is_one_line_never_internal(pool_file, target, one, change, command):
    case = Path(tempfile.mkdtemp(dir=pool_file.parent))
    path = Path(shutil.copyfile(pool_file, case / "p.litq"))
    assume(_damage(path, *target, one, *change))
    code, _, err = _run(*command, path, "--topic", "T", "--pool", "P")
    COUNTS[f"stored pool: {target[0]}.{target[1]} exit {code}"] += 1
    assert code in (0, 2), err
    assert "Traceback" not in err and "internal error" not in err, err
    assert code == 0 or (err.startswith("litqeval: error: ") and err.count("\n") == 1), err
    shutil.rmtree(case, ignore_errors=True)
