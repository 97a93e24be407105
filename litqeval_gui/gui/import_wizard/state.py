"""What the import wizard's pages share: the wizard owns one :class:`WizardState` and
hands it to each page, so no page imports the wizard."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from litqeval_gui.core.records.collection import ROLE as COLLECTION
from litqeval_gui.core.records.importing import ParseResult
from litqeval_gui.core.records.ingest import ImportSummary
from litqeval_gui.gui.import_wizard.filter_counts import ColumnTally
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings


@dataclass
class FileState:
    """One file of the wizard: the user's choices and its latest preview."""

    path: Path
    fmt: str = "auto"
    mapping: dict[str, str] = field(default_factory=dict)  # field -> column ("" = unmapped)
    where: dict[str, str] = field(default_factory=dict)  # column -> value the rows keep
    result: ParseResult | None = None
    error: str = ""
    columns: list[str] = field(default_factory=list)  # table columns seen so far
    tabular: bool = False
    generation: int = 0  # bumped per preview; stale results are ignored
    handle: JobHandle | None = None  # the preview being read, if any
    filter_column: str = ""  # the column chosen for the filter (a value or not yet)
    tally: ColumnTally | None = None  # the whole file's counts of the filter column
    tally_key: tuple | None = None  # what ``tally`` (or the count under way) is of
    tally_handle: JobHandle | None = None  # the whole file being counted, if any
    tally_error: str = ""

    @property
    def busy(self) -> bool:
        return self.handle is not None

    @property
    def ready(self) -> bool:
        return self.result is not None and not self.busy and not self.error

    @property
    def trec_topics(self) -> list[str]:
        """The topic ids of a TREC run or qrels file (each becomes a list of the project
        topic of that id: the core imports a TREC file's lines of its topic), else none."""
        result = self.result
        if result is None or result.format not in TREC_FORMATS:
            return []
        return list(result.topics)

    def cancel_jobs(self) -> None:
        """Stop the preview and the count under way; their late results are ignored."""
        self.generation += 1
        self.tally_key = None
        for handle in (self.handle, self.tally_handle):
            if handle is not None:
                handle.cancel()
        self.handle = self.tally_handle = None


TREC_FORMATS = ("trec-run", "qrels")
ImportKey = tuple[Path, str | None]  # a file, and the TREC topic of it imported (or None)


def describe_import(key: ImportKey) -> str:
    """``file`` or ``file, topic id`` for messages."""
    path, topic = key
    return path.name if topic is None else f"{path.name}, topic {topic}"


@dataclass(frozen=True)
class ImportSettings:
    """Page 3's answers: each file's role and list name; the topic, database and query
    shared by the files (a TREC file of several topics goes to one topic per id)."""

    roles: dict[Path, str]
    topic: str
    names: dict[Path, str]
    database: str
    query: str


@dataclass
class WizardState:
    """The session and the app's settings; the chosen files (pages 1 → 2, 3); the
    settings the imports run with (page 3 → 4, 5); what each import did (page 4 → 5),
    by :data:`ImportKey`."""

    session: ProjectSession
    app_settings: Settings
    files: list[FileState] = field(default_factory=list)
    settings: ImportSettings | None = None
    summaries: dict[ImportKey, ImportSummary] = field(default_factory=dict)
    failures: dict[ImportKey, str] = field(default_factory=dict)

    def imports(self) -> list[tuple[FileState, str | None]]:
        """Every import the files make: a file as one list of the topic named on page 3,
        or a TREC file once per topic id; document collections last (they give text to
        the records the others bring)."""
        roles = self.settings.roles if self.settings is not None else {}
        files = sorted(self.files, key=lambda s: roles.get(s.path) == COLLECTION)
        return [(s, topic) for s in files for topic in (s.trec_topics or [None])]

    def needs_topic(self) -> bool:
        """Whether some file goes to the topic named on page 3 (not a TREC file's own)."""
        return any(topic is None for _, topic in self.imports())

    def trec_topics(self) -> list[str]:
        """The TREC topic ids of every file, in file order, each once."""
        return list(dict.fromkeys(t for s in self.files for t in s.trec_topics))

    def sync_files(self, paths: list[Path]) -> None:
        """File states for ``paths``, keeping what is known of each."""
        known = {s.path: s for s in self.files}
        self.files = [known.get(p) or FileState(p) for p in paths]
