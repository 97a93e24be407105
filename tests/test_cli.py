"""The `litqeval` CLI end to end on small files: text and --json output, errors."""

import io
import json
import subprocess
import sys

import pytest

from litqeval_gui.cli import main
from litqeval_gui.cli.common import TextProgress
from litqeval_gui.core.jobs import Progress


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def proj(tmp_path, capsys, small_files):
    path = tmp_path / "p.litq"
    assert run(capsys, "new", path)[0] == 0
    core, results = small_files
    assert run(capsys, "import", path, core, "--topic", "T", "--role", "core")[0] == 0
    code, out, err = run(capsys, "import", path, results, "--topic", "T", "--role", "results",
                         "--name", "scopus", "--query", "semantic precision", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert (summary["read"], summary["matched"], summary["format"]) == (5, 2, "csv")
    return path


def test_recall_json_shape_and_values(proj, capsys):
    code, out, _ = run(capsys, "recall", proj, "--topic", "T", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["topic"] == "T"
    [lst] = doc["lists"]
    assert {k: lst[k] for k in ("name", "size", "core", "retrieved_core")} == {
        "name": "scopus", "size": 4, "core": 3, "retrieved_core": 2}
    assert lst["recall"] == pytest.approx(2 / 3)
    assert lst["missed"] == [{"title": "Core publications as a gold standard for query recall",
                              "year": 2020, "doi": "10.1000/core.2", "pending_review": False}]
    assert lst["pending"] == 0


def test_recall_text(proj, capsys):
    code, out, _ = run(capsys, "recall", proj, "--topic", "T")
    assert code == 0
    assert "scopus: size 4 works, core 3, retrieved core 2, recall 0.667" in out
    assert "missed: Core publications as a gold standard for query recall (2020)" in out


def test_info_and_lists(proj, capsys):
    code, out, _ = run(capsys, "info", proj, "--json")
    info = json.loads(out)
    assert info["records"] == 8 and info["imports"] == 2
    assert info["topics"][0]["name"] == "T" and info["topics"][0]["core"] == 3
    code, out, _ = run(capsys, "lists", proj, "--topic", "T", "--json")
    names = [(x["role"], x["name"]) for x in json.loads(out)["lists"]]
    assert names == [("core", "core"), ("results", "scopus")]


def test_export_round_trip(proj, capsys, tmp_path):
    out_file = tmp_path / "out.ris"
    code, out, err = run(capsys, "export", proj, "--topic", "T", "--list", "scopus",
                         "--format", "ris", out_file)
    assert code == 0, err
    assert "wrote 5 records" in out
    code, out, err = run(capsys, "import", proj, out_file, "--topic", "U", "--role", "results",
                         "--json")
    assert code == 0, err
    assert json.loads(out)["read"] == 5


def test_errors_are_one_line_on_stderr(proj, capsys, tmp_path):
    code, out, err = run(capsys, "recall", proj, "--topic", "nope")
    assert code == 2 and out == ""
    assert err.startswith("litqeval: error: no topic named 'nope'")
    assert "Traceback" not in err
    empty = tmp_path / "empty.ris"
    empty.write_text("")
    code, _, err = run(capsys, "import", proj, empty, "--topic", "T", "--role", "results")
    assert code == 2 and "empty" in err.lower()
    code, _, err = run(capsys, "export", proj, "--topic", "T", "--list", "zzz", "--format",
                       "csv", tmp_path / "x.csv")
    assert code == 2 and "no list named 'zzz'" in err


def test_console_script_runs_as_a_process(tmp_path):
    path = tmp_path / "q.litq"
    done = subprocess.run([sys.executable, "-m", "litqeval_gui.cli", "new", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and path.exists()
    again = subprocess.run([sys.executable, "-m", "litqeval_gui.cli", "new", str(path)],
                           capture_output=True, text=True)
    assert again.returncode == 2
    assert again.stderr.strip().count("\n") == 0 and "already exists" in again.stderr


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_text_progress_bar_draws_on_a_terminal_only():
    term = _Terminal()
    bar = TextProgress(term)
    bar(Progress(50, 100, "reading"))
    bar(Progress(0, 0, "unknown total"))  # nothing to draw
    bar.finish()
    assert term.getvalue() == "\r[" + "#" * 15 + "." * 15 + "]  50.0% " + "reading".ljust(30) + "\n"
    quiet = io.StringIO()  # a pipe or file: no bar
    TextProgress(quiet)(Progress(50, 100, "reading"))
    assert quiet.getvalue() == ""


def test_map_and_where_options_reach_the_importer(capsys, tmp_path):
    table = tmp_path / "odd.csv"
    table.write_text("Heading,Summary,Tag\nA mapped title,Its abstract,keep\n"
                     "Another title,Other text,drop\n", encoding="utf-8")
    path = tmp_path / "m.litq"
    run(capsys, "new", path)
    code, out, err = run(capsys, "import", path, table, "--topic", "T", "--role", "results",
                         "--map", "title=Heading,abstract=Summary,keywords=Tag",
                         "--where", 'keywords="keep"', "--json")
    assert code == 0, err
    assert json.loads(out)["read"] == 1
    code, _, err = run(capsys, "import", path, table, "--topic", "T", "--role", "results",
                       "--map", "title")
    assert code == 2 and "--map expects FIELD=VALUE, got 'title'" in err


def test_export_onto_the_project_is_refused_and_the_project_kept(proj, capsys, tmp_path):
    before = proj.read_bytes()
    code, _, err = run(capsys, "export", proj, "--topic", "T", "--list", "scopus",
                       "--format", "csv", proj)
    assert code == 2 and "refusing to export onto the project" in err
    assert proj.read_bytes() == before
    code, out, _ = run(capsys, "lists", proj, "--json")
    assert code == 0 and len(json.loads(out)["lists"]) == 2


def test_export_warns_when_the_extension_does_not_match(proj, capsys, tmp_path):
    code, _, err = run(capsys, "export", proj, "--topic", "T", "--list", "scopus",
                       "--format", "ris", tmp_path / "out.csv")
    assert code == 0
    assert err.startswith("litqeval: warning:") and "'.csv' does not match the format ris" in err


BIBLIO_RIS = """TY  - JOUR
AU  - Smith, Jane
AU  - Doe, John
TI  - Semantic precision for literature search evaluation
AB  - We measure it.
PY  - 2021
T2  - Journal of Search
VL  - 12
IS  - 3
SP  - 100
EP  - 109
PB  - Search Press
SN  - 1234-5678
UR  - https://example.org/paper?id=1&x=%20
DO  - 10.1000/core.1
ER  -

TY  - CONF
AU  - Lee, Ann
TI  - Minimum volume enclosing ellipsoids
PY  - 2019
T2  - Proceedings of SIGIR
SP  - e17
ER  -
""".replace("ER  -\n", "ER  - \n")


@pytest.mark.parametrize("fmt", ["ris", "bibtex", "csv", "xlsx"])
def test_export_import_export_through_the_project_keeps_every_field(capsys, tmp_path, fmt):
    from litqeval_gui.core.jobs import run_job
    from litqeval_gui.core.records.exporting import EXTENSIONS
    from litqeval_gui.core.records.importing import read_records

    project, source = tmp_path / "p.litq", tmp_path / "in.ris"
    source.write_text(BIBLIO_RIS)
    assert run(capsys, "new", project)[0] == 0
    assert run(capsys, "import", project, source, "--topic", "A", "--role", "results",
               "--name", "l")[0] == 0
    first, second = (tmp_path / f"{n}{EXTENSIONS[fmt][0]}" for n in ("one", "two"))
    code, _, err = run(capsys, "export", project, "--topic", "A", "--list", "l",
                       "--format", fmt, first)
    assert code == 0 and err == ""
    assert run(capsys, "import", project, first, "--topic", "B", "--role", "results",
               "--name", "l")[0] == 0
    assert run(capsys, "export", project, "--topic", "B", "--list", "l", "--format", fmt,
               second)[0] == 0
    one, two = (run_job(read_records(p)).records for p in (first, second))
    fields = ("title", "authors", "year", "venue", "type", "doi", "volume", "issue", "pages",
              "publisher", "issn", "url")
    assert [[getattr(r, f) for f in fields] for r in two] == \
        [[getattr(r, f) for f in fields] for r in one]
    assert (one[0].volume, one[0].issue, one[0].pages, one[0].publisher, one[0].issn,
            one[0].url) == ("12", "3", "100-109", "Search Press", "1234-5678",
                            "https://example.org/paper?id=1&x=%20")
    assert one[0].authors == ["Smith, Jane", "Doe, John"] and one[1].pages == "e17"
    if fmt != "xlsx":
        assert second.read_bytes() == first.read_bytes()


def test_a_closed_pipe_ends_the_command_quietly(proj):
    """``litqeval … | head``: the reader goes away before the output is written."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)
    done = subprocess.run([sys.executable, "-m", "litqeval_gui.cli", "matches", str(proj),
                           "--topic", "T", "--json"], stdout=write_end,
                          stderr=subprocess.PIPE, text=True, timeout=60)
    os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def test_lists_counts_matches_live_when_the_core_set_comes_after_the_results(
        tmp_path, capsys, small_files):
    """Bug (issue #12): imported before the core set, a result list kept ``matched: 0``
    while ``recall`` found core records in it."""
    path = tmp_path / "p.litq"
    core, results = small_files
    assert run(capsys, "new", path)[0] == 0
    assert run(capsys, "import", path, results, "--topic", "T", "--role", "results",
               "--name", "scopus")[0] == 0
    assert run(capsys, "import", path, core, "--topic", "T", "--role", "core")[0] == 0
    recall = json.loads(run(capsys, "recall", path, "--topic", "T", "--json")[1])
    doc = json.loads(run(capsys, "lists", path, "--json")[1])
    lists = {d["name"]: d for d in doc["lists"]}
    assert recall["lists"][0]["retrieved_core"] == 2
    assert lists["scopus"]["matched"] == 2
    assert lists["core"]["matched"] == 2  # its works found in some result list
