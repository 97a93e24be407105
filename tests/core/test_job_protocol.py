"""The job protocol: a neutral JobCancelled base, a token nobody can cancel, one driver."""

import pytest

from litqeval_gui.core.errors import ImportCancelled, JobCancelled
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress, run_job


def _job(token):
    for step in range(3):
        token.raise_if_cancelled()
        yield Progress(step, 3, "working")
    return "done"


def test_a_cancelled_job_raises_its_tokens_error_with_a_neutral_default():
    token = CancelToken()
    token.cancel()
    with pytest.raises(JobCancelled, match="^cancelled; the project is unchanged$") as caught:
        run_job(_job(token))
    assert not isinstance(caught.value, ImportCancelled)
    imports = CancelToken(ImportCancelled)  # a token may name its error
    imports.cancel()
    with pytest.raises(ImportCancelled, match="import cancelled"):
        run_job(_job(imports))
    assert issubclass(ImportCancelled, JobCancelled)


def test_never_runs_to_the_end_and_cannot_be_cancelled():
    seen = []
    assert run_job(_job(NEVER), seen.append) == "done"
    assert [p.done for p in seen] == [0, 1, 2]
    with pytest.raises(RuntimeError, match="nobody can cancel"):
        NEVER.cancel()
    assert not NEVER.cancelled
