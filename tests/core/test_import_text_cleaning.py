"""Text keeps its characters (issue 24 §6): HTML entities and LaTeX escapes are decoded
once, at import, so the app, the report and the exports show "The Bone & Joint Journal",
'"acrobot"' and "Amdahl's". The fixtures mirror the LitQEval files: ``ra_core.bib``
(bare ``&`` and ``&quot;`` inside BibTeX values), ``publications.bib`` (``&#x27;``) and
the Dimensions export ``baseline_pubs.csv`` (``<i>P</i> &lt; .001`` in abstracts)."""

from pathlib import Path

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.exporting import export_records
from litqeval_gui.core.records.importing import read_records
from litqeval_gui.core.records.importing.common import clean_text

BIB = """@article{Jakopec2003,
\ttitle = {The hands-on orthopaedic robot &quot;acrobot&quot;: Early clinical trials},
\tjournal = {The Bone & Joint Journal},
\tauthor = {Jakopec, M. and Rodriguez y Baena, F.},
\tyear = {2003},
\tabstract = {A ``hands-on'' robot; 50% of cases, {\\"U}ber \\& more.},
}

@article{Hill1990,
\ttitle = {Critical sections in Amdahl&#x27;s law and its implications},
\tjournal = {Parallel Computing},
\tyear = {1990},
}
"""

CSV = ('"Rank","Title","Abstract","Source title","PubYear","DOI"\n'
       '"1","Robotic TKA: a &lt;i&gt;cost&lt;/i&gt; study","Shorter stay (<i>P</i> &lt; .001)'
       ' and BMI &gt;40; <sup>2</sup>&thinsp;cases<p>Second paragraph.</p>",'
       '"The Bone &amp; Joint Journal","2020","10.1/x"\n'
       '"2","AT&T and R&D: &notably plain","A <5 mm gap, a <b and x<y.",'
       '"J &amp;amp; K","2021","10.1/y"\n')


def _read(path: Path):
    return run_job(read_records(path)).records


def test_bibtex_keeps_ampersands_and_decodes_entities(tmp_path):
    path = tmp_path / "core.bib"
    path.write_text(BIB, encoding="utf-8")
    first, second = _read(path)
    assert first.title == 'The hands-on orthopaedic robot "acrobot": Early clinical trials'
    assert first.venue == "The Bone & Joint Journal"
    assert first.abstract == "A “hands-on” robot; 50% of cases, Über & more."
    assert second.title == "Critical sections in Amdahl's law and its implications"


def test_table_export_entities_and_inline_tags_are_decoded_once(tmp_path):
    path = tmp_path / "baseline_pubs.csv"
    path.write_text(CSV, encoding="utf-8")
    first, second = _read(path)
    assert first.title == "Robotic TKA: a <i>cost</i> study"  # decoded once, not twice
    assert first.abstract == "Shorter stay (P < .001) and BMI >40; 2\u2009cases Second paragraph."
    assert first.venue == "The Bone & Joint Journal"
    # no complete entity: left alone (html.unescape alone would read "&not" as "¬")
    assert second.title == "AT&T and R&D: &notably plain"
    assert second.abstract == "A <5 mm gap, a <b and x<y."
    assert second.venue == "J &amp; K"


@pytest.mark.parametrize("fmt", ["ris", "bibtex", "csv"])
def test_exports_carry_the_decoded_text(tmp_path, fmt):
    source = tmp_path / "core.bib"
    source.write_text(BIB, encoding="utf-8")
    out = tmp_path / f"out.{fmt}"
    export_records(_read(source), out, fmt)
    back = _read(out)
    assert [r.venue for r in back][0] == "The Bone & Joint Journal"
    assert back[0].title == 'The hands-on orthopaedic robot "acrobot": Early clinical trials'
    assert back[1].title == "Critical sections in Amdahl's law and its implications"


@pytest.mark.parametrize(("raw", "text"), [
    ("Amdahl&#39;s &#x27;soft&#X27; &eacute;t&eacute;", "Amdahl's 'soft' été"),
    ("plain text", "plain text"),
    ("&amp;quot;", "&quot;"),
    ("<jats:p>Body <jats:italic>x</jats:italic></jats:p>", "Body x"),
    ("see <a href=\"https://x.org\">ISRCTN1</a>.", "see ISRCTN1."),
])
def test_clean_text(raw, text):
    assert clean_text(raw) == text
