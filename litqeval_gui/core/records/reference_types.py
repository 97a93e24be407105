"""Publication types as reference managers want them: RIS type codes and BibTeX entry types.

Exports name a type in many ways ("Article", "journal-article", "Conference Paper",
"proceedings-article", "JOUR", "inproceedings", PubMed's "Randomized Controlled Trial",
...). :func:`ris_type` and :func:`bibtex_type` map each to one kind, and the kind to a
valid RIS code (JOUR, CONF, CHAP, BOOK, RPRT, THES, UNPB, DATA, GEN), BibTeX entry type
(``article``, ``inproceedings``, ``incollection``, ``book``, ``techreport``,
``phdthesis``, ``misc``) or EndNote reference type (Journal Article 17, …, Generic 13).
A type that already is a valid RIS code stays as it is in RIS.
"""

from __future__ import annotations

from rispy.config import TYPE_OF_REFERENCE_MAPPING

_KINDS = {
    "article": (
        "jour", "ejour", "mgzn", "news", "article", "journal article", "journal-article",
        "journal", "review", "review article", "letter", "editorial", "note", "erratum",
        "short survey", "comment", "data paper", "article in press", "case reports",
        "systematic review", "meta-analysis", "randomized controlled trial", "clinical trial",
        "comparative study", "multicenter study", "observational study", "j"),
    "conference": (
        "conf", "cpaper", "conference paper", "conference review", "proceedings paper",
        "proceedings-article", "inproceedings", "conference", "paper-conference",
        "meeting abstract", "conference proceedings", "proceeding"),
    "chapter": (
        "chap", "echap", "book chapter", "book-chapter", "chapter", "incollection", "inbook",
        "book-section", "book section", "electronic book section", "section", "reference-entry"),
    "book": ("book", "ebook", "edbook", "monograph", "edited book", "edited-book",
             "proceedings", "reference-book", "b"),
    "report": ("rprt", "report", "techreport", "technical report", "report-component"),
    "thesis": ("thes", "thesis", "dissertation", "phdthesis", "mastersthesis"),
    "preprint": ("preprint", "posted-content", "unpb", "unpublished", "inpr"),
    "dataset": ("data", "dataset"),
}
_KIND_OF = {name: kind for kind, names in _KINDS.items() for name in names}
_RIS = {"article": "JOUR", "conference": "CONF", "chapter": "CHAP", "book": "BOOK",
        "report": "RPRT", "thesis": "THES", "preprint": "UNPB", "dataset": "DATA"}
_BIBTEX = {"article": "article", "conference": "inproceedings", "chapter": "incollection",
           "book": "book", "report": "techreport", "thesis": "phdthesis"}
RIS_CODES = frozenset(TYPE_OF_REFERENCE_MAPPING)
# EndNote's reference types (XML ``<ref-type name=…>number</ref-type>``) a kind becomes,
# and the others EndNote names that a record may already carry
_ENDNOTE = {"article": ("Journal Article", 17), "conference": ("Conference Paper", 47),
            "chapter": ("Book Section", 5), "book": ("Book", 6), "report": ("Report", 27),
            "thesis": ("Thesis", 32), "preprint": ("Generic", 13), "dataset": ("Dataset", 59),
            "": ("Generic", 13)}
ENDNOTE_TYPES = {name.lower(): (name, number) for name, number in (
    *_ENDNOTE.values(), ("Artwork", 2), ("Audiovisual Material", 3),
    ("Conference Proceedings", 10), ("Map", 20))}


def kind(type_name: str) -> str:
    """``article``, ``conference``, ``chapter``, ``book``, ``report``, ``thesis``,
    ``preprint``, ``dataset`` or ``""`` (unknown) for any spelling of a type."""
    return _KIND_OF.get(" ".join(type_name.replace("_", " ").split()).lower(), "")


def ris_type(type_name: str) -> str:
    """A valid RIS ``TY`` code for ``type_name`` (``GEN`` when unknown)."""
    if type_name.strip().upper() in RIS_CODES:
        return type_name.strip().upper()
    return _RIS.get(kind(type_name), "GEN")


def endnote_type(type_name: str) -> tuple[str, int]:
    """EndNote's reference type name and number for ``type_name`` (the type itself when
    EndNote names it so, ``("Generic", 13)`` when unknown)."""
    return ENDNOTE_TYPES.get(type_name.strip().lower()) or _ENDNOTE[kind(type_name)]


def bibtex_type(type_name: str) -> str:
    """A BibTeX entry type for ``type_name`` (``misc`` when unknown)."""
    return _BIBTEX.get(kind(type_name), "misc")
