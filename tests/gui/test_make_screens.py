"""``docs/make_screens.py`` (``make screens``): a screen of the demo saved as a PNG of the
whole window, here into tmp_path (only ``make screens`` writes into docs/screens), with
the app's settings in a folder of its own."""

import importlib.util
import os
from pathlib import Path

from PySide6.QtGui import QColor, QImage

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
