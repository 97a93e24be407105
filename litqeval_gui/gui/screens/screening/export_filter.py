"""Which decisions File ▸ Export… writes of a screening: a box per label of the screening
(its phase's: not retrieved at full text), ``undecided`` and ``conflict`` (reviewers
disagree, unresolved), every one ticked at first; "Included only" ticks the included
records alone (graded: the relevant grades). The ticked labels go to
:func:`~litqeval_gui.core.screening.export.export_screening` as its ``labels``.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from litqeval_gui.core.screening.export import CONFLICT, UNDECIDED
from litqeval_gui.core.screening.log.labels import GRADED, is_relevant, label_text, phase_labels
from litqeval_gui.core.screening.log.store import Screening

TEXT = {UNDECIDED: "undecided", CONFLICT: "conflict (reviewers disagree, not resolved)"}


def included_labels(screening: Screening) -> list[str]:
    """The labels "Included only" keeps: ``include``, or the relevant grades."""
    if screening.scheme == GRADED:
        return [label for label in screening.labels if is_relevant(GRADED, label)]
    return ["include"]


class ExportFilterDialog(QDialog):
    """The labels of ``screening`` to export, all ticked; :meth:`labels` after OK (which
    needs one ticked)."""

    def __init__(self, screening: Screening, parent: QWidget | None = None) -> None:
        super().__init__(parent, windowTitle=f"Export {screening.name}")
        self.included = included_labels(screening)
        graded = screening.scheme == GRADED
        self.boxes: dict[str, QCheckBox] = {}
        for label in (*phase_labels(screening.scheme, screening.phase), UNDECIDED, CONFLICT):
            text = TEXT.get(label) or (f"grade {label}" if graded and label.isdigit()
                                       else label_text(label))
            self.boxes[label] = QCheckBox(text, checked=True)
            self.boxes[label].toggled.connect(lambda _on: self._enable())
        self.only_included = QPushButton("Included only", toolTip=(
            "Tick only the records decided "
            + ("relevant (grade 1 or more)" if graded else "include")))
        self.only_included.clicked.connect(lambda: self.tick(self.included))
        self.every = QPushButton("All", toolTip="Every record of the screening")
        self.every.clicked.connect(lambda: self.tick(list(self.boxes)))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Export the records whose decision is:"))
        for box in self.boxes.values():
            layout.addWidget(box)
        quick = QHBoxLayout()
        quick.addWidget(self.only_included)
        quick.addWidget(self.every)
        quick.addStretch(1)
        layout.addLayout(quick)
        layout.addWidget(buttons)

    def tick(self, labels: list[str]) -> None:
        """Tick ``labels``, untick the others."""
        for label, box in self.boxes.items():
            box.setChecked(label in labels)

    def labels(self) -> list[str]:
        """The ticked labels."""
        return [label for label, box in self.boxes.items() if box.isChecked()]

    def _enable(self) -> None:
        self.ok.setEnabled(bool(self.labels()))


def ask_labels(screening: Screening, parent: QWidget | None) -> list[str] | None:
    """The labels of ``screening`` to export (every one when left as offered); None when
    cancelled."""
    dialog = ExportFilterDialog(screening, parent)
    return dialog.labels() if dialog.exec() == QDialog.DialogCode.Accepted else None
