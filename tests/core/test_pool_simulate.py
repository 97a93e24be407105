"""`litqeval pool-simulate` on a small generated TREC-like collection computed by hand."""

from __future__ import annotations

import json

import pytest
from dask import distributed

from litqeval_gui.cli import main
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.trec.simulate import pool_simulate

DEPTH = 30


def write_run(path, ranked):
    lines = [f"{topic} Q0 {doc} {rank} {len(docs) - rank} tag"
             for topic, docs in ranked.items() for rank, doc in enumerate(docs, 1)]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def collection(tmp_path):
    """Runs a, b: doc a_k / b_k at rank k, all distinct, so |P(k)| = 2k; c interleaves
    them (a1 b1 a2 b2 …) and adds nothing to any pool.

    T1: a1..a5 and b1..b5 relevant -> nrels = 2, 4, 6, 8, 10, 10, … (10 at depth 30).
    T2: only a25 relevant -> nrels(20)/|P(20)| = 0 <= 0.1: low yield, pooled to depth 30.
    """
    runs = tmp_path / "runs"
    runs.mkdir()
    a = [f"a{k}" for k in range(1, DEPTH + 1)]
    b = [f"b{k}" for k in range(1, DEPTH + 1)]
    c = [doc for pair in zip(a[:15], b[:15], strict=True) for doc in pair]
    for name, docs in {"a": a, "b": b, "c": c}.items():
        write_run(runs / f"{name}.run", {"T1": docs, "T2": docs})
    relevant = {"T1": set(a[:5] + b[:5]), "T2": {"a25"}}
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 {d} {int(d in relevant[t])}\n"
                             for t in ("T1", "T2") for d in a + b))
    return runs, qrels


def test_e_and_r_by_hand(collection, capsys):
    # aggressive (6, 2, 0.8, 3) on T1: window sums S(i) of nrels(i..i+5) = 40, 48, 54, 58,
    # 60, 60 …; ŕ(i) = (S(i+2) − S(i))/12 = 14/12, 10/12, 6/12, 2/12, 0 … -> k_cr = 3:
    # judged |P(3)| = 6 with nrels 6.
    # relaxed (14, 6, 0.05, 6) on T1: S(i) over 14 depths = 120, 128, 134, 138, 140, 140 …;
    # ŕ(i) = (S(i+6) − S(i))/84: ŕ(3) = 6/84 >= 0.05, ŕ(4..) = 2/84, 0 … -> k_cr = 4:
    # judged 8 with nrels 8.  T2 is low-yield: judged 60, nrels 1 in both.
    # E = (6 + 60)/120 and R = 7/11 (aggressive); E = 68/120, R = 9/11 (relaxed).
    code = main(["pool-simulate", "--runs", str(collection[0]), "--qrels", str(collection[1]),
                 "--depth", str(DEPTH), "--grid", "presets", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    doc = json.loads(out)
    assert (doc["topics"], doc["runs"], doc["depth"]) == (2, 3, DEPTH)
    aggressive, relaxed = doc["settings"]
    assert (aggressive["w"], aggressive["W"], aggressive["t"], aggressive["l"]) == (6, 2, 0.8, 3)
    assert aggressive["E"] == pytest.approx(66 / 120)
    assert aggressive["R"] == pytest.approx(7 / 11)
    assert relaxed["E"] == pytest.approx(68 / 120)
    assert relaxed["R"] == pytest.approx(9 / 11)
    # MAP: a = (5/10 + 1/25)/2, b = (5/10 + 0)/2, c = (10/10 + 0)/2 under both qrels (the
    # reduced T1 qrels keep a1..a3, b1..b3, which a, b and c rank first): same ranking.
    assert (aggressive["tau"], aggressive["tau_ap"], aggressive["rms"]) == (1.0, 1.0, 0.0)


def test_the_thesis_grid_has_500_settings_and_aggressive_judges_least(collection):
    doc = pool_simulate([collection[0]], collection[1], depth=DEPTH)
    assert len(doc["settings"]) == 500
    by_params = {(s["w"], s["W"], s["t"], s["l"]): s for s in doc["settings"]}
    assert by_params[(6, 2, 0.8, 3)]["E"] <= by_params[(14, 6, 0.05, 6)]["E"]
    assert any(s["frontier_tau"] for s in doc["settings"])


def test_recall_at_1000_instead_of_map(collection):
    # recall@1000 full: a = (5/10 + 1)/2, b = (5/10 + 0)/2, c = (1 + 0)/2;
    # aggressive reduced T1 qrels {a1..a3, b1..b3}: a = (3/6 + 1)/2 — the same values.
    doc = pool_simulate([collection[0]], collection[1], depth=DEPTH, grid="aggressive",
                        measure="recall@1000")
    [setting] = doc["settings"]
    assert doc["measure"] == "recall@1000" and setting["rms"] == 0.0


def test_local_processes_and_dask_give_the_serial_result(collection):
    serial = pool_simulate([collection[0]], collection[1], depth=DEPTH, grid="presets")
    parallel = pool_simulate([collection[0]], collection[1], depth=DEPTH, grid="presets",
                             jobs=2)
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as c:
        on_dask = pool_simulate([collection[0]], collection[1], depth=DEPTH, grid="presets",
                                dask_address=c.scheduler_address)
    assert parallel == serial == on_dask


def test_text_output(collection, capsys):
    code = main(["pool-simulate", "--runs", *map(str, collection[0].iterdir()), "--qrels",
                 str(collection[1]), "--depth", str(DEPTH), "--grid", "aggressive"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0].startswith("3 runs, 2 topics, depth 30, 1 settings")
    assert out.splitlines()[2].split()[:6] == ["6", "2", "0.8", "3", "0.5500", "0.6364"]


def test_bad_arguments_are_one_clear_error(collection, tmp_path):
    with pytest.raises(LitqError, match="low-yield"):
        pool_simulate([collection[0]], collection[1], depth=10)
    with pytest.raises(LitqError, match="no such file"):
        pool_simulate([tmp_path / "missing"], collection[1])
    (tmp_path / "runs" / "a.txt").write_text("T1 Q0 a1 1 1 x\n")
    with pytest.raises(LitqError, match="share the name 'a'"):
        pool_simulate([collection[0]], collection[1], depth=DEPTH)
