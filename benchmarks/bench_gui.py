"""The records view on a 100 000-record project, offscreen.

Figure 1 (goal < 2 s): open the project in the main window and open the list's
records view until the window is painted (``grab``), median of 5. Baseline: the bare
``SELECT id FROM records WHERE import_id=? ORDER BY rank`` on the same file.
Figure 2 (goal < 16 ms per step): scroll the table from top to bottom in 50 steps
(set the scroll bar, then ``viewport().grab()`` paints it), median per step. Baseline: painting
the viewport without scrolling (rows already cached).
"""

from __future__ import annotations

import sqlite3
import statistics
import sys
import time

from support import app_with_large_project, figure, shown_main_window

from litqeval_gui.core.projectfile.project import Project
from litqeval_gui.core.records import queries
from tests.support.pages import cached_pages

N = 100_000
REPEATS = 5
STEPS = 50


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> int:
    with app_with_large_project(N) as (app, path):
        with Project.open(path, readonly=True) as project:
            [info] = queries.lists(project)

        def bare_select() -> None:
            conn = sqlite3.connect(path)
            ids = conn.execute("SELECT id FROM records WHERE import_id = ? ORDER BY rank",
                               [info.id]).fetchall()
            conn.close()
            assert len(ids) == info.records

        baseline = [timed(bare_select) for _ in range(REPEATS)]

        opened = []
        for _ in range(REPEATS):
            window = shown_main_window()

            def open_and_paint(window=window) -> None:
                window.open_project(path)
                window.open_list(info)
                window.grab()

            opened.append(timed(open_and_paint))
            view = window.tabs.currentWidget()
            assert view.model.rowCount() == info.records
            if len(opened) < REPEATS:
                window.close()

        table = view.table
        bar = table.verticalScrollBar()
        steps = []
        for k in range(STEPS):
            value = round(bar.maximum() * k / (STEPS - 1))
            start = time.perf_counter()
            bar.setValue(value)
            table.viewport().grab()
            steps.append(time.perf_counter() - start)
        assert table.rowAt(table.viewport().height() - 2) == info.records - 1
        still = [timed(table.viewport().grab) for _ in range(STEPS)]
        pages = cached_pages(view.model)
        window.close()
        app.processEvents()

        b, o = statistics.median(baseline), statistics.median(opened)
        s, r = statistics.median(steps), statistics.median(still)
        size_mb = path.stat().st_size / 1e6
        print(f"project: {info.records:,} records, {size_mb:.1f} MB on disk; median of {REPEATS}")
        print(f"baseline bare SELECT id … ORDER BY rank:   {b * 1000:8.1f} ms")
        print(f"open project → first painted records view: {o * 1000:8.1f} ms  ratio {o / b:6.1f}"
              f"  (goal < 2000 ms)")
        print(f"baseline paint without scrolling:          {r * 1000:8.2f} ms")
        print(f"scroll step + paint (median of {STEPS}):       {s * 1000:8.2f} ms  ratio {s / r:6.1f}"
              f"  (goal < 16 ms; max {max(steps) * 1000:.1f} ms; {pages} pages cached)")
        figure("open project → painted records view", f"{o * 1000:.1f} ms (ratio {o / b:.1f} "
               "to the bare SELECT)", "< 2000 ms", o < 2.0)
        figure("scroll step + paint, median", f"{s * 1000:.2f} ms (ratio {s / r:.1f} to a "
               "still paint)", "< 16 ms", s < 0.016)
        return 0


if __name__ == "__main__":
    sys.exit(main())
