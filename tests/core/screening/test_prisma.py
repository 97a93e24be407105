"""PRISMA 2020 counts on a constructed project, number by number, and the diagram's SVG.

The project: :func:`tests.support.prisma.build_review` (PubMed 10 + 4 = 14 records,
Scopus 8, 22 in all; 16 works; 6 duplicates; its two screenings' decisions).
"""

import csv
import xml.etree.ElementTree as ET

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.projectfile.stored import DamagedDataError
from litqeval_gui.core.records.queries import RecordFilter
from litqeval_gui.core.screening.fulltext import create_fulltext_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.diagram import counted_lines, prisma_svg, write_prisma_csv
from litqeval_gui.core.screening.prisma.entered import Entered, entered, entered_op
from litqeval_gui.core.screening.prisma.flow import prisma_counts, prisma_flow
from tests.support.prisma import ANN, build_review, import_list
from tests.support.synthetic import topic_records

OTHER = Entered(removed_other=5, other_identified={"Citation searching": 3, "Websites": 2},
                other_sought=4, other_not_retrieved=1, other_excluded={"wrong outcome": 1})


@pytest.fixture
def built(tmp_path):
    return build_review(tmp_path)


def test_counts_number_by_number(built):
    with Project.open(built, readonly=True) as project:
        c = prisma_counts(project, "T")
    assert (c.screening, c.fulltext) == ("ta", "ft")
    assert [(s.list_name, s.database, s.records) for s in c.sources] == [
        ("pubmed", "PubMed", 10), ("scopus", "Scopus", 8), ("update", "PubMed", 4)]
    assert c.identified == {"PubMed": 14, "Scopus": 8}
    assert c.duplicates_removed == 22 - 16
    assert c.removed_automation == 0  # the round is not finished: ta's 4 undecided records
    assert c.not_yet_screened == 16 - 12  # are not yet screened
    assert c.removed_other == 0 and c.filtered_out == 0
    assert c.screened == 12
    assert c.excluded_screening == 3  # the maybe was sent on to full text
    assert c.pending_screening == {}
    assert c.sought == 9  # 8 includes and the maybe: 1 not retrieved + 7 assessed + 1 pending
    assert c.pending_sought == {"not yet decided": 1}
    assert c.not_retrieved == 1
    assert c.assessed == 7  # 4 included, 3 excluded
    assert c.excluded_fulltext == {"wrong population": 2, "wrong study design": 1}
    assert c.included == c.included_databases == 4
    assert not c.entered.other_used
    assert 22 - 6 - 0 - 0 - 4 == c.screened == 3 + 9 + 0
    assert 9 == 1 + 7 + 1 and 7 == 3 + 4
    assert c.unbalanced() == []


def test_json_document_has_the_issue_keys(built):
    with Project.open(built, readonly=True) as project:
        document = prisma_counts(project, "T").as_json()
    whole = {
        "identified": {"PubMed": 14, "Scopus": 8}, "identified_total": 22,
        "removed_before_import": 0, "duplicates_removed": 6,
        "removed_automation": 0, "removed_other": 0, "not_yet_screened": 4, "screened": 12,
        "excluded_screening": 3, "pending_screening": {}, "sought": 9,
        "pending_sought": {"not yet decided": 1}, "not_retrieved": 1, "assessed": 7,
        "pending_assessed": {},
        "excluded_fulltext": {"wrong population": 2, "wrong study design": 1}, "included": 4,
        "finished_rounds": []}
    other = {"identified": {}, "sought": 0, "not_retrieved": 0, "assessed": 0,
             "excluded": {}, "included": 0}
    assert document == whole | {"other_methods": other, "rounds": [  # one round: the same
        {"round": 1, "lists": ["pubmed", "scopus", "update"]} | whole
        | {"previous_included": 0}]}


def test_without_full_text_what_passed_is_sought_and_pending(built):
    with Project.open(built) as project:
        project.db.execute("DELETE FROM screening_events WHERE screening_id = "
                           "(SELECT id FROM screenings WHERE name = 'ft')")
        project.db.execute("DELETE FROM screening_items WHERE screening_id = "
                           "(SELECT id FROM screenings WHERE name = 'ft')")
        project.db.execute("DELETE FROM screenings WHERE name = 'ft'")
        project.db.conn.commit()
        c = prisma_counts(project, "T")
    assert c.fulltext is None
    assert (c.sought, c.not_retrieved, c.assessed, c.excluded_fulltext) == (8, 0, 0, {})
    assert c.pending_sought == {"not yet in the full-text screening": 8}  # the includes
    assert c.pending_screening == {"maybe, not sent on": 1}
    assert c.included == 0  # nothing is included before its report is assessed
    assert c.unbalanced() == []


