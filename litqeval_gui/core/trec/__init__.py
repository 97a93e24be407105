"""Headless evaluation of TREC runs against qrels: TAR measures (``evaluate``) and the
incremental-pooling simulation over the thesis grid (``simulate``); ``files`` reads them."""
