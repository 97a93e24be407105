"""From a verdict key (A) in the matches dialog to the repainted window, 200 000 records.

A project with one 200 000-record result list (10 % duplicates) is open in the main
window with its records view showing; the uncertain-matches dialog is open. Figure
(median of 10): press A, wait until the verdict is committed and announced
(``session.changed``) and the events are processed, then paint the dialog and the
window. Baseline (same run): painting both without a verdict.

Before (commit 677b7e2, same machine): median 329 ms per verdict — the sidebar was
rebuilt (two catalogue queries over every record) and the records view reloaded.

Usage: ``bench_verdict.py [records]`` (default 200 000; the project is built first).
"""

from __future__ import annotations

import statistics
import sys
import time

from support import app_with_large_project, figure, shown_main_window

from litqeval_gui.core.records import queries

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
VERDICTS = 10


def main() -> int:
    with app_with_large_project(N) as (app, path):
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        window = shown_main_window()
        window.open_project(path)
        [info] = queries.lists(window.session.project)
        window.open_list(info)
        dialog = window.review_matches()
        dialog.show()
        app.processEvents()
        announced = []
        window.session.changed.connect(lambda changes, _who: announced.append(changes))

        def paint() -> None:
            dialog.grab()
            window.grab()

        still = []
        for _ in range(VERDICTS):
            start = time.perf_counter()
            paint()
            still.append(time.perf_counter() - start)
        times = []
        for _ in range(VERDICTS):
            seen = len(announced)
            start = time.perf_counter()
            QTest.keyClick(dialog, Qt.Key.Key_A)
            while len(announced) == seen:
                app.processEvents()
            app.processEvents()
            paint()
            times.append(time.perf_counter() - start)
        dialog.close()
        window.close()
        app.processEvents()

        b, v = statistics.median(still), statistics.median(times)
        print(f"{info.records:,} records; median of {VERDICTS}")
        print(f"baseline paint dialog + window:       {b * 1000:7.1f} ms")
        print(f"verdict (A) → committed → repainted:  {v * 1000:7.1f} ms  ratio {v / b:5.1f}"
              f"  (before: 329 ms; max {max(times) * 1000:.1f} ms)")
        figure("verdict (A) → committed → repainted, median", f"{v * 1000:.1f} ms (ratio "
               f"{v / b:.1f} to a paint; before: 329 ms)", "-", None)
        return 0


if __name__ == "__main__":
    sys.exit(main())
