"""Rayyan exports (CSV, RIS): the records with every reviewer's decision.

Rayyan writes a record's screening into its notes (CSV ``notes``, RIS ``N1``) as parts
joined by `` | ``, after any note of the record's own::

    RAYYAN-INCLUSION: {"Kofi"=>"Included", "Ama"=>"Maybe"} | RAYYAN-LABELS: ML,Hospital |
    RAYYAN-EXCLUSION-REASONS: wrong population,foreign language |
    USER-NOTES: {"Kofi"=>["check later"]}

Each reviewer's Included / Excluded / Maybe becomes their decision (include, exclude,
maybe); the record's labels become its decisions' tags, its exclusion reasons the
reason of each exclusion (the first; every reason is kept in the note), a reviewer's
notes their decision's note. Rayyan exports no decision times. A map that is not
of this shape refuses the file, naming the record.
"""

from __future__ import annotations

import re
from pathlib import Path

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.screening.foreign.review import (
    Decision,
    RecordsFile,
    Review,
    entry_ranks,
    parsed,
)

TOOL = "Rayyan"
MARK = "RAYYAN-INCLUSION"
MAX_NOTES = 100_000  # characters of one record's notes
_KEYS = ("RAYYAN-INCLUSION", "RAYYAN-LABELS", "RAYYAN-EXCLUSION-REASONS", "USER-NOTES")
_PART = re.compile(r"(RAYYAN-[A-Z-]+|USER-NOTES):\s*(.*?)\s*(?=\|\s*(?:RAYYAN-[A-Z-]+|USER-NOTES):|$)",
                   re.S)
_STRING = r'"((?:[^"\\]|\\.)*)"'
_PAIR = re.compile(rf'\s*{_STRING}\s*=>\s*({_STRING}|\[[^\]]*\])\s*(,|$)', re.S)
_LIST_ITEM = re.compile(rf'\s*{_STRING}\s*(,|$)', re.S)
LABELS = {"included": "include", "excluded": "exclude", "maybe": "maybe"}


def sniff(path: Path) -> bool:
    """Whether ``path`` (a CSV or RIS file) carries Rayyan decisions in its first 4 MiB."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4 << 20)
    except OSError:
        return False
    return MARK.encode() in head and not head.startswith(b"PK\x03\x04")


def read(path: Path) -> Review:
    """The review of Rayyan export ``path`` (module docstring), or one line why not."""
    result = parsed(path)
    if result.format not in ("csv", "tsv", "ris"):
        raise ImportRefused(f"{path.name}: a Rayyan export is CSV or RIS, not {result.format}")
    review = Review(tool=TOOL, name=f"Rayyan: {path.stem}",
                    files=[RecordsFile(path, path.stem, "Rayyan")],
                    note=f"Rayyan export {path.name}")
    ranks, rejected = entry_ranks(result)
    for entry, reason in sorted(rejected.items()):
        review.unmatched.append(f"{path.name}, record {entry}: the importer rejected it "
                                f"({reason}); its decisions were not imported")
    by_rank = {rank: entry for entry, rank in ranks.items()}
    for record in result.records:
        where = f"{path.name}, record {by_rank[record.rank]}"
        notes = _notes(record.raw)
        if MARK not in notes:
            continue
        if len(notes) > MAX_NOTES:
            raise ImportRefused(f"{where}: its notes are longer than {MAX_NOTES:,} characters; "
                                "this is not a Rayyan export")
        parts = dict(_PART.findall(notes))
        decisions = _string_map(parts.get("RAYYAN-INCLUSION", ""), where, MARK)
        tags = tuple(t.strip() for t in parts.get("RAYYAN-LABELS", "").split(",") if t.strip())
        reasons = [r.strip() for r in parts.get("RAYYAN-EXCLUSION-REASONS", "").split(",")
                   if r.strip()]
        notes_by = _list_map(parts.get("USER-NOTES", ""), where) if "USER-NOTES" in parts \
            else {}
        for reviewer, value in decisions.items():
            label = LABELS.get(value.strip().lower())
            if label is None:
                raise ImportRefused(f"{where}: {reviewer!r}'s decision {value[:40]!r} is not "
                                    "Included, Excluded or Maybe")
            note = "; ".join(notes_by.get(reviewer, []))
            if label == "exclude" and len(reasons) > 1:
                note = "; ".join(filter(None, [note, "reasons: " + ", ".join(reasons)]))
            review.add(Decision(0, record.rank, reviewer, label,
                                reason=reasons[0] if label == "exclude" and reasons else "",
                                note=note, tags=tags), where)
    if not review.decisions:
        raise ImportRefused(f"{path.name}: no record carries a Rayyan decision "
                            f"({MARK}); import it as a list of records instead")
    return review


def _notes(raw: dict) -> str:
    """A record's notes as Rayyan wrote them: the CSV column, or every RIS ``N1``."""
    for key in ("notes", "Notes", "N1", "note"):
        value = raw.get(key)
        if value:
            return " | ".join(map(str, value)) if isinstance(value, list) else str(value)
    return ""


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _pairs(text: str, where: str, what: str) -> list[tuple[str, str]]:
    """The ``"key"=>value`` pairs of a ``{…}`` map, whole, or one line why not."""
    body = text.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise ImportRefused(f"{where}: its {what} is not a map {{\"name\"=>…}}")
    body, found, at = body[1:-1], [], 0
    while at < len(body) and body[at:].strip():
        match = _PAIR.match(body, at)
        if match is None:
            raise ImportRefused(f"{where}: its {what} is damaged near "
                                f"{body[at:at + 30]!r}")
        found.append((_unquote(match.group(1)), match.group(2)))
        at = match.end()
    return found


def _string_map(text: str, where: str, what: str) -> dict[str, str]:
    result = {}
    for key, value in _pairs(text, where, what):
        if not value.startswith('"'):
            raise ImportRefused(f"{where}: its {what} gives {key!r} a list, not a decision")
        result[key] = _unquote(value[1:-1])
    return result


def _list_map(text: str, where: str) -> dict[str, list[str]]:
    result = {}
    for key, value in _pairs(text, where, "USER-NOTES"):
        items = [_unquote(m.group(1)) for m in _LIST_ITEM.finditer(value.strip("[]"))] \
            if value.startswith("[") else [_unquote(value[1:-1])]
        result[key] = items
    return result
