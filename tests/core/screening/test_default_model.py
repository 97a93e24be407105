"""The default model's choices on generated data where the better choice is known."""

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.screening.ranking.features import Features, tfidf
from litqeval_gui.core.screening.simulation.simulate import simulate
from tests.support import synthetic


def _phrase_set(n: int = 600) -> tuple[list[str], np.ndarray]:
    """Relevant records (5 %) say "heart failure"; half the others say "heart" and
    "failure" apart ("failure of the heart rate monitor"): single words cannot tell them
    apart, the pair of adjacent words can."""
    records, _ = synthetic.generate(n, dup_rate=0.0, seed=5)
    labels = np.arange(n) % 20 == 7
    texts = []
    for index, (record, label) in enumerate(zip(records, labels, strict=True)):
        extra = ("patients with heart failure" if label else
                 "failure of the heart rate monitor" if index % 2 else "")
        texts.append(f"{record.title} {record.abstract} {extra}")
    return texts, labels


def _wss(matrix, truth: np.ndarray) -> float:
    features = Features(tuple(range(truth.size)), matrix, np.empty(0, dtype=np.intp), None)
    return float(np.mean([run_job(simulate(features, truth, seed=seed, rules=[])).wss_at_95
                          for seed in range(3)]))


def test_word_pairs_find_a_phrase_single_words_cannot():
    texts, truth = _phrase_set()
    unigrams = TfidfVectorizer(dtype=np.float32).fit_transform(texts).tocsr()
    pairs, single = _wss(tfidf(texts), truth), _wss(unigrams, truth)
    # with pairs the phrase separates the classes: all 30 found near the top
    assert pairs > 0.85
    # single words leave the 285 "heart … failure" records mixed with the relevant ones
    assert single < pairs - 0.2
