"""The README's screenshots, made from the bundled demo project: ``make screens``.

``python docs/make_screens.py [FOLDER] [--only NAME …]`` builds the demo project in a
temporary folder (with temporary app settings, so the user's are never touched),
prepares it through the core functions as a user would have — evaluates a topic,
screens part of a list with active learning, pools the topic's runs, screens part of a
list blind with a second reviewer and settles some conflicts, screens the full texts
(one-page PDFs made from the records) — then opens the main window offscreen at
1200×760 on the demo (as ``litqeval-gui --demo`` does), shows each screen and saves it
as ``FOLDER/NAME.png`` (default FOLDER: ``docs/screens``).

Judgements stand in for a reviewer: a record is relevant when its work is in the
topic's core set. The screens (:data:`SCREENS`): ``librarian`` (the evaluation's
comparison table), ``librarian-map`` (its Landscape tab), ``reviewer`` (the screener),
``pooling`` (the pooling screen), ``team`` (the conflicts screen with the agreement
panel), ``fulltext`` (the full-text screener showing a PDF), ``prisma`` (the PRISMA
2020 diagram). A screen whose minimum width exceeds 1200 widens the window, and its PNG.
Takes 1–2 minutes, most of it the evaluation's vectors and map."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from litqeval_gui.core.demo import build_demo
from litqeval_gui.core.evaluation.engine import evaluate_topic
from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.pooling import state
from litqeval_gui.core.pooling import store as pool_store
from litqeval_gui.core.projectfile import parameters
from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from litqeval_gui.core.records.attachments import attach_file, files_folder
from litqeval_gui.core.screening.fulltext import create_fulltext_screening
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.ranking.features import screening_features
from litqeval_gui.core.screening.ranking.known import core_labels
from litqeval_gui.core.screening.ranking.retrain import retrain
from litqeval_gui.core.screening.reviewers import team as team_store
from litqeval_gui.core.screening.session import ScreeningSession
from litqeval_gui.core.screening.stopping.finishing import finish_round_op

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: the PDFs
from tests.support.fulltext_pdfs import write_pdf  # noqa: E402

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from litqeval_gui.gui.main_window import MainWindow
    from litqeval_gui.gui.screens.evaluation import EvaluationView

SIZE = (1200, 760)
SIDEBAR = 210  # the sidebar's width: wide enough for the demo's list names
TOPIC = "Deep learning for polyp detection in colonoscopy"
BROAD, NARROW = "broad (Scopus)", "narrow (PubMed)"
SCREENING = "title-abstract round 1"
TEAM = "team round 1"
FULL_TEXT = "full text round 1"
POOL = "runs round 1"
POOL_STOP = (14, 6, 0.2, 6)  # w, W, t, l: the relaxed preset's windows, t = 0.2
REVIEWER, SECOND = "Ann", "Ben"
FULL_TEXT_LEFT = 3  # the full-text records left to judge; position % 6 -> decision, else include
FULL_TEXT_JUDGED = {1: ("exclude", "wrong study design"), 3: ("exclude", "wrong outcome"),
                    5: ("not_retrieved", "")}
TEAM_SIZE = 60  # the records both reviewers screen in the team's screening
RESOLVED = 4  # the team's conflicts settled
RECORD_LINES = 96  # pixels for the full-text record's title, authors and journal
WAIT_S = 600  # the longest a screen may take to be ready
SETTLE_S = 1.0  # events run after a screen is ready, before it is grabbed


# -- the project: what a user would have done before looking ----------------------------

def _judge(project: Project, screener: ScreeningSession, count: int | None = None) -> int:
    """Decide up to ``count`` records of ``screener``'s queue (all when None): include
    a core work, exclude the rest; returns how many were decided."""
    topic_id = screener.screening.topic_id
    done = 0
    while (record := screener.shown) is not None and (count is None or done < count):
        [relevant] = core_labels(project, topic_id, [record])
        screener.decide("include" if relevant else "exclude")
        done += 1
    return done


def evaluate(project: Project) -> None:
    """The topic's evaluation with its default settings (vectors, map, four methods)."""
    run_job(evaluate_topic(project, TOPIC))


def highlight(project: Project) -> None:
    """The screener's include and exclude terms (the project's, for every screening)."""
    project.write(parameters.set_values_op([
        (parameters.HIGHLIGHT_INCLUDE, ["polyp*", "colonoscop*"]),
        (parameters.HIGHLIGHT_EXCLUDE, ["nasal"])]))