def test_a_filtered_screening_counts_what_it_left_out_as_removed(built):
    with Project.open(built) as project:
        filtered = store.create_screening(project, "T", "recent", ["pubmed", "scopus", "update"],
                                          record_filter=RecordFilter(year_min=2003))
        project.write(store.decide_op(filtered, store.items(project, filtered.id)[0],
                                      "exclude", ANN))
        c = prisma_counts(project, "T", screening="recent", fulltext="ft")
    assert filtered.size == 13  # works 0, 1, 2 (2000–2002) left out
    assert (c.filtered_out, c.removed_other, c.screened, c.not_yet_screened) == (3, 3, 1, 12)
    assert 22 - c.duplicates_removed - c.removed_automation - c.removed_other \
        - c.not_yet_screened == c.screened
    assert c.unbalanced() == []


def test_no_screening_identifies_the_result_lists(built, tmp_path):
    path = tmp_path / "bare.litq"
    with Project.create(path) as project:
        import_list(project, tmp_path, topic_records("cardiology", 4), "a", database="")
        import_list(project, tmp_path, topic_records("cardiology", 3, start=4), "b",
                    database="wos")
        c = prisma_counts(project, "T")
    assert c.identified == {"a": 4, "Web of Science": 3}  # no database: the list's name
    assert (c.screening, c.screened, c.removed_automation, c.included) == (None, 0, 0, 0)
    assert c.not_yet_screened == 7 and c.unbalanced() == []


def test_entered_numbers_are_stored_and_added(built):
    with Project.open(built) as project:
        assert entered(project, "T") == Entered()
        project.write(entered_op(project, "T", OTHER))
        c = prisma_counts(project, "T")
        with pytest.raises(LitqError, match="more reports excluded than assessed"):
            entered_op(project, "T", Entered(other_sought=1, other_excluded={"x": 2}))
        with pytest.raises(LitqError, match="must be a whole number >= 0"):
            entered_op(project, "T", Entered(removed_other=-1))
        assert entered(project, "T") == OTHER  # unchanged by the refusals
    assert c.entered == OTHER and c.entered.other_used
    assert c.removed_other == 5
    assert (c.entered.other_assessed, c.entered.other_included) == (3, 2)
    assert c.included == 4 + 2
    assert c.as_json()["other_methods"] == {
        "identified": {"Citation searching": 3, "Websites": 2}, "sought": 4,
        "not_retrieved": 1, "assessed": 3, "excluded": {"wrong outcome": 1}, "included": 2}


def test_a_damaged_stored_pair_list_is_refused(built):
    with Project.open(built) as project:
        topic_id = project.topic_id("T")
        project.write(parameters.set_value_op(
            parameters.Parameter(f"prisma.{topic_id}.other_excluded", list, []), [["x", -2]]))
        with pytest.raises(DamagedDataError, match="other_excluded"):
            prisma_counts(project, "T")


def test_screening_of_the_wrong_phase_is_refused(built):
    with Project.open(built, readonly=True) as project, \
            pytest.raises(LitqError, match="'ft' is a full_text screening"):
        prisma_counts(project, "T", screening="ft")


def _svg_counts(text: str) -> set[tuple[str, str, int]]:
    """(count, detail, n) of every counted line of the diagram, read from its text."""
    root = ET.fromstring(text)
    found = set()
    for element in root.iter("{http://www.w3.org/2000/svg}text"):
        if "data-count" in element.attrib:
            words = "".join(element.itertext())
            number = int(words.rpartition("(n = ")[2].rstrip(")").replace(",", ""))
            found.add((element.get("data-count"), element.get("data-detail"), number))
    return found


