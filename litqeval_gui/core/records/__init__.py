"""Records and their import: the record model, how records are stored, reading files,
linkage into works, the uncertain matches, read-side queries, managing lists, export."""
