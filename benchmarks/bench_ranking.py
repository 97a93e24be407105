"""MAP over 1 000 topics × 10 000 ranked documents: ours vs ir-measures, measured in the same run.

Inputs are built outside the timed regions. Both sides get equivalent in-memory inputs:
ir-measures gets ``{qid: {doc: score}}`` run and ``{qid: {doc: grade}}`` qrels dicts; our
id-based API gets the very same dicts; our vectorised path gets one relevance array per topic
(rank order) plus the number of relevant documents per topic. Scores are distinct, so both
rank identically. Figures are printed as ratios ours / ir-measures (goal ≤ 1.0).
"""

from __future__ import annotations

import sys
import time

import ir_measures
import numpy as np
from support import figure

from litqeval_gui.metrics.ranking import average_precision_batch, mean_average_precision

N_TOPICS = 1_000
N_DOCS = 10_000
N_JUDGED = 300
REL_FRACTION = 0.2
SEED = 20240601


def build_inputs(rng: np.random.Generator):
    runs: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    rel_rows: list[np.ndarray] = []
    n_rel: list[int] = []
    doc_ids = [f"d{i}" for i in range(N_DOCS + N_JUDGED)]
    for t in range(N_TOPICS):
        qid = f"q{t}"
        scores = rng.permutation(N_DOCS).astype(float) + rng.random()  # distinct scores
        runs[qid] = dict(zip(doc_ids[:N_DOCS], scores.tolist(), strict=True))
        judged = rng.choice(N_DOCS + N_JUDGED, size=N_JUDGED, replace=False)  # some unretrieved
        grades = (rng.random(N_JUDGED) < REL_FRACTION) * rng.integers(1, 4, N_JUDGED)
        qrels[qid] = {doc_ids[j]: int(g) for j, g in zip(judged, grades, strict=True)}
        order = np.argsort(-scores, kind="stable")
        row = np.zeros(N_DOCS)
        retrieved = judged < N_DOCS
        row[judged[retrieved]] = grades[retrieved]
        rel_rows.append(row[order])
        n_rel.append(int(np.count_nonzero(grades)))
    return runs, qrels, rel_rows, np.asarray(n_rel)


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> int:
    rng = np.random.default_rng(SEED)
    runs, qrels, rel_rows, n_rel = build_inputs(rng)
    ref, t_ref = timed(
        lambda: ir_measures.calc_aggregate([ir_measures.AP], qrels, runs)[ir_measures.AP]
    )
    ours_ids, t_ids = timed(lambda: mean_average_precision(runs, qrels))
    ours_vec, t_vec = timed(lambda: float(average_precision_batch(rel_rows, n_rel).mean()))

    print(f"topics={N_TOPICS} docs/topic={N_DOCS} judged/topic={N_JUDGED}")
    print(f"ir-measures AP (calc_aggregate)  : {t_ref:8.3f} s  MAP={ref:.12f}")
    print(
        f"ours id-based mean_average_precision: {t_ids:8.3f} s  MAP={ours_ids:.12f}"
        f"  ratio={t_ids / t_ref:.3f}"
    )
    print(
        f"ours vectorised average_precision_batch: {t_vec:8.3f} s  MAP={ours_vec:.12f}"
        f"  ratio={t_vec / t_ref:.3f}"
    )
    agree = abs(ours_ids - ref) < 1e-9 and abs(ours_vec - ref) < 1e-9
    print(f"MAP values agree to 1e-9: {agree}")
    goal = t_ids / t_ref <= 1.0 and t_vec / t_ref <= 1.0
    print(f"goal ratio <= 1.0 met: {goal}")
    for label, seconds in (("id-based", t_ids), ("vectorised", t_vec)):
        figure(f"MAP {label} / ir-measures time", f"{seconds / t_ref:.3f} ({seconds:.3f} s)",
               "<= 1.0", seconds / t_ref <= 1.0)
    figure("MAP equal to ir-measures' (1e-9)", "yes" if agree else "no", "yes", agree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
