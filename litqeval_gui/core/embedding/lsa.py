"""``lsa``, the default backend: latent semantic analysis, no extra install.

TF-IDF over title + abstract (scikit-learn's TfidfVectorizer: sublinear tf = 1 + log tf,
English stop words, 1–2-grams) gives the records × terms matrix X. Its rank-k truncated
SVD X ≈ U Σ Vᵀ, k = min(256, records, terms), places record i at (UΣ)ᵢ, and rows are
scaled to unit length. Fitted on all records given, so a topic's vectors share one space.

The SVD is the randomized subspace iteration of Halko, Martinsson & Tropp (2011,
Alg. 4.4 with the eigen-decomposition of Alg. 5.3) applied to the records' Gram
operator XXᵀ, never formed: Q₀ = a seeded Gaussian n × (k+10) block, then
Qⱼ = qr(X(XᵀQⱼ₋₁)) for :data:`POWER_ITERATIONS` steps, and the Rayleigh–Ritz step
QᵀXXᵀQ = W Λ Wᵀ gives UΣ ≈ Q W Λ^½ (top k). It is the algorithm of scikit-learn's
TruncatedSVD, but every dense block has n rows, not one row per term: on 50 000
records with ~10⁶ 1–2-gram terms TruncatedSVD spends minutes and gigabytes in QR/LU
factorisations of a terms × k block (benchmarks/bench_embedding.py). The tests compare
it with TruncatedSVD.

XXᵀ·Q runs on :func:`threads` threads (scipy's sparse products release the GIL): each
thread sums whole rows of Xᵀ·Q or X·(XᵀQ), term by term in ascending order as one
product would, so the result has the same bytes on any number of threads. The dense
steps (QR, Rayleigh–Ritz) run on one BLAS thread
(:func:`~litqeval_gui.core.embedding.blas.one_blas_thread`, which also holds when two
topics' SVDs overlap on two threads): their bytes would otherwise depend on the BLAS's
thread count (the vectors' components flip sign), and on a busy machine (or beside the
map child compiling) two BLAS threads spin while waiting for a core: the five QRs of
50 000 × 266 took 19.6 s instead of 4.0 s.
"""

from __future__ import annotations

import os
from array import array
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor

import numpy as np
import scipy
import sklearn
from numpy.typing import NDArray
from scipy import linalg, sparse
from scipy.sparse import _sparsetools  # the kernels of sparse @ dense, with an output
from sklearn.feature_extraction.text import TfidfTransformer, TfidfVectorizer

from litqeval_gui.core.embedding.backends import (
    BackendInfo,
    Document,
    Embeddings,
    checkpoint,
    document_texts,
    text_embeddings,
)
from litqeval_gui.core.embedding.blas import one_blas_thread
from litqeval_gui.core.embedding.errors import EmbeddingError
from litqeval_gui.core.jobs import NEVER, CancelToken, Job, Progress, scaled

LSA_MAX_DIM = 256
LSA_SEED = 0
OVERSAMPLES = 10
POWER_ITERATIONS = 5
TERM_BLOCK = 200_000  # terms per block of XᵀQ: bounds its memory (block × (k+10) floats)


def tfidf_matrix(texts: Sequence[str]) -> sparse.csr_matrix:
    """The records × terms TF-IDF matrix (module docstring), float32: the bytes of
    ``TfidfVectorizer.fit_transform``, with the terms counted and sorted in bulk (its
    per-record dictionaries and its sorted (term, index) pairs took two thirds of its
    time; the tests compare the two).

    As CountVectorizer: a term's first index is its first appearance; a row holds its
    terms in that order, then the indices become the terms' alphabetical ranks."""
    analyse = TfidfVectorizer(stop_words="english", ngram_range=(1, 2)).build_analyzer()
    vocabulary: defaultdict[str, int] = defaultdict()
    vocabulary.default_factory = vocabulary.__len__  # a new term gets the next index
    indices, indptr = array("i"), array("q", [0])
    for text in texts:
        indices.extend(map(vocabulary.__getitem__, analyse(text)))
        indptr.append(len(indices))
    if not vocabulary:
        raise EmbeddingError(f"lsa found no usable words in {len(texts)} records "
                             "(only stop words or symbols)")
    counts = sparse.csr_matrix((np.ones(len(indices), np.float32), np.frombuffer(indices,
                                np.int32), np.frombuffer(indptr, np.int64)),
                               shape=(len(texts), len(vocabulary)))
    counts.sum_duplicates()  # each term once per row, rows in order of first appearance
    terms = list(vocabulary)
    rank = np.empty(len(terms), np.int32)
    rank[sorted(range(len(terms)), key=terms.__getitem__)] = np.arange(len(terms))
    counts.indices = rank[counts.indices]
    return TfidfTransformer(sublinear_tf=True).fit_transform(counts).tocsr()


