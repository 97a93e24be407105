"""The import formats: one :class:`ImportFormat` each in :data:`FORMATS`.

Everything that lists or dispatches on import formats reads this registry when it runs:
detection (:mod:`~litqeval_gui.core.records.importing.detect`: the binary signatures,
the text sniffers in order, the list of known formats in its refusal),
:func:`~litqeval_gui.core.records.importing.read_records` (the reader, its collector,
which forced formats the content may contradict), ``litqeval import --format``, the
open dialogs' filter (:func:`open_filter`), the import wizard's subtitle and "Read as"
choices, the help, the self-test's import steps and the importer fuzz suite. A new
format is a reader module (``read`` and ``sniff``) and one entry here; see "Recipe:
add an import format" in docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from litqeval_gui.core.errors import ImportRefused
from litqeval_gui.core.jobs import Progress
from litqeval_gui.core.records.importing import (
    bibtex,
    documents,
    endnote,
    medline,
    ris,
    tabular,
    trec,
)
from litqeval_gui.core.records.importing.common import Collector, ReadOptions

# read(source, collector, options): ``source`` is the decoded text, or the path of a binary
# file; it adds records to the collector (rejecting bad ones), stops once ``collector.full``
# and yields ``collector.progress(...)`` every few thousand records (where a cancel is honoured)
Reader = Callable[[str, Collector, ReadOptions], Generator[Progress, None, None]]
Sniffer = Callable[[list[str]], bool]  # on the first non-blank lines (at most 40) of a head


@dataclass(frozen=True)
class ImportFormat:
    """One import format.

    ``name`` is the ``--format`` value and the format stored with an import; ``label``
    what users read; ``suffixes`` the usual file endings (the open dialogs' filter;
    detection goes by content). A text format has a ``sniff``; a binary one the
    ``magic`` bytes every such file starts with, and its reader gets the path.
    ``keeps_rank``: records keep the file's rank and score and need no title (TREC).
    ``table``: rows of columns mapped to fields; the preview offers the mapping, and a
    forced table format is not contradicted by content of another text table format.
    """

    name: str
    label: str
    suffixes: tuple[str, ...]
    read: Reader
    sniff: Sniffer | None = None
    magic: bytes = b""
    keeps_rank: bool = False
    table: bool = False

    @property
    def binary(self) -> bool:
        """Whether the reader gets the file's path instead of its decoded text."""
        return bool(self.magic)


# text formats are sniffed in this order (a TREC run is whitespace-separated columns, so
# before the tables); binary ones by their magic bytes before any text
FORMATS: tuple[ImportFormat, ...] = (
    ImportFormat("ris", "RIS", (".ris",), ris.read, ris.sniff),
    ImportFormat("medline", "PubMed/MEDLINE", (".nbib", ".txt"), medline.read, medline.sniff),
    ImportFormat("bibtex", "BibTeX", (".bib", ".bibtex"), bibtex.read, bibtex.sniff),
    ImportFormat("endnote", "EndNote XML", (".xml",), endnote.read, endnote.sniff),
    ImportFormat("jsonl", "JSON lines (documents)", (".jsonl",), documents.read_jsonl,
                 documents.sniff_jsonl),
    ImportFormat("trec-doc", "TREC <DOC> documents", (".trec", ".sgml", ".xml", ".txt"),
                 documents.read_trec_doc, documents.sniff_trec_doc),
    ImportFormat("trec-run", "TREC run", (".txt", ".run", ".res"), trec.read, trec.sniff_run,
                 keeps_rank=True),
    ImportFormat("qrels", "TREC qrels", (".txt", ".qrels"), trec.read, trec.sniff_qrels,
                 keeps_rank=True),
    ImportFormat("csv", "CSV", (".csv",), tabular.read_text, tabular.sniff_csv, table=True),
    ImportFormat("tsv", "TSV", (".tsv", ".txt"), tabular.read_text, tabular.sniff_tsv,
                 table=True),
    ImportFormat("xlsx", "Excel (XLSX)", (".xlsx", ".xlsm"), tabular.read_xlsx,
                 magic=b"PK\x03\x04", table=True),
)


def names() -> tuple[str, ...]:
    """The names of the registered formats, in registry order."""
    return tuple(fmt.name for fmt in FORMATS)


def named(name: str) -> ImportFormat:
    """The format called ``name``; :class:`ImportRefused` naming the choices otherwise."""
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise ImportRefused(f"unknown format {name!r}; choose one of {', '.join(names())}")


def labels() -> str:
    """The formats as users read them, e.g. ``"RIS, PubMed/MEDLINE, BibTeX, …"``."""
    return ", ".join(fmt.label for fmt in FORMATS)


def open_filter() -> str:
    """A Qt file-dialog name filter for every registered suffix, each once."""
    suffixes = dict.fromkeys(s for fmt in FORMATS for s in fmt.suffixes)
    return f"Search exports to import ({' '.join('*' + s for s in suffixes)})"
