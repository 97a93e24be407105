"""Fast readers for TREC run files and qrels, for evaluation (not import into a project).

The columns and their checks are the TREC importer's (``core/records/importing/trec.py``). A file
is split into tokens with numpy on its bytes (no Python object per token): the columns
used become byte-string arrays, topics and docids become integer codes, and ranking and
grouping are array sorts. Only a malformed file is read again line by line, with the
importer's own parser, to name its first bad line; a file holding a NUL byte is refused.

Ranking rule within a topic (``ties``):

* ``"file"`` — score descending, equal scores in the order of the lines in the file (the
  CLEF TAR scripts and the nP paper's code read the file's order; the two agree whenever
  the file lists each topic by descending score, as CLEF runs do);
* ``"trec_eval"`` — score descending, equal scores by docid descending (trec_eval's rule).

A docid repeated within a topic keeps its first (best) position; later ones are dropped
and counted. The ``rank`` column is checked but not used (neither reference uses it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.records.importing.trec import SHAPES, parse_line

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


def _token_bounds(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Byte offsets where each whitespace-separated token of ``raw`` starts and ends."""
    gap = np.concatenate(([True], np.take(_WHITESPACE, raw), [True]))
    edges = np.flatnonzero(gap[1:] != gap[:-1])  # alternately a token's start and its end
    return edges[0::2], edges[1::2]


