"""Random review histories, checked after every step: every PRISMA stage conserved in
every round, each distinct work in exactly one box, and the screener's panel,
``screen-status --json``, the decision export and ``prisma --json`` telling one story.

A history plays on a project of three lists with in-file and cross-file duplicates
(:func:`_base`): two or three reviewers deciding, changing and undoing title/abstract
decisions (blind or not, filtered or not), conflicts and their resolutions, maybes,
records removed before import, a full text started early or late and joined by late
records, full-text decisions with reasons and reports not retrieved, a search update's
round, and rounds finished.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from litqeval_gui.cli import main
from litqeval_gui.cli.screen import status
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.model import Record
from litqeval_gui.core.records.queries import RecordFilter, find_list
from litqeval_gui.core.screening import state
from litqeval_gui.core.screening.export import decided_records
from litqeval_gui.core.screening.fulltext import (
    DEFAULT_REASONS,
    add_late_op,
    create_fulltext_screening,
)
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.entered import Entered, entered_op
from litqeval_gui.core.screening.prisma.flow import Flow, prisma_counts, prisma_flow
from litqeval_gui.core.screening.stopping.finishing import finish_round_op
from litqeval_gui.core.screening.stopping.panel import screening_panel
from litqeval_gui.core.screening.stopping.updates import add_update
from tests.fuzz.support import COUNTS, examples
from tests.support.prisma import import_list
from tests.support.synthetic import topic_records

REVIEWERS = ("ann", "ben", "cy")
TA_LABELS = ("include", "exclude", "maybe")
FT_LABELS = ("include", "exclude", "not_retrieved", "maybe")


def _copy(record: Record, title: str) -> Record:
    """Another record of the same work (same DOI, another title)."""
    return Record(title=title, abstract=record.abstract, year=record.year, doi=record.doi,
                  rank=record.rank)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """Works 0–19 of one field: ``pubmed`` 0–11 with a second record of work 3 (an
    in-file duplicate), ``scopus`` 8–15 (cross-file duplicates 8–11), and ``update``
    14–19, imported but in no screening until a history adds it."""
    folder = tmp_path_factory.mktemp("flow")
    works = topic_records("cardiology", 20)
    path = folder / "base.litq"
    with Project.create(path) as project:
        import_list(project, folder, [*works[0:12], _copy(works[3], "A second copy")],
                    "pubmed", database="PubMed")
        import_list(project, folder, works[8:16], "scopus", database="Scopus")
        import_list(project, folder, works[14:20], "update", database="PubMed")
    return path


KINDS = ("decide",) * 8 + ("ft_decide",) * 5 + ("resolve",) * 2 + (
    "undo", "fulltext", "update", "finish", "removed")  # decisions weigh most, as in a review
STEP = st.tuples(st.sampled_from(KINDS), st.integers(0, 2), st.integers(0, 9),
                 st.integers(0, 3), st.integers(0, 1))  # what, who, which, label, reason


def _works(project: Project, record_ids: list[int]) -> list[int]:
    return [project.db.execute("SELECT work_id FROM records WHERE id = ?", [r]).fetchone()[0]
            for r in record_ids]


def _boxes(flow: Flow) -> list[list[int]]:
    """The records of every box a work can be in (one list per box and kind)."""
    return [flow.removed_automation, flow.filtered_out, flow.not_yet_screened,
            flow.excluded_screening, *flow.pending_screening.values(),
            *flow.pending_sought.values(), flow.not_retrieved,
            *flow.pending_assessed.values(), *flow.excluded_fulltext.values(), flow.included]


def _check(project: Project, ta: store.Screening, ft: store.Screening | None) -> None:
    counts = prisma_counts(project, "T")
    assert counts.unbalanced() == []
    for each in counts.rounds:
        assert each.unbalanced() == [], each.round
    for name in ("screened", "excluded_screening", "sought", "assessed", "not_retrieved",
                 "included_databases", "not_yet_screened", "removed_automation"):
        assert sum(getattr(r, name) for r in counts.rounds) == getattr(counts, name), name

    flow = prisma_flow(project, "T")
    placed = _works(project, [r for box in _boxes(flow) for r in box])
    assert len(placed) == len(set(placed))  # no work in two boxes
    listed = {w for (w,) in project.db.execute(
        "SELECT DISTINCT work_id FROM live_records WHERE import_id IN "
        f"({','.join('?' * len(ta.lists))})", list(ta.lists))}
    assert set(placed) == listed  # and none in no box

    document = status(project, ta)
    panel = screening_panel(project, ta)
    assert panel.counts == state.state_counts(project, ta)
    assert document["screened"] == counts.screened == panel.counts.screened
    assert document["labels"]["exclude"] == counts.excluded_screening
    assert document["conflicts"] == counts.pending_screening.get("in conflict", 0)
    _, rows = decided_records(project, ta)
    exported = Counter(row["decision"] for row in rows)
    assert {k: v for k, v in exported.items() if k not in TA_LABELS} == {
        k: v for k, v in {state.CONFLICT: document["conflicts"],
                          state.UNDECIDED: ta.size - document["screened"]}.items() if v}
    assert all(exported[label] == document["labels"][label] for label in TA_LABELS)
    if ft is not None:
        sought = set(flow.sought)
        report_states = {s.record_id: s.state for s in state.item_states(project, ft)}
        if set(report_states) <= sought:  # every report still passes title/abstract
            ft_document = status(project, ft)
            assert ft_document["labels"]["include"] == counts.included_databases
            assert ft_document["labels"]["not_retrieved"] == counts.not_retrieved
            assert ft_document["labels"]["exclude"] == sum(counts.excluded_fulltext.values())
            assert ft_document["conflicts"] == counts.pending_assessed.get("in conflict", 0)
            assert ta.size - len(report_states) >= 0


def _play(project: Project, step: tuple, blind: bool) -> str:
    """Apply one step (what the app or the CLI would do); returns what it did, or ""
    when the step does not apply (as the app would refuse it)."""
    ta = store.find_screening(project, "T", "ta")
    found = [s for s in store.screenings(project, "T") if s.name == "ft"]
    ft = found[0] if found else None
    items = store.items(project, ta.id)
    kind, who, index, label, reason = step
    try:
        if kind == "decide":
            project.write(store.decide_op(ta, items[index % len(items)], TA_LABELS[label % 3],
                                          store.Context(REVIEWERS[who])))
        elif kind == "undo":
            project.write(store.undo_op(ta, store.Context(REVIEWERS[who])))
        elif kind == "resolve":
            open_ = [s.record_id for s in state.item_states(project, ta)
                     if s.state == state.CONFLICT]
            if not open_:
                return ""
            project.write(store.resolve_op(ta, open_[index % len(open_)],
                                           TA_LABELS[label % 3], "consensus"))
        elif kind == "fulltext":
            if ft is None:
                create_fulltext_screening(project, ta, "ft", with_maybe=bool(reason),
                                          blind=blind)
            elif project.write(add_late_op(ft, with_maybe=bool(reason))).value == 0:
                return ""
        elif kind == "ft_decide":
            if ft is None:
                return ""
            reports = store.items(project, ft.id)
            project.write(store.decide_op(
                ft, reports[index % len(reports)], FT_LABELS[label],
                store.Context(REVIEWERS[who]),
                reason=DEFAULT_REASONS[reason] if FT_LABELS[label] == "exclude" else ""))
        elif kind == "update":
            add_update(project, ta, find_list(project, "T", "update").id, "ann")
        elif kind == "finish":
            project.write(finish_round_op(ta, "ann"))
        elif kind == "removed":
            project.write(entered_op(project, "T", Entered(removed_other=label)))
    except LitqError:
        return ""  # refused in one line, as the app or the CLI would be
    return kind


def _cli_agrees(path: Path, capsys) -> None:
    """``prisma --json`` and ``screen-status --json`` print what the core functions give."""
    assert main(["prisma", str(path), "--topic", "T", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert main(["screen-status", str(path), "--topic", "T", "--screening", "ta",
                 "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    with Project.open(path, readonly=True) as project:
        counts = prisma_counts(project, "T").as_json()
        document = status(project, store.find_screening(project, "T", "ta"))
    assert printed == json.loads(json.dumps(counts))
    assert (shown["screened"], shown["labels"], shown["conflicts"]) == (
        document["screened"], document["labels"], document["conflicts"])


@examples(12, 400)
@given(steps=st.lists(STEP, min_size=5, max_size=60), blind=st.booleans(),
       filtered=st.booleans())
def test_every_history_keeps_every_count_conserved_and_in_agreement(base, capsys, steps,
                                                                     blind, filtered):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.litq"
        path.write_bytes(base.read_bytes())
        with Project.open(path) as project:
            store.create_screening(project, "T", "ta", ["pubmed", "scopus"], blind=blind,
                                   record_filter=RecordFilter(year_min=2003)
                                   if filtered else None)
            for step in steps:
                done = _play(project, step, blind)
                COUNTS[f"flow histories: step {done or 'refused'}"] += 1
                ta = store.find_screening(project, "T", "ta")
                found = [s for s in store.screenings(project, "T") if s.name == "ft"]
                _check(project, ta, found[0] if found else None)
        _cli_agrees(path, capsys)
        COUNTS["flow histories: histories"] += 1
