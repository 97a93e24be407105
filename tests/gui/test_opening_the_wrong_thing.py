"""Opening the wrong thing (issue 24 §10): a failed open leaves the current project open;
a damaged project is called damaged, with what to do; the README names the X11
libraries before ``make run``; the dark theme keeps links and check boxes readable."""

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QCheckBox, QMessageBox, QTextBrowser

from litqeval_gui.gui import theme
from litqeval_gui.gui.app import XCB_LIBRARIES

ROOT = Path(__file__).resolve().parents[2]
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def _truncated_copy(project_path: Path, tmp_path: Path) -> Path:
    data = project_path.read_bytes()
    damaged = tmp_path / "cut.litq"
    damaged.write_bytes(data[: len(data) // 2])
    return damaged


@pytest.mark.parametrize("kind", ["png", "fake", "truncated"])
def test_a_failed_open_keeps_the_current_project_open(window, project_path, tmp_path,
                                                      shown_errors, monkeypatch, kind):
    asked = []  # a picture is no file to import either: no "Import this file?" question
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a: asked.append(a) or QMessageBox.StandardButton.Cancel)
    assert window.open_project(project_path)
    opened = window.session
    if kind == "png":
        wrong = tmp_path / "picture.png"
        wrong.write_bytes(PNG)
    elif kind == "fake":
        wrong = tmp_path / "fake.litq"
        wrong.write_text("not a database at all\n" * 40)
    else:
        wrong = _truncated_copy(project_path, tmp_path)
    assert not window.open_project(wrong)
    assert asked == []
    assert window.session is opened and window.session.project.path == project_path
    assert window.windowTitle() == "small" and window.pages.currentWidget() is window.splitter
    [(title, message, _details)] = shown_errors
    assert title == "Cannot open project" and str(wrong) in message


def test_a_truncated_project_is_called_damaged_with_what_to_do(window, project_path,
                                                               tmp_path, shown_errors):
    damaged = _truncated_copy(project_path, tmp_path)
    backup = tmp_path / "cut.litq.v9.bak"
    backup.write_bytes(b"")
    assert not window.open_project(damaged)
    [(_title, message, _details)] = shown_errors
    assert "is a damaged LitQEval project" in message
    assert "not a LitQEval project" not in message
    assert "open its backup (cut.litq.v9.bak)" in message
    assert "sqlite3 cut.litq .recover | sqlite3 cut-recovered.litq" in message


def test_the_readme_names_every_x11_library_before_make_run():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    apt = re.search(r"sudo apt install ([^\n`]+)", readme)
    assert apt is not None and apt.start() < readme.index("make run")
    assert readme.index("make run     #") < readme.index("make test    #")
    assert set(apt[1].split()) == set(XCB_LIBRARIES.values())


def _contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours."""
    def luminance(c: QColor) -> float:
        channels = [(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
                    for v in (c.redF(), c.greenF(), c.blueF())]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture
def dark_then_system():
    yield
    theme.apply_theme("system")


def test_a_doi_link_laid_out_in_light_is_readable_after_switching_to_dark(
        qtbot, dark_then_system, shot):
    browser = QTextBrowser()
    qtbot.addWidget(browser)
    theme.apply_theme("light")
    browser.setHtml("<p>DOI <a href='https://doi.org/10.1/x'>10.1/x</a></p>")
    theme.apply_theme("dark")
    fragment = next(f for f in _fragments(browser) if f.charFormat().isAnchor())
    palette = QApplication.palette()
    link = fragment.charFormat().foreground().color()
    assert link == palette.color(QPalette.ColorRole.Link)
    assert _contrast(link, palette.color(QPalette.ColorRole.Base)) >= 4.5
    browser.resize(240, 60)
    shot(browser, "doi_link_after_switch_dark")


def _fragments(browser):
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            yield it.fragment()
            it += 1
        block = block.next()


def test_dark_check_boxes_have_a_visible_outline(qtbot, dark_then_system, shot):
    theme.apply_theme("dark")
    box = QCheckBox("Exclude")
    qtbot.addWidget(box)
    box.resize(120, 24)
    box.show()
    image = box.grab().toImage()
    window = QApplication.palette().color(QPalette.ColorRole.Window)
    strongest = max(_contrast(image.pixelColor(x, y), window)
                    for x in range(min(20, image.width())) for y in range(image.height()))
    assert strongest >= 3.0  # Fusion's own outline: about 1.2 against the window
    shot(box, "checkbox_dark")


@pytest.mark.parametrize("size", [(1200, 760), (1600, 1000)])
def test_the_window_after_a_failed_open_in_both_themes(window, project_path, tmp_path,
                                                      shown_errors, shot, qtbot, size):
    """Look at it: a record with a DOI in the detail pane, the theme switched from light
    to dark after the failed open, and the damaged project's message box."""
    from litqeval_gui.core.records import queries

    damaged = _truncated_copy(project_path, tmp_path)
    window.resize(*size)
    window.show()
    try:
        theme.apply_theme("light")
        window.open_project(project_path)
        view = window.open_list(queries.find_list(window.session.project, "search eval",
                                                  "scopus"))
        view.table.selectRow(0)
        assert not window.open_project(damaged)
        assert "href" in view.detail.toHtml()
        for name in ("light", "dark"):
            theme.apply_theme(name)
            QApplication.processEvents()
            shot(window, f"failed_open_{name}_{size[0]}")
            box = QMessageBox(QMessageBox.Icon.Warning, *shown_errors[0][:2],
                              QMessageBox.StandardButton.Ok, window)
            box.show()
            QApplication.processEvents()
            shot(box, f"damaged_message_{name}_{size[0]}")
            box.close()
    finally:
        theme.apply_theme("system")