def screen(project: Project) -> None:
    """A screening of the narrow list: 10 records in list order, a ranking, 30 more in
    its order, a second ranking (what the screen's retraining does)."""
    highlight(project)
    screening = store.create_screening(project, TOPIC, SCREENING, [NARROW],
                                       reasons=["not colonoscopy", "not a primary study"])
    features = run_job(screening_features(project, screening))
    screener = ScreeningSession(project, screening, REVIEWER)
    for count in (10, 30):
        _judge(project, screener, count)
        ranking = run_job(retrain(project, screening, features, "logistic"))
        screener.switch(ranking.ordering(), keep_shown=False)


def team(project: Project) -> None:
    """A blind screening of the narrow list's first :data:`TEAM_SIZE` records by two
    reviewers: Ann judges by the core set, Ben disagrees on every seventh record (as
    merging Ben's exported decisions would have recorded them); then unblinded, and the
    first :data:`RESOLVED` conflicts settled by consensus as the core set has them."""
    screening = store.create_screening(project, TOPIC, TEAM, [NARROW], blind=True,
                                       reasons=["not colonoscopy", "not a primary study"])
    records = store.items(project, screening.id)[:TEAM_SIZE]
    labels = core_labels(project, screening.topic_id, records)
    for reviewer in (REVIEWER, SECOND):
        for position, (record, relevant) in enumerate(zip(records, labels, strict=True), 1):
            flip = reviewer == SECOND and position % 7 == 3
            label = "include" if relevant != flip else "exclude"
            project.write(store.decide_op(screening, record, label,
                                          store.Context(reviewer, "list", position)))
    project.write(store.unblind_op(screening, REVIEWER))
    for conflict in team_store.conflicts(project, screening.id)[:RESOLVED]:
        [relevant] = core_labels(project, screening.topic_id, [conflict.record_id])
        project.write(store.resolve_op(screening, conflict.record_id,
                                       "include" if relevant else "exclude", "consensus"))


def full_text(project: Project) -> None:
    """A full-text screening of what the team's screening included (needs :func:`team`;
    records in an open conflict wait): a PDF made for each record and attached (as
    Topic ▸ Attach PDFs from Folder… would), and all but the last :data:`FULL_TEXT_LEFT`
    judged: most included, some excluded with a reason, some reported not retrieved."""
    highlight(project)
    screening = create_fulltext_screening(
        project, store.find_screening(project, TOPIC, TEAM), FULL_TEXT)
    records = store.items(project, screening.id)
    folder = files_folder(project).with_name("pdfs")
    folder.mkdir(exist_ok=True)
    for record_id, record in queries.records_by_id(project, records).items():
        attach_file(project, record_id, paper_pdf(folder / f"{record_id}.pdf", record.title,
                                                  record.abstract or "", record.year))
    for position, record_id in enumerate(records[:-FULL_TEXT_LEFT], 1):
        label, reason = FULL_TEXT_JUDGED.get(position % 6, ("include", ""))
        project.write(store.decide_op(screening, record_id, label,
                                      store.Context(REVIEWER, "list", position), reason=reason))


def late(project: Project) -> None:
    """After the full text started (needs :func:`full_text`): one more of the team's
    conflicts settled as include (a late record, offered to the running full text) and
    the team's round finished by Ann (its records never screened are then excluded by
    automation tools)."""
    screening = store.find_screening(project, TOPIC, TEAM)
    still_open = [c for c in team_store.conflicts(project, screening.id) if c.resolution is None]
    project.write(store.resolve_op(screening, still_open[0].record_id, "include", "consensus"))
    project.write(finish_round_op(screening, REVIEWER))


def paper_pdf(path: Path, title: str, abstract: str, year: int | None) -> Path:
    """A one-page PDF at ``path`` standing in for a paper: its title, a made-up journal
    line and its abstract, with a real text layer."""
    lines = [(16, line) for line in textwrap.wrap(title, 55)]
    lines += [(10, f"Journal of Demo Endoscopy, {year or 'n.d.'}"), (10, ""), (12, "Abstract")]
    lines += [(10, line) for line in textwrap.wrap(abstract or "(no abstract)", 95)]
    return write_pdf(path, [lines])


