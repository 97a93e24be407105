"""The help page (F1): what each column, number and control means, the formulas in
words with their sources, and the keyboard shortcuts of each screen.

The main window's shortcuts are read from its own actions, so the page cannot drift
from them; the screens' keys are listed here (a test checks them against the screens).
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from litqeval_gui.core.records.importing import formats
from litqeval_gui.gui.screens.evaluation.adapter import table_headers
from litqeval_gui.gui.screens.evaluation.parameters import NUMBERS, TIPS

RECORDS_KEYS = (("Ctrl+F", "Filter title and abstract"), ("Esc", "Clear the filter"),
                ("Ctrl+Shift+C", "Copy the DOI of the selected record"),
                ("Enter", "Show the selected record's details"))
MATCHES_KEYS = (("A", "Accept: the same work"), ("R", "Reject: different works"),
                ("S", "Skip (no verdict)"), ("Right", "Skip"), ("Left", "Back to the previous pair"))
QUERY_KEYS = (("Ctrl+S", "Save the edited query as a new version"),
              ("Ctrl+Return", "Evaluate the edited query now"),
              ("Esc", "Revert the edit (asks first)"))

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
<li><b>Topic ▸ Query Clauses…</b>: a result list's search query clause by clause on the
records you have — what each part retrieves, the core publications only it finds, the
query without it — and edits shown at once (local evaluation: never what the database
would add).</li>
<li><b>Topic ▸ Review Uncertain Matches…</b>: decide on the pairs the de-duplication was
unsure about; <i>Past verdicts</i> lists and changes the ones you gave.</li>
<li><b>Topic ▸ Screen Records…</b>: screen one record at a time with single keys (I include,
E exclude, M maybe, or 0–3; R exclude with a reason, N note, Z undo, ←/→ through past
decisions). Every decision is saved the moment you make it; the stopping rules advise when
enough is screened.</li>
<li><b>Topic ▸ Simulate Screening…</b>: replay a screening with known labels (a labelled
column, the core set or finished decisions) to see how soon each model finds the relevant
records and where each stopping rule would have stopped, over several seeds.</li>
<li><b>Screening as a team</b>: start the screening with <i>Blind</i> ticked (each reviewer
sees only their own decisions until someone presses Unblind… on the conflicts screen), give
each reviewer a copy of the project (<b>File ▸ Save a Copy…</b>, safe while it is open; a
plain file copy of an open project can miss its latest decisions); each screens it, then
<b>File ▸ Export My Decisions…</b> and, in the other copy, <b>File ▸ Merge Decisions…</b>
(a decisions file or the whole copy; merging twice changes nothing).
<b>Topic ▸ Screening Conflicts…</b> lists where the reviewers disagree, side by side:
↑/↓ move, I/E/M (0–3) resolve as the name in <i>Resolve as</i>, Shift+key as consensus
(at full text E asks for the exclusion's reason and U resolves as not retrieved);
beside it their agreement (Cohen's κ with its 95 % interval, before and after
resolution). The screener's <i>Limit to</i> serves only the open conflicts, or the records
only one other reviewer has seen. Each reviewer's queue holds every record they have not
decided themselves; tick <i>Single screening</i> under it when a second reviewer only checks
a sample, and records anyone decided are not served again. Two reviewers on one computer
take turns with <b>File ▸ Switch Reviewer…</b>; the status bar says who is screening.</li>
<li><b>File ▸ Export…</b> on a screening's tab asks which decisions to export (every label,
undecided and conflict; <i>Included only</i> is one click); <b>File ▸ Export Decision
Log…</b> writes every decision, undo and resolution (who, what, when) as CSV.</li>
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

_SOURCES = """
<h3>Sources</h3>
<p>Every number below names its source. The exact formulas, with the decisions taken
where a source is ambiguous, are in <i>docs/metrics.md</i> of the source code.</p>
<ul>
<li><b>[LitQEval]</b> LitQEval: evaluating a literature search against core
publications — recall, semantic precision (cosine, clustering, MVEE, convex hull), the
decay λ and F2 (github.com/Mohammadsaknini/LitQEval).</li>
<li><b>[TAR]</b> Normalised precision at fixed recall for evaluating technology-assisted
review (nP@r%, WSS).</li>
<li><b>[RelevAI]</b> RelevAI-Reviewer: a benchmark on AI reviewers for survey paper
relevance — grades 0–3, Kendall's τ, per-grade F1.</li>
<li><b>[Pooling]</b> Sub-document level information retrieval (thesis), chapter 8:
incremental variable-depth pooling with a stop criterion.</li>
<li>Wilson (1927) for the recall interval; Khachiyan (1996) for the ellipse; Cormack &amp;
Grossman (2016) for the knee method; Callaghan &amp; Müller-Hansen (2020) for the
hypergeometric stopping test.</li>
</ul>
"""

_EVALUATION = """
<h3>Query evaluation (Topic ▸ Evaluate)</h3>
<p>Each row is one result list of the topic, judged against the topic's core set C (known
relevant publications). Every record's title and abstract is turned into a vector (the
<i>embedding</i>); similar texts get similar vectors. The columns (their tooltips say the
same):</p>
"""

_EVALUATION_MORE = """
<tr><th align=left>λ (decay)</th><td>λ(n) = (1 − (n/α)^p)^q, and 0 from n = α on: a list
that makes the reviewer read very many records is penalised, smoothly, up to α.
[LitQEval]</td></tr>
<tr><th align=left>Fidelity</th><td>the share of the embedding's variance the 2D map keeps
(a partial-least-squares fit from the map back to the vectors). MVEE and hull are only as
good as the map; ⚠ marks their columns when it is low. [LitQEval]</td></tr>
"""


def _evaluation_html() -> str:
    """The evaluation screen's columns and controls, from the tooltips the screen shows."""
    columns = "".join(f"<tr><th align=left>{html.escape(head.replace(chr(10), ' '))}</th>"
                      f"<td>{html.escape(tip)}</td></tr>" for head, tip in table_headers())
    labels = {"from_core": "θ from core", "theta": "θ",
              **{name: label for name, label, *_ in NUMBERS},
              "backend": "backend", "map_method": "map"}
    controls = "".join(f"<tr><th align=left>{html.escape(labels[name])}</th>"
                       f"<td>{html.escape(tip)}</td></tr>" for name, tip in TIPS.items())
    return (f"{_EVALUATION}<table cellpadding=3>{columns}{_EVALUATION_MORE}</table>"
            f"<h4>The evaluation's controls</h4><table cellpadding=3>{controls}</table>")


