"""A generated corpus with known topics for the embedding tests."""

from __future__ import annotations

import pytest

from litqeval_gui.core.embedding.backends import Document
from tests.support.synthetic import TOPIC_WORDS, topic_texts


def make_corpus(per_topic: int, seed: int = 0) -> tuple[list[Document], list[str]]:
    """``per_topic`` documents per topic (:func:`tests.support.synthetic.topic_texts`)."""
    docs, labels = [], []
    for topic in TOPIC_WORDS:
        docs += [Document(title, abstract) for title, abstract in topic_texts(topic, per_topic, seed)]
        labels += [topic] * per_topic
    return docs, labels


@pytest.fixture(name="make_corpus")
def make_corpus_fixture():
    return make_corpus


@pytest.fixture
def corpus() -> tuple[list[Document], list[str]]:
    return make_corpus(20)