def pool(project: Project) -> None:
    """A pool of both result lists and the broad list ranked by cosine to the core set
    (needs :func:`evaluate`), advanced and judged depth by depth until it stops."""
    made = pool_store.create_pool(project, TOPIC, POOL,
                                  [f"list:{BROAD}", f"list:{NARROW}", f"cosine:{BROAD}"],
                                  pool_store.settings(custom=POOL_STOP))
    screening = store.get_screening(project, made.screening_id)
    while state.pool_state(project, pool_store.get_pool(project, made.id)).can_advance:
        state.advance(project, made)
        _judge(project, ScreeningSession(project, screening, REVIEWER))


# -- the window ---------------------------------------------------------------------------

def wait_until(condition: Callable[[], object], what: str, timeout: float = WAIT_S) -> None:
    """Run Qt's events until ``condition()`` holds (a TimeoutError naming ``what``)."""
    from PySide6.QtWidgets import QApplication

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not ready after {timeout:.0f} s")
        QApplication.processEvents()
        time.sleep(0.02)


def settle(seconds: float) -> None:
    """Run Qt's events for ``seconds``: a panel just filled in lays its wrapped texts out
    over several rounds of events (grabbed sooner, they are drawn squeezed)."""
    end = time.monotonic() + seconds
    wait_until(lambda: time.monotonic() >= end, "settling")


def select_topic(window: MainWindow, topic: str, *, sidebar: bool = True) -> None:
    """Select ``topic`` in the sidebar, as a click on it would; ``sidebar`` False hides
    it (View ▸ Topic Sidebar, Ctrl+B)."""
    if window.action("sidebar").isChecked() != sidebar:
        window.action("sidebar").trigger()
    window.splitter.setSizes([SIDEBAR, SIZE[0] - SIDEBAR])
    model = window.sidebar.model()
    row = window.sidebar.topic_names().index(topic)
    window.sidebar.setCurrentIndex(model.index(row, 0))


def show_evaluation(window: MainWindow) -> EvaluationView:
    """What Topic ▸ Evaluate Topic… opens, the narrow list chosen: its missed core
    records below."""
    select_topic(window, TOPIC)
    view = window.open_screen("evaluation", TOPIC)
    wait_until(lambda: view.data is not None and view.job is None, "the evaluation")
    names = [item.name for item in view.data.evaluation.lists]
    view.table.selectRow(view.table.model().mapFromSource(
        view.model.index(names.index(NARROW), 0)).row())
    return view


def show_map(window: MainWindow) -> None:
    """The evaluation's Landscape tab: the narrow list with the MVEE ellipse and the hull
    polygon, one of its core records clicked."""
    view = show_evaluation(window)
    view.tabs.setCurrentWidget(view.landscape)
    landscape = view.landscape.landscape
    landscape.first.setCurrentText(NARROW)
    for overlay in ("mvee", "hull"):
        landscape.set_overlay(overlay, True)
    data = view.data.landscape
    view.show_record(int(data.ids[data.is_core][0]))


def show_screening(window: MainWindow) -> None:
    """The screening opened on its next record, with the stopping panel read; the sidebar
    hidden, as for screening at length."""
    select_topic(window, TOPIC, sidebar=False)
    screening = store.find_screening(window.session.project, TOPIC, SCREENING)
    view = window.open_screen("screening", screening)
    wait_until(lambda: view.progress.rule_labels, "the stopping panel")


def show_pooling(window: MainWindow) -> None:
    """What Topic ▸ Pool Runs… opens, on the topic's pool; the sidebar hidden (its minimum
    width leaves it too little room at this window size)."""
    select_topic(window, TOPIC, sidebar=False)
    view = window.open_screen("pooling", TOPIC)
    view.pool_box.setCurrentText(POOL)


def show_conflicts(window: MainWindow) -> None:
    """What Topic ▸ Screening Conflicts… opens on the team's screening: its first open
    conflict selected, the agreement panel beside."""
    select_topic(window, TOPIC, sidebar=False)
    screening = store.find_screening(window.session.project, TOPIC, TEAM)
    view = window.open_screen("conflicts", screening)
    wait_until(lambda: view.found, "the conflicts")
    view.table.selectRow(0)


