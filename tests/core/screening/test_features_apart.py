"""Features built in a child process equal those built here; a cancel stops the child."""

import multiprocessing

import numpy as np
import pytest

from litqeval_gui.core.errors import JobCancelled
from litqeval_gui.core.jobs import CancelToken, run_job
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.scaleout import main_importable
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking import features_apart
from litqeval_gui.core.screening.ranking.features import screening_features
from tests.support.screening import screening_project


@pytest.fixture
def apart(tmp_path, monkeypatch):
    path, _ = screening_project(tmp_path, 80, 0.2, seed=2)
    monkeypatch.setattr(features_apart, "APART_FROM", 1)  # every screening in a child
    assert main_importable()  # else it would quietly build them here
    with Project.open(path) as project:
        yield project, store.create_screening(project, "T", "S", ["L"])


def test_features_from_the_child_equal_those_built_here(apart):
    project, screening = apart
    steps = []
    made = run_job(features_apart.features_apart(project, screening, "robotic surgery"),
                   steps.append)
    here = run_job(screening_features(project, screening, "robotic surgery"))
    assert steps and all(s.message.startswith("TF-IDF of 80 records") for s in steps)
    assert made.items == here.items and made.question_row == here.question_row == 80
    assert np.array_equal(made.core_rows, here.core_rows)
    assert made.matrix.shape == here.matrix.shape and (made.matrix != here.matrix).nnz == 0


def test_a_cancel_stops_the_child(apart):
    project, screening = apart
    token = CancelToken(JobCancelled)
    job = features_apart.features_apart(project, screening, token=token)
    next(job)  # the child runs
    token.cancel()
    with pytest.raises(JobCancelled):
        next(job)
    assert multiprocessing.active_children() == []