_SCREENING = """
<h3>Screening (Topic ▸ Screen Records…)</h3>
<table cellpadding=3>
<tr><th align=left>screened · remaining</th><td>records with a decision, and without
one, of the screening's lists.</td></tr>
<tr><th align=left>Model trust</th><td>how far the ranking model can be trusted, tested on
your own decisions so far: they are split into k parts (<i>k-fold</i>); each part is
predicted by a model trained on the others. <b>Kendall's τ</b> compares the model's scores
with your labels (1: same order, 0: no relation). <b>F1</b> per label (0 = excluded,
1 = included; 0–3 for grades) is the harmonic mean of that label's precision and recall:
“F1: excluded 0.93, included 0.25” means the model recognises excluded records well and
included ones poorly — do not trust its order yet. [RelevAI]</td></tr>
<tr><th align=left>nP@r%</th><td>normalised precision at recall r: precision when r of the
relevant records are found × the share of irrelevant records not yet seen. [TAR]</td></tr>
<tr><th align=left>WSS@r%</th><td>work saved over sampling: the share of records not screened
when recall r is reached, minus (1 − r). [TAR]</td></tr>
<tr><th align=left>Stopping rules</th><td>advice only. <i>Consecutive irrelevant</i>: the
last n decisions were all excludes. <i>Knee</i>: the recall curve has flattened
(Cormack &amp; Grossman). <i>Hypergeometric test</i>: on a random sample of the rest, the
chance that recall is still below the target is small (Callaghan &amp; Müller-Hansen).
<i>Rate rule</i>: the pooling rule below, applied to batches of decisions.</td></tr>
<tr><th align=left>Random sampling</th><td>the recommended stop: screen in the model's order
until it advises the switch (once the run of excludes since the last include makes the
target recall more likely reached than not),
then <b>Topic ▸ Switch to Random Sampling…</b> (or the side panel's button).
The rest of the round comes in a random order, kept with the project; screen it in that
order. The panel then gives the test's p-value, how many random records remain if none
is relevant, and the recall estimate with its 95 % interval.
[Callaghan &amp; Müller-Hansen]</td></tr>
<tr><th align=left>Round</th><td>a search update imported into the topic can be added to a
running screening (the import summary offers it; <tt>litqeval screen-update</tt>): works
already screened keep their decisions, the new ones are the next round, served first and
read by the stopping rules on their own.</td></tr>
<tr><th align=left>Full text</th><td><b>Start Full-Text Screening…</b> (Topic menu, on a
title/abstract screening) screens its included records, maybe too if chosen, with their
PDFs: the PDF under the record (PgUp/PgDn or Space a view, Ctrl+F search, F3 next match,
Ctrl+= / Ctrl+− zoom, Ctrl+0 fit width; the include and exclude terms marked). E asks for
the exclusion reason (1–9, or type to filter or add one), U reports the record not
retrieved. Attach a PDF with Attach PDF… or by dropping the file on the screener;
<b>Topic ▸ Attach PDFs from Folder…</b> matches a folder's PDFs to the topic's records
(DOI, PMID, file name, title) for you to confirm. A full-text screening is neither ranked
nor stopped early: its screen gives the PDF most of the height, under the record's details,
and lists the exclusion reasons beside it with how often you gave each.</td></tr>
</table>
"""

