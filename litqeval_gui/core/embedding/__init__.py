"""Embeddings of records (lsa, minilm, precomputed) and the shared 2D map of a topic.

Compute only: nothing here reads or writes the project file. A backend turns
:class:`~litqeval_gui.core.embedding.backends.Document` rows into L2-normalised float32
vectors (:class:`~litqeval_gui.core.embedding.backends.Embeddings`); :mod:`.projection`
maps vectors to 2D with UMAP or PCA and measures the map's fidelity through ``metrics``.
"""