def _strings(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The tokens ``raw[starts[i]:ends[i]]`` as one byte-string (``S``) array."""
    lengths = ends - starts
    offsets = np.arange(int(lengths.max()))
    chars = np.take(raw, starts[:, None] + offsets, mode="clip")
    chars[offsets >= lengths[:, None]] = 0  # pad each token to the longest with NULs
    return chars.view(f"S{offsets.size}")[:, 0]


def _columns(path: Path, fmt: str, wanted: Sequence[int]) -> tuple[list[np.ndarray], str]:
    """Columns ``wanted`` of the file as byte-string arrays (UTF-8, one entry a line) and
    the file's text; comments and blank lines are skipped.

    A file with comments or non-ASCII text (whose whitespace only ``str.split`` sees) is
    first rewritten from its ``str.split`` tokens, one space between them, one row a line.
    """
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise LitqError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    if "\0" in text:  # a token's trailing NUL would vanish in a byte-string array
        raise LitqError(f"{path}: not a text file (NUL byte at byte {data.index(0)})")
    width, shape = SHAPES[fmt]
    if "#" in text or not text.isascii():
        rows = [parts for parts in map(str.split, text.splitlines())
                if parts and not parts[0].startswith("#")]
        data = "\n".join(map(" ".join, rows)).encode("utf-8")
    raw = np.frombuffer(data, dtype=np.uint8)
    starts, ends = _token_bounds(raw)
    before_newline = np.searchsorted(starts, np.flatnonzero(raw == ord("\n")))
    per_line = np.diff(before_newline, prepend=0, append=starts.size)
    if np.any((per_line != 0) & (per_line != width)):
        _first_bad_line(path, text, fmt)
    if not starts.size:
        raise LitqError(f"{path}: no {fmt} line (expected '{shape}')")
    starts, ends = starts.reshape(-1, width), ends.reshape(-1, width)
    return [_strings(raw, starts[:, i], ends[:, i]) for i in wanted], text


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


def _numbers(path: Path, text: str, values: np.ndarray, kind: type, fmt: str) -> np.ndarray:
    """``values`` parsed by ``int`` or ``float`` as their text would be; a bad one names
    its line. Bytes first (fast); as ``str`` when that fails (non-ASCII digits)."""
    tokens = values.tolist()
    for parsed in (tokens, (token.decode("utf-8") for token in tokens)):
        try:
            return np.fromiter(map(kind, parsed), dtype=kind, count=len(tokens))
        except (ValueError, OverflowError):
            continue
    _first_bad_line(path, text, fmt)
    raise AssertionError  # pragma: no cover — _first_bad_line raises


def _digits_only(values: np.ndarray) -> bool:
    """Whether every value is ASCII digits alone (``int`` parses it: no need to try)."""
    chars = values.view(np.uint8)
    return bool(np.all(((chars >= ord("0")) & (chars <= ord("9"))) | (chars == 0)))


def _coded(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``values`` decoded (an object array of ``str``), in sorted order, and
    each value's index among them.

    Sorted as integers: each value's bytes, NUL-padded to whole 8-byte big-endian words
    (comparing the words compares the bytes; UTF-8 bytes sort as ``str`` does).
    """
    n, width = values.size, values.dtype.itemsize
    padded = np.zeros((n, -(-width // 8) * 8), dtype=np.uint8)
    padded[:, :width] = values.view(np.uint8).reshape(n, width)
    words = padded.view(">u8")
    order = np.argsort(words[:, 0]) if words.shape[1] == 1 else np.lexsort(words.T[::-1])
    ranked = words[order]
    first = np.concatenate(([True], np.any(ranked[1:] != ranked[:-1], axis=1)))
    codes = np.empty(n, dtype=np.int64)
    codes[order] = np.cumsum(first) - 1
    distinct = [value.decode("utf-8") for value in values[order[first]].tolist()]
    return np.array(distinct, dtype=object), codes


def _grouped(topics: np.ndarray, topic_codes: np.ndarray, items: list) -> dict[str, list]:
    """``items`` (ordered by topic code) cut into one list per topic."""
    bounds = np.searchsorted(topic_codes, np.arange(len(topics) + 1)).tolist()
    return {topic: items[bounds[i]:bounds[i + 1]] for i, topic in enumerate(topics)}


def read_run(path: Path, ties: Ties = "file") -> RunFile:
    """Read a TREC run file (``topic Q0 docid rank score tag``) ranked by ``ties``."""
    if ties not in TIES:
        raise LitqError(f"ties must be one of {', '.join(TIES)}, got {ties!r}")
    (topic_col, doc_col, rank_col, score_col), text = _columns(path, "trec-run", (0, 2, 3, 4))
    if not _digits_only(rank_col):  # digits alone always parse: check the others
        _numbers(path, text, rank_col, int, "trec-run")
    scores = _numbers(path, text, score_col, float, "trec-run")
    if np.isnan(scores).any():
        raise LitqError(f"{path}: a score is NaN; scores must be numbers to rank by")
    topics, topic_codes = _coded(topic_col)
    docs, doc_codes = _coded(doc_col)
    keys = (-scores, topic_codes)  # a stable sort: equal keys keep the file's order
    if ties == "trec_eval":  # docid descending = its code descending (codes sort as docids)
        keys = (-doc_codes, *keys)
    order = np.lexsort(keys)
    pairs = topic_codes[order] * len(docs) + doc_codes[order]
    order = order[np.sort(np.unique(pairs, return_index=True)[1])]  # first = best position
    ranked = docs[doc_codes[order]].tolist()
    return RunFile(path.stem, _grouped(topics, topic_codes[order], ranked),
                   doc_codes.size - order.size)


def read_qrels(path: Path) -> Qrels:
    """Read TREC qrels (``topic iteration docid grade``); a repeated pair keeps its last grade."""
    (topic_col, doc_col, grade_col), text = _columns(path, "qrels", (0, 2, 3))
    grades = _numbers(path, text, grade_col, int, "qrels")
    topics, topic_codes = _coded(topic_col)
    docs, doc_codes = _coded(doc_col)
    order = np.argsort(topic_codes, kind="stable")  # by topic, each in the file's order
    ordered = topic_codes[order]
    doc_lists = _grouped(topics, ordered, docs[doc_codes[order]].tolist())
    grade_lists = _grouped(topics, ordered, grades[order].tolist())
    return Qrels({topic: dict(zip(doc_lists[topic], grade_lists[topic], strict=True))
                  for topic in topics})


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