_PRISMA = """
<h3>PRISMA 2020 flow diagram (Topic ▸ PRISMA Flow Diagram)</h3>
<p>The topic's flow diagram in PRISMA 2020's layout, counted from its lists and screenings
(the newest title/abstract screening and the full-text screening started from it) and
redrawn as decisions come in. <b>Save Diagram…</b> writes it as SVG, PNG or PDF,
<b>Save Counts…</b> its counts as CSV, or in the layout the PRISMA2020 R package and
Shiny app read; <b>Enter Numbers…</b> takes what no import gives:
the records removed before import and the other-methods column (citation searching,
websites…). Click a number to list its records. A screening that grew with search updates
is drawn round by round in PRISMA 2020's template for updated reviews: the box above the
diagram picks the round, the rounds before it are the previous version of the review. On
the command line: <tt>litqeval prisma</tt>.</p>
<table cellpadding=3>
<tr><th align=left>Every work once</th><td>each work of the topic is in exactly one box,
and each stage is conserved: identified − duplicates − automation − other − not yet
screened = screened; screened = excluded + sought + pending; sought = not retrieved +
assessed + pending; assessed = excluded with reasons + included + pending.</td></tr>
<tr><th align=left>Pending</th><td>drawn with its count, never dropped. At title/abstract:
the records in an open conflict between reviewers and the maybes not sent on to full text;
at full text: the reports sought but not yet decided, and the full-text conflicts and
maybes.</td></tr>
<tr><th align=left>Finished rounds</th><td>a title/abstract round is open until the reviewer
finishes it (<b>Topic ▸ Finish Screening Round…</b>, <tt>litqeval screen-finish</tt>),
which records who, when and the stopping rule's evidence. While the round is open, the
records never screened are <i>not yet screened</i>; only once it is finished are they
<i>Records marked as ineligible by automation tools</i>, and the diagram's note names the
stopping rule (PRISMA 2020 asks a report to say how automation tools were used and when
screening was stopped early).</td></tr>
<tr><th align=left>Late records</th><td>records that pass title/abstract after the full text
started (a resolved conflict, a maybe sent on, a search-update round) are offered to the
running full-text screening (<b>Topic ▸ Add Late Records to Full Text…</b>,
<tt>litqeval screen-fulltext-add</tt>) and counted there.</td></tr>
<tr><th align=left>Removed before import</th><td>the number entered is counted as
identified but not imported, and subtracted as removed for other reasons.</td></tr>
</table>
"""

_POOLING = """
<h3>Pooling (Topic ▸ Pooling)</h3>
<p>A pool at depth k holds every record ranked k or better by any run; each deeper depth
adds only its new records to be judged. [Pooling]</p>
<table cellpadding=3>
<tr><th align=left>nrels(k)</th><td>relevant records in the pool at depth k.</td></tr>
<tr><th align=left>w</th><td>depths in each smoothing window: s(i) = the mean of nrels over
depths i … i+w−1.</td></tr>
<tr><th align=left>W</th><td>windows averaged into the rate: ŕ(i) = the mean of
s(j+1) − s(j) over j = i … i+W−1 (new relevant records per depth).</td></tr>
<tr><th align=left>t</th><td>the rate threshold: a depth counts as low-yield when ŕ &lt; t.</td></tr>
<tr><th align=left>l</th><td>how many low-yield depths in a row stop the pool.</td></tr>
<tr><th align=left>k_cr</th><td>critical depth: the first depth of the first l depths in a
row with ŕ &lt; t; pooling stops there. It is known only once every depth its windows
need is judged.</td></tr>
<tr><th align=left>Low-yield correction</th><td>when at most 10 % of the pool at depth 20 is
relevant, the pool goes to the full depth instead of stopping early.</td></tr>
<tr><th align=left>E (effort)</th><td>in a simulation: records judged in the reduced pool ÷
records judged in the full-depth pool (lower is cheaper).</td></tr>
<tr><th align=left>R (recall)</th><td>relevant records in the reduced pool ÷ relevant
records in the full-depth pool.</td></tr>
<tr><th align=left>τ, τ_AP, RMS</th><td>how the runs' ranking by MAP with the reduced
judgements agrees with the full one: Kendall's τ, its top-weighted variant τ_AP, and the
root-mean-square error of the MAP values.</td></tr>
</table>
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
        f"<h4>Uncertain matches</h4><table cellpadding=2>{_key_rows(MATCHES_KEYS)}</table>"
        f"<h4>Query clauses</h4><table cellpadding=2>{_key_rows(QUERY_KEYS)}</table>")
    return (_INTRO + _NUMBERS + _evaluation_html() + _SCREENING + _PRISMA + _POOLING
            + _SOURCES + shortcuts)


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
