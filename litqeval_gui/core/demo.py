"""Build the bundled demo project: three topics, each a core set and two result lists.

Everything is generated, deterministically for a seed, from the vocabularies in
``resources/demo`` (one JSON file per topic and ``common.json``). Per topic the
builder makes *works* of four kinds — ``core`` (dense in the topic's core terms),
``related`` (core and related terms mixed), ``loose`` (related terms and off-topic
words) and ``noise`` (a false-friend phrase the sloppy query matched, in off-topic
text) — and writes them as real export files in the formats the topic file names
(RIS, BibTeX, XLSX, PubMed's MEDLINE ``.nbib`` and a Scopus CSV with Scopus' columns,
fake EIDs and author ids, all written by :mod:`~litqeval_gui.core.records.exporting`). The
files are imported through :func:`~litqeval_gui.core.records.ingest.import_file`, so the demo
exercises the real importers (and their detection of each database's layout) and record
linkage.

Each result list holds most, not all, core works, some as near-duplicates (another
case, a typo, no DOI, a subtitle added or dropped), so recall is below 1; a list may
hold a core work's preprint (own DOI, a year earlier), which linkage offers as an
uncertain match for the user to review.

The project is built at ``<path>.tmp`` and renamed to ``path`` when complete; on
cancel or error the partial file is deleted.
"""

from __future__ import annotations

import json
import os
import random
import re
import tempfile
import zlib
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from litqeval_gui.core.errors import ProjectError
from litqeval_gui.core.jobs import NEVER, CancelToken, Progress, run_job, scaled
from litqeval_gui.core.projectfile.locking import ProjectLock
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.exporting import export_records
from litqeval_gui.core.records.ingest import import_file
from litqeval_gui.core.records.linkage import LinkItem, LinkSettings, find_links
from litqeval_gui.core.records.model import Record, normalise_title
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.log.store import Screening
from litqeval_gui.resources import resource

TOPIC_FILES = ("polyp_detection.json", "soil_carbon.json", "misinformation.json")

KINDS = ("core", "related", "loose", "noise")  # also the order of relevance in a list
# How a kind fills a topic template's slots: slot -> ((pool, weight), ...); other slots
# draw from the pool of their own name.
_FILLS: dict[str, dict[str, tuple[tuple[str, int], ...]]] = {
    "core": {"related": (("core", 1), ("related", 1))},
    "related": {"core": (("related", 1), ("core", 1))},
    "loose": {"core": (("related", 2), ("context", 1), ("offtopic", 2)),
              "related": (("related", 2), ("offtopic", 3)),
              "outcome": (("outcome", 1), ("offtopic", 1))},
}
# Near-duplicate forms of a core work in a result list, with weights.
_VARIANTS = (("exact", 9), ("case", 3), ("typo", 2), ("no_doi", 3), ("subtitle", 2))
_ABSTRACT = (("background", 1, 1), ("aim", 1, 1), ("methods", 1, 2), ("results", 1, 2),
             ("conclusion", 1, 1))  # (part, min sentences, max sentences)
_SLOT = re.compile(r"\{(\w+)\}")
# Linkage settings for keeping distinct works apart: the importer's thresholds with a wider
# neighbourhood, so that an import rarely offers two generated works as a match.
_APART = LinkSettings(window=16)


@dataclass(frozen=True)
class DemoList:
    """One list of a demo topic as written to a file, ready to import."""

    topic: str
    name: str
    role: str
    records: list[Record]
    fmt: str
    database: str = ""
    query: str = ""


