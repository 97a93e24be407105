"""The evaluation screen's tabs beside the table: Landscape, Threshold, Decay, Overlap.
Each plot has a context action "Save Plot…" writing PNG or SVG through its ``save``
(:func:`~litqeval_gui.gui.plots.export.save_plot`)."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.gui.plot_saving import ask_and_save_plot
from litqeval_gui.gui.plots.decay import DecayPlot, FBetaComponents, paper_panels
from litqeval_gui.gui.plots.landscape import LandscapeWidget
from litqeval_gui.gui.plots.threshold import ThresholdPlot
from litqeval_gui.gui.record_detail import wrap_at_words
from litqeval_gui.gui.screens.evaluation.adapter import ScreenData, decay_marks
from litqeval_gui.gui.screens.evaluation.table import rows_height


def add_save_action(widget: QWidget, save: Callable[[Path], Path], name: str) -> QAction:
    """A context-menu action on ``widget`` that asks for a .png/.svg path and saves."""

    action = QAction("Save Plot as PNG or SVG…", widget,
                     triggered=lambda: ask_and_save_plot(widget, name, save))
    widget.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    widget.addAction(action)
    return action


SIDE_WIDTH = 300  # the record pane beside the map: at least this wide, else below it


class LandscapeTab(QWidget):
    """The map with a panel: the clicked record's details, the box-selected records.
    The panel is beside the map when the tab is wide enough for the map's controls and
    :data:`SIDE_WIDTH` more, else below the map (the details and the box list side by
    side), so that the details are never squeezed to a few letters a line."""

    record_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.landscape = LandscapeWidget()
        self.save_action = add_save_action(self.landscape, self.landscape.save, "landscape")
        self.detail = wrap_at_words(QTextBrowser(openExternalLinks=True))
        self.detail.setPlaceholderText("Click a record on the map to see it here.")
        self.selected_label = QLabel("Box-selected records (tick “box select”, then drag; "
                                     "pick one to see its details):")
        self.selected_label.setWordWrap(True)
        self.selected = QListWidget()
        self.selected.currentItemChanged.connect(
            lambda item, _previous: item is not None
            and self.record_clicked.emit(item.data(Qt.ItemDataRole.UserRole)))
        self.side = QWidget()
        self.side_layout = QBoxLayout(QBoxLayout.Direction.TopToBottom, self.side)
        self.side_layout.setContentsMargins(0, 0, 0, 0)
        self.side_layout.addWidget(self.detail, 2)
        box = QWidget()
        box_column = QVBoxLayout(box)
        box_column.setContentsMargins(0, 0, 0, 0)
        box_column.addWidget(self.selected_label)
        box_column.addWidget(self.selected, 1)
        self.side_layout.addWidget(box, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, childrenCollapsible=False)
        self.splitter.addWidget(self.landscape)
        self.splitter.addWidget(self.side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.side.setMinimumWidth(SIDE_WIDTH)
        self.splitter.setSizes([900, SIDE_WIDTH + 20])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.landscape.record_clicked.connect(self.record_clicked)
        self.landscape.records_selected.connect(self.show_selected)
        self.titles: dict[int, str] = {}

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """The map's: the panel goes below it when there is no room beside it."""
        return self.landscape.minimumSizeHint()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._arrange()

    def _arrange(self) -> None:
        """The panel beside the map when it fits there, else below the map."""
        beside = (self.width() >= self.landscape.minimumSizeHint().width() + SIDE_WIDTH
                  + self.splitter.handleWidth())
        wanted = Qt.Orientation.Horizontal if beside else Qt.Orientation.Vertical
        if self.splitter.orientation() == wanted:
            return
        self.splitter.setOrientation(wanted)
        self.side.setMinimumWidth(SIDE_WIDTH if beside else 0)
        self.side_layout.setDirection(QBoxLayout.Direction.TopToBottom if beside
                                      else QBoxLayout.Direction.LeftToRight)
        if beside:
            self.splitter.setSizes([self.width() - SIDE_WIDTH - 20, SIDE_WIDTH + 20])
        else:
            self.splitter.setSizes([self.height() * 3 // 5, self.height() * 2 // 5])

    def set_data(self, data: ScreenData) -> None:
        landscape = data.landscape
        self.titles = dict(zip(landscape.ids.tolist(), landscape.titles, strict=True))
        self.landscape.set_data(landscape)

    def show_selected(self, ids: list[int]) -> None:
        self.selected.clear()
        self.selected_label.setText(f"{len(ids):,} records in the box:")
        for record in ids:
            title = self.titles.get(record) or f"(no title, record #{record})"
            item = QListWidgetItem(title)
            item.setData(Qt.ItemDataRole.UserRole, record)
            item.setToolTip(title)
            self.selected.addItem(item)


class ThresholdTab(QWidget):
    """SP cos against θ for the chosen list; ``theta_chosen`` when "Use this θ"."""

    theta_chosen = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lists = QComboBox()
        self.plot = ThresholdPlot()
        self.save_action = add_save_action(self.plot.plots, self.plot.save, "threshold")
        top = QHBoxLayout()
        top.addWidget(QLabel("List"))
        top.addWidget(self.lists)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.plot, 1)
        self.data: ScreenData | None = None
        self.lists.currentIndexChanged.connect(self._draw)
        self.plot.theta_chosen.connect(self.theta_chosen)

    def set_data(self, data: ScreenData) -> None:
        self.data = data
        current = self.lists.currentText()
        self.lists.blockSignals(True)
        self.lists.clear()
        self.lists.addItems(list(data.sweeps))
        self.lists.setCurrentIndex(max(0, self.lists.findText(current)))
        self.lists.blockSignals(False)
        self._draw()

    def _draw(self) -> None:
        if self.data is None or self.lists.currentText() not in self.data.sweeps:
            return
        evaluation = self.data.evaluation
        sweep = self.data.sweeps[self.lists.currentText()]
        item = next(i for i in evaluation.lists if i.name == self.lists.currentText())
        self.plot.set_data(sweep.thetas, sweep.n_relevant, sweep.core_kept, sweep.f_beta,
                           best_theta=sweep.best_theta, n_core=item.core,
                           current_theta=item.methods["cos"].detail.get("theta"),
                           beta=evaluation.settings.beta,
                           n_records=len(item.rows.record_ids))


class DecayTab(QSplitter):
    """λ(n) with each list's n, and the paper's F_β component panels. The n axis is
    logarithmic when the lists' n are small beside α, until the user picks otherwise."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.decay = DecayPlot()
        self.components = FBetaComponents()
        self.save_actions = [add_save_action(self.decay, self.decay.save, "decay"),
                             add_save_action(self.components, self.components.save,
                                             "f-beta-components")]
        self.log_n = QCheckBox("logarithmic n axis")
        self.log_n.setToolTip("Spread lists with small n apart (λ stays near 1 until n nears α)")
        self.log_n.toggled.connect(self._log_toggled)
        self.user_log: bool | None = None  # the user's choice, once made
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.decay, 1)
        column.addWidget(self.log_n)
        self.addWidget(left)
        self.addWidget(self.components)
        self.setSizes([500, 700])

    def set_data(self, data: ScreenData) -> None:
        s = data.evaluation.settings
        self.decay.set_decay(s.p, s.q, s.alpha, decay_marks(data.evaluation),
                             log_n=self.user_log)
        self.log_n.blockSignals(True)
        self.log_n.setChecked(self.decay.log_n)
        self.log_n.blockSignals(False)
        self.components.set_panels(paper_panels(s.p, s.q, s.alpha, s.beta))

    def _log_toggled(self, checked: bool) -> None:
        self.user_log = checked
        self.decay.set_log_n(checked)


class OverlapTab(QWidget):
    """Which list found what: per pair shared works, shared core works and Jaccard; the
    core works only one list found."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(wordWrap=True)
        self.table = QTableWidget()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.only = QTextBrowser(openExternalLinks=True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)  # as tall as its rows; the list below takes the rest
        layout.addWidget(QLabel("Core works found by one list only:"))
        layout.addWidget(self.only, 1)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_table()

    def _fit_table(self) -> None:
        self.table.setFixedHeight(rows_height(self.table))

    def set_data(self, data: ScreenData) -> None:
        o = data.overlap
        n = len(o.names)
        if n < 2:
            self.summary.setText("The overlap compares two or more result lists; this topic "
                                 "has one. Import another search export to compare.")
        else:
            self.summary.setText(
                f"{n} result lists, {o.core} core works; {o.missed_by_all} missed by every "
                "list. Cells: works in both lists / core works in both / Jaccard of the "
                "lists' works (the diagonal: the list's own works / core found).")
        self.table.clear()
        self.table.setRowCount(n)
        self.table.setColumnCount(n)
        self.table.setHorizontalHeaderLabels(o.names)
        self.table.setVerticalHeaderLabels(o.names)
        for i in range(n):
            for j in range(n):
                text = (f"{o.sizes[i]:,} works / {o.core_found[i]} core" if i == j else
                        f"{o.shared[i][j]:,} / {o.shared_core[i][j]} / {o.jaccard[i][j]:.3f}")
                cell = QTableWidgetItem(text)
                cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(i, j, cell)
        self.table.resizeColumnsToContents()
        self._fit_table()
        parts = []
        for name, only in zip(o.names, o.only, strict=True):
            parts.append(f"<h4>{html.escape(name)}: {len(only)}</h4>")
            if only:
                parts.append("<ul>" + "".join(
                    f"<li>{html.escape(m.title or '(no title)')}"
                    f"{f' ({m.year})' if m.year else ''}"
                    f"{f' — doi:{html.escape(m.doi)}' if m.doi else ''}</li>"
                    for m in only) + "</ul>")
        self.only.setHtml("".join(parts))
