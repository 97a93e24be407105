"""What the import wizard's pages share: the wizard owns one :class:`WizardState` and
hands it to each page, so no page imports the wizard."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from litqeval_gui.core.records.importing import ParseResult
from litqeval_gui.core.records.ingest import ImportSummary
from litqeval_gui.gui.jobs import JobHandle
from litqeval_gui.gui.session import ProjectSession
from litqeval_gui.gui.settings import Settings


@dataclass
class FileState:
    """One file of the wizard: the user's choices and its latest preview."""

    path: Path
    fmt: str = "auto"
    mapping: dict[str, str] = field(default_factory=dict)  # field -> column ("" = unmapped)
    result: ParseResult | None = None
    error: str = ""
    columns: list[str] = field(default_factory=list)  # table columns seen so far
    tabular: bool = False
    generation: int = 0  # bumped per preview; stale results are ignored
    handle: JobHandle | None = None  # the preview being read, if any

    @property
    def busy(self) -> bool:
        return self.handle is not None

    @property
    def ready(self) -> bool:
        return self.result is not None and not self.busy and not self.error


@dataclass(frozen=True)
class ImportSettings:
    """Page 3's answers, shared by every file of the wizard."""

    role: str
    topic: str
    names: dict[Path, str]
    database: str
    query: str


@dataclass
class WizardState:
    """The session and the app's settings; the chosen files (pages 1 → 2, 3); the
    settings the imports run with (page 3 → 4, 5); what each import did (page 4 → 5)."""

    session: ProjectSession
    app_settings: Settings
    files: list[FileState] = field(default_factory=list)
    settings: ImportSettings | None = None
    summaries: dict[Path, ImportSummary] = field(default_factory=dict)
    failures: dict[Path, str] = field(default_factory=dict)

    def sync_files(self, paths: list[Path]) -> None:
        """File states for ``paths``, keeping what is known of each."""
        known = {s.path: s for s in self.files}
        self.files = [known.get(p) or FileState(p) for p in paths]
