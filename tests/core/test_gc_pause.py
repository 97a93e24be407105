"""Job helpers: the garbage collector pause around bulk imports."""

import gc
import threading

from litqeval_gui.core.jobs import collection_paused, gc_paused, run_job
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


def test_overlapping_pauses_end_with_the_last_one():
    """Two imports on two threads: the first to end must not switch the collector back
    on under the other."""
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def first():
        with gc_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second():
        first_in.wait(5)
        with gc_paused():
            second_in.set()
            first_out.wait(5)
            seen["after the first ended"] = (gc.isenabled(), collection_paused())

    assert gc.isenabled() and not collection_paused()
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"after the first ended": (False, True)}
    assert gc.isenabled() and not collection_paused()


def test_an_import_runs_with_the_collector_paused_and_restores_it(tmp_path, small_files):
    core, _ = small_files
    states = []
    with Project.create(tmp_path / "p.litq") as project:
        run_job(ingest.import_file(project, core, topic="T", role="core"),
                lambda p: states.append(gc.isenabled()))
    assert states and not any(states[:-1])  # paused while reading and linking
    assert gc.isenabled()
