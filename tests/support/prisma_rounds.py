"""A review that grew with a search update, for the PRISMA rounds tests: the project of
:func:`build_two_rounds` and its two rounds' counts as ``litqeval prisma --json`` gives
them (``ROUND_1``, ``ROUND_2``), counted by hand."""

from __future__ import annotations

from pathlib import Path

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import find_list
from litqeval_gui.core.screening.fulltext import create_fulltext_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.stopping.finishing import finish_round_op
from litqeval_gui.core.screening.stopping.updates import add_update
from tests.support.prisma import ANN, import_list
from tests.support.synthetic import topic_records


def build_two_rounds(folder: Path) -> Path:
    """Works 0–17 of one field. Round 1: lists pubmed (PubMed, works 0–9) and scopus
    (Scopus, 6–13), so 18 records, 4 duplicates, 14 works; the screening decides works
    0–3 include, 4–9 exclude, leaves 10–13 undecided, and ann finishes round 1 (so those 4
are excluded by automation tools). Round 2: the update pubmed-2 (PubMed,
    works 8–17: 8–9 decided, 10–13 queued, 14–17 new) and then embase-2 (Embase, works
    15–16, nothing new: it counts in round 2): 12 records, 8 duplicates, 4 works; 14 and
    15 included, 16 excluded, 17 undecided. The full text of the 6 includes: works 0 and
    1 included, 2 excluded (wrong population), 3 not retrieved (round 1); 14 included, 15
    excluded (wrong outcome) (round 2); round 2 is not finished (17 is not yet screened).
The project is ``folder/p.litq``."""
    works = topic_records("cardiology", 18)
    path = folder / "p.litq"
    with Project.create(path) as project:
        import_list(project, folder, works[0:10], "pubmed", database="PubMed")
        import_list(project, folder, works[6:14], "scopus", database="Scopus")
        ta = store.create_screening(project, "T", "ta", ["pubmed", "scopus"])
        items = store.items(project, ta.id)
        for record, label in zip(items, ["include"] * 4 + ["exclude"] * 6, strict=False):
            project.write(store.decide_op(ta, record, label, ANN))
        project.write(finish_round_op(ta, "ann"))
        import_list(project, folder, works[8:18], "pubmed-2", database="PubMed")
        import_list(project, folder, works[15:17], "embase-2", database="Embase")
        report = add_update(project, ta, find_list(project, "T", "pubmed-2").id, "ann")
        assert (report.added, report.already_screened, report.already_queued,
                report.round) == (4, 2, 4, 2)
        ta = store.find_screening(project, "T", "ta")
        assert add_update(project, ta, find_list(project, "T", "embase-2").id,
                          "ann").round is None
        ta = store.find_screening(project, "T", "ta")
        new = store.items(project, ta.id)[14:]
        for record, label in zip(new, ["include", "include", "exclude"], strict=False):
            project.write(store.decide_op(ta, record, label, ANN))
        ft = create_fulltext_screening(project, ta, "ft")
        for record, label, reason in (
                (items[0], "include", ""), (items[1], "include", ""),
                (items[2], "exclude", "wrong population"), (items[3], "not_retrieved", ""),
                (new[0], "include", ""), (new[1], "exclude", "wrong outcome")):
            project.write(store.decide_op(ft, record, label, ANN, reason=reason))
    return path


NOTHING_PENDING = {"pending_screening": {}, "pending_sought": {}, "pending_assessed": {}}
ROUND_1 = {"round": 1, "lists": ["pubmed", "scopus"],
           "identified": {"PubMed": 10, "Scopus": 8}, "identified_total": 18,
           "removed_before_import": 0, "duplicates_removed": 4,
           "removed_automation": 4, "removed_other": 0, "not_yet_screened": 0,
           "screened": 10, "excluded_screening": 6, "sought": 4, "not_retrieved": 1,
           "assessed": 3, "excluded_fulltext": {"wrong population": 1}, "included": 2,
           "previous_included": 0} | NOTHING_PENDING
ROUND_2 = {"round": 2, "lists": ["pubmed-2", "embase-2"],
           "identified": {"PubMed": 10, "Embase": 2}, "identified_total": 12,
           "removed_before_import": 0, "duplicates_removed": 8,
           "removed_automation": 0, "removed_other": 0, "not_yet_screened": 1,
           "screened": 3, "excluded_screening": 1, "sought": 2, "not_retrieved": 0,
           "assessed": 2, "excluded_fulltext": {"wrong outcome": 1}, "included": 1,
           "previous_included": 2} | NOTHING_PENDING
