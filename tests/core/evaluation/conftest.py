"""``project``: the test's own copy of its module's ``topic_file``, open."""

import pytest

from litqeval_gui.core.projectfile.project import Project
from tests.support.topics import copy_project


@pytest.fixture
def project(topic_file, tmp_path):
    with Project.open(copy_project(topic_file, tmp_path)) as opened:
        yield opened
