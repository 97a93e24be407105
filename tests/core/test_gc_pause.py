"""Job helpers: the garbage collector pause around bulk imports."""

import gc

from litqeval_gui.core.jobs import gc_paused, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import ingest


def test_gc_paused_restores_the_previous_state():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested: the inner one must not switch it back on
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_an_import_runs_with_the_collector_paused_and_restores_it(tmp_path, small_files):
    core, _ = small_files
    states = []
    with Project.create(tmp_path / "p.litq") as project:
        run_job(ingest.import_file(project, core, topic="T", role="core"),
                lambda p: states.append(gc.isenabled()))
    assert states and not any(states[:-1])  # paused while reading and linking
    assert gc.isenabled()
