"""``citecast eval``: citation quality metrics over a JSONL data set (see ``dataset``)."""