def load_vocabulary() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The shared pools (``common.json``) and the topic vocabularies, in topic order."""
    def read(name: str) -> dict[str, Any]:
        return json.loads(resource("demo", name).read_text(encoding="utf-8"))

    return read("common.json"), [read(name) for name in TOPIC_FILES]


class _TopicWriter:
    """Seeded generator of one topic's works and lists."""

    def __init__(self, common: dict[str, Any], topic: dict[str, Any], seed: int, number: int):
        self.rng = random.Random(f"{seed}:{topic['name']}")
        self.common = common
        self.topic = topic
        self.fields = sorted(common["offtopic_fields"])
        self.serial = number * 100_000
        self.works: list[Record] = []  # every distinct work made so far
        self.pmids = iter(self.rng.sample(range(20_000_000, 39_000_000), 20_000))

    # -- text --------------------------------------------------------------------
    def _draw(self, slot: str, kind: str, field: str) -> str:
        rng = self.rng
        if slot in ("n", "pct", "pct2", "years"):
            low, high = {"n": (40, 12_000), "pct": (5, 45), "pct2": (50, 90),
                         "years": (2, 20)}[slot]
            return str(rng.randint(low, high))
        choices = _FILLS.get(kind, {}).get(slot)
        if choices:
            slot = rng.choices([c for c, _ in choices], [w for _, w in choices])[0]
        if slot == "offtopic":
            return rng.choice(self.common["offtopic_fields"][field]["words"])
        if slot == "anchor":
            return rng.choice(self.topic["anchors"])
        if slot == "subtitle":
            return rng.choice(self.common["subtitles"])
        return rng.choice(self.topic["terms"][slot])

    def _fill(self, template: str, kind: str, field: str) -> str:
        used: set[str] = set()

        def one(match: re.Match[str]) -> str:
            slot = match.group(1)
            word = self._draw(slot.lower(), kind, field)
            for _ in range(3):  # avoid "X for X"
                if word not in used:
                    break
                word = self._draw(slot.lower(), kind, field)
            used.add(word)
            return word[:1].upper() + word[1:] if slot[0].isupper() else word

        return _SLOT.sub(one, template)

    def _title(self, kind: str, field: str) -> str:
        templates = self.common["noise_titles"] if kind == "noise" else self.topic["titles"]
        return self._fill(self.rng.choice(templates), kind, field)

    def _abstract(self, kind: str, field: str) -> str:
        parts = (self.common["noise_sentences"] if kind == "noise"
                 else self.topic["sentences"])
        sentences = []
        for part, low, high in _ABSTRACT:
            count = self.rng.randint(low, high)
            for template in self.rng.sample(parts[part], min(count, len(parts[part]))):
                sentences.append(self._fill(template, kind, field))
        return " ".join(sentences)

    # -- works -------------------------------------------------------------------
    def works_of(self, kinds: list[str]) -> list[Record]:
        """New works of these kinds, re-titled until linkage matches none to another work."""
        fresh = [self._work(kind) for kind in kinds]
        suspects = fresh  # works whose titles are not yet checked
        for _ in range(20):
            checked = {id(w) for w in suspects}
            others = [w for w in self.works + fresh if id(w) not in checked]
            links = run_job(find_links(_title_items(suspects), _title_items(others, len(suspects)),
                                       settings=_APART))
            if not links:
                self.works += fresh
                return fresh
            suspects = [suspects[key] for key in sorted(
                {link.a if link.b >= len(suspects) else link.b for link in links})]
            for work in suspects:
                work.title = self._title(work.raw["demo"]["kind"], work.raw["demo"]["field"])
        raise RuntimeError("the demo vocabulary is too small for distinct titles")

    def _work(self, kind: str) -> Record:
        rng = self.rng
        field = rng.choice(self.fields)
        venues = (self.common["offtopic_fields"][field]["venues"] if kind == "noise"
                  else self.topic["venues"])
        venue = rng.choice(venues)
        year = rng.randint(*self.topic["years"])
        self.serial += 1
        pools = {"core": ("core", "core", "method"), "related": ("related", "core", "method"),
                 "loose": ("related", "context", "outcome"),
                 "noise": ("anchor", "offtopic", "offtopic")}[kind]
        keywords = sorted({self._draw(pool, "", field) for pool in pools})
        authors = [f"{rng.choice(self.common['surnames'])}, {rng.choice(self.common['given_names'])}"
                   for _ in range(rng.randint(2, 7))]
        return Record(
            title=self._title(kind, field), abstract=self._abstract(kind, field),
            authors=authors, year=year, venue=venue["name"], keywords=keywords,
            language="English", doi=f"{venue['doi']}.{year}.{self.serial:06d}",
            pmid=str(next(self.pmids)) if self.topic["pmids"] else "",
            raw={"demo": {"work": self.serial, "kind": kind, "field": field}},
        )

    def _copy(self, work: Record, variant: str) -> Record:
        """``work`` as a result list exports it, in form ``variant`` (see :data:`_VARIANTS`)."""
        rng = self.rng
        copy = replace(work, authors=list(work.authors), keywords=list(work.keywords),
                       raw={"demo": {**work.raw["demo"], "variant": variant}})
        if variant == "case":
            copy.title = rng.choice((str.upper, str.lower))(work.title)
        elif variant == "typo":
            copy.title, copy.doi = _typo(rng, work.title), ""
        elif variant == "no_doi":
            copy.doi = ""
        elif variant == "subtitle":
            main, colon, _ = work.title.partition(":")
            copy.title = main if colon else f"{work.title}: {rng.choice(self.common['subtitles'])}"
            copy.doi = ""
        elif variant == "preprint":
            preprint = self.topic["preprint"]
            self.serial += 1
            copy.year = work.year - 1
            copy.venue, copy.pmid = preprint["venue"], ""
            copy.doi = preprint["doi"].format(yy=copy.year % 100, serial=self.serial % 100_000)
        return copy

    def lists(self) -> list[DemoList]:
        """The topic's core list and its result lists."""
        rng, topic = self.rng, self.topic
        core = self.works_of(["core"] * topic["core"]["size"])
        for work in rng.sample(core, 2):  # conference papers without a DOI
            work.doi = ""
        out = [DemoList(topic["name"], topic["core"]["name"], "core",
                        [replace(work, pmid="") for work in core], topic["core"]["format"])]
        # One exported form per core work, shared by the lists (the flaws come from the
        # publisher's metadata); a preprint instead is chosen per list.
        variants = rng.choices([v for v, _ in _VARIANTS], [w for _, w in _VARIANTS], k=len(core))
        forms = [self._copy(work, variant) for work, variant in zip(core, variants, strict=True)]
        first: list[Record] = []
        for spec in topic["lists"]:
            chosen = rng.sample(range(len(core)), round(spec["core_share"] * len(core)))
            # A preprint stays apart (an uncertain match) only while every other copy of
            # its work has a DOI; a DOI-less copy would link it for certain.
            chosen.sort(key=lambda i: not forms[i].doi)
            preprints = spec["preprints"]
            records = [self._copy(core[i], "preprint") for i in chosen[:preprints]]
            records += [forms[i] for i in chosen[preprints:]]
            others = self._others(spec, spec["size"] - len(records), first)
            first = first or others
            records += others
            score = {id(r): KINDS.index(r.raw["demo"]["kind"]) + rng.gauss(0, 1.0)
                     for r in records}
            records.sort(key=lambda r: score[id(r)])
            out.append(DemoList(topic["name"], spec["name"], "results", records, spec["format"],
                                spec["database"], spec["query"]))
        return out

    def _others(self, spec: dict[str, Any], count: int, first: list[Record]) -> list[Record]:
        """``count`` non-core works by the list's mix; a share reused from the first list."""
        kinds = list(spec["mix"])
        wanted = {kind: round(count * spec["mix"][kind]) for kind in kinds}
        wanted[kinds[-1]] += count - sum(wanted.values())
        records: list[Record] = []
        fresh: list[str] = []
        for kind in kinds:
            pool = [r for r in first if r.raw["demo"]["kind"] == kind]
            reuse = min(len(pool), round(wanted[kind] * spec.get("from_first", 0)))
            records += self.rng.sample(pool, reuse)
            fresh += [kind] * (wanted[kind] - reuse)
        return records + self.works_of(fresh)


