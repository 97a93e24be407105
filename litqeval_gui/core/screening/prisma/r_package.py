"""The PRISMA counts in the layout the PRISMA2020 R package and its Shiny app read
(Haddaway et al. 2022, Campbell Syst. Rev. 18:e1230): its template CSV's columns
``data,node,box,description,boxtext,tooltips,url,n``, one row per box line, keyed by
``data``. Which count fills which row: docs/prisma.md ("The PRISMA2020 R package").
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from litqeval_gui.core.records.exporting import check_target, escape_formula, write_whole
from litqeval_gui.core.screening.prisma.counts import PrismaCounts

R_COLUMNS = ("data", "node", "box", "description", "boxtext", "tooltips", "url", "n")
NA = "NA"
REMOVED_BEFORE_IMPORT = "Removed before import (entered)"

# (data, node, box, description; boxtext and tooltip are the description's short forms)
_TITLES = {
    "prevstud": ("node4", "Previous studies"),
    "newstud": ("node6", "Identification of new studies via databases and registers"),
    "othstud": ("node16", "Identification of new studies via other methods"),
    "identification": ("node1", "Identification"),
    "screening": ("node2", "Screening"),
    "included": ("node3", "Included"),
}
_STAGES = ("identification", "screening", "included")  # title boxes keyed by their name
_LINES = (
    ("previous_studies", "node5", "box1", "Studies included in previous version of review"),
    ("previous_reports", NA, "box1",
     "Reports of studies included in previous version of review"),
    ("database_results", "node7", "box2", "Records identified from: Databases"),
    ("database_specific_results", NA, "box2", "Records identified from: specific databases"),
    ("register_results", NA, "box2", "Records identified from: Registers"),
    ("register_specific_results", NA, "box2", "Records identified from: specific registers"),
    ("website_results", "node17", "box11", "Records identified from: Websites"),
    ("organisation_results", NA, "box11", "Records identified from: Organisations"),
    ("citations_results", NA, "box11", "Records identified from: Citation searching"),
    ("duplicates", "node8", "box3", "Duplicate records"),
    ("excluded_automatic", NA, "box3", "Records marked as ineligible by automation tools"),
    ("excluded_other", NA, "box3", "Records removed for other reasons"),
    ("records_screened", "node9", "box4", "Records screened"),
    ("records_excluded", "node10", "box5", "Records excluded"),
    ("dbr_sought_reports", "node11", "box6", "Reports sought for retrieval"),
    ("dbr_notretrieved_reports", "node12", "box7", "Reports not retrieved"),
    ("other_sought_reports", "node18", "box12", "Reports sought for retrieval (other)"),
    ("other_notretrieved_reports", "node19", "box13", "Reports not retrieved (other)"),
    ("dbr_assessed", "node13", "box8", "Reports assessed for eligibility"),
    ("dbr_excluded", "node14", "box9", "Reports excluded"),
    ("other_assessed", "node20", "box14", "Reports assessed for eligibility (other)"),
    ("other_excluded", "node21", "box15", "Reports excluded (other)"),
    ("new_studies", "node15", "box10", "New studies included in review"),
    ("new_reports", NA, "box10", "Reports of new included studies"),
    ("total_studies", "node22", "box16", "Total studies included in review"),
    ("total_reports", NA, "box16", "Reports of total included studies"),
    ("total_studies_ma", "node23", "box17", "Total studies included in meta-analysis"),
    ("total_reports_ma", NA, "box17", "Reports of total included studies in meta-analysis"),
)


def _name(text: str) -> str:
    """A source or reason as the package's "name, n; name, n" lists can hold it: no
    comma or semicolon (each becomes " -"), one line, never a formula."""
    return escape_formula(re.sub(r"\s*[,;]\s*", " - ", " ".join(text.split())) or "unnamed")


def _listing(counts: dict[str, int]) -> str:
    """``{name: n}`` as "name, n; name, n" ("0" when empty, a number to the package)."""
    return "; ".join(f"{_name(name)}, {n}" for name, n in counts.items()) or "0"


def _other_kind(source: str) -> str:
    """The R template's row of an other-methods source: websites and organisations by
    their name, every other source counted as citation searching."""
    lowered = source.lower()
    if "website" in lowered or "web site" in lowered:
        return "website_results"
    return "organisation_results" if "organi" in lowered else "citations_results"


def r_values(counts: PrismaCounts) -> dict[str, str]:
    """The ``n`` of every data row: the same numbers as the app's diagram of ``counts``."""
    e = counts.entered
    identified = dict(counts.identified)
    if e.removed_other:
        identified[REMOVED_BEFORE_IMPORT] = e.removed_other
    other = dict.fromkeys(("website_results", "organisation_results", "citations_results"), 0)
    for source, n in e.other_identified.items():
        other[_other_kind(source)] += n
    numbers = {
        "previous_studies": counts.previous_included,
        "previous_reports": counts.previous_included,
        "database_results": counts.identified_total, "register_results": 0, **other,
        "duplicates": counts.duplicates_removed,
        "excluded_automatic": counts.removed_automation,
        "excluded_other": counts.removed_other,
        "records_screened": counts.screened, "records_excluded": counts.excluded_screening,
        "dbr_sought_reports": counts.sought, "dbr_notretrieved_reports": counts.not_retrieved,
        "other_sought_reports": e.other_sought,
        "other_notretrieved_reports": e.other_not_retrieved,
        "dbr_assessed": counts.assessed, "other_assessed": e.other_assessed,
        "new_studies": counts.included, "new_reports": counts.included,
        "total_studies": counts.total_included, "total_reports": counts.total_included,
        "total_studies_ma": 0, "total_reports_ma": 0,
    }
    return {key: str(n) for key, n in numbers.items()} | {
        "database_specific_results": _listing(identified),
        "register_specific_results": "0",
        "dbr_excluded": _listing(counts.excluded_fulltext),
        "other_excluded": _listing(e.other_excluded)}


def r_rows(counts: PrismaCounts) -> list[tuple[str, ...]]:
    """Every row of the R package's CSV (:data:`R_COLUMNS`), in its template's order."""
    values = r_values(counts)
    titles = {box: (box if box in _STAGES else NA, node, box, text, text, text,
                    f"{box}.html", "0") for box, (node, text) in _TITLES.items()}
    lines = {data: (data, node, box, text, text, text if node != NA else NA,
                    f"{data}.html" if node != NA else NA, values[data])
             for data, node, box, text in _LINES}
    order = ("prevstud", "previous_studies", "previous_reports", "newstud",
             *[d for d, *_ in _LINES[2:6]], "othstud", *[d for d, *_ in _LINES[6:-2]],
             *_STAGES, "total_studies_ma", "total_reports_ma")
    return [titles.get(key) or lines[key] for key in order]


def write_r_csv(counts: PrismaCounts, path: str | Path, *,
                project: str | Path | None = None) -> Path:
    """Write :func:`r_rows` to ``path`` whole (never onto ``project`` or a database); UTF-8
    without a byte-order mark, which R's ``read.csv`` would read into the first name."""
    target = Path(path)
    check_target(target, project)
    return write_whole(target, lambda partial: r_csv(counts, partial),
                       "the PRISMA2020 counts")


def r_csv(counts: PrismaCounts, path: Path) -> None:
    """Write :func:`r_rows` as CSV at ``path`` (no byte-order mark: see
    :func:`write_r_csv`)."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(R_COLUMNS)
        writer.writerows(r_rows(counts))
