"""PRISMA 2020 with search updates (issue 26 §2, issue 28 §4): each round of a screening
is an identification round of its own, counted from the stored rounds, and the diagram
of a round after the first takes the template for updated reviews (previous studies,
new studies, total). Every number below is counted by hand in
:func:`tests.support.prisma_rounds.build_two_rounds`."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import pytest

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.queries import find_list
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.diagram import (
    SVG_NS,
    counted_lines,
    prisma_svg,
    write_prisma_csv,
)
from litqeval_gui.core.screening.prisma.flow import (
    diagram_round,
    prisma_counts,
    prisma_flow,
    rounds,
)
from tests.support.prisma import build_review
from tests.support.prisma_rounds import ROUND_1, ROUND_2, build_two_rounds


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory):
    return build_two_rounds(tmp_path_factory.mktemp("rounds"))


def test_rounds_of_the_screening(two_rounds):
    with Project.open(two_rounds, readonly=True) as project:
        ta = store.find_screening(project, "T", "ta")
        names = {find_list(project, "T", n).id: n
                 for n in ("pubmed", "scopus", "pubmed-2", "embase-2")}
        assert {number: [names[i] for i in lists]
                for number, lists in rounds(project, ta).items()} == {
            1: ["pubmed", "scopus"], 2: ["pubmed-2", "embase-2"]}


def test_the_whole_screening_keeps_its_meaning_and_lists_each_round(two_rounds):
    with Project.open(two_rounds, readonly=True) as project:
        counts = prisma_counts(project, "T")
    document = counts.as_json()
    per_round = document.pop("rounds")
    finished = [r.pop("finished_rounds") for r in per_round]
    assert per_round == [ROUND_1, ROUND_2]
    assert [[(f["round"], f["reviewer"], f["screened"], f["items"]) for f in found]
            for found in finished] == [[(1, "ann", 10, 14)], []]
    assert [f["round"] for f in document.pop("finished_rounds")] == [1]
    assert document == {
        "identified": {"PubMed": 20, "Scopus": 8, "Embase": 2}, "identified_total": 30,
        "removed_before_import": 0, "duplicates_removed": 12,
        "removed_automation": 4, "removed_other": 0, "not_yet_screened": 1, "screened": 13,
        "excluded_screening": 7, "sought": 6, "not_retrieved": 1, "assessed": 5,
        "excluded_fulltext": {"wrong outcome": 1, "wrong population": 1}, "included": 3,
        "pending_screening": {}, "pending_sought": {}, "pending_assessed": {},
        "other_methods": {"identified": {}, "sought": 0, "not_retrieved": 0, "assessed": 0,
                          "excluded": {}, "included": 0}}
    for r in (ROUND_1, ROUND_2):  # identified − duplicates − automation − not yet = screened
        assert sum(r["identified"].values()) - r["duplicates_removed"] \
            - r["removed_automation"] - r["not_yet_screened"] == r["screened"]
    assert counts.unbalanced() == [] and all(r.unbalanced() == [] for r in counts.rounds)
    assert counts.notes()[0].startswith("Round 1 finished by ann on ")


def test_each_round_lists_its_own_records(two_rounds):
    with Project.open(two_rounds, readonly=True) as project:
        ta = store.find_screening(project, "T", "ta")
        items = store.items(project, ta.id)
        second = prisma_flow(project, "T", round_number=2)
        whole = prisma_flow(project, "T")
        update = find_list(project, "T", "pubmed-2").id
        update_records = [r for (r,) in project.db.execute(
            "SELECT id FROM records WHERE import_id = ? ORDER BY rank", [update])]
    assert second.screened == items[14:17]
    assert second.not_yet_screened == [items[17]] and second.removed_automation == []
    assert second.duplicates_removed[:6] == update_records[:6]  # works 8–13
    assert second.included == [items[14]] and second.previous_included == items[:2]
    assert second.records("total_included") == [*items[:2], items[14]]
    assert sorted(whole.screened) == sorted([*items[:10], *items[14:17]])


def test_an_unknown_round_is_refused_in_one_line(two_rounds):
    with Project.open(two_rounds, readonly=True) as project, \
            pytest.raises(LitqError, match="screening 'ta' has no round 3 \\(rounds 1–2\\)"):
        prisma_counts(project, "T", round_number=3)


def _numbers(svg: str) -> set[tuple[str, str, int]]:
    """Each (count, detail, n) the diagram's counted lines show."""
    found = set()
    for e in ET.fromstring(svg).iter(f"{{{SVG_NS}}}text"):
        if e.get("data-count"):
            n = int(e.text.rpartition("(n = ")[2].rstrip(")").replace(",", ""))
            found.add((e.get("data-count"), e.get("data-detail"), n))
    return found


