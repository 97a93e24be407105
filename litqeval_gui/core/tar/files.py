"""Fast readers for TREC run files and qrels, for evaluation (not import into a project).

The columns and their checks are the TREC importer's (``core/importing/trec.py``); a file
is split and converted column-wise with numpy, and only a malformed file is read again
line by line, with the importer's own parser, to name its first bad line.

Ranking rule within a topic (``ties``):

* ``"file"`` — score descending, equal scores in the order of the lines in the file (the
  CLEF TAR scripts and the nP paper's code read the file's order; the two agree whenever
  the file lists each topic by descending score, as CLEF runs do);
* ``"trec_eval"`` — score descending, equal scores by docid descending (trec_eval's rule).

A docid repeated within a topic keeps its first (best) position; later ones are dropped
and counted. The ``rank`` column is checked but not used (neither reference uses it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.importing.trec import SHAPES, parse_line

_WHITESPACE = np.zeros(256, dtype=bool)
_WHITESPACE[list(b" \t\n\r\v\f\x1c\x1d\x1e\x1f")] = True  # ASCII that str.split() splits on
Ties = Literal["file", "trec_eval"]
TIES: tuple[Ties, ...] = ("file", "trec_eval")


@dataclass(frozen=True)
class RunFile:
    """A run: ``topics[topic]`` = its docids best first; ``name`` = file name sans suffix."""

    name: str
    topics: dict[str, list[str]]
    duplicates: int = 0


@dataclass(frozen=True)
class Qrels:
    """``grades[topic][docid]`` = relevance grade; relevant means grade >= 1."""

    grades: dict[str, dict[str, int]]
    relevant: dict[str, frozenset[str]] = field(init=False)

    def __post_init__(self) -> None:
        relevant = {t: frozenset(d for d, g in docs.items() if g >= 1)
                    for t, docs in self.grades.items()}
        object.__setattr__(self, "relevant", relevant)


def _tokens_per_line(data: bytes) -> np.ndarray:
    """How many whitespace-separated tokens each line of ``data`` holds (vectorised)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    newline = raw == 10
    gap = _WHITESPACE[raw]
    starts = np.flatnonzero(~gap & np.concatenate(([True], gap[:-1])))  # first byte of a token
    line_of_token = np.searchsorted(np.flatnonzero(newline), starts, side="right")
    return np.bincount(line_of_token, minlength=int(newline.sum()) + 1)


def _columns(path: Path, fmt: str) -> list[list[str]]:
    """The file's columns (one list per column); comments and blank lines skipped.

    Fast path: one ``split`` of the whole text, each line's token count checked with
    numpy; a file with comments or a malformed line is read line by line.
    """
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise LitqError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    width, shape = SHAPES[fmt]
    if "#" in text or not text.isascii():  # comments, or whitespace numpy cannot see
        rows = [parts for parts in map(str.split, text.splitlines())
                if parts and not parts[0].startswith("#")]
        if any(len(parts) != width for parts in rows):
            _first_bad_line(path, text, fmt)
        tokens = [token for parts in rows for token in parts]
    else:
        counts = _tokens_per_line(data)
        if np.any((counts != 0) & (counts != width)):
            _first_bad_line(path, text, fmt)
        tokens = text.split()
    if not tokens:
        raise LitqError(f"{path}: no {fmt} line (expected '{shape}')")
    return [tokens[i::width] for i in range(width)]


def _first_bad_line(path: Path, text: str, fmt: str) -> None:
    """Raise the importer's message for the first malformed line of ``text``."""
    width, shape = SHAPES[fmt]
    for lineno, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        reason = parse_line(parts, width, lineno, fmt)
        if isinstance(reason, str):
            raise LitqError(f"{path}, line {lineno}: {reason} (expected '{shape}')")
    raise LitqError(f"{path}: not a {fmt} file (expected '{shape}')")  # pragma: no cover


def _numbers(path: Path, values: list[str], kind: type, fmt: str) -> np.ndarray:
    """``values`` parsed by ``int`` or ``float``; a bad one names its line."""
    try:
        return np.fromiter(map(kind, values), dtype=kind, count=len(values))
    except (ValueError, OverflowError):
        _first_bad_line(path, path.read_text(encoding="utf-8"), fmt)
        raise  # pragma: no cover — _first_bad_line raises


def read_run(path: Path, ties: Ties = "file") -> RunFile:
    """Read a TREC run file (``topic Q0 docid rank score tag``) ranked by ``ties``."""
    if ties not in TIES:
        raise LitqError(f"ties must be one of {', '.join(TIES)}, got {ties!r}")
    topic_col, _, docs, rank_col, score_col, _ = _columns(path, "trec-run")
    _numbers(path, rank_col, int, "trec-run")
    scores = _numbers(path, score_col, float, "trec-run")
    if np.isnan(scores).any():
        raise LitqError(f"{path}: a score is NaN; scores must be numbers to rank by")
    topic_names = sorted(dict.fromkeys(topic_col))
    code = {topic: i for i, topic in enumerate(topic_names)}
    topic_codes = np.fromiter(map(code.__getitem__, topic_col), dtype=np.int64,
                              count=len(topic_col))
    if ties == "file":
        tiebreak = np.arange(len(docs))
    else:  # docid descending: negate the docid's position in sorted order
        tiebreak = -np.unique(np.array(docs), return_inverse=True)[1]
    order = np.lexsort((tiebreak, -scores, topic_codes))
    bounds = np.searchsorted(topic_codes[order], np.arange(len(topic_names) + 1)).tolist()
    ranked_docs = [docs[i] for i in order.tolist()]
    topics: dict[str, list[str]] = {}
    duplicates = 0
    for i, topic in enumerate(topic_names):
        ranked = ranked_docs[bounds[i]:bounds[i + 1]]
        unique = list(dict.fromkeys(ranked))
        duplicates += len(ranked) - len(unique)
        topics[topic] = unique
    return RunFile(path.stem, topics, duplicates)


def read_qrels(path: Path) -> Qrels:
    """Read TREC qrels (``topic iteration docid grade``); a repeated pair keeps its last grade."""
    topic_col, _, doc_col, grade_col = _columns(path, "qrels")
    grades = _numbers(path, grade_col, int, "qrels").tolist()
    by_topic: dict[str, dict[str, int]] = {}
    for topic, doc, grade in zip(topic_col, doc_col, grades, strict=True):
        by_topic.setdefault(topic, {})[doc] = grade
    return Qrels(dict(sorted(by_topic.items())))


def run_paths(arguments: list[Path]) -> list[Path]:
    """Files named, and every file (not hidden) in a folder named, sorted by name."""
    paths: list[Path] = []
    for arg in arguments:
        if arg.is_dir():
            paths.extend(sorted(p for p in arg.iterdir()
                                if p.is_file() and not p.name.startswith(".")))
        elif arg.is_file():
            paths.append(arg)
        else:
            raise LitqError(f"{arg}: no such file or folder")
    if not paths:
        raise LitqError("no run file given")
    names = [p.stem for p in paths]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise LitqError(f"two run files share the name {repeated[0]!r}; runs are named by "
                        "their file name without extension")
    return paths
