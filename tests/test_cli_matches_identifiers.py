"""`litqeval matches` shows every identifier of both sides, why a pair was not merged,
and the topic's counts by verdict (the same counts the review dialog shows)."""

import json

import pytest

from tests.test_cli import run

TITLE = "Robotic arm assisted total knee arthroplasty in older adults"
HEADER = "title,year,doi,pmid,dimensions,scopus_eid\n"


@pytest.fixture
def proj(tmp_path, capsys):
    """Two uncertain pairs: the core record with each of two results (equal titles, no
    abstracts, two Dimensions ids and two PMIDs)."""
    path = tmp_path / "p.litq"
    assert run(capsys, "new", path)[0] == 0
    files = {"core": f"{TITLE},2020,10.1000/k.1,111,pub.1150448665,2-s2.0-85000000001\n",
             "results": f"{TITLE},2020,,222,pub.1150448666,\n"
                        f"{TITLE},2020,,333,pub.1150448667,\n"}
    for role, rows in files.items():
        csv = tmp_path / f"{role}.csv"
        csv.write_text(HEADER + rows, encoding="utf-8")
        assert run(capsys, "import", path, csv, "--topic", "T", "--role", role)[0] == 0
    return path


def test_text_lists_every_identifier_and_the_counts(proj, capsys):
    code, out, _ = run(capsys, "matches", proj, "--topic", "T", "--uncertain")
    assert code == 0
    lines = out.splitlines()
    heads = [line for line in lines if line.startswith("#")]
    assert len(heads) == 3  # core × 2 results, and the two results
    assert all(line.endswith("(their Dimensions ids, PMIDs differ)") for line in heads)
    assert "        DOI 10.1000/k.1 · PMID 111 · Scopus EID 2-s2.0-85000000001 · " \
           "Dimensions pub.1150448665" in lines
    assert "        PMID 222 · Dimensions pub.1150448666" in lines
    assert lines[-1] == "3 awaiting a verdict, 0 accepted, 0 rejected (topic T)"


def test_json_has_identifiers_conflicts_and_counts_that_follow_the_verdicts(proj, capsys):
    doc = json.loads(run(capsys, "matches", proj, "--topic", "T", "--json")[1])
    assert doc["counts"] == {"uncertain": 3, "confirmed": 0, "rejected": 0}
    first = doc["matches"][0]
    sides = {m["a"]["identifiers"].get("pmid") for m in doc["matches"]} | \
        {m["b"]["identifiers"].get("pmid") for m in doc["matches"]}
    assert sides == {"111", "222", "333"}
    core = next(side for m in doc["matches"] for side in (m["a"], m["b"])
                if side["role"] == "core")
    assert list(core["identifiers"].items()) == [
        ("doi", "10.1000/k.1"), ("pmid", "111"), ("scopus_eid", "2-s2.0-85000000001"),
        ("dimensions", "pub.1150448665")]
    assert first["conflicts"] == ["dimensions", "pmid"]
    assert run(capsys, "matches", proj, "--topic", "T", "--reject", first["id"])[0] == 0
    doc = json.loads(run(capsys, "matches", proj, "--topic", "T", "--uncertain", "--json")[1])
    assert doc["counts"] == {"uncertain": 2, "confirmed": 0, "rejected": 1}
    assert len(doc["matches"]) == doc["counts"]["uncertain"]
