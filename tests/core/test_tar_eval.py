"""`litqeval tar-eval`: TREC runs against qrels, hand-computed values, both conventions,
both tie rules, and AP / recall@k against ir_measures (trec_eval semantics)."""

from __future__ import annotations

import json
import math

import ir_measures
import numpy as np
import pytest

from litqeval_gui.cli import main
from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.trec.evaluate import tar_eval
from litqeval_gui.core.trec.files import read_run


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines))
    return path


def run_lines(topic, docs):
    """Lines of a run ranking ``docs`` in this order, by descending score."""
    return [f"{topic} Q0 {d} {i} {len(docs) - i} x" for i, d in enumerate(docs, 1)]


def cli(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# Topic A: 10 candidates, relevant = r1..r5 at ranks 1, 3, 6, 7, 10 of the run.
A_DOCS = ["r1", "n1", "r2", "n2", "n3", "r3", "r4", "n4", "n5", "r5"]
A_QRELS = [f"A 0 {d} {1 if d.startswith('r') else 0}" for d in A_DOCS]


@pytest.fixture
def files(tmp_path):
    qrels = write(tmp_path / "qrels.txt", [*A_QRELS, "B 0 b1 0", "B 0 b2 0", "C 0 c1 1"])
    run = write(tmp_path / "my-run.txt", [*run_lines("A", A_DOCS), *run_lines("B", ["b1"])])
    return run, qrels


def test_hand_computed_paper_convention(files, capsys):
    # r = 0.5, |I| = 5: TP = ⌈2.5⌉ = 3 -> cutoff 6 (r3); FP = 3, |E| = 5, TN = 2, FN = 2.
    # P@r = 3/6, TNR = 2/5, nP = 0.2, snP = √0.2, WSS = (2 + 2)/10 − 0.5 = −0.1,
    # last_rel = 10/10·100. AP = (1/1 + 2/3 + 3/6 + 4/7 + 5/10)/5; recall@5 = 2/5.
    code, out, _ = cli(capsys, "tar-eval", *files, "--recall", "0.5", "--k", "5,10", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["recall_level"] == 0.5 and doc["convention"] == "paper"
    [run] = doc["runs"]
    assert run["run"] == "my-run"
    a = run["topics"]["A"]
    assert (a["candidates"], a["relevant"], a["retrieved"], a["cutoff"]) == (10, 5, 10, 6)
    assert a["ap"] == pytest.approx((1 + 2 / 3 + 3 / 6 + 4 / 7 + 5 / 10) / 5)
    assert a["recall_at_k"] == pytest.approx({"5": 2 / 5, "10": 1.0})
    assert a["p_at_r"] == pytest.approx(0.5)
    assert a["tnr_at_r"] == pytest.approx(0.4)
    assert a["np_at_r"] == pytest.approx(0.2)
    assert a["snp_at_r"] == pytest.approx(math.sqrt(0.2))
    assert a["wss_at_r"] == pytest.approx(-0.1)
    assert a["last_rel"] == pytest.approx(100.0)  # 10/10 · 100, in percent of N:
    assert doc["units"]["last_rel"].startswith("percent of N")
    # B: judged but nothing relevant; C: relevant but the run has no line for it
    assert "no relevant record" in run["topics"]["B"]["reason"]
    assert run["topics"]["C"] == {"reason": "the run has no line for this topic"}
    assert run["mean"]["topics"] == 1 and run["mean"]["ap"] == pytest.approx(a["ap"])


def test_clef_convention_rounds_where_paper_takes_the_ceiling(files, capsys):
    # r = 0.5, |I| = 5: CLEF TP = round(2.5) = 2 (half to even), paper TP = 3.
    # CLEF: cutoff 3 (r2), FP = 1, TN = 4, FN = 3: P = 2/3, TNR = 4/5, nP = 8/15,
    # WSS = (4 + 3)/10 − 0.5 = 0.2, last_rel = rank 10.
    code, out, _ = cli(capsys, "tar-eval", *files, "--recall", "0.5", "--convention", "clef",
                       "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["units"]["last_rel"] == "rank of the last relevant retrieved record (0 if none)"
    a = doc["runs"][0]["topics"]["A"]
    assert a["cutoff"] == 3
    assert a["p_at_r"] == pytest.approx(2 / 3)
    assert a["tnr_at_r"] == pytest.approx(4 / 5)
    assert a["np_at_r"] == pytest.approx(8 / 15)
    assert a["wss_at_r"] == pytest.approx(0.2)
    assert a["last_rel"] == 10


def test_clef_gives_wss_zero_when_the_run_never_reaches_the_recall_level(tmp_path):
    # The run returns only the first 5 of topic A's docs: 2 relevant (r1, r2).
    # r = 0.95: CLEF TP = round(4.75) = 5 > 2 -> WSS 0, last_rel = rank 3 (r2).
    # paper: the unretrieved candidates follow, relevant last: positions 8, 9, 10 for
    # r3..r5 -> TP = ⌈4.75⌉ = 5 -> cutoff 10, WSS = (0 + 0)/10 − 0.05.
    qrels = write(tmp_path / "q.txt", A_QRELS)
    run = write(tmp_path / "short.run", run_lines("A", A_DOCS[:5]))
    clef = tar_eval([run], qrels, 0.95, convention="clef")["runs"][0]["topics"]["A"]
    paper = tar_eval([run], qrels, 0.95)["runs"][0]["topics"]["A"]
    assert (clef["wss_at_r"], clef["last_rel"]) == (0.0, 3.0)
    assert paper["cutoff"] == 10 and paper["wss_at_r"] == pytest.approx(-0.05)
    assert paper["last_rel"] == pytest.approx(100.0)


def test_candidates_are_the_qrels_plus_every_retrieved_document(tmp_path):
    # qrels judge 3 docs (1 relevant); the run retrieves 2 unjudged ones as well: N = 5.
    qrels = write(tmp_path / "q.txt", ["A 0 a 1", "A 0 b 0", "A 0 c 0"])
    run = write(tmp_path / "r.run", run_lines("A", ["x", "a", "y"]))
    a = tar_eval([run], qrels, 1.0)["runs"][0]["topics"]["A"]
    # ranking x a y, then b c: TP = 1 at rank 2; FP = 1; |E| = 4; TN = 3
    assert (a["candidates"], a["cutoff"]) == (5, 2)
    assert a["tnr_at_r"] == pytest.approx(3 / 4)
    assert a["last_rel"] == pytest.approx(2 / 5 * 100)


def test_ties_follow_the_file_or_trec_eval(tmp_path):
    # equal scores: file order keeps d1 d3 d2; trec_eval takes docid descending: d3 d2 d1
    run = write(tmp_path / "r.run", ["A Q0 d1 1 5 x", "A Q0 d3 2 5 x", "A Q0 d2 3 5 x",
                                     "A Q0 d0 4 9 x"])
    assert read_run(run, "file").topics["A"] == ["d0", "d1", "d3", "d2"]
    assert read_run(run, "trec_eval").topics["A"] == ["d0", "d3", "d2", "d1"]
    qrels = write(tmp_path / "q.txt", ["A 0 d1 1", "A 0 d2 0", "A 0 d3 0", "A 0 d0 0"])
    by_file = tar_eval([run], qrels)["runs"][0]["topics"]["A"]["ap"]
    by_trec = tar_eval([run], qrels, ties="trec_eval")["runs"][0]["topics"]["A"]["ap"]
    assert (by_file, by_trec) == (pytest.approx(1 / 2), pytest.approx(1 / 4))


def test_ap_and_recall_agree_with_ir_measures_under_trec_eval_ties(tmp_path):
    rng = np.random.default_rng(11)
    lines, qrels_lines = [], []
    for t in range(6):
        docs = [f"D{t}-{i}" for i in range(int(rng.integers(20, 120)))]
        scores = rng.integers(0, 8, len(docs))  # many ties
        order = np.argsort(-scores, kind="stable")
        lines += [f"T{t} Q0 {docs[i]} {r} {scores[i]} run" for r, i in enumerate(order, 1)]
        judged = rng.choice(len(docs) + 15, size=len(docs), replace=False)
        qrels_lines += [f"T{t} 0 D{t}-{j} {int(rng.integers(0, 3))}" for j in judged]
    run = write(tmp_path / "random.run", lines)
    qrels = write(tmp_path / "q.txt", qrels_lines)
    doc = tar_eval([run], qrels, ties="trec_eval", cutoffs=(10, 50))["runs"][0]
    measures = [ir_measures.AP, ir_measures.R @ 10, ir_measures.R @ 50]
    reference = list(ir_measures.iter_calc(measures, ir_measures.read_trec_qrels(str(qrels)),
                                           ir_measures.read_trec_run(str(run))))
    assert len(reference) == 18
    for m in reference:
        ours = doc["topics"][m.query_id]
        value = ours["ap"] if m.measure == ir_measures.AP else \
            ours["recall_at_k"][str(m.measure["cutoff"])]
        assert value == pytest.approx(m.value, abs=1e-9), (m.query_id, str(m.measure))


def test_repeated_docid_keeps_its_best_position(tmp_path):
    run = write(tmp_path / "r.run", ["A Q0 a 1 3 x", "A Q0 b 2 2 x", "A Q0 a 3 1 x"])
    parsed = read_run(run)
    assert parsed.topics["A"] == ["a", "b"] and parsed.duplicates == 1


def test_header_names_the_convention_and_last_rel_its_unit(tmp_path, capsys):
    # 8 candidates, relevant at ranks 1 and 2; r = 0.95: TP = ⌈1.9⌉ = round(1.9) = 2, so
    # cutoff 2 and WSS = (8 − 2)/8 − 0.05 = 0.7 in both conventions; last_rel is
    # 2/8·100 = 25 (% of N) under paper and rank 2 under clef.
    docs = ["r1", "r2", "n1", "n2", "n3", "n4", "n5", "n6"]
    qrels = write(tmp_path / "q.txt", [f"A 0 {d} {int(d[0] == 'r')}" for d in docs])
    run = write(tmp_path / "r.run", run_lines("A", docs))
    expected = {"paper": ("last_rel%", 25.0, "percent of N", "TP = ceil(r·|I|)"),
                "clef": ("last_rel", 2.0, "rank of the last relevant retrieved",
                         "the CLEF TAR scripts' eval_measures.py: TP = round(r·|I|)")}
    for convention, (column, value, unit, rule) in expected.items():
        code, out, _ = cli(capsys, "tar-eval", run, qrels, "--convention", convention)
        assert code == 0
        lines = out.splitlines()
        assert lines[0] == f"recall level 0.95, convention {convention}, ties file"
        assert lines[1].startswith(f"{convention}: {rule}")
        assert lines[2].startswith("units: AP, P@r, TNR@r, nP@r, snP@r, WSS@r are fractions")
        assert f"(not %); {column}: {unit}" in lines[2]
        head = next(line.split() for line in lines if line.startswith("topic"))
        row = dict(zip(head, next(line.split() for line in lines if line.startswith("A ")),
                       strict=True))
        assert head[-1] == column and "last_rel" + "%" * (convention == "clef") not in head
        assert float(row[column]) == pytest.approx(value)
        assert float(row["WSS@r"]) == pytest.approx(0.7)
        code, out, _ = cli(capsys, "tar-eval", run, qrels, "--convention", convention,
                           "--json")
        doc = json.loads(out)
        assert doc["convention"] == convention and doc["convention_rule"].startswith(rule)
        assert doc["units"]["last_rel"].startswith(unit)
        assert doc["units"]["wss_at_r"] == doc["units"]["ap"] == "fraction (not %)"
        assert doc["runs"][0]["topics"]["A"]["last_rel"] == pytest.approx(value)
    # the header's columns line up with the values under them
    assert len(lines[-1]) == len(next(line for line in lines if line.startswith("topic")))


def test_help_says_which_convention_reproduces_the_clef_scripts(capsys):
    with pytest.raises(SystemExit):
        main(["tar-eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--convention clef reproduces the official CLEF TAR scripts' numbers" in text
    assert "clef reproduces the CLEF TAR scripts' (eval_measures.py) numbers" in text
    assert "paper (default; Kusa et al., SPEC §2) differs: TP = ceil(r·|I|)" in text
    assert "last_rel% = 100·rank of the last relevant candidate / N" in text


def test_text_output_and_errors(files, tmp_path, capsys):
    code, out, _ = cli(capsys, "tar-eval", *files)
    assert code == 0
    assert "run my-run" in out and "mean (1)" in out and "the run has no line" in out
    bad = write(tmp_path / "bad.run", ["A Q0 a 1 3 x", "A Q0 b 2 x"])
    code, out, _ = cli(capsys, "tar-eval", bad, files[1])  # the importer's rule (issue 27)
    assert code == 0
    assert out.strip().endswith("run bad: 1 malformed line left out (first: line 2: 5 columns "
                                "instead of 6 (expected 'topic Q0 docid rank score tag'))")
    code, _, err = cli(capsys, "tar-eval", files[1])
    assert code == 2 and "at least one run file" in err
    with pytest.raises(LitqError, match="score"):
        read_run(write(tmp_path / "s.run", ["A Q0 a 1 high x"]))
    with pytest.raises(LitqError, match="recall"):
        tar_eval([files[0]], files[1], recall=1.5)
    (tmp_path / "other").mkdir()
    twin = write(tmp_path / "other" / "my-run.run", ["A Q0 a 1 3 x"])
    with pytest.raises(LitqError, match="share the name 'my-run'"):
        tar_eval([files[0], twin], files[1])


def test_column_reading_sees_every_line_shape(tmp_path):
    # tabs, runs of spaces, CRLF, a blank line and a unit separator all separate columns
    run = tmp_path / "r.run"
    run.write_bytes(b"A\tQ0  a 1 3 x\r\n\nA Q0 b\x1f2 2 x\r\nB Q0 c 1 1 x")
    assert read_run(run).topics == {"A": ["a", "b"], "B": ["c"]}
    # 5 + 7 tokens add up to two lines of 6: the first is named
    bad = write(tmp_path / "bad.run", ["A Q0 a 1 3", "A Q0 b 2 2 x extra"])
    with pytest.raises(LitqError, match="line 1: 5 columns instead of 6"):
        read_run(bad)
    commented = write(tmp_path / "c.run", ["# a comment", "A Q0 a 1 3 x"])
    assert read_run(commented).topics == {"A": ["a"]}
