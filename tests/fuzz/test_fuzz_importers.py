"""Property-based fuzzing of every importer through the ``litqeval import`` command.

Each case mutates a small valid export (flipped, inserted and deleted bytes, truncation,
other encodings, BOMs, NULs, huge fields, nested braces, quote chaos; for XLSX also zip
tricks) and imports it into a copy of a project. It must end in exactly one of two ways:
exit 2 with one line of at most 300 characters, no traceback, and every table as before;
or exit 0 with the project consistent (``integrity_check``, foreign keys, no orphans,
nothing pending).
"""

import contextlib
import io
import resource
import shutil
import sqlite3
import tempfile
import time
import warnings
import zipfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from openpyxl import Workbook

from litqeval_gui import cli
from litqeval_gui.core.records.importing.formats import FORMATS
from tests.conftest import CORE_RIS
from tests.fuzz.support import COUNTS, FIGURES, examples
from tests.test_cli_bad_input import dump

IMPORTS = Path(__file__).resolve().parents[1] / "fixtures" / "import"
SEEDS = {
    "ris": ["scopus.ris", "zotero.ris", "endnote.ris", "wos.ris"],
    "bibtex": ["jabref.bib"],
    "csv": ["scopus.csv", "openalex.csv", "lens.csv", "dimensions.csv", "pubmed.csv"],
    "tsv": ["wos_savedrecs.txt"],
    "medline": ["pubmed.nbib"],
    "trec-run": ["run.txt"],
    "qrels": ["qrels.txt"],
    "jsonl": ["documents.jsonl"],
    "trec-doc": ["documents.trec"],
    "endnote": ["endnote.xml"],
}
FORMAT = {fmt.name: fmt for fmt in FORMATS}
SUFFIX = {fmt.name: fmt.suffixes[0] for fmt in FORMATS}  # the fuzzed file's name ending
TOKENS = [b"\x00", b"\r", b"\n", b"\r\n", b'"', b"'", b",", b"\t", b";", b"{", b"}", b"@",
          b"%", b"\\", b"#", b"=", b"TY  - ", b"ER  - \n", b"\nER  -", b"\nTY  - JOUR\n",
          b"@article{", b"@string{x = ", b"PMID- ", b"\nTI  - ", b"\xef\xbb\xbf", b"\xff\xfe",
          b"\xc3", b"\x80", b"\xe2\x80\xa8", "Ærø 日本".encode(), b'"""', b'","', b"\\'{e}",
          b"$x^2$", b"--", b"\\url{", b"2" * 30, b"-1", b"1e999", b"nan"]
# attacks found before this suite existed (issue 11 §2), always among the cases
KNOWN = {
    "ris": [b"TY  - JOUR\n\nTI  - x\nER  - \n", b"TY  - JOUR\nno tag\nTI  - x\nER  - \n"],
    "qrels": [b"401 0 doc-1 9223372036854775808\n"],
    "bibtex": [b"@article{a, title = {x}, year = 2020\n",
               b"@article{a, title = {\\textit" + b"{" * 3000 + b"x" + b"}" * 3000 + b"}}\n"],
    "csv": [(",".join(f"C{i}" for i in range(3000)) + "\n1\n").encode()],
}
CASE_SECONDS = 60  # bound per case (the inputs are at most a few hundred kB)
BOMS = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]


def _xlsx_seed() -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.append(["Authors", "Title", "Year", "Source title", "DOI", "Abstract"])
    sheet.append(["Smith J.", "Semantic precision for search", 2021, "J Search", "10.1/a", "x"])
    sheet.append(["Kim H.", "Crop rotation", 2018, "Agron", "10.2/b", "y"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """``data`` after a few random edits."""
    for _ in range(draw(st.integers(1, 4))):
        size = len(data)
        at = draw(st.integers(0, size))
        kind = draw(st.sampled_from(["flip", "insert", "token", "delete", "truncate", "repeat",
                                     "bom", "encode", "huge", "braces", "quotes", "nuls",
                                     "line", "line"]))
        if kind == "flip" and size:
            at = min(at, size - 1)
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1:]
        elif kind == "insert":
            data = data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:]
        elif kind == "token":
            data = data[:at] + draw(st.sampled_from(TOKENS)) * draw(st.integers(1, 3)) + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 64)):]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "repeat":
            end = min(size, at + draw(st.integers(1, 200)))
            data = data[:end] + data[at:end] * draw(st.integers(2, 50)) + data[end:]
        elif kind == "bom":
            data = draw(st.sampled_from(BOMS)) + data
        elif kind == "encode":
            text = data.decode("utf-8", "replace")
            encoding = draw(st.sampled_from(["utf-16", "utf-16-le", "cp1252", "latin-1",
                                             "utf-32"]))
            data = text.encode(encoding, "replace")
        elif kind == "huge":
            data = data[:at] + draw(st.sampled_from([b"x", b"ab ", b"\\'e", b"{"])) * draw(
                st.sampled_from([1_000, 50_000, 120_000])) + data[at:]
        elif kind == "braces":
            depth = draw(st.integers(1, 3000))
            data = data[:at] + b"{" * depth + b"x" + b"}" * draw(st.integers(0, depth)) + data[at:]
        elif kind == "quotes":
            data = data[:at] + b"".join(draw(st.lists(st.sampled_from([b'"', b"'", b'""', b","]),
                                                      min_size=1, max_size=40))) + data[at:]
        elif kind == "line":  # a blank, untagged or indented line after some line
            ends = [i + 1 for i in range(size) if data[i] == 10] or [size]
            at = draw(st.sampled_from(ends))
            data = data[:at] + draw(st.sampled_from([b"\n", b"untagged text\n", b"\t\n",
                                                     b"  more\n", b"\r\n"])) + data[at:]
        elif kind == "nuls":
            data = data[:at] + b"\x00" * draw(st.integers(1, 100)) + data[at:]
    return data


