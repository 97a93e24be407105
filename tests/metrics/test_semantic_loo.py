"""SP_cos's leave-one-out (``sp_cos_leave_one_out``) against the per-record loop of
``sp_cos`` runs it replaces: equal number for number, also where θ sits on a record."""

import numpy as np
import pytest

from litqeval_gui.metrics.semantic import centroid_similarity, sp_cos, sp_cos_leave_one_out


def loop(e_c, e_r, is_core, n_core, owner, theta=None):
    """The definition: one sp_cos per left-out core row."""
    runs = [sp_cos(np.delete(e_c, i, axis=0), e_r, is_core & (owner != i), n_core - 1, theta)
            for i in range(len(e_c))]
    return [(r.n_relevant, r.precision, r.recall) for r in runs] if len(e_c) >= 2 else []


def unit(rows):
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def topic(dtype, seed=0, n=300, m=12, found=9):
    """m core rows near one direction, R = ``found`` of them verbatim (so the core rows
    that define each θ are in R too) plus n − found others around it."""
    rng = np.random.default_rng(seed)
    centre = rng.standard_normal(16)
    e_c = unit(centre + 0.6 * rng.standard_normal((m, 16))).astype(dtype)
    others = unit(centre + rng.uniform(0.2, 1.5, (n - found, 1))
                  * rng.standard_normal((n - found, 16))).astype(dtype)
    e_r = np.vstack([e_c[:found], others])
    owner = np.full(n, -1)
    owner[:found] = np.arange(found)
    return e_c, e_r, owner >= 0, m, owner


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("theta", [None, 0.35])
def test_equals_the_loop_of_sp_cos_runs(dtype, theta):
    for seed in range(5):
        e_c, e_r, is_core, n_core, owner = topic(dtype, seed)
        got = sp_cos_leave_one_out(e_c, e_r, is_core, n_core + 2, owner, theta)
        assert got == loop(e_c, e_r, is_core, n_core + 2, owner, theta)
        assert len(got) == n_core and all(isinstance(n, int) for n, _, _ in got)


def test_the_record_that_defines_theta_stays_relevant_when_it_is_retrieved():
    e_c, e_r, is_core, n_core, owner = topic(np.float32, seed=3)
    checked = []
    for i, (_, _, recall) in enumerate(sp_cos_leave_one_out(e_c, e_r, is_core, n_core, owner)):
        kept = np.delete(e_c, i, axis=0)
        cos = centroid_similarity(kept, kept).core
        defining = int(np.delete(np.arange(n_core), i)[np.argmin(cos)])
        if defining < 9:  # retrieved: every retrieved core row passes its own θ
            assert recall == (9 - (i < 9)) / (n_core - 1)
            checked.append(i)
    assert checked == list(range(n_core))  # on this topic the case occurs for every i


def test_a_left_out_set_without_a_centroid_runs_sp_cos_itself():
    e_c = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])  # without row 2: centroid zero
    e_r = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    is_core, owner = np.array([True, False, False]), np.array([0, -1, -1])
    got = sp_cos_leave_one_out(e_c, e_r, is_core, 3, owner)
    assert got == loop(e_c, e_r, is_core, 3, owner)
    assert got[2] == (0, 0.0, 0.0)


def test_fewer_than_two_core_rows_or_an_empty_list():
    e_c, e_r, is_core, n_core, owner = topic(np.float64)
    assert sp_cos_leave_one_out(e_c[:1], e_r, is_core & (owner < 1), n_core, owner) == []
    empty = sp_cos_leave_one_out(e_c, e_r[:0], is_core[:0], n_core, owner[:0])
    assert empty == loop(e_c, e_r[:0], is_core[:0], n_core, owner[:0])
    with pytest.raises(ValueError, match="core_row_of"):
        sp_cos_leave_one_out(e_c, e_r, is_core, n_core, owner[:-1])