def test_the_diagram_of_a_grown_screening_takes_the_update_layout(two_rounds, tmp_path):
    with Project.open(two_rounds, readonly=True) as project:
        shown = diagram_round(project, "T")
        counts = prisma_counts(project, "T", round_number=shown)
        first = prisma_counts(project, "T", round_number=1)
    assert shown == 2
    svg = prisma_svg(counts)
    words = " ".join(" ".join(ET.fromstring(svg).itertext()).split())  # lines joined
    for heading in ("Previous studies", "Identification of new studies via databases and "
                    "registers", "Studies included in previous version of review (n = 2)",
                    "New studies included in review (n = 1)",
                    "Total studies included in review (n = 3)"):
        assert heading in words
    assert _numbers(svg) == {
        ("identified", "PubMed", 10), ("identified", "Embase", 2),
        ("duplicates_removed", "", 8), ("removed_automation", "", 0),
        ("not_yet_screened", "", 1),
        ("removed_other", "", 0), ("screened", "", 3), ("excluded_screening", "", 1),
        ("sought", "", 2), ("not_retrieved", "", 0), ("assessed", "", 2),
        ("excluded_fulltext", "wrong outcome", 1), ("included", "", 1),
        ("previous_included", "", 2), ("total_included", "", 3)}
    assert _numbers(svg) == {(name, detail, n) for stage, name, detail, n in counts.rows()
                             if stage != "other_methods" and name not in (
                                 "included_databases", "included_other_methods")}
    assert sorted(counted_lines(svg).values()).count(("total_included", "")) == 2
    first_svg = prisma_svg(first)  # round 1 alone: the template for new reviews
    assert "Previous studies" not in " ".join(ET.fromstring(first_svg).itertext())
    assert ("included", "", 2) in _numbers(first_svg)
    out = tmp_path / "counts.csv"
    with Project.open(two_rounds, readonly=True) as project:
        write_prisma_csv(prisma_counts(project, "T"), out)
    with open(out, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    assert ["round 2", "identified", "Embase", "2"] in rows
    assert ["round 2", "previous_included", "", "2"] in rows
    assert ["screening", "screened", "", "13"] in rows


def test_the_diagram_shows_the_newest_round_of_the_screening_it_counts(two_rounds,
                                                                       tmp_path):
    copy = tmp_path / "copy.litq"
    copy.write_bytes(two_rounds.read_bytes())
    with Project.open(copy) as project:
        store.create_screening(project, "T", "single", ["pubmed"])
        assert diagram_round(project, "T") is None  # the newest screening has one round
        assert diagram_round(project, "T", screening="ta") == 2
        assert diagram_round(project, "T", screening="ta", round_number=1) == 1


def test_a_screening_of_one_round_counts_it_as_the_whole(tmp_path):
    with Project.open(build_review(tmp_path), readonly=True) as project:
        whole = prisma_counts(project, "T")
        counted = prisma_counts(project, "T", round_number=1)
    assert [r.round_json() for r in whole.rounds] == [counted.round_json()]
    assert counted.round_json()["screened"] == whole.screened == 12
