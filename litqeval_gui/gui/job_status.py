"""Background-job progress in the status bar: message, progress bar and Cancel."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from litqeval_gui.gui.jobs import JobRunner


class JobStatus(QWidget):
    """Shows the latest running job of the watched runners; hidden when none runs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runners: list[JobRunner] = []
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(200)
        self.bar.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running task; the project stays as it was")
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        layout.addWidget(self.cancel_button)
        self.hide()

    def watch(self, runner: JobRunner) -> None:
        self._runners.append(runner)
        runner.started.connect(self._started)
        runner.progress.connect(self._progress)
        runner.ended.connect(self._ended)

    def unwatch(self, runner: JobRunner) -> None:
        if runner in self._runners:
            self._runners.remove(runner)
            runner.started.disconnect(self._started)
            runner.progress.disconnect(self._progress)
            runner.ended.disconnect(self._ended)
        self._ended()

    def running(self) -> int:
        return sum(len(r.active()) for r in self._runners)

    def cancel(self) -> None:
        for runner in self._runners:
            for handle in runner.active():
                handle.cancel()
        self.label.setText("Cancelling…")
        self.cancel_button.setEnabled(False)

    def _started(self, title: str) -> None:
        self.label.setText(title + "…")
        self.bar.setRange(0, 0)  # busy until the first report
        self.cancel_button.setEnabled(True)
        self.show()

    def _progress(self, title: str, done: int, total: int, message: str) -> None:
        if not self.cancel_button.isEnabled():
            return  # keep saying "Cancelling…"
        self.label.setText(f"{title}: {message}" if message else title)
        self.bar.setRange(0, max(total, 0))
        self.bar.setValue(min(done, total) if total else 0)

    def _ended(self, _title: str = "") -> None:
        if self.running() == 0:
            self.hide()
