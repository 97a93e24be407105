"""A generated corpus with known topics for the embedding tests."""

from __future__ import annotations

import random

import pytest

from litqeval_gui.core.embedding.backends import Document

TOPIC_WORDS = {
    "cardiology": "heart cardiac artery coronary infarction arrhythmia ventricle stent "
                  "atrial statin angina valve".split(),
    "astronomy": "galaxy star telescope nebula quasar orbit planet cosmic redshift "
                 "supernova exoplanet photometry".split(),
    "linguistics": "syntax phoneme morphology dialect grammar lexicon semantics corpus "
                   "pragmatics vowel clause verb".split(),
}
SHARED_WORDS = "study results analysis method data model approach effect sample "\
               "evidence review measure".split()


def make_corpus(per_topic: int, seed: int = 0) -> tuple[list[Document], list[str]]:
    """``per_topic`` documents per topic: 8 topic words and 6 shared words each."""
    rng = random.Random(seed)
    docs, labels = [], []
    for topic, words in TOPIC_WORDS.items():
        for _ in range(per_topic):
            title = " ".join(rng.choices(words, k=4) + rng.choices(SHARED_WORDS, k=2))
            abstract = " ".join(rng.choices(words, k=4) + rng.choices(SHARED_WORDS, k=4))
            docs.append(Document(title, abstract))
            labels.append(topic)
    return docs, labels


@pytest.fixture(name="make_corpus")
def make_corpus_fixture():
    return make_corpus


@pytest.fixture
def corpus() -> tuple[list[Document], list[str]]:
    return make_corpus(20)
