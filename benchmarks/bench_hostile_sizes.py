"""Issue 27 §4: huge inputs cost bounded memory — peak RSS and time of child processes.

Generated in a temporary folder (outside the timed regions):

* a TREC run of ``LINES`` lines (default 10⁷, about 380 MB) over 50 topics of
  ``LINES / 50`` ranked documents each, and qrels judging every 100th document;
* a ``.npy`` of float32 vectors holding exactly the documented maximum
  (``precomputed.MAX_VALUES`` = 2²⁹ values, 2 GB: 2¹⁹ rows × 1024) and its id list.

Each measured step runs in its own process (``litqeval`` or a one-line script), its peak
resident memory read from ``os.wait4``'s rusage (the child alone): a plain read of the run
file; ``litqeval import`` of one topic of the run into a new project, and of a file that
holds that topic alone (how much the other 49 topics add); ``litqeval tar-eval`` and
``pool-simulate`` on the run; reading the ``.npy``. Goals: < 1 GB for the import and the two
TREC commands, the import of one topic of the run within 1.5× the time of importing that
topic's own file, and the ``.npy`` within its 2 GB result plus 0.5 GB.

``LITQEVAL_BENCH_TREC_LINES=1000000 python benchmarks/bench_hostile_sizes.py`` runs a
smaller run file; ``LITQEVAL_BENCH_NPY=0`` leaves out the ``.npy``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from support import figure, load_average

from litqeval_gui.core.embedding.precomputed import MAX_VALUES

LINES = int(os.environ.get("LITQEVAL_BENCH_TREC_LINES", "10000000"))
TOPICS = 50
NPY = os.environ.get("LITQEVAL_BENCH_NPY", "1") != "0"
GB = 2**30
CLI = [sys.executable, "-m", "litqeval_gui.cli"]


def write_run(folder: Path) -> tuple[Path, Path, Path]:
    """The run (topics one after another, as runs are written), the qrels and a file with
    the lines of one topic (T017) alone."""
    per_topic = LINES // TOPICS
    rng = np.random.default_rng(27)
    run, qrels, alone = folder / "big.run", folder / "big.qrels", folder / "T017.run"
    with run.open("w") as out, qrels.open("w") as judged, alone.open("w") as single:
        for t in range(TOPICS):
            scores = np.sort(rng.random(per_topic))[::-1]
            lines = "".join(f"T{t:03d} Q0 d{t:02d}-{i:07d} {i + 1} {s:.6f} bench\n"
                            for i, s in enumerate(scores.tolist()))
            out.write(lines)
            if t == 17:
                single.write(lines)
            relevant = rng.random(per_topic // 100) < 0.05
            judged.write("".join(f"T{t:03d} 0 d{t:02d}-{i * 100:07d} {int(r)}\n"
                                 for i, r in enumerate(relevant.tolist())))
    return run, qrels, alone


def write_npy(folder: Path) -> tuple[Path, Path]:
    """Random float32 vectors, 1024 dimensions, MAX_VALUES values in all."""
    dim = 1024
    rows = MAX_VALUES // dim
    path, ids = folder / "max.npy", folder / "max.ids"
    array = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(rows, dim))
    rng = np.random.default_rng(4)
    for i in range(0, rows, 8192):
        array[i:i + 8192] = rng.standard_normal((min(8192, rows - i), dim), dtype=np.float32)
    array.flush()
    del array
    ids.write_text("".join(f"id{i}\n" for i in range(rows)))
    return path, ids


def measured(args: list[str]) -> tuple[float, float, int, str]:
    """Seconds, peak RSS in GB, exit code and the last line of stderr of one child."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return seconds, usage.ru_maxrss * 1024 / GB, proc.returncode, last


def show(name: str, seconds: float, peak: float, code: int, last: str) -> None:
    print(f"{name:<44} {seconds:7.1f} s  peak {peak:5.2f} GB  exit {code}"
          + (f"  ({last[:100]})" if code else ""), flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"writing a {LINES:,}-line run over {TOPICS} topics…", flush=True)
        run, qrels, alone = write_run(folder)
        print(f"run file: {run.stat().st_size / 2**20:.0f} MB; {load_average()}", flush=True)
        steps = {
            "plain read of the run": [sys.executable, "-c",
                                      f"open({str(run)!r}, 'rb').read()"],
            "import topic T017 of the run": [*CLI, "import", str(folder / "a.litq"),
                                             str(run), "--topic", "T017", "--role",
                                             "results", "--format", "trec-run"],
            "import T017's own file": [*CLI, "import", str(folder / "b.litq"), str(alone),
                                       "--topic", "T017", "--role", "results", "--format",
                                       "trec-run"],
            "tar-eval": [*CLI, "tar-eval", str(run), str(qrels)],
            "pool-simulate": [*CLI, "pool-simulate", "--runs", str(run), "--qrels",
                              str(qrels), "--grid", "presets"],
        }
        for project in ("a.litq", "b.litq"):
            subprocess.run([*CLI, "new", str(folder / project)], check=True,
                           stdout=subprocess.DEVNULL)
        results = {}
        for name, args in steps.items():
            results[name] = measured(args)
            show(name, *results[name])
        one, own = results["import topic T017 of the run"], results["import T017's own file"]
        figure("TREC import of 1 of 50 topics: peak RSS", f"{one[1]:.2f} GB", "< 1 GB",
               one[2] == 0 and one[1] < 1)
        figure("TREC import of 1 topic: time / that topic's own file",
               f"{one[0] / own[0]:.2f}× ({one[0]:.1f} s / {own[0]:.1f} s)", "≤ 1.5×",
               one[2] == 0 and one[0] <= 1.5 * own[0])
        for name in ("tar-eval", "pool-simulate"):
            seconds, peak, code, _ = results[name]
            figure(f"{name} on the run: peak RSS", f"{peak:.2f} GB ({seconds:.1f} s)",
                   "< 1 GB", code == 0 and peak < 1)
        if NPY:
            print("writing a .npy of 2^29 float32 values…", flush=True)
            npy, ids = write_npy(folder)
            seconds, peak, code, last = measured([
                sys.executable, "-c", "import sys; from litqeval_gui.core.embedding."
                "precomputed import read_vectors; read_vectors(sys.argv[1], sys.argv[2])",
                str(npy), str(ids)])
            show("read a .npy of the documented maximum", seconds, peak, code, last)
            figure(".npy of 2^29 values: peak RSS", f"{peak:.2f} GB ({seconds:.1f} s)",
                   "≤ 2.5 GB (2 GB result)", code == 0 and peak <= 2.5)


if __name__ == "__main__":
    main()
