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

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.records.importing.trec import MAX_GRADE, SHAPES, parse_line

_WHITESPACE = np.zeros(256, dtype=bool)
_WHITESPACE[list(b" \t\n\r\v\f\x1c\x1d\x1e\x1f")] = True  # ASCII that str.split() splits on
Ties = Literal["file", "trec_eval"]
TIES: tuple[Ties, ...] = ("file", "trec_eval")
BLOCK_BYTES = 1 << 22  # whole lines split at a time (the intermediate arrays: ~40×)
LONG_TOKEN = 64  # a block with a longer token is read line by line (no padded arrays)
EXAMPLES = 3  # malformed lines named


@dataclass(frozen=True)
class RunFile:
    """A run: ``topics[topic]`` = its docids best first; ``name`` = file name sans suffix;
    ``duplicates`` repeated docids dropped; ``rejected`` malformed lines left out, the
    first few named in ``examples``."""

    name: str
    topics: Mapping[str, list[str]]
    duplicates: int = 0
    rejected: int = 0
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class Qrels:
    """``grades[topic][docid]`` = relevance grade; relevant means grade >= 1; ``rejected``
    and ``examples`` as in :class:`RunFile`."""

    grades: dict[str, dict[str, int]]
    rejected: int = 0
    examples: tuple[str, ...] = ()
    relevant: dict[str, frozenset[str]] = field(init=False)

    def __post_init__(self) -> None:
        relevant = {t: frozenset(d for d, g in docs.items() if g >= 1)
                    for t, docs in self.grades.items()}
        object.__setattr__(self, "relevant", relevant)


class _Ranked(Mapping[str, list[str]]):
    """Each topic's ranked docids held as one byte-string array, decoded to ``str`` when
    the topic is asked for (the last one kept): a run's topics are used one at a time, and
    a byte string costs a fraction of a ``str``."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        self._arrays = arrays
        self._last: tuple[str, list[str]] | None = None

    def __getitem__(self, topic: str) -> list[str]:
        if self._last is None or self._last[0] != topic:
            self._last = (topic, [d.decode("utf-8") for d in self._arrays[topic].tolist()])
        return self._last[1]

    def __iter__(self) -> Iterator[str]:
        return iter(self._arrays)

    def __len__(self) -> int:
        return len(self._arrays)


def _token_bounds(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Byte offsets where each whitespace-separated token of ``raw`` starts and ends."""
    gap = np.concatenate(([True], np.take(_WHITESPACE, raw), [True]))
    edges = np.flatnonzero(gap[1:] != gap[:-1])  # alternately a token's start and its end
    return edges[0::2], edges[1::2]


