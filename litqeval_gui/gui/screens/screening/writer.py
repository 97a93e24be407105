"""The screening session's writer in the app: each op is queued on the project session's
write path and never waited for; decisions someone else wrote (a merge, a pool, a job)
are taken in once none of the screen's own writes is still queued, so they never
overtake one of its own; so is anything else that must read them all (:meth:`when_idle`:
a switch of reviewer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litqeval_gui.core.projectfile.writes import Op
from litqeval_gui.gui.session import ProjectSession


class QueuedWriter:
    """Writes for ``initiator``; ``failed(exc)`` after a write that did not commit;
    ``take_in()`` when others' decisions may be read in."""

    def __init__(self, session: ProjectSession, initiator: object,
                 failed: Callable[[BaseException], None], take_in: Callable[[], None]) -> None:
        self.session, self.initiator = session, initiator
        self.failed, self.take_in = failed, take_in
        self.queued = 0  # own writes not committed yet
        self.others_waiting = False  # someone else's decisions wait to be read in
        self.idle: list[Callable[[], None]] = []  # to run once none of its own is queued

    def __call__(self, op: Op, then: Callable[[Any], None] | None) -> None:
        self.queued += 1

        def done(result: Any) -> None:
            self.queued -= 1
            if then is not None:
                then(result)
            self._maybe_take_in()

        def failed(exc: BaseException) -> None:
            self.queued -= 1
            self.failed(exc)
            self._maybe_take_in()

        self.session.write(op, initiator=self.initiator, on_success=done, on_failure=failed)

    def decisions_changed(self, initiator: object) -> None:
        """Decisions were committed by ``initiator``."""
        self.others_waiting = self.others_waiting or initiator is not self.initiator
        self._maybe_take_in()

    def when_idle(self, then: Callable[[], None]) -> None:
        """Run ``then`` once none of the screen's own writes is queued (now, when none is)."""
        self.idle.append(then)
        self._maybe_take_in()

    def _maybe_take_in(self) -> None:
        if self.queued:
            return
        if self.others_waiting:
            self.others_waiting = False
            self.take_in()
        waiting, self.idle = self.idle, []
        for then in waiting:
            then()