def threads() -> int:
    """The cores this process may run on: the threads of the SVD's sparse products."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def _row_parts(matrix: sparse.spmatrix, parts: int) -> list[RowPart]:
    """``matrix`` cut into ``parts`` runs of whole rows of about equal size, each with
    its first and end row."""
    bounds = np.linspace(0, matrix.shape[0], parts + 1).round().astype(int)
    return [(a, b, matrix[a:b]) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


RowPart = tuple[int, int, sparse.spmatrix]


class GramOperator:
    """Q ↦ X Xᵀ Q, never forming X Xᵀ: for each block of TERM_BLOCK terms, Z = Xᵀ_b Q
    (terms × width), then X_b Z, summed over the blocks; Z bounds the memory (block ×
    width floats). Both products are cut into runs of rows (X_b with its terms in
    ascending order, as Xᵀ_b's transpose sums them), computed on ``pool`` into arrays
    kept from one call to the next (``Z`` and ``X_b Z``: hundreds of megabytes that
    would otherwise be allocated, page by page, and stacked again at every block)."""

    def __init__(self, x: sparse.csr_matrix, parts: int) -> None:
        xt = x.T.tocsr()
        self.blocks = []
        for start in range(0, xt.shape[0], TERM_BLOCK):
            terms = xt[start:start + TERM_BLOCK]
            self.blocks.append((_row_parts(terms, parts), _row_parts(terms.T.tocsc(), parts)))
        self.dtype = x.dtype
        self.block_terms = min(TERM_BLOCK, xt.shape[0])
        self.buffers: dict[int, tuple[NDArray, NDArray]] = {}  # width -> (Z, X_b Z)

    def __call__(self, block: NDArray[np.float32], pool: Executor) -> NDArray[np.float32]:
        block = np.ascontiguousarray(block, dtype=self.dtype)
        width = block.shape[1]
        if width not in self.buffers:
            self.buffers = {width: (np.empty((self.block_terms, width), self.dtype),
                                    np.empty((block.shape[0], width), self.dtype))}
        z, xz = self.buffers[width]
        out = np.zeros_like(block)
        for term_rows, doc_rows in self.blocks:
            rows = term_rows[-1][1]
            _product(term_rows, block, pool, z[:rows])
            out += _product(doc_rows, z[:rows], pool, xz)
        return out


def _product(parts: list[RowPart], dense: NDArray, pool: Executor, out: NDArray) -> NDArray:
    """``out`` = the rows of ``parts`` (one matrix cut by rows) times ``dense`` (C-ordered,
    of the parts' dtype): the bytes of ``matrix @ dense``, by the kernel that product
    calls (``csr_matvecs`` / ``csc_matvecs``, adding to a zeroed output without holding
    the GIL), each part writing its own rows of ``out``."""
    out.fill(0)
    flat = dense.ravel()

    def run(part: RowPart) -> None:
        a, b, rows = part
        kernel = getattr(_sparsetools, rows.format + "_matvecs")
        kernel(b - a, rows.shape[1], dense.shape[1], rows.indptr, rows.indices, rows.data,
               flat, out[a:b].ravel())

    if len(parts) == 1:
        run(parts[0])
    else:
        list(pool.map(run, parts))
    return out


def lsa_rows(x: sparse.csr_matrix, dim: int, seed: int,
             token: CancelToken = NEVER) -> Job[NDArray[np.float64]]:
    """The n × dim LSA coordinates UΣ of ``x`` (module docstring), a job per iteration;
    the same bytes whatever the number of cores or BLAS threads."""
    n = x.shape[0]
    width = min(dim + OVERSAMPLES, n)
    gram = GramOperator(x, threads())
    q = np.random.default_rng(seed).standard_normal((n, width), dtype=np.float32)
    with ThreadPoolExecutor(threads()) as pool, one_blas_thread():
        for step in range(POWER_ITERATIONS):
            yield Progress(step, POWER_ITERATIONS + 1, f"SVD: power iteration {step + 1}")
            checkpoint(token)
            q, _ = linalg.qr(gram(q, pool), mode="economic", check_finite=False)
        yield Progress(POWER_ITERATIONS, POWER_ITERATIONS + 1, "SVD: Rayleigh–Ritz step")
        checkpoint(token)
        ritz = q.T.astype(np.float64) @ gram(q, pool).astype(np.float64)
        values, vectors = linalg.eigh(ritz, check_finite=False)
        top = np.argsort(values)[::-1][:dim]
        return (q @ vectors[:, top]) * np.sqrt(np.clip(values[top], 0.0, None))


class LsaBackend:
    """TF-IDF → truncated SVD → unit rows (module docstring); same seed → same bytes."""

    def __init__(self, max_dim: int = LSA_MAX_DIM, seed: int = LSA_SEED) -> None:
        self.max_dim = max_dim
        self.seed = seed

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(
            "lsa", "tfidf-truncated-svd",
            f"scikit-learn {sklearn.__version__}, scipy {scipy.__version__}",
            {"max_dim": self.max_dim, "seed": self.seed, "sublinear_tf": True,
             "stop_words": "english", "ngram_range": [1, 2],
             "power_iterations": POWER_ITERATIONS, "oversamples": OVERSAMPLES})

    def embed(self, documents: Sequence[Document],
              token: CancelToken = NEVER) -> Job[Embeddings]:
        texts, present = document_texts(documents)
        if len(texts) < 2:
            raise EmbeddingError(f"lsa needs at least 2 records with a title or abstract; "
                                 f"{len(texts)} of {len(documents)} have one")
        total = POWER_ITERATIONS + 3
        yield Progress(0, total, "indexing words (TF-IDF)")
        checkpoint(token)
        x = tfidf_matrix(texts)
        dim = min(self.max_dim, *x.shape)
        reduced = yield from scaled(lsa_rows(x, dim, self.seed, token), 1, total - 1, total)
        reduced[x.getnnz(axis=1) == 0] = 0.0  # no indexed words: no direction, no vector
        yield Progress(total - 1, total, "normalising")
        result = text_embeddings(reduced, len(documents), present, self.info)
        yield Progress(total, total, "done")
        return result