@pytest.mark.parametrize("other", [False, True])
def test_svg_parses_and_holds_every_count(built, tmp_path, other):
    with Project.open(built) as project:
        if other:
            project.write(entered_op(project, "T", OTHER))
        c = prisma_counts(project, "T")
    text = prisma_svg(c)
    wanted = {(name, detail, n) for stage, name, detail, n in c.rows()
              if (other or stage != "other_methods") and not stage.startswith("round ")
              and name not in ("included_databases", "included_other_methods")}
    assert _svg_counts(text) == wanted
    words = " ".join(ET.fromstring(text).itertext())
    assert ("Identification of studies via other methods" in words) is other
    assert sorted(counted_lines(text).values()) == sorted([  # the clickable ones
        *((name, detail) for stage, name, detail, _ in c.rows() if stage != "other_methods"
          and not stage.startswith("round ")
          and name not in ("included_databases", "included_other_methods")),
        ("included", "")])  # twice: studies and reports
    for heading in ("Identification", "Screening", "Included", "Records screened",
                    "Reports sought for retrieval", "Studies included in review"):
        assert heading in words
    out = tmp_path / "counts.csv"
    write_prisma_csv(c, out)
    with open(out, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["stage", "count", "detail", "n"]
    assert [tuple(r[:3]) + (int(r[3]),) for r in rows[1:]] == c.rows()


def test_names_that_look_like_formulas_stay_text(built, tmp_path):
    with Project.open(built) as project:
        project.write(entered_op(project, "T", Entered(other_identified={"=HYPERLINK(1)": 1})))
        c = prisma_counts(project, "T")
    out = tmp_path / "counts.csv"
    write_prisma_csv(c, out)
    assert "'=HYPERLINK(1)" in out.read_text(encoding="utf-8-sig")
    assert ("identified", "=HYPERLINK(1)", 1) in _svg_counts(prisma_svg(c))


def test_the_records_behind_each_count(built):
    with Project.open(built) as project:
        project.write(entered_op(project, "T", OTHER))
        flow = prisma_flow(project, "T")
        c = prisma_counts(project, "T")
        items = store.items(project, store.find_screening(project, "T", "ta").id)
        work = dict(project.db.execute("SELECT id, work_id FROM records"))
        pubmed = {r for (r,) in project.db.execute(
            "SELECT r.id FROM records r JOIN imports i ON i.id = r.import_id "
            "WHERE i.database = 'PubMed'")}
    for stage, name, detail, n in c.rows():
        if stage in ("identification", "screening") and name != "removed_before_import":
            # entered numbers have no records
            entered_here = OTHER.removed_other if name == "removed_other" else 0
            assert len(flow.records(name, detail)) == n - entered_here, (name, detail)
    assert set(flow.records("identified", "PubMed")) == pubmed
    assert flow.records("screened") == items[:12]
    assert flow.records("excluded_screening") == items[9:12]
    assert flow.records("not_yet_screened") == items[12:]
    assert flow.records("removed_automation") == []
    assert sorted(flow.records("sought")) == sorted(items[:9])
    assert flow.records("pending_sought", "not yet decided") == [items[8]]
    assert flow.records("not_retrieved") == [items[7]]
    assert flow.records("excluded_fulltext", "wrong population") == items[4:6]
    assert flow.records("excluded_fulltext", "wrong study design") == [items[6]]
    assert flow.records("included") == flow.records("included_databases") == items[:4]
    duplicates = flow.records("duplicates_removed")
    assert len({work[r] for r in duplicates}) == 6  # each repeats a work screened once
    assert {work[r] for r in duplicates} <= {work[r] for r in items}
    assert not set(duplicates) & set(items)
    with pytest.raises(LitqError, match="no records behind the count 'sources'"):
        flow.records("sources")


def test_a_graded_screening_excludes_grade_zero(built, tmp_path):
    with Project.open(built) as project:
        graded = store.create_screening(project, "T", "graded", ["pubmed"], scheme="graded")
        for record, grade in zip(store.items(project, graded.id), "0123001", strict=False):
            project.write(store.decide_op(graded, record, grade, ANN))
        c = prisma_counts(project, "T", screening="graded")
    assert (c.screened, c.excluded_screening, c.not_yet_screened) == (7, 3, 3)  # 0 0 0
    assert c.identified == {"PubMed": 10} and c.duplicates_removed == 0


def test_the_full_text_counted_is_the_one_started_from_the_screening_counted(built):
    """Each title/abstract screening is counted with the full text started from it, not
    with the newest full text of the topic; naming a full text counts its own
    title/abstract screening with it."""
    with Project.open(built) as project:
        ta = store.find_screening(project, "T", "ta")
        create_fulltext_screening(project, ta, "ft from ta")
        ta2 = store.create_screening(project, "T", "ta2", ["pubmed"])
        first = store.items(project, ta2.id)[0]
        project.write(store.decide_op(ta2, first, "include", ANN))
        later = create_fulltext_screening(project, ta2, "ft from ta2")
        project.write(store.decide_op(later, first, "exclude", ANN, reason="wrong outcome"))
        newest = prisma_counts(project, "T")
        older = prisma_counts(project, "T", screening="ta")
        named = prisma_counts(project, "T", fulltext="ft from ta")
    assert (newest.screening, newest.fulltext) == ("ta2", "ft from ta2")
    assert (newest.screened, newest.assessed, newest.excluded_fulltext) == (
        1, 1, {"wrong outcome": 1})
    assert (older.screening, older.fulltext) == ("ta", "ft from ta")
    assert (older.screened, older.assessed, older.excluded_fulltext) == (12, 0, {})
    assert (named.screening, named.fulltext) == ("ta", "ft from ta")
