"""Search queries as objects the app understands: parsed, evaluated on a topic's
records clause by clause, and kept with their list (docs/query.md)."""