def _strings(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The tokens ``raw[starts[i]:ends[i]]`` as one byte-string (``S``) array."""
    lengths = ends - starts
    offsets = np.arange(max(1, int(lengths.max(initial=0))))
    chars = np.take(raw, starts[:, None] + offsets, mode="clip")
    chars[offsets >= lengths[:, None]] = 0  # pad each token to the longest with NULs
    return chars.view(f"S{offsets.size}")[:, 0]


class _Rejected:
    """Malformed lines left out of a file: how many, and the first few named."""

    def __init__(self) -> None:
        self.count = 0
        self.examples: list[str] = []

    def add(self, lineno: int, reason: str, shape: str) -> None:
        self.count += 1
        if len(self.examples) < EXAMPLES:
            self.examples.append(f"line {lineno}: {reason} (expected '{shape}')")


Columns = tuple[np.ndarray, np.ndarray, np.ndarray]  # topics, docids (S), numbers


def _file_columns(path: Path, fmt: str, rejected: _Rejected) -> Iterator[Columns]:
    """Topic, docid and number (score, or grade) columns of the file's good lines, one
    block of about :data:`BLOCK_BYTES` of whole lines at a time; malformed lines go to
    ``rejected``. A NUL byte or text that is not UTF-8 refuses the file."""
    lineno, offset = 1, 0
    check_input(path)  # a FIFO would block, /dev/zero never end
    try:
        handle = path.open("rb")
    except OSError as err:
        raise LitqError(f"{path}: cannot read the file ({err.strerror})") from None
    with handle:
        while data := handle.read(BLOCK_BYTES) + handle.readline():
            if b"\0" in data:  # a token's trailing NUL would vanish in a byte-string array
                raise LitqError(f"{path}: not a text file (NUL byte at byte "
                                f"{offset + data.index(0)})")
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as err:
                raise LitqError(f"{path}: not UTF-8 text ({err.reason} at byte "
                                f"{offset + err.start})") from None
            yield _fast_columns(data, text, fmt) or _line_columns(text, lineno, fmt, rejected)
            lineno += data.count(b"\n")
            offset += len(data)


def _fast_columns(data: bytes, text: str, fmt: str) -> Columns | None:
    """The block's columns split with numpy on its bytes, or None when a line is
    malformed or a token long (then it is read line by line).

    A block with comments or non-ASCII text (whose whitespace only ``str.split`` sees) is
    first rewritten from its ``str.split`` tokens, one space between them, one row a line.
    """
    width = SHAPES[fmt][0]
    if "#" in text or not text.isascii():
        rows = [parts for parts in map(str.split, text.split("\n"))
                if parts and not parts[0].startswith("#")]
        data = "\n".join(map(" ".join, rows)).encode("utf-8")
    raw = np.frombuffer(data, dtype=np.uint8)
    starts, ends = _token_bounds(raw)
    before_newline = np.searchsorted(starts, np.flatnonzero(raw == ord("\n")))
    per_line = np.diff(before_newline, prepend=0, append=starts.size)
    if np.any((per_line != 0) & (per_line != width)) or np.any(ends - starts > LONG_TOKEN):
        return None
    starts, ends = starts.reshape(-1, width), ends.reshape(-1, width)
    column = [_strings(raw, starts[:, i], ends[:, i]) for i in range(width)]
    if fmt == "trec-run":
        ranks_ok = _digits_only(column[3]) or _parsed(column[3], int) is not None
        numbers = _parsed(column[4], float) if ranks_ok else None
        if numbers is None or np.isnan(numbers).any():
            return None
    else:
        numbers = _parsed(column[3], int)
        if numbers is None or np.any(np.abs(numbers) > MAX_GRADE):
            return None
    return column[0], column[2], numbers


def _parsed(values: np.ndarray, kind: type) -> np.ndarray | None:
    """``values`` (ASCII bytes) parsed by ``int`` or ``float``, or None if one is not a
    number to it (the block is then read line by line, as ``str``)."""
    try:
        return np.fromiter(map(kind, values.tolist()), dtype=kind, count=values.size)
    except (ValueError, OverflowError):
        return None


def _line_columns(text: str, first_line: int, fmt: str, rejected: _Rejected) -> Columns:
    """The block read line by line with the importer's own parser: each malformed line
    is rejected, the others kept."""
    width, shape = SHAPES[fmt]
    topics, docs, numbers = [], [], []
    for lineno, line in enumerate(text.split("\n"), start=first_line):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        record = parse_line(parts, width, lineno, fmt)
        if isinstance(record, str):
            rejected.add(lineno, record, shape)
            continue
        topics.append(parts[0].encode("utf-8"))
        docs.append(parts[2].encode("utf-8"))
        numbers.append(record.score)
    kind = float if fmt == "trec-run" else int
    return (np.array(topics, dtype=bytes), np.array(docs, dtype=bytes),
            np.array(numbers, dtype=kind))


def _digits_only(values: np.ndarray) -> bool:
    """Whether every value is ASCII digits alone (``int`` parses it: no need to try)."""
    chars = values.view(np.uint8)
    return bool(np.all(((chars >= ord("0")) & (chars <= ord("9"))) | (chars == 0)))


def _by_topic(path: Path, fmt: str) -> tuple[dict[str, list[tuple[np.ndarray, np.ndarray]]],
                                             _Rejected]:
    """Each topic's (docids, numbers) pieces in file order, topics sorted; refuses a file
    without a good line."""
    rejected = _Rejected()
    pieces: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for topics, docs, numbers in _file_columns(path, fmt, rejected):
        names, codes = np.unique(topics, return_inverse=True)
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(names.size + 1))
        for k, name in enumerate(names.tolist()):
            rows = order[bounds[k]:bounds[k + 1]]
            pieces.setdefault(name.decode("utf-8"), []).append((docs[rows], numbers[rows]))
    if not pieces:
        first = f"; {rejected.examples[0]}" if rejected.examples else ""
        raise LitqError(f"{path}: no {fmt} line (expected '{SHAPES[fmt][1]}'){first}")
    return {topic: pieces[topic] for topic in sorted(pieces)}, rejected


def read_run(path: Path, ties: Ties = "file") -> RunFile:
    """Read a TREC run file (``topic Q0 docid rank score tag``) ranked by ``ties``, a
    block of lines at a time, each topic kept as a byte-string array (:class:`_Ranked`)."""
    if ties not in TIES:
        raise LitqError(f"ties must be one of {', '.join(TIES)}, got {ties!r}")
    pieces, rejected = _by_topic(path, "trec-run")
    ranked, duplicates = {}, 0
    for topic in list(pieces):
        docs = np.concatenate([d for d, _ in pieces[topic]])
        scores = np.concatenate([s for _, s in pieces.pop(topic)])
        codes = np.unique(docs, return_inverse=True)[1]  # codes sort as the docids do
        keys = (-scores,) if ties == "file" else (-codes, -scores)  # stable: ties by line
        order = np.lexsort(keys)
        order = order[np.sort(np.unique(codes[order], return_index=True)[1])]  # first = best
        ranked[topic] = docs[order]
        duplicates += docs.size - order.size
    return RunFile(path.stem, _Ranked(ranked), duplicates, rejected.count,
                   tuple(rejected.examples))


def read_qrels(path: Path) -> Qrels:
    """Read TREC qrels (``topic iteration docid grade``); a repeated pair keeps its last grade."""
    pieces, rejected = _by_topic(path, "qrels")
    grades = {}
    for topic, parts in pieces.items():
        docs = np.concatenate([d for d, _ in parts]).tolist()
        values = np.concatenate([g for _, g in parts]).tolist()
        grades[topic] = {doc.decode("utf-8"): grade for doc, grade in zip(docs, values,
                                                                          strict=True)}
    return Qrels(grades, rejected.count, tuple(rejected.examples))


def run_paths(arguments: list[Path]) -> list[Path]:
    """Files named, and every file (not hidden) in a folder named, sorted by name."""
    paths: list[Path] = []
    for arg in arguments:
        if arg.is_dir():
            paths.extend(sorted(p for p in arg.iterdir()
                                if p.is_file() and not p.name.startswith(".")))
        else:
            paths.append(check_input(arg))
    if not paths:
        raise LitqError("no run file given")
    names = [p.stem for p in paths]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise LitqError(f"two run files share the name {repeated[0]!r}; runs are named by "
                        "their file name without extension")
    return paths
