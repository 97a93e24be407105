"""``docs/make_screens.py`` (``make screens``): a screen of the demo saved as a PNG of the
whole window, here into tmp_path (only ``make screens`` writes into docs/screens), with
the app's settings in a folder of its own."""

import importlib.util
import os
from pathlib import Path

from PySide6.QtGui import QColor, QImage

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records.attachments import attachment
from litqeval_gui.core.records.pdf_match import pdf_text
from litqeval_gui.core.screening.log import store
from litqeval_gui.core.screening.prisma.flow import prisma_counts
from litqeval_gui.core.screening.reviewers import team
from litqeval_gui.core.screening.stopping.finishing import finishes
from litqeval_gui.gui.screens.screening.record import INCLUDE_COLOUR
from litqeval_gui.gui.settings import ENV_DIR

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "make_screens.py"


def load_script():
    spec = importlib.util.spec_from_file_location("make_screens", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reviewer_screen_shows_a_highlighted_record_in_a_full_window(
        qtbot, tmp_path, isolated_config):
    screens = load_script()
    [png] = screens.make_screens(tmp_path / "out", ["reviewer"], work=tmp_path / "work")
    assert png == tmp_path / "out" / "reviewer.png"
    image = QImage(str(png))
    width, height = screens.SIZE
    assert image.height() == height
    assert width <= image.width() < width * 1.2  # a screen's minimum width may widen it
    pixels = [image.pixel(x, y) for x in range(0, image.width(), 2)
              for y in range(0, image.height(), 2)]
    assert len(set(pixels)) > 100  # text, buttons and the recall curve: not a blank grab
    # the record on screen, its include terms (polyp*, colonoscop*) highlighted
    assert pixels.count(QColor(INCLUDE_COLOUR).rgb()) > 500
    assert (tmp_path / "work" / "demo.litq").is_file()  # built where it was told
    assert os.environ[ENV_DIR] == str(isolated_config)  # the caller's settings folder again
    assert not (isolated_config / "settings.json").exists()


def test_the_team_full_text_and_prisma_screens_come_from_a_prepared_project(
        qtbot, tmp_path, isolated_config):
    screens = load_script()
    pngs = screens.make_screens(tmp_path / "out", ["team", "fulltext", "prisma"],
                                work=tmp_path / "work")
    assert [png.name for png in pngs] == ["team.png", "fulltext.png", "prisma.png"]
    for png in pngs:
        image = QImage(str(png))
        assert (image.width(), image.height()) == screens.SIZE
        assert len({image.pixel(x, y) for x in range(0, image.width(), 4)
                    for y in range(0, image.height(), 4)}) > 50  # not a blank grab
    # the project behind them: Ben disagrees on every 7th of 60 records, 4 settled
    with Project.open(tmp_path / "work" / "demo.litq", readonly=True) as project:
        team_screening = store.find_screening(project, screens.TOPIC, screens.TEAM)
        found = team.conflicts(project, team_screening.id)
        assert len(found) == 9  # positions 3, 10, …, 59
        assert sum(c.resolution is not None for c in found) == screens.RESOLVED + 1  # late
        assert list(finishes(project, team_screening.id)) == [1]  # the round finished
        full = store.find_screening(project, screens.TOPIC, screens.FULL_TEXT)
        records = store.items(project, full.id)
        assert all(attachment(project, r).status == "ok" for r in records)
        assert len(store.current_decisions(project, full.id)) == len(records) - 3
        counts = prisma_counts(project, screens.TOPIC)
        assert counts.pending_sought["not yet in the full-text screening"] == 1
        assert counts.pending_sought["not yet decided"] == 3
        assert counts.removed_automation > 0 and counts.unbalanced() == []
        # the PDF made for a record holds its title in its text layer
        title = " ".join(store.record_title(project, records[0]).split()[:5])
        [page] = pdf_text(attachment(project, records[0]).path)
        assert " ".join(page.split()).startswith(title)