@st.composite
def zip_tricks(draw, data: bytes) -> bytes:
    """An XLSX after edits to its members (XML, missing parts, duplicates, bombs) or to
    the zip bytes themselves."""
    if draw(st.booleans()):
        return draw(mutated(data))
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = [(i.filename, archive.read(i)) for i in archive.infolist()]
    trick = draw(st.sampled_from(["member", "drop", "duplicate", "bomb", "stored-huge"]))
    index = draw(st.integers(0, len(members) - 1))
    name, content = members[index]
    if trick == "member":
        members[index] = (name, draw(mutated(content)))
    elif trick == "drop":
        del members[index]
    elif trick == "duplicate":
        members.append((name, draw(mutated(content))))
    elif trick == "bomb":
        members[index] = (name, content + b" " * draw(st.sampled_from([2 << 20, 8 << 20])))
    else:
        members.append(("xl/media/big.bin", b"\x00" * (3 << 20)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are one of the tricks
        for member, content in members:
            archive.writestr(member, content)
    return out.getvalue()


@pytest.fixture(scope="module")
def workspace():
    folder = Path(tempfile.mkdtemp(prefix="litq-fuzz-"))
    base = folder / "base.litq"
    core = folder / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["new", str(base)]) == 0
        assert cli.main(["import", str(base), str(core), "--topic", "T", "--role", "core"]) == 0
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def run_cli(*argv) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = cli.main([str(a) for a in argv])
    return code, err.getvalue()


def consistent(conn: sqlite3.Connection) -> None:
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("SELECT COUNT(*) FROM records WHERE import_id NOT IN "
                        "(SELECT id FROM imports)").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM links WHERE a NOT IN (SELECT id FROM records) "
                        "OR b NOT IN (SELECT id FROM records)").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM imports WHERE state != 'done'").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM records WHERE work_id NOT IN "
                        "(SELECT id FROM records)").fetchone()[0] == 0


def check_import(workspace: Path, fmt: str, data: bytes, forced: bool) -> None:
    """Import ``data`` into a fresh copy of the base project and check the outcome."""
    project = workspace / "p.litq"
    for leftover in workspace.glob("p.litq*"):
        leftover.unlink()
    shutil.copy(workspace / "base.litq", project)
    file = workspace / f"input{SUFFIX[fmt]}"
    file.write_bytes(data)
    before = dump(project)
    argv = ["import", project, file, "--topic", "401" if FORMAT[fmt].keeps_rank else "T",
            "--role", "results", "--name", "fuzzed"]
    started = time.monotonic()
    code, err = run_cli(*argv, *(["--format", fmt] if forced else []))
    seconds = time.monotonic() - started
    key = f"importer {fmt}: slowest case (s)"
    FIGURES[key] = max(FIGURES.get(key, 0.0), seconds)
    FIGURES["importers: peak memory of the run (MiB)"] = (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    assert seconds < CASE_SECONDS, f"a case took {seconds:.1f} s"
    if code == 2:
        COUNTS[f"importer {fmt}: refused (exit 2)"] += 1
        assert err.startswith("litqeval: error: ") and err.count("\n") == 1, err
        assert len(err.rstrip("\n")) <= 300 and "Traceback" not in err, err
        assert dump(project) == before
    else:
        assert code == 0, err
        COUNTS[f"importer {fmt}: accepted (exit 0)"] += 1
        conn = sqlite3.connect(project)
        try:
            consistent(conn)
            assert conn.execute("SELECT COUNT(*) FROM imports WHERE name = 'fuzzed'"
                                ).fetchone()[0] == 1
        finally:
            conn.close()
    assert not Path(f"{project}.lock").exists()


def _seed_bytes(fmt: str) -> list[bytes]:
    if fmt == "xlsx":
        return [_xlsx_seed()]
    return [(IMPORTS / name).read_bytes() for name in SEEDS[fmt]]


def test_every_registered_format_is_fuzzed_from_seeds():
    assert sorted([*SEEDS, "xlsx"]) == sorted(FORMAT)


@pytest.mark.parametrize("fmt", list(FORMAT))
def test_fuzzed_imports_end_cleanly(workspace, fmt):
    seeds = _seed_bytes(fmt)
    mutate = zip_tricks if fmt == "xlsx" else mutated

    def case(data, forced):
        COUNTS[f"importer {fmt}: cases"] += 1
        check_import(workspace, fmt, data, forced)

    for known in KNOWN.get(fmt, []):
        case = example(data=known, forced=False)(case)
    examples(quick=50, full=2000)(given(data=st.sampled_from(seeds).flatmap(mutate),
                                        forced=st.booleans())(case))()
