"""Embeddings and the 2D map of a generated topic of 50 000 records.

Phases: lsa (TF-IDF → SVD → unit rows), the UMAP map (with its fidelity), the PCA map;
each phase's wall time, and the process's peak memory after it (``ru_maxrss``). The
baseline, measured in this run, is a bare ``TfidfVectorizer().fit_transform`` of the same
texts; lsa is printed as a ratio of it. Then the first and the second UMAP map of a
small topic, each in a fresh process sharing one empty per-user cache (numba compiles in
the first only), and ``minilm``'s records per second when the ``neural`` extra is installed.
Issue 23: lsa was 22× the baseline; the whole first evaluation (benchmarks/
bench_evaluation.py) of 50 000 records < 45 s.

Usage: python benchmarks/bench_embedding.py [n_records]   (default 50 000)
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sklearn.feature_extraction.text import TfidfVectorizer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: test data

from support import figure, load_average  # noqa: E402

from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.embedding.errors import MissingExtraError
from litqeval_gui.core.embedding.lsa import LsaBackend
from litqeval_gui.core.embedding.neural import MiniLmBackend, find_model_dir
from litqeval_gui.core.embedding.projection import project
from litqeval_gui.core.jobs import run_job
from tests.support import synthetic  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SMALL_TOPIC = 1_000
MINILM_RECORDS = 2_000

# One fresh process: embed a small generated topic with lsa and time its UMAP map.
MAP_SCRIPT = f"""
import sys, time
start = time.perf_counter()
sys.path.insert(0, {str(ROOT)!r})
from tests.support import synthetic
from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.embedding.lsa import LsaBackend
from litqeval_gui.core.embedding.projection import project
from litqeval_gui.core.jobs import run_job
records, _ = synthetic.generate({SMALL_TOPIC}, dup_rate=0.0, seed=1)
vectors = run_job(LsaBackend().embed([Document.from_record(r) for r in records])).vectors
before = time.perf_counter()
run_job(project(vectors))
end = time.perf_counter()
print(f"{{end - before:.2f}} {{end - start:.2f}}")
"""


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bench_topic(n: int) -> None:
    records, _ = synthetic.generate(n, dup_rate=0.0, seed=0)
    docs = [Document.from_record(r) for r in records]
    texts = [d.text for d in docs]
    del records
    print(f"generated topic: {n:,} records, {sum(map(len, texts)) / n:.0f} characters each; "
          f"peak {peak_mb():,.0f} MB")
    t_base = min(timed(lambda: TfidfVectorizer().fit_transform(texts))[0] for _ in range(2))
    print(f"  baseline  TfidfVectorizer().fit_transform: {t_base:6.1f} s (best of 2)")
    (t_lsa, emb), (t_again, _) = (timed(lambda: run_job(LsaBackend().embed(docs)))
                                  for _ in range(2))
    t_lsa = min(t_lsa, t_again)
    print(f"  lsa       {emb.vectors.shape[0]:,} × {emb.dim}: {t_lsa:6.1f} s "
          f"({t_lsa / t_base:.1f}× the baseline, best of 2); peak {peak_mb():,.0f} MB; "
          f"{load_average()}")
    figure(f"lsa ÷ TfidfVectorizer, {n:,} records", f"{t_lsa / t_base:.1f} ({t_lsa:.1f} s / "
           f"{t_base:.1f} s; {load_average()})", "-", None)
    t_umap, umap_map = timed(lambda: run_job(project(emb.vectors, "umap")))
    print(f"  UMAP map (incl. fidelity {umap_map.fidelity:.3f}): {t_umap:6.1f} s "
          f"({t_umap / t_base:.1f}× the baseline); peak {peak_mb():,.0f} MB")
    t_pca, pca_map = timed(lambda: run_job(project(emb.vectors, "pca")))
    print(f"  PCA map  (incl. fidelity {pca_map.fidelity:.3f}): {t_pca:6.1f} s "
          f"({t_pca / t_base:.1f}× the baseline); peak {peak_mb():,.0f} MB")
    total = t_lsa + t_umap
    print(f"  lsa + UMAP: {total:.1f} s of the 120 s the whole evaluation may take; "
          f"peak {peak_mb() / 1024:.2f} GB of 4 GB")


def bench_first_and_second_map() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["XDG_CACHE_HOME"] = cache
        times = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", MAP_SCRIPT], env=env, check=True,
                                 capture_output=True, text=True).stdout.split()
            times.append([float(t) for t in out])
    (first_map, first_all), (second_map, second_all) = times
    print(f"UMAP map of a {SMALL_TOPIC:,}-record topic, two processes, one new per-user cache:")
    print(f"  first  {first_map:5.1f} s (process {first_all:5.1f} s)")
    print(f"  second {second_map:5.1f} s (process {second_all:5.1f} s); "
          f"first / second {first_map / second_map:.0f}×")


def bench_minilm() -> None:
    try:
        find_model_dir()
        backend = MiniLmBackend()
        records, _ = synthetic.generate(MINILM_RECORDS, dup_rate=0.0, seed=2)
        docs = [Document.from_record(r) for r in records]
        run_job(backend.embed(docs[:8]))  # load the model outside the timing
        t_minilm, _ = timed(lambda: run_job(backend.embed(docs)))
    except MissingExtraError as err:
        print(f"minilm: not measured; {err}")
        return
    t_lsa, _ = timed(lambda: run_job(LsaBackend().embed(docs)))
    print(f"minilm: {MINILM_RECORDS / t_minilm:,.0f} records/s on the CPU "
          f"({t_minilm:.1f} s for {MINILM_RECORDS:,}; lsa {t_minilm / t_lsa:.0f}× faster)")


if __name__ == "__main__":
    bench_topic(int(sys.argv[1]) if len(sys.argv) > 1 else 50_000)
    bench_first_and_second_map()
    bench_minilm()
