"""MVEE (Khachiyan, O(N·d²) per iteration) against the published diag(u) form, and
vectorised containment. Figures are ratios against baselines measured in this run.

Both Khachiyan forms follow the same iterate sequence, so the naive form is timed over
the same iterations as the fast one, capped (it needs an N×N matrix per iteration; at
N = 5 000 a full naive run would take tens of minutes): the ratio is per iteration and
equals the whole-run ratio. Single BLAS thread for both (a shared machine).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from litqeval_gui.metrics.geometry import Ellipsoid, convex_hull, mvee

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support import figure  # noqa: E402

from tests.metrics.test_geometry import naive_khachiyan  # noqa: E402 — the test's reference

NAIVE_ITERATION_BUDGET = {50: None, 500: 400, 5_000: 15}  # None: run to convergence


def bench_fit() -> None:
    print("MVEE fit: fast (Qᵀ(u⊙Q), einsum) vs naive (diag(u), N×N), same iterations")
    print(f"{'N':>6} {'d':>3} {'iters':>6} {'fast total':>11} {'fast/iter':>10} "
          f"{'naive/iter':>11} {'ratio':>8}")
    rng = np.random.default_rng(0)
    ok = True
    for n in (50, 500, 5_000):
        for d in (2, 10):
            pts = rng.normal(size=(n, d)) * np.linspace(1, 3, d)
            start = time.perf_counter()
            ell = mvee(pts, enclose=False)
            fast = time.perf_counter() - start
            budget = NAIVE_ITERATION_BUDGET[n] or ell.iterations
            start = time.perf_counter()
            c, a, naive_iters = naive_khachiyan(pts, max_iter=min(budget, ell.iterations))
            naive = time.perf_counter() - start
            if naive_iters == ell.iterations:  # full run: both must agree
                ok &= bool(np.allclose(c, ell.centre, atol=1e-9)
                           and np.allclose(a, ell.shape, rtol=1e-7, atol=1e-9))
            per_fast, per_naive = fast / ell.iterations, naive / naive_iters
            print(f"{n:>6} {d:>3} {ell.iterations:>6} {fast * 1e3:>9.1f}ms "
                  f"{per_fast * 1e6:>8.1f}µs {per_naive * 1e6:>9.1f}µs "
                  f"{per_naive / per_fast:>7.1f}×")
            if n == 5_000:
                print(f"        goal ≥ 20× at N = 5 000, d = {d}: "
                      f"{'met' if per_naive / per_fast >= 20 else 'NOT met'}")
                figure(f"MVEE naive / fast per iteration, N = 5 000, d = {d}",
                       f"{per_naive / per_fast:.1f}x", ">= 20x", per_naive / per_fast >= 20)
    print(f"fast and naive agree on full runs (centre, A): {'yes' if ok else 'NO'}")
    figure("MVEE fast = naive on full runs (centre, A)", "yes" if ok else "no", "yes", ok)


def best_of(repeats: int, fn) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_containment() -> None:
    rng = np.random.default_rng(1)
    pts = rng.normal(size=(200_000, 2)).astype(np.float64)
    ell = Ellipsoid(centre=np.array([0.1, -0.2]), shape=np.array([[0.8, 0.2], [0.2, 1.5]]))
    t_ell = best_of(5, lambda: ell.contains(pts))
    t_base = best_of(5, lambda: np.einsum("ij,ij->i", pts, pts))  # one plain pass, baseline
    hull = convex_hull(rng.normal(size=(40, 2)))
    t_hull = best_of(3, lambda: hull.contains(pts))
    print("containment of 200 000 points (best of 5)")
    print(f"  ellipse: {t_ell * 1e3:.1f} ms (goal < 50 ms: {'met' if t_ell < 0.05 else 'NOT met'});"
          f" {t_ell / t_base:.1f}× one row-norm pass ({t_base * 1e3:.1f} ms)")
    figure("ellipse containment, 200 000 points", f"{t_ell * 1e3:.1f} ms ({t_ell / t_base:.1f}x "
           "one row-norm pass)", "< 50 ms", t_ell < 0.05)
    print(f"  hull (Delaunay find_simplex, 40 fit points): {t_hull * 1e3:.1f} ms")


def main() -> int:
    with threadpool_limits(1):
        bench_fit()
        bench_containment()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
