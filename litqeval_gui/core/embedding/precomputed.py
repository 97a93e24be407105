"""``precomputed``: vectors made elsewhere, read from a file and matched to records.

Formats (chosen by the file's suffix):

* ``.npy`` (a numeric 2-D array, no pickles) + an id list: a text file, one id per line,
  line i naming row i;
* ``.csv`` / ``.tsv``: id, then one column per dimension (an optional header row);
* ``.jsonl`` / ``.ndjson``: one ``{"id": …, "vector": [...]}`` per line (``embedding``
  is accepted for ``vector``).

Every row must be finite and non-zero, every id unique, every row as long as the first;
anything else is one :class:`VectorFileError` line naming the place. Rows are scaled to
unit length. An id matches records by DOI, then by any other identifier (PMID, PMCID,
Dimensions, WoS, …, normalised as importers store them), then by normalised title; a
record takes the vector of its strongest match. :class:`MatchReport` counts and names
what matched no record, what was not used, and which records got no vector.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from litqeval_gui.core.embedding.backends import (
    BackendInfo,
    Document,
    Embeddings,
    checkpoint,
    unit_rows,
)
from litqeval_gui.core.embedding.errors import VectorFileError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress
from litqeval_gui.core.paths import check_input
from litqeval_gui.core.records.model import (
    OTHER_ID_KINDS,
    normalise_doi,
    normalise_id,
    normalise_title,
)

MAX_DIM = 16_384
MAX_VALUES = 2**29  # 2 GB of float32: beyond this the file is refused
FLOAT32_MAX = float(np.finfo(np.float32).max)
CHUNK_VALUES = 2**22  # values checked and scaled at a time (32 MB as float64)
MAX_LINE_CHARS = 4_000_000  # one text line of a CSV/JSONL vector file
MAX_ID_FILE_BYTES = 512 * 2**20
EXAMPLES = 3
ID_KINDS = ("pmid", *OTHER_ID_KINDS)
MATCH_KEYS = ("doi", "identifier", "title")


@dataclass(frozen=True)
class VectorFile:
    """Unit float32 rows and the id naming each row, as read from ``path``."""

    path: str
    ids: tuple[str, ...]
    vectors: NDArray[np.float32]

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def digest(self) -> str:
        """Short SHA-256 of ids and vectors: tells a changed file from the one used before."""
        sha = hashlib.sha256("\n".join(self.ids).encode())
        sha.update(np.ascontiguousarray(self.vectors).data)  # no copy of up to 2 GB
        return sha.hexdigest()[:16]


def read_vectors(path: str | os.PathLike[str], ids_path: str | os.PathLike[str] | None = None
                 ) -> VectorFile:
    """Read and check a vector file (module docstring); ``ids_path`` is required for .npy."""
    path = Path(path)
    suffix = path.suffix.lower()
    check_input(path, VectorFileError)
    if suffix == ".npy":
        if ids_path is None:
            raise VectorFileError(f"{path}: a .npy file needs an id list "
                                  "(a text file with one id per line, row by row)")
        return _read_npy(path, Path(ids_path))
    if suffix in (".csv", ".tsv"):
        return _read_table(path, "\t" if suffix == ".tsv" else ",")
    if suffix in (".jsonl", ".ndjson"):
        return _read_jsonl(path)
    raise VectorFileError(f"{path}: unknown vector file type {suffix or '(none)'!r}; "
                          "use .npy with an id list, .csv, .tsv or .jsonl")


def _read_npy(path: Path, ids_path: Path) -> VectorFile:
    """Checked from the header (shape, type, size) before any value is read; the values
    are then read :data:`CHUNK_VALUES` at a time."""
    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError, OverflowError) as err:
        raise VectorFileError(f"{path}: not a readable numeric .npy array ({err})") from None
    if array.ndim != 2 or not (np.issubdtype(array.dtype, np.integer)
                               or np.issubdtype(array.dtype, np.floating)):
        raise VectorFileError(f"{path}: holds a {array.dtype} array of shape {array.shape}; "
                              "expected real numbers, one row per record")
    _check_size(path, array.shape[1], array.shape[0] * array.shape[1])
    if 0 in array.shape:
        raise VectorFileError(f"{path}: no vectors in the file (shape {array.shape})")
    ids = _read_ids(ids_path)
    if len(ids) != array.shape[0]:
        raise VectorFileError(f"{ids_path}: {len(ids)} ids for the {array.shape[0]} rows "
                              f"of {path}; the id list needs one line per row")
    return _finish(path, ids, _npy_chunks(path, array), array.shape, lambda i: f"row {i + 1}")


def _npy_chunks(path: Path, array: np.memmap) -> Iterator[NDArray]:
    """Consecutive row blocks of a mapped .npy ``array``, read from the file (a C-ordered
    one) so that no more than a block is held at once."""
    rows = max(1, CHUNK_VALUES // array.shape[1])
    if not array.flags.c_contiguous:  # Fortran order: rows are strided through the file
        yield from (array[i:i + rows] for i in range(0, array.shape[0], rows))
        return
    offset, dtype, (n, dim) = array.offset, array.dtype, array.shape
    del array
    with open(path, "rb") as handle:
        handle.seek(offset)
        for i in range(0, n, rows):
            count = min(rows, n - i) * dim
            block = np.fromfile(handle, dtype=dtype, count=count)
            if block.size != count:
                raise VectorFileError(f"{path}: the file ends before its last row "
                                      f"(row {i + block.size // dim + 1})")
            yield block.reshape(-1, dim)


def _read_ids(path: Path) -> list[str]:
    check_input(path, VectorFileError)
    if path.stat().st_size > MAX_ID_FILE_BYTES:
        raise VectorFileError(f"{path}: an id list over {MAX_ID_FILE_BYTES // 2**20} MB "
                              "is not an id list")
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError as err:
        raise VectorFileError(f"{path}: not UTF-8 text ({err})") from None
    while lines and not lines[-1].strip():
        lines.pop()
    ids = [line.strip() for line in lines]
    if "" in ids:
        raise VectorFileError(f"{path}: line {ids.index('') + 1} is empty; "
                              "every row needs an id")
    return ids


def _lines(path: Path) -> Iterator[str]:
    """The file's text lines, refusing any longer than :data:`MAX_LINE_CHARS`."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            number = 0
            while line := handle.readline(MAX_LINE_CHARS + 1):
                number += 1
                if len(line) > MAX_LINE_CHARS:
                    raise VectorFileError(f"{path}: line {number} is longer than "
                                          f"{MAX_LINE_CHARS:,} characters")
                yield line
    except UnicodeDecodeError as err:
        raise VectorFileError(f"{path}: not UTF-8 text ({err})") from None


