"""The evaluation landscape: classes per point, core markers, overlays, hover, click,
box selection, side-by-side lists and exports."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from litqeval_gui.gui.plots.landscape import LandscapeView, LandscapeWidget
from litqeval_gui.gui.plots.landscape_data import (
    HIDDEN,
    RELEVANT_A,
    RELEVANT_B,
    RELEVANT_BOTH,
    RETRIEVED,
    LandscapeData,
    ListLayer,
    point_classes,
)
from tests.support.landscape import synthetic_landscape


def tiny() -> LandscapeData:
    """Six records; list a retrieved 0–3, list b retrieved 2–5; record 0 and 5 are core."""
    a = ListLayer("a", [1, 1, 1, 1, 0, 0], relevant={"cos": [1, 0, 1, 0, 0, 0]},
                  ellipse=(np.array([0.0, 0.0]), np.diag([1 / 4, 1.0])),
                  hull=np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    b = ListLayer("b", [0, 0, 1, 1, 1, 1], relevant={"cos": [1, 1, 1, 1, 1, 0]})
    return LandscapeData(xy=np.arange(12, dtype=float).reshape(6, 2), ids=[10, 11, 12, 13, 14, 15],
                         titles=[f"t{i}" for i in range(6)], is_core=[1, 0, 0, 0, 0, 1],
                         lists=(a, b), fidelity=0.3)


def test_classes_by_hand():
    data = tiny()
    assert point_classes(data, ["a"], "cos").tolist() == [
        RELEVANT_A, RETRIEVED, RELEVANT_A, RETRIEVED, HIDDEN, HIDDEN]
    # b's relevant mask counts only where b retrieved: rows 2, 3, 4
    assert point_classes(data, ["a", "b"], "cos").tolist() == [
        RELEVANT_A, RETRIEVED, RELEVANT_BOTH, RELEVANT_B, RELEVANT_B, RETRIEVED]
    assert point_classes(data, ["a"], "hull").tolist() == [RETRIEVED] * 4 + [HIDDEN] * 2


def test_bad_data_is_refused():
    with pytest.raises(ValueError, match="5 rows"):
        LandscapeData(xy=np.zeros((5, 2)), ids=range(5), titles=["t"] * 5, is_core=[0] * 5,
                      lists=(ListLayer("a", [1, 0]),))
    with pytest.raises(ValueError, match="unknown method"):
        LandscapeData(xy=np.zeros((2, 2)), ids=[1, 2], titles=["", ""], is_core=[0, 0],
                      lists=(ListLayer("a", [1, 0], relevant={"knn": [1, 0]}),))
    with pytest.raises(ValueError, match="one list, or two"):
        point_classes(tiny(), [], "cos")


@pytest.fixture
def view(qtbot):
    widget = LandscapeView()
    widget.resize(600, 480)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_points_and_core_markers(view):
    data = synthetic_landscape(1500)
    view.draw(data, ["broad"], "mvee")
    broad = data.layer("broad")
    relevant = broad.relevant["mvee"] & broad.retrieved
    assert view.counts()[RELEVANT_A] == relevant.sum()
    assert view.counts()[RETRIEVED] == (broad.retrieved & ~relevant).sum()
    symbols = view.core.data["symbol"]
    assert (symbols == "star").sum() == (data.is_core & broad.retrieved).sum()
    assert (symbols == "x").sum() == (data.is_core & ~broad.retrieved).sum() >= 2
    assert "core, missed" in view.legend_names() and "relevant (MVEE)" in view.legend_names()


def test_overlays_toggle_and_draw_the_given_shapes(view):
    data = tiny()
    view.draw(data, ["a"])
    assert view.outlines == {"mvee": [], "hull": []}
    assert view.cos_rings.count == 0
    view.set_overlay("mvee", True)
    view.set_overlay("hull", True)
    view.set_overlay("cos", True)
    (ellipse,), (hull,) = view.outlines["mvee"], view.outlines["hull"]
    x, y = ellipse.getData()
    assert np.allclose((x / 2) ** 2 + y**2, 1.0)  # on the boundary of x²/4 + y² = 1
    assert np.allclose(np.column_stack(hull.getData()), [[0, 0], [1, 0], [0, 1], [0, 0]])
    assert ellipse in view.getPlotItem().items
    assert view.cos_rings.count == 2  # rows 0 and 2
    assert "MVEE ellipse" in view.legend_names()
    view.set_overlay("mvee", False)
    assert view.outlines["mvee"] == [] and ellipse not in view.getPlotItem().items
    assert "MVEE ellipse" not in view.legend_names()
    with pytest.raises(KeyError):
        view.set_overlay("voronoi", True)


def _viewport_point(view, x: float, y: float) -> QPoint:
    scene = view.view_box.mapViewToScene(QPointF(x, y))
    return view.mapFromScene(scene)


def test_hover_shows_the_title_and_click_emits_the_id(view, qtbot):
    data = tiny()
    view.draw(data, ["a", "b"])
    hovered = []
    view.record_hovered.connect(lambda i, t: hovered.append((i, t)))
    _hover(view, 4.0, 5.0)
    assert hovered[-1] == (12, "t2")
    assert view.toolTip() == "t2"
    _hover(view, 5.0, 2.0)  # nothing within reach
    assert hovered[-1] == (-1, "") and view.toolTip() == ""
    _hover(view, 10.0, 11.0)
    assert view.toolTip() == "t5\ncore record — retrieved by b"
    with qtbot.waitSignal(view.record_clicked) as clicked:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=_viewport_point(view, 6.0, 7.0))
    assert clicked.args == [13]


def _send(widget, kind, pos, buttons, modifiers=Qt.KeyboardModifier.ShiftModifier):
    button = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseMove else Qt.MouseButton.LeftButton
    global_pos = QPointF(widget.mapToGlobal(pos))
    event = QMouseEvent(kind, QPointF(pos), global_pos, button, buttons, modifiers)
    QApplication.sendEvent(widget, event)


def _hover(view, x: float, y: float) -> None:
    QTest.qWait(40)  # pyqtgraph drops moves that come faster than its frame rate
    _send(view.viewport(), QEvent.Type.MouseMove, _viewport_point(view, x, y),
          Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)


def test_shift_drag_selects_the_records_in_the_box(view, qtbot):
    data = synthetic_landscape(800)
    view.draw(data, ["narrow"])
    start, end = _viewport_point(view, -1.5, 1.5), _viewport_point(view, 1.5, -1.5)
    left = Qt.MouseButton.LeftButton
    with qtbot.waitSignal(view.records_selected) as selected:
        _send(view.viewport(), QEvent.Type.MouseButtonPress, start, left)
        for step in range(1, 6):
            _send(view.viewport(), QEvent.Type.MouseMove, start + (end - start) * step / 5, left)
        _send(view.viewport(), QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton)
    x, y = data.xy.T
    lo = view.view_box.mapSceneToView(view.mapToScene(start))
    hi = view.view_box.mapSceneToView(view.mapToScene(end))
    drawn = data.layer("narrow").retrieved | data.is_core
    inside = drawn & (x >= lo.x()) & (x <= hi.x()) & (y >= hi.y()) & (y <= lo.y())
    assert sorted(selected.args[0]) == sorted(data.ids[inside].tolist())
    assert 10 < len(selected.args[0]) < drawn.sum()


def test_selection_mode_selects_without_shift(view):
    view.draw(tiny(), ["b"])
    view.set_selection_mode(True)
    assert view.select_box(QRectF(3.5, 4.5, 4.0, 4.0)) == [12, 13]  # rows 2 (4, 5) and 3 (6, 7)


def test_widget_compares_two_lists(qtbot):
    widget = LandscapeWidget()
    qtbot.addWidget(widget)
    widget.resize(900, 500)
    widget.show()
    data = synthetic_landscape(1000)
    widget.set_data(data)
    assert widget.badge.low and "7.1 %" in widget.badge.text()
    widget.compare("narrow")
    assert not widget.views[1].isVisible()
    assert RELEVANT_BOTH in widget.views[0].counts() and widget.views[0].names == ["broad", "narrow"]
    widget.compare("narrow", side_by_side=True)
    assert widget.views[1].isVisible() and widget.views[1].names == ["narrow"]
    assert widget.views[0].view_box.viewRange() == widget.views[1].view_box.viewRange()
    widget.views[0].view_box.translateBy(x=1.0)
    assert widget.views[0].view_box.viewRange() == widget.views[1].view_box.viewRange()
    widget.set_method("cluster")
    narrow = data.layer("narrow")
    assert widget.views[1].counts()[RELEVANT_A] == (narrow.relevant["cluster"] & narrow.retrieved).sum()
    widget.set_overlay("hull", True)
    assert len(widget.views[0].outlines["hull"]) == len(widget.views[1].outlines["hull"]) == 1
    assert widget.views[0].counts()[RELEVANT_B] == 0


def test_exports_png_and_svg(view, tmp_path):
    view.draw(synthetic_landscape(500), ["broad"])
    view.set_overlay("mvee", True)
    png = QImage(str(view.save(tmp_path / "map.png")))
    assert not png.isNull() and png.width() > 600
    root = ET.parse(view.save(tmp_path / "map.svg")).getroot()
    tags = {el.tag.rsplit("}", 1)[-1] for el in root.iter()}
    assert {"image", "path"} <= tags  # the points as one raster, the ellipse as a path


def test_a_palette_change_redraws_what_takes_its_colours(view):
    view.draw(tiny(), ["a"])
    view.set_overlay("hull", True)
    dark = QPalette()
    dark.setColor(QPalette.ColorRole.Base, QColor(30, 30, 30))
    dark.setColor(QPalette.ColorRole.Text, QColor(230, 230, 230))
    view.setPalette(dark)
    (halo,) = view._halos
    assert halo.opts["pen"].color().rgb() == QColor(30, 30, 30).rgb()  # the line's halo
    assert view.core.opts["pen"].color() == QColor(230, 230, 230)  # core marker outlines
    assert view.legend_names()[0] == "retrieved" and len(view.outlines["hull"]) == 1


def test_an_empty_map_draws_nothing_and_selects_nothing(view):
    empty = LandscapeData(xy=np.zeros((0, 2)), ids=[], titles=[], is_core=[],
                          lists=(ListLayer("a", np.zeros(0, bool)),))
    view.draw(empty, ["a"])
    assert view.points.count == 0 and view.core.data.size == 0
    assert view.row_at(QPointF(0, 0)) is None
    assert view.select_box(QRectF(-1, -1, 2, 2)) == []
    view.grab()  # paints without points


def _grid_without(corner: str) -> LandscapeData:
    """A 40 × 40 grid of retrieved points over the unit square with one corner's
    0.45 × 0.45 square left empty."""
    g = np.linspace(0.0, 1.0, 40)
    xy = np.array([(x, y) for x in g for y in g])
    right, top = corner.split()[1] == "right", corner.split()[0] == "top"
    away_x = xy[:, 0] < 0.55 if right else xy[:, 0] > 0.45
    away_y = xy[:, 1] < 0.55 if top else xy[:, 1] > 0.45  # the map's y grows upwards
    xy = xy[away_x | away_y]
    n = len(xy)
    layer = ListLayer("a", np.ones(n, bool), relevant={"cos": np.zeros(n, bool)})
    return LandscapeData(xy=xy, ids=range(n), titles=[""] * n, is_core=np.zeros(n, bool),
                         lists=(layer,))


def _points_under_legend(view, data) -> int:
    """Counted here from the legend's drawn rectangle, not by the view's own helper."""
    rect = view.view_box.mapSceneToView(view.legend.sceneBoundingRect()).boundingRect()
    x, y = data.xy[:, 0], data.xy[:, 1]
    return int(((x >= rect.left()) & (x <= rect.right()) & (y >= rect.top())
                & (y <= rect.bottom())).sum())


@pytest.mark.parametrize("empty", ["top right", "bottom left", "top left", "bottom right"])
def test_the_legend_moves_to_the_corner_without_points(view, qtbot, empty):
    data = _grid_without(empty)
    view.draw(data, ["a"], "cos")
    qtbot.wait(10)
    assert view.place_legend() == empty
    assert _points_under_legend(view, data) == 0
    crowded = _grid_without("top right" if empty != "top right" else "top left")
    view.draw(crowded, ["a"], "cos")  # new data: the legend moves on
    qtbot.wait(10)
    assert _points_under_legend(view, crowded) == 0


def test_with_points_everywhere_the_legend_hides_the_fewest(view, qtbot):
    rng = np.random.default_rng(5)
    xy = rng.random((3000, 2)) ** np.array([1.0, 3.0])  # dense low, sparse high
    xy[:, 0] = np.where(xy[:, 0] < 0.5, xy[:, 0] ** 0.5 * 0.5, xy[:, 0])  # fewer left
    layer = ListLayer("a", np.ones(len(xy), bool), relevant={"cos": np.zeros(len(xy), bool)})
    data = LandscapeData(xy=xy, ids=range(len(xy)), titles=[""] * len(xy),
                         is_core=np.zeros(len(xy), bool), lists=(layer,))
    view.draw(data, ["a"], "cos")
    qtbot.wait(10)
    view.place_legend()
    shown = _points_under_legend(view, data)
    assert shown > 0
    for corner in ("top right", "bottom right", "top left", "bottom left"):
        rect = view.legend_rect(corner)
        inside = ((xy[:, 0] >= rect.left()) & (xy[:, 0] <= rect.right())
                  & (xy[:, 1] >= rect.top()) & (xy[:, 1] <= rect.bottom())).sum()
        assert shown <= inside
