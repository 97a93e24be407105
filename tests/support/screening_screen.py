"""The screening screen in GUI tests (on the ``made`` project of tests/gui/conftest.py):
the screen itself, a settled write path, the progress curve and the event log read back."""


from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.screening.log import store
from litqeval_gui.gui.screens.screening.view import ScreeningView


def screening_view(qtbot, session) -> ScreeningView:
    view = ScreeningView(session, store.find_screening(session.project, "T", "S"))
    qtbot.addWidget(view)
    view.resize(1200, 800)
    with qtbot.waitActive(view):  # window-wide shortcuts need the active window
        view.show()
        view.activateWindow()
    return view


def logged_events(path):
    """The log read back on a fresh connection: only committed events are seen."""
    with Project.open(path, readonly=True) as project:
        screening = store.find_screening(project, "T", "S")
        return store.events(project, screening.id)


def settle(qtbot, session):
    """Every queued write has committed and its answer has reached the GUI thread."""
    session.writes.submit(lambda p: None).result()
    qtbot.wait(20)


def curve_points(view) -> tuple[list, list]:
    """The progress panel's curve as (screened, found) lists; empty until it is first drawn."""
    xs, ys = view.progress.curve.curve.getData()
    return ([] if xs is None else list(xs)), ([] if ys is None else list(ys))
