"""BibTeX is parsed in chunks: same result as one piece, with progress and cancel."""

import pytest

from litqeval_gui.core.errors import JobCancelled
from litqeval_gui.core.jobs import CancelToken, run_job
from litqeval_gui.core.records.importing import bibtex, read_records


def _library(tmp_path, n=250):
    parts = ['@string{jrn = "Journal of Chunked Parsing"}\n\n']
    for i in range(n):
        parts.append(f"@article{{key{i},\n  title = {{Paper number {i} on {{\\\"U}}ber parsing}},\n"
                     f"  author = {{Doe, Jane and Roe, Rick}},\n  journal = jrn,\n"
                     f"  year = {{{2000 + i % 20}}},\n  groups = {{G{i % 3}}}\n}}\n\n")
    parts.insert(180, "@article{broken,\n  title = {Never closed,\n  year = {2001}\n\n")
    parts.append("@Comment{jabref-meta: databaseType:bibtex;}\n")
    path = tmp_path / "lib.bib"
    path.write_text("".join(parts), encoding="utf-8")
    return path


def _read(path, **kw):
    return run_job(read_records(path, **kw))


def test_chunked_parse_equals_one_piece(tmp_path, monkeypatch):
    path = _library(tmp_path)
    whole = _read(path)
    monkeypatch.setattr(bibtex, "CHUNK_ENTRIES", 40)
    chunked = _read(path)
    assert len(chunked.records) == len(whole.records) == 250
    assert chunked.records == whole.records
    assert [(r.number, r.line) for r in chunked.rejected] == [(r.number, r.line) for r in
                                                              whole.rejected] == [(180, 1435)]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[1435 - 1] == "@article{broken,"  # the unclosed entry, in the 5th chunk
    assert chunked.database == whole.database == "jabref"  # its comment is in the last chunk
    last = chunked.records[-1]
    assert last.venue == "Journal of Chunked Parsing"  # @string from the first chunk
    assert last.title == "Paper number 249 on Über parsing" and last.source_line is not None
    assert lines[last.source_line - 1] == "@article{key249,"


def test_chunks_report_progress_and_can_be_cancelled(tmp_path, monkeypatch):
    path = _library(tmp_path)
    monkeypatch.setattr(bibtex, "CHUNK_ENTRIES", 40)
    reports = []
    run_job(read_records(path), reports.append)
    assert len([p for p in reports if p.message == "reading BibTeX entries"]) >= 6
    token = CancelToken()

    def cancel(progress):
        if progress.message == "reading BibTeX entries":
            token.cancel()

    with pytest.raises(JobCancelled, match='^cancelled'):  # reading, not importing
        run_job(read_records(path, token=token), cancel)