def _title_items(works: list[Record], first: int = 0) -> list[LinkItem]:
    """Works as the linker sees them by title alone (no identifiers, year unknown)."""
    return [LinkItem(first + i, normalise_title(w.title), None, ()) for i, w in enumerate(works)]


def _typo(rng: random.Random, title: str) -> str:
    """``title`` with one letter inside one longer word swapped with its neighbour."""
    words = title.split(" ")
    candidates = [i for i, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
    i = rng.choice(candidates)
    word = words[i]
    pos = rng.randrange(1, len(word) - 2)
    words[i] = word[:pos] + word[pos + 1] + word[pos] + word[pos + 2:]
    return " ".join(words)


# -- export files in database layouts ------------------------------------------------

# Record field -> Scopus CSV column; Scopus' other columns come from _as_scopus.
_SCOPUS_HEADERS = {
    "authors": "Authors", "title": "Title", "year": "Year", "venue": "Source title",
    "volume": "Volume", "issue": "Issue", "doi": "DOI", "url": "Link",
    "abstract": "Abstract", "keywords": "Author Keywords", "pmid": "PubMed ID",
    "language": "Language of Original Document", "type": "Document Type",
    "scopus_eid": "EID",
}


def _author_parts(author: str) -> tuple[str, str]:
    surname, _, given = author.partition(", ")
    return surname, given


def _abbreviation(venue: str) -> str:
    return " ".join(word[:4] + "." if len(word) > 4 else word for word in venue.split()
                    if word.lower() not in ("of", "and", "the"))


def _bibliographic(record: Record) -> tuple[int, int, int, int]:
    """(volume, issue, first page, cited by): derived from the work number, so stable."""
    number = record.raw["demo"]["work"]
    year = record.year or 2020
    return (year - 1990 + number % 3, number % 12 + 1, (number * 37) % 900 + 1,
            (2025 - year) * (number % 7))


def _as_scopus(record: Record) -> tuple[Record, dict[str, str]]:
    """``record`` as Scopus exports it (short author names, a fake EID and link) and the
    Scopus columns that are not record fields (author ids, pages, citations…)."""
    names = [_author_parts(a) for a in record.authors]
    ids = [str(57_000_000_000 + zlib.crc32(a.encode()) % 1_000_000_000) for a in record.authors]
    eid = f"2-s2.0-85{record.raw['demo']['work']:09d}"
    volume, issue, first, cited = _bibliographic(record)
    scopus = replace(record, authors=[f"{s} {g[:1]}." for s, g in names],
                     volume=str(volume), issue=str(issue), ids={"scopus_eid": eid},
                     url=f"https://www.scopus.com/inward/record.uri?eid={eid}&partnerID=40")
    return scopus, {
        "Author full names": "; ".join(f"{s}, {g} ({i})"
                                       for (s, g), i in zip(names, ids, strict=True)),
        "Author(s) ID": "; ".join(ids), "Art. No.": "", "Page start": str(first),
        "Page end": str(first + 11), "Page count": "12", "Cited by": str(cited),
        "Index Keywords": "", "Abbreviated Source Title": _abbreviation(record.venue),
        "Publication Stage": "Final", "Open Access": "", "Source": "Scopus"}


def _write_scopus(records: list[Record], path: Path) -> None:
    """A Scopus "CSV export" with all its columns (UTF-8 with BOM, as Scopus writes it)."""
    rows = [_as_scopus(record) for record in records]
    export_records([r for r, _ in rows], path, "csv", headers=_SCOPUS_HEADERS,
                   extra=[columns for _, columns in rows])


# Export format -> (file suffix, record type as that export names it, writer).
_FORMATS: dict[str, tuple[str, str, Callable[[list[Record], Path], object]]] = {
    "ris": (".ris", "JOUR", partial(export_records, fmt="ris")),
    "bibtex": (".bib", "article", partial(export_records, fmt="bibtex")),
    "xlsx": (".xlsx", "Journal Article", partial(export_records, fmt="xlsx")),
    "scopus-csv": (".csv", "Article", _write_scopus),
    "nbib": (".nbib", "Journal Article",  # PubMed gives languages as codes
             lambda records, path: export_records(
                 [replace(r, language="eng") for r in records], path, "medline")),
}


def _write_list(demo_list: DemoList, folder: Path, stem: str) -> Path:
    """Write ``demo_list`` into ``folder`` in its export format; return the file."""
    suffix, kind, writer = _FORMATS[demo_list.fmt]
    path = folder / f"{stem}{suffix}"
    writer([replace(r, type=kind) for r in demo_list.records], path)
    return path


# -- building ---------------------------------------------------------------------------

def build_demo(path: Path, token: CancelToken = NEVER, *,
               seed: int = 2024) -> Generator[Progress, None, Path]:
    """Job: create the demo project at ``path`` (which must not exist); return ``path``."""
    path = Path(path)
    if path.exists():
        raise ProjectError(f"{path} already exists; choose another name")
    partial = path.with_name(path.name + ".tmp")
    _remove_dead_partial(partial)
    common, topics = load_vocabulary()
    project = Project.create(partial)
    try:
        with tempfile.TemporaryDirectory(prefix="litqeval-demo-") as folder:
            yield from _fill(project, Path(folder), common, topics, seed, token)
        project.close()
        if path.exists():
            raise ProjectError(f"{path} was created while the demo was built; "
                               "choose another name")
        os.replace(partial, path)
    except BaseException:
        project.close()
        _unlink_project_files(partial)
        raise
    yield Progress(1, 1, "demo project ready")
    return path


def _unlink_project_files(path: Path) -> None:
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


def _remove_dead_partial(partial: Path) -> None:
    """Remove a partial demo whose build died (e.g. killed); a live build keeps its lock,
    and then :class:`~litqeval_gui.core.errors.ProjectLockedError` is raised."""
    if not partial.exists():
        return
    lock = ProjectLock(partial)
    lock.acquire()
    try:
        _unlink_project_files(partial)
    finally:
        lock.release()


def _fill(project: Project, folder: Path, common: dict[str, Any], topics: list[dict[str, Any]],
          seed: int, token: CancelToken) -> Generator[Progress, None, None]:
    """Generate, write and import every topic's lists into ``project``."""
    total = sum(t["core"]["size"] + sum(s["size"] for s in t["lists"]) for t in topics) * 2
    done = 0
    with project.transaction() as db:
        db["meta"].insert({"key": "demo", "value": json.dumps({
            "seed": seed,
            "topics": [{"name": t["name"], "description": t["description"]} for t in topics],
        })}, replace=True)
    for number, topic in enumerate(topics):
        token.raise_if_cancelled()
        yield Progress(done, total, f"{topic['name']}: generating records")
        demo_lists = _TopicWriter(common, topic, seed, number).lists()
        done += sum(len(d.records) for d in demo_lists)
        for index, demo_list in enumerate(demo_lists):
            file = _write_list(demo_list, folder, f"topic{number + 1}_{index}")
            units = len(demo_list.records)
            yield from scaled(
                import_file(project, file, topic=demo_list.topic, role=demo_list.role,
                            name=demo_list.name, query=demo_list.query,
                            database=demo_list.database or None, token=token),
                done, done + units, total, f"{topic['name']} / {demo_list.name}",
            )
            done += units


def sample_screening(project: Project) -> Screening:
    """A new screening of the first topic's first result list (what the self-test opens
    the screen on in the demo project)."""
    topic = queries.topics(project)[0].name
    lists = [info.name for info in queries.lists(project, topic) if info.role == "results"]
    return store.create_screening(project, topic, "self-test", lists[:1])
