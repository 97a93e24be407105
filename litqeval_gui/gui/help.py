"""The help page (F1): what each column and number means, the formulas with their
sources, and the keyboard shortcuts of each screen.

The main window's shortcuts are read from its own actions, so the page cannot drift
from them; the screens' keys are listed here (a test checks them against the screens).
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from litqeval_gui.core.records.importing import formats

RECORDS_KEYS = (("Ctrl+F", "Filter title and abstract"), ("Esc", "Clear the filter"),
                ("Ctrl+Shift+C", "Copy the DOI of the selected record"),
                ("Enter", "Show the selected record's details"))
MATCHES_KEYS = (("A", "Accept: the same work"), ("R", "Reject: different works"),
                ("S", "Skip (no verdict)"), ("Right", "Skip"), ("Left", "Back to the previous pair"))

_INTRO = f"""
<h2>LitQEval GUI</h2>
<p>Judge a literature search by how many <b>core publications</b> (known relevant papers
of a topic) its results contain. A project file (<i>.litq</i>) holds topics; a topic holds
one core set and any number of <b>result lists</b> (search exports).</p>
<ol>
<li><b>File ▸ New Project…</b> (Ctrl+N), or <b>Open Demo Project</b> for a ready-made one.</li>
<li><b>File ▸ Import…</b> (Ctrl+I), or drop files on the window: a core set and search
exports ({html.escape(formats.labels())}). Opening such a file with Ctrl+O
offers to import it.</li>
<li>Click a list in the sidebar to browse its records; right-click it to rename, delete or
export it.</li>
<li><b>Topic ▸ Review Uncertain Matches…</b>: decide on the pairs the de-duplication was
unsure about; <i>Past verdicts</i> lists and changes the ones you gave.</li>
<li><b>Topic ▸ Screen Records…</b>: screen one record at a time with single keys (I include,
E exclude, M maybe, or 0–3; R exclude with a reason, N note, Z undo, ←/→ through past
decisions). Every decision is saved the moment you make it; the stopping rules advise when
enough is screened.</li>
<li><b>Topic ▸ Simulate Screening…</b>: replay a screening with known labels (a labelled
column, the core set or finished decisions) to see how soon each model finds the relevant
records and where each stopping rule would have stopped, over several seeds.</li>
</ol>
"""

_NUMBERS = """
<h3>Records and works</h3>
<p>A <b>record</b> is one entry of an imported file. Records that are the same publication
(the same DOI or PMID, or the same title and year, or a match you accepted) form one
<b>work</b>. The sidebar shows <i>n records · m works</i> when a list holds duplicates;
the command line's <code>size</code>/<code>works</code> is the same number of works.
<i>Core set (n works)</i> counts the distinct works of the core set.</p>
<h3>Columns of the records view</h3>
<table cellpadding=3>
<tr><th align=left>Rank</th><td>position of the record in its exported list</td></tr>
<tr><th align=left>Title, Year, Venue, DOI</th><td>as imported (DOI normalised)</td></tr>
<tr><th align=left>Core</th><td>✓ when the record's work is in the topic's core set</td></tr>
<tr><th align=left>Copies</th><td>how many records of the topic (any list, the core set
included) are this same work; empty when it is the only one</td></tr>
</table>
<h3>The import summary</h3>
<table cellpadding=3>
<tr><th align=left>Read</th><td>entries in the file = imported + rejected</td></tr>
<tr><th align=left>New works</th><td>works the topic did not have before</td></tr>
<tr><th align=left>Duplicates within the file</th><td>entries of a work another entry of
the same file already holds</td></tr>
<tr><th align=left>Already in the topic</th><td>works of the file that another list (the
core set included) already had</td></tr>
<tr><th align=left>Matched to core</th><td>core works the list contains</td></tr>
<tr><th align=left>Rejected</th><td>entries that could not be read, each with file, line and
reason</td></tr>
<tr><th align=left>Uncertain matches</th><td>pairs awaiting your verdict</td></tr>
<tr><th align=left>Core pending review</th><td>core works the list misses only because a
match awaits your verdict</td></tr>
</table>
"""

_FORMULAS = """
<h3>Formulas</h3>
<p><b>Recall</b> = |C ∩ R| / |C| over works: C the core works of the topic, R the works of a
result list; a core work is retrieved when record linkage put one of the list's records in
its work. Source: LitQEval (core publications, semantic precision, decay, F2); the exact
definitions the app implements are in <i>docs/SPEC.md</i> §1.</p>
<p>The measures of screening and pooling screens (normalised precision at a fixed recall
nP@r%, graded relevance, pool stopping rules) follow SPEC §2–§5 and their sources: the
TAR measures paper, RelevAI-Reviewer and the pooling thesis (chapter 8).</p>
"""


def _key_rows(keys: Iterable[tuple[str, str]]) -> str:
    return "".join(f"<tr><td><code>{html.escape(k)}</code></td><td>{html.escape(what)}</td></tr>"
                   for k, what in keys)


def window_keys(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(shortcut, what it does) of every action with a shortcut, in menu text."""
    out = {}
    for action in actions:
        key = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if key:
            out.setdefault(key, action.text().replace("&", "").rstrip("…"))
    return sorted(out.items())


def help_html(main_keys: Iterable[tuple[str, str]]) -> str:
    """The whole help page."""
    shortcuts = (
        "<h3>Keyboard shortcuts</h3>"
        f"<h4>Main window</h4><table cellpadding=2>{_key_rows(main_keys)}</table>"
        f"<h4>Records view</h4><table cellpadding=2>{_key_rows(RECORDS_KEYS)}</table>"
        f"<h4>Uncertain matches</h4><table cellpadding=2>{_key_rows(MATCHES_KEYS)}</table>")
    return _INTRO + _NUMBERS + _FORMULAS + shortcuts


class HelpDialog(QDialog):
    """The help page in a scrollable, searchable browser; not modal."""

    def __init__(self, main_keys: Iterable[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("LitQEval GUI Help")
        self.browser = QTextBrowser(openExternalLinks=True)
        self.browser.setHtml(help_html(main_keys))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.resize(720, 640)
