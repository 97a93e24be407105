"""`tar-eval` on 20 topics × 6 runs × 2 000 ranked documents vs ir-measures computing AP alone.

Generated TREC files (every candidate judged, ~5 % relevant, scores with ties) are
written to a temporary folder outside the timed regions. Ours: ``core.trec.evaluate.tar_eval``
reading the files and computing AP, recall@10/100/1000 and P@r, TNR@r, nP@r, snP@r,
WSS@r, last_rel per topic and mean. Baseline: ir-measures reading the same files
(``read_trec_qrels`` once, ``read_trec_run`` per run) and computing AP alone with one
evaluator. Best of 3 each, the two taking turns; prints ours / ir-measures with the load average (goal: ≤ 1.0×,
though ours computes more than AP).

``python benchmarks/bench_tar.py [DATA_DIR]``: DATA_DIR with ``runs/*.run`` and
``qrels.abs.txt`` (e.g. shared/data/tar) is timed the same way (a figure with no goal).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import ir_measures
import numpy as np
from support import figure, load_average

from litqeval_gui.core.trec.evaluate import tar_eval

N_TOPICS, N_RUNS, N_DOCS = 20, 6, 2_000
SEED = 15


def generate(folder: Path) -> tuple[list[Path], Path]:
    rng = np.random.default_rng(SEED)
    qrels_lines, runs = [], [[] for _ in range(N_RUNS)]
    for t in range(N_TOPICS):
        topic = f"CD{t:06d}"
        docs = np.array([f"{t * N_DOCS + i + 10_000_000}" for i in range(N_DOCS)])
        relevant = rng.random(N_DOCS) < 0.05
        qrels_lines += [f"{topic} 0 {d} {int(r)}" for d, r in zip(docs, relevant, strict=True)]
        for r, lines in enumerate(runs):
            scores = np.round(relevant * (0.5 + r / N_RUNS) + rng.random(N_DOCS), 2)  # ties
            order = np.argsort(-scores, kind="stable")
            lines += [f"{topic} Q0 {docs[i]} {k} {scores[i]} run{r}"
                      for k, i in enumerate(order, 1)]
    qrels = folder / "qrels.txt"
    qrels.write_text("\n".join(qrels_lines) + "\n")
    paths = []
    for r, lines in enumerate(runs):
        paths.append(folder / f"run{r}.run")
        paths[-1].write_text("\n".join(lines) + "\n")
    return paths, qrels


def best_of(rounds: int, *fns) -> list[tuple[object, float]]:
    """Each function's value and its best time over ``rounds``; the functions take turns
    within a round, so a change in the machine's load touches all of them alike."""
    best = [float("inf")] * len(fns)
    values: list[object] = [None] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            values[i] = fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return list(zip(values, best, strict=True))


def ir_measures_ap(runs: list[Path], qrels: Path) -> list[float]:
    qrels_rows = list(ir_measures.read_trec_qrels(str(qrels)))
    evaluator = ir_measures.evaluator([ir_measures.AP], qrels_rows)
    return [evaluator.calc_aggregate(ir_measures.read_trec_run(str(run)))[ir_measures.AP]
            for run in runs]


def compare(label: str, runs: list[Path], qrels: Path) -> float:
    """Time both on ``runs`` and ``qrels``; print the times; return ours / ir-measures."""
    (ours, t_ours), (ref, t_ref) = best_of(3, lambda: tar_eval(runs, qrels, ties="trec_eval"),
                                           lambda: ir_measures_ap(runs, qrels))
    lines = sum(1 for run in runs for _ in run.open())
    ours_map = [run["mean"]["ap"] for run in ours["runs"]]
    assert np.allclose(ours_map, ref, atol=1e-9), (ours_map, ref)
    print(f"{label}: {len(runs)} runs, {lines} run lines")
    print(f"  tar-eval, all measures (s)         {t_ours:8.3f}")
    print(f"  ir-measures, AP alone (s)          {t_ref:8.3f}")
    print(f"  ratio ours / ir-measures           {t_ours / t_ref:8.2f}   ({load_average()})")
    print("  MAP per run equals ir-measures' within 1e-9 (--ties trec_eval)")
    return t_ours / t_ref


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        runs, qrels = generate(Path(tmp))
        ratio = compare(f"generated {N_TOPICS} topics × {N_RUNS} runs × {N_DOCS} docs",
                        runs, qrels)
    figure("tar-eval ours / ir-measures AP", f"{ratio:.2f}×", "≤ 1.0×", ratio <= 1.0)
    if len(sys.argv) > 1:
        data = Path(sys.argv[1])
        ratio = compare(str(data), sorted((data / "runs").glob("*.run")), data / "qrels.abs.txt")
        figure(f"tar-eval ours / ir-measures AP on {data.name}", f"{ratio:.2f}×", "-", None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