class _Rows:
    """Collects (id, values, line) rows, checking length and the overall size as they come."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.ids: list[str] = []
        self.rows: list[NDArray[np.float32]] = []
        self.lines: list[int] = []

    def add(self, row_id: str, values: NDArray[np.float64], line: int) -> None:
        """Keep a row (float64 values, stored as float32 once they are known to fit)."""
        if not row_id:
            raise VectorFileError(f"{self.path}: line {line} has no id")
        if not row_id.isascii():
            try:
                row_id.encode("utf-8")
            except UnicodeEncodeError as err:
                raise VectorFileError(f"{self.path}: line {line}: the id is not text "
                                      f"({err.reason}: {row_id[err.start]!r})") from None
        if values.ndim != 1 or values.size == 0:
            raise VectorFileError(f"{self.path}: line {line} (id {row_id!r}) has no vector")
        if self.rows and values.size != self.rows[0].size:
            raise VectorFileError(
                f"{self.path}: line {line} (id {row_id!r}) has {values.size} dimensions; "
                f"line {self.lines[0]} has {self.rows[0].size}")
        _check_size(self.path, values.size, values.size * (len(self.rows) + 1))
        big = np.flatnonzero(np.isfinite(values) & (np.abs(values) > FLOAT32_MAX))
        if big.size:
            raise VectorFileError(f"{self.path}: line {line} (id {row_id!r}): the value "
                                  f"{values[big[0]]:.3g} is beyond float32's range "
                                  f"(±{FLOAT32_MAX:.3g})")
        self.ids.append(row_id)
        self.rows.append(values.astype(np.float32))
        self.lines.append(line)

    def finish(self) -> VectorFile:
        if not self.rows:
            raise VectorFileError(f"{self.path}: no vectors in the file")
        lines = self.lines
        matrix = np.vstack(self.rows)
        return _finish(self.path, self.ids, [matrix], matrix.shape,
                       lambda i: f"line {lines[i]}")


def _read_table(path: Path, delimiter: str) -> VectorFile:
    rows = _Rows(path)
    try:
        for number, cells in enumerate(csv.reader(_lines(path), delimiter=delimiter), 1):
            if not any(cell.strip() for cell in cells):
                continue
            try:
                values = np.array([float(cell) for cell in cells[1:]], dtype=np.float64)
            except ValueError:
                if number == 1 and not any(_is_number(c) for c in cells[1:]):
                    continue  # a header row
                bad = next(c for c in cells[1:] if not _is_number(c))
                raise VectorFileError(f"{path}: line {number}: {bad[:40]!r} is not a number"
                                      ) from None
            rows.add(cells[0].strip(), values, number)
    except csv.Error as err:
        raise VectorFileError(f"{path}: not a readable table ({err})") from None
    return rows.finish()


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _read_jsonl(path: Path) -> VectorFile:
    rows = _Rows(path)
    for number, line in enumerate(_lines(path), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as err:
            raise VectorFileError(f"{path}: line {number} is not JSON ({err})") from None
        except RecursionError:
            raise VectorFileError(f"{path}: line {number} is nested too deeply to be a "
                                  "vector") from None
        except ValueError as err:  # an integer of more digits than Python converts
            raise VectorFileError(f"{path}: line {number}: {err}".split(";")[0]) from None
        vector = item.get("vector", item.get("embedding")) if isinstance(item, dict) else None
        if vector is None or "id" not in item:
            raise VectorFileError(f'{path}: line {number} needs an object with "id" and '
                                  '"vector" (or "embedding")')
        try:
            values = np.asarray(vector, dtype=np.float64)
        except OverflowError:  # an integer beyond float64
            raise VectorFileError(f"{path}: line {number}: a number beyond float32's range "
                                  f"(±{FLOAT32_MAX:.3g})") from None
        except (ValueError, TypeError):
            raise VectorFileError(f"{path}: line {number}: the vector is not a list of "
                                  "numbers") from None
        rows.add(str(item["id"]).strip(), values, number)
    return rows.finish()


def _check_size(path: Path, dim: int, values: int) -> None:
    if dim > MAX_DIM:
        raise VectorFileError(f"{path}: {dim} dimensions; at most {MAX_DIM} are supported")
    if values > MAX_VALUES:
        raise VectorFileError(f"{path}: more than {MAX_VALUES:,} numbers "
                              f"({MAX_VALUES * 4 // 2**30} GB as float32); too large to load")


def _finish(path: Path, ids: Sequence[str], chunks: Iterable[NDArray],
            shape: tuple[int, int], where: Callable[[int], str]) -> VectorFile:
    """The checked file: the row blocks ``chunks`` (``shape`` in all) scaled to unit
    float32 rows one block at a time (memory: the result and one block)."""
    unit = np.empty(shape, dtype=np.float32)
    bad: dict[str, list[int]] = {"infinite": [], "zero": []}  # [first row, count]
    at = 0
    for chunk in chunks:
        values = np.asarray(chunk, dtype=np.float64)
        finite = np.isfinite(values).all(axis=1)
        scaled, keep = unit_rows(np.where(finite[:, None], values, 0.0))
        for kind, fails in (("infinite", ~finite), ("zero", finite & ~keep)):
            if fails.any() and not bad[kind]:
                bad[kind] = [at + int(np.argmax(fails)), 0]
            if bad[kind]:
                bad[kind][1] += int(fails.sum())
        unit[at:at + len(values)][keep] = scaled
        at += len(values)
    if bad["infinite"]:
        first, count = bad["infinite"]
        raise VectorFileError(f"{path}: {where(first)} (id {ids[first]!r}) has NaN or infinite "
                              f"values ({count} such rows)")
    if bad["zero"]:
        first, count = bad["zero"]
        raise VectorFileError(f"{path}: {where(first)} (id {ids[first]!r}) is all zeros "
                              f"({count} such rows); a zero vector has no direction")
    seen: dict[str, int] = {}
    for i, row_id in enumerate(ids):
        if row_id in seen:
            raise VectorFileError(f"{path}: id {row_id!r} appears twice "
                                  f"({where(seen[row_id])} and {where(i)})")
        seen[row_id] = i
    return VectorFile(str(path), tuple(ids), unit)


# ---------------------------------------------------------------- matching


@dataclass(frozen=True)
class MatchReport:
    """How a :class:`VectorFile` met the records: counts per match key and every miss.

    ``by_key`` counts records matched by ``doi``, ``identifier`` and ``title``;
    ``unmatched_ids`` matched no record; ``unused_ids`` matched only records that took a
    stronger match; ``without_vector`` are the positions of records that got none.
    """

    n_documents: int
    n_vectors: int
    dim: int
    by_key: dict[str, int]
    unmatched_ids: tuple[str, ...]
    unused_ids: tuple[str, ...]
    without_vector: tuple[int, ...]

    @property
    def n_matched(self) -> int:
        return sum(self.by_key.values())

    def lines(self, documents: Sequence[Document] = ()) -> tuple[str, ...]:
        """The report as short sentences with counts and up to three examples."""
        keys = ", ".join(f"{n} by {key}" for key, n in self.by_key.items() if n)
        out = [f"{self.n_matched} of {self.n_documents} records got one of {self.n_vectors} "
               f"{self.dim}-dimensional vectors" + (f" ({keys})" if keys else "")]
        if self.without_vector:
            names = [_label(documents[i]) if documents else f"#{i + 1}"
                     for i in self.without_vector[:EXAMPLES]]
            out.append(f"{len(self.without_vector)} records have no vector, e.g. "
                       + "; ".join(names))
        if self.unmatched_ids:
            out.append(f"{len(self.unmatched_ids)} ids in the file match no record, e.g. "
                       + ", ".join(repr(i) for i in self.unmatched_ids[:EXAMPLES]))
        if self.unused_ids:
            out.append(f"{len(self.unused_ids)} ids were not used (their records matched "
                       "another id more strongly), e.g. "
                       + ", ".join(repr(i) for i in self.unused_ids[:EXAMPLES]))
        return tuple(out)


def _label(doc: Document) -> str:
    title = doc.title.strip()
    return doc.doi or (repr(title[:60]) if title else "(no title)")


def _index(documents: Sequence[Document]) -> dict[str, dict[str, list[int]]]:
    """Record positions by normalised key: ``doi``, each id kind, and ``title``."""
    index: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, doc in enumerate(documents):
        if doc.doi:
            index["doi"][normalise_doi(doc.doi)].append(i)
        for kind, value in doc.ids.items():
            index[kind][normalise_id(kind, value)].append(i)
        if title := normalise_title(doc.title):
            index["title"][title].append(i)
    return index


def _hits(index: dict[str, dict[str, list[int]]], key: str, raw_id: str) -> list[int]:
    if key == "doi":
        return index["doi"].get(normalise_doi(raw_id), []) if "doi" in index else []
    if key == "title":
        title = normalise_title(raw_id)
        return index["title"].get(title, []) if title and "title" in index else []
    for kind in ID_KINDS:
        if kind in index and (value := normalise_id(kind, raw_id)) in index[kind]:
            return index[kind][value]
    return []


def match_vectors(vectors: VectorFile, documents: Sequence[Document],
                  token: CancelToken = NEVER) -> Job[tuple[NDArray[np.intp], MatchReport]]:
    """For each record the row of ``vectors`` it takes (−1: none) and the report.

    Keys are tried in the order of :data:`MATCH_KEYS` over all ids, so a record matched
    by DOI keeps that vector whatever its title matches.
    """
    index = _index(documents)
    taken = np.full(len(documents), -1, dtype=np.intp)
    by_key = dict.fromkeys(MATCH_KEYS, 0)
    hit = np.zeros(len(vectors.ids), dtype=bool)
    for step, key in enumerate(MATCH_KEYS):
        yield Progress(step, len(MATCH_KEYS), f"matching ids by {key}")
        checkpoint(token)
        for row, raw_id in enumerate(vectors.ids):
            for doc in _hits(index, key, raw_id):
                hit[row] = True
                if taken[doc] < 0:
                    taken[doc] = row
                    by_key[key] += 1
    used = np.zeros(len(vectors.ids), dtype=bool)
    used[taken[taken >= 0]] = True
    report = MatchReport(
        n_documents=len(documents), n_vectors=len(vectors.ids), dim=vectors.dim, by_key=by_key,
        unmatched_ids=tuple(vectors.ids[i] for i in np.flatnonzero(~hit)),
        unused_ids=tuple(vectors.ids[i] for i in np.flatnonzero(hit & ~used)),
        without_vector=tuple(int(i) for i in np.flatnonzero(taken < 0)))
    yield Progress(len(MATCH_KEYS), len(MATCH_KEYS), "matched")
    return taken, report


class PrecomputedBackend:
    """Vectors of a :class:`VectorFile`, matched to the records (:func:`match_vectors`);
    the match report's sentences become the embeddings' ``notes``.

    ``model`` names what made the vectors (e.g. the commercial model), for the record.
    """

    def __init__(self, vectors: VectorFile, model: str = "unknown") -> None:
        self.vectors = vectors
        self.model = model

    @property
    def info(self) -> BackendInfo:
        return BackendInfo("precomputed", self.model, self.vectors.digest(),
                           {"file": Path(self.vectors.path).name, "dim": self.vectors.dim})

    def embed(self, documents: Sequence[Document],
              token: CancelToken = NEVER) -> Job[Embeddings]:
        taken, report = yield from match_vectors(self.vectors, documents, token)
        rows = np.flatnonzero(taken >= 0).astype(np.intp)
        return Embeddings(self.vectors.vectors[taken[rows]], rows, len(documents), self.info,
                          report.lines(documents))
