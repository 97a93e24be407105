"""Every workflow of LitQEval GUI, without Qt. The packages, lowest layer first (import-
linter's "Core's layers" contract in ``pyproject.toml`` keeps the arrows pointing down):

``errors``       typed errors with one-line messages a reviewer understands
``jobs``         long work as generators of ``Progress``; cancel tokens
``scaleout``     child processes (where they come from, whether they can start) and
                 ``map_tasks`` over processes or Dask
``projectfile/`` the ``.litq`` file: open, lock, schema and migrations, the one write path
                 (ops → ``Changes``), per-project parameters, the import lifecycle,
                 stored arrays and JSON read back checked (``stored``), who decides
                 (``reviewers``)
``records/``     records and their import: the model (``model``), how a record is stored
                 (``rows``), file readers (``importing/``), ``ingest`` (parse → store →
                 link), ``linkage`` and ``works`` (de-duplication; a large import's links
                 found in a child process: ``links_apart``), uncertain ``matches``,
                 read-side ``queries``, renaming and deleting ``lists``, ``exporting``,
                 full-text PDFs (``attachments``; checking and matching them:
                 ``pdf_match``; PDFium only in a bounded child: ``pdf_child``, ``pdf_pages``)
                 and a consistent copy of the whole project file (``copying``)
``embedding/``   vectors (LSA, MiniLM, precomputed) and the 2D map projection
``trec/``        TREC run files and qrels without a project: ``tar-eval``, pool simulation
``evaluation/``  a query against its core set: recall, the four semantic precisions, maps,
                 the report
``screening/``   screening decisions, features, active-learning models, stopping, simulation
``pooling/``     incremental variable-depth pools that feed a screening
``demo``         builds the bundled demo project
"""
