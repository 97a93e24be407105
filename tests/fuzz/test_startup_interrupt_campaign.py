"""Issue 27 §3: Ctrl-C at any moment of ``litqeval import`` of a large RIS file, from the
process's start on — while it loads its modules, while the parser's forkserver preloads and
its workers start, and while they parse. Every run ends with one line (exit 130, the
project unchanged; or, after the commit, the import kept whole) and no process left.

A moment is an event drawn at random, not a time (on a busy machine the same second
falls at another stage): a module's extension mapped while loading (in their order of
loading), the forkserver preloading, its first worker started, or a number of records
stored."""

import random
import shutil

import pytest

from litqeval_gui.core.projectfile.project import Project
from tests.fuzz.support import COUNTS, FIGURES, scale
from tests.test_cli_bad_input import dump
from tests.test_cli_interrupt import (
    RECORDS,
    big_import,
    interrupt_import,
    loading,
    preloading,
    rows_stored,
    workers_started,
)

__all__ = ["big_import"]  # the fixture

INTERRUPTED = "litqeval: interrupted; the project is unchanged\n"
KEPT = "litqeval: interrupted after the import had finished; it is kept\n"
# extensions the command maps as it loads its modules, in that order
LOADED = ["_sqlite3.cpython", "_json.cpython", "_hashlib.cpython", "_multiarray_umath",
          "/scipy/sparse/", "/sklearn/"]


def a_moment(draw: random.Random):
    kind = draw.randrange(4)
    if kind == 0:
        return loading(draw.choice(LOADED))
    if kind == 3:
        return rows_stored(draw.randrange(RECORDS))
    return (preloading, workers_started)[kind - 1]


@pytest.mark.slow
def test_ctrl_c_from_the_start_of_an_import(big_import):
    project, big = big_import
    base = project.with_name("base.litq")
    shutil.copy(project, base)
    before = dump(project)
    draw = random.Random(27)
    for _ in range(scale(3, 24)):
        for leftover in project.parent.glob(f"{project.name}*"):
            leftover.unlink()  # with the -wal/-shm of the previous run
        shutil.copy(base, project)
        run = interrupt_import(project, big, a_moment(draw))
        done = run.done
        COUNTS["ctrl-c from start: runs"] += 1
        assert not run.left
        if done.stderr == INTERRUPTED:
            assert done.returncode == 130
            assert dump(project) == before
            COUNTS["ctrl-c from start: interrupted, project unchanged"] += 1
            FIGURES["ctrl-c from start: longest seconds to exit"] = max(
                run.seconds, FIGURES.get("ctrl-c from start: longest seconds to exit", 0.0))
        else:  # after the commit: the import must be whole
            assert done.returncode in (0, 130), done.stderr
            assert done.stderr in ("", KEPT), done.stderr
            with Project.open(project, readonly=True) as opened:
                assert opened.db.execute("SELECT state FROM imports").fetchall() == [("done",)]
            COUNTS["ctrl-c from start: came after the commit, import kept"] += 1
