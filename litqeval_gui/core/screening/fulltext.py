"""The full-text phase: a screening of the reports a title/abstract screening let through.

:func:`create_fulltext_screening` makes screening ``phase = full_text`` whose items are
the parent's records whose final decision (:func:`~litqeval_gui.core.screening.reviewers.team.final_decisions`: a
resolution wins; an open conflict lets nothing through) is ``include`` — with
``with_maybe`` also ``maybe`` — or, in a graded screening, a relevant grade; in the
parent's order, its lists and label scheme, the parent kept as ``parent_id``. Its
exclusions need a reason from its list (:data:`DEFAULT_REASONS` unless given; the
team edits them with :func:`~litqeval_gui.core.screening.log.store.set_reasons_op`), and a report that could not be
obtained is decided ``not_retrieved`` (:mod:`~litqeval_gui.core.screening.log.labels`), which PRISMA counts as not
retrieved. The PDFs are the records' attachments
(:mod:`litqeval_gui.core.records.attachments`).

Records that pass title/abstract after the full text started (a resolved conflict, a
maybe sent on, a search update's round) are *late*: :func:`late_records` lists them and
:func:`add_late_op` appends them to the running full-text screening, where PRISMA
counts them (until then they are sought and pending).
"""

from __future__ import annotations

from collections.abc import Sequence

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.writes import Done, Op
from litqeval_gui.core.records.queries import list_info
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.labels import FULL_TEXT, GRADED, is_relevant
from litqeval_gui.core.screening.log.store import DECISIONS, Screening
from litqeval_gui.core.screening.reviewers import team

DEFAULT_REASONS = ("wrong population", "wrong intervention", "wrong comparator",
                   "wrong outcome", "wrong study design", "wrong publication type",
                   "duplicate")


def passed_on(project: Project, parent: Screening, *, with_maybe: bool = False) -> list[int]:
    """The parent's records a full-text screening takes (module docstring), in order."""
    final = team.final_decisions(project, parent.id)
    wanted = {"include", "maybe"} if with_maybe else {"include"}
    return [record for record in store.items(project, parent.id) if record in final and (
        is_relevant(GRADED, final[record]) if parent.scheme == GRADED
        else final[record] in wanted)]


def create_fulltext_screening(project: Project, parent: Screening, name: str, *,
                              with_maybe: bool = False,
                              reasons: Sequence[str] = DEFAULT_REASONS,
                              blind: bool = False) -> Screening:
    """Create full-text screening ``name`` from title/abstract screening ``parent``
    (module docstring), one write; refused in one line for a full-text parent or when
    nothing has passed yet."""
    if parent.phase == FULL_TEXT:
        raise LitqError(f"screening {parent.name!r} is already a full-text screening; "
                        "start the full text from a title/abstract screening")
    records = passed_on(project, parent, with_maybe=with_maybe)
    if not records:
        passed = "included or maybe" if with_maybe else "included"
        raise LitqError(f"screening {parent.name!r} has no {passed} records yet")
    topic = project.topic_name(parent.topic_id)
    assert topic is not None  # the screening's own topic
    lists = [info.name for i in parent.lists if (info := list_info(project, i)) is not None]
    return store.create_screening(project, topic, name, lists, phase=FULL_TEXT,
                                  scheme=parent.scheme, reasons=reasons, records=records,
                                  blind=blind, parent=parent.id)


def parent_of(project: Project, screening: Screening) -> Screening | None:
    """The title/abstract screening ``screening`` continues, or None."""
    row = project.db.execute("SELECT parent_id FROM screenings WHERE id = ?",
                             [screening.id]).fetchone()
    return store.get_screening(project, row[0]) if row and row[0] is not None else None


def late_records(project: Project, fulltext: Screening, *,
                 with_maybe: bool = False) -> list[int]:
    """The records its title/abstract screening passes on now (:func:`passed_on`) that
    the full-text screening does not hold yet, in the parent's order."""
    parent = parent_of(project, fulltext)
    if fulltext.phase != FULL_TEXT or parent is None:
        raise LitqError(f"screening {fulltext.name!r} is not a full-text screening of a "
                        "title/abstract screening")
    held = set(store.items(project, fulltext.id))
    return [r for r in passed_on(project, parent, with_maybe=with_maybe) if r not in held]


def add_late_op(fulltext: Screening, *, with_maybe: bool = False) -> Op:
    """Append the :func:`late_records` to the full-text screening (one write); the op's
    value is how many joined."""
    def op(p: Project) -> Done[int]:
        late = late_records(p, fulltext, with_maybe=with_maybe)
        return Done(DECISIONS, store.append_items(p, fulltext.id, late))
    return op