def show_full_text(window: MainWindow) -> None:
    """The full-text screening opened on its next record, the record's PDF drawn."""
    select_topic(window, TOPIC, sidebar=False)
    screening = store.find_screening(window.session.project, TOPIC, FULL_TEXT)
    view = window.open_screen("screening", screening)
    wait_until(lambda: view.progress.counts.text(), "the counts")
    splitter = view.record.splitter  # the record's lines whole, as a drag would make them
    splitter.setSizes([RECORD_LINES, sum(splitter.sizes()) - RECORD_LINES])
    reader = view.record.reader
    wait_until(lambda: reader.pages and all(page.image is not None
                                            for page in reader._visible_pages()),
               "the PDF's pages")


def show_prisma(window: MainWindow) -> None:
    """What Topic ▸ PRISMA Flow Diagram opens: the topic's flow from its lists, the
    team's screening and its full text (the newest of each phase)."""
    select_topic(window, TOPIC, sidebar=False)
    view = window.open_screen("prisma", TOPIC)
    wait_until(lambda: view.svg, "the diagram")


# name -> (what the project needs, in order; how the window shows it)
SCREENS: dict[str, tuple[tuple[Callable[[Project], None], ...],
                         Callable[[MainWindow], object]]] = {
    "librarian": ((evaluate,), show_evaluation),
    "librarian-map": ((evaluate,), show_map),
    "reviewer": ((screen,), show_screening),
    "pooling": ((evaluate, pool), show_pooling),
    "team": ((team,), show_conflicts),
    "fulltext": ((team, full_text, late), show_full_text),
    "prisma": ((team, full_text, late), show_prisma),
}


@contextmanager
def _settings_in(folder: Path) -> Iterator[None]:
    """The app's settings and demo project in ``folder`` while inside."""
    from litqeval_gui.gui.settings import ENV_DIR

    before = os.environ.get(ENV_DIR)
    os.environ[ENV_DIR] = str(folder)
    try:
        yield
    finally:
        if before is None:
            del os.environ[ENV_DIR]
        else:
            os.environ[ENV_DIR] = before


def make_screens(folder: Path, names: Sequence[str] = tuple(SCREENS),
                 work: Path | None = None) -> list[Path]:
    """Save the screens ``names`` as ``folder/NAME.png``; the demo and the app's settings
    go to ``work`` (made if missing, without a demo project yet; a temporary folder when
    None). Needs a Qt platform that can grab widgets (e.g.
    ``QT_QPA_PLATFORM=offscreen``); returns the files written."""
    unknown = sorted(set(names) - set(SCREENS))
    if unknown:
        raise ValueError(f"unknown screens {unknown}; choose from {', '.join(SCREENS)}")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="litqeval-screens-") as temporary:
        work = work or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        with _settings_in(work):
            return _make(folder, names)


def _make(folder: Path, names: Sequence[str]) -> list[Path]:
    from PySide6.QtWidgets import QApplication

    from litqeval_gui.gui.demo_project import demo_path
    from litqeval_gui.gui.settings import Settings

    path = run_job(build_demo(demo_path()))
    steps = list(dict.fromkeys(step for name in names for step in SCREENS[name][0]))
    with Project.open(path) as project:
        for step in steps:
            step(project)
    settings = Settings()
    settings.reviewer = REVIEWER
    settings.save()
    app = QApplication.instance() or QApplication([sys.argv[0]])
    return [_grab(app, name, folder / f"{name}.png") for name in names]


def _grab(app: QApplication, name: str, target: Path) -> Path:
    """Screen ``name`` in a new main window on the demo, saved as ``target``. A window of
    its own: a screen whose minimum width exceeds :data:`SIZE` widens the window for good."""
    from litqeval_gui.gui.main_window import MainWindow

    window = MainWindow()
    window.resize(*SIZE)
    window.show()
    try:
        window.open_demo()
        wait_until(lambda: window.session is not None, "the demo project")
        SCREENS[name][1](window)
        window.statusBar().clearMessage()  # "Opened <temporary path>"
        settle(SETTLE_S)
        if not window.grab().save(str(target)):
            raise OSError(f"cannot write {target}")
        while window.tabs.count():  # not reopened with the project by the next window
            window.close_tab(0)
    finally:
        window.close()
    return target


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path,
                        default=Path(__file__).resolve().parent / "screens")
    parser.add_argument("--only", nargs="+", choices=list(SCREENS), default=list(SCREENS),
                        metavar="NAME", help=f"only these screens ({', '.join(SCREENS)})")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for path in make_screens(args.folder, args.only):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
