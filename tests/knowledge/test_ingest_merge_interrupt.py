"""Ctrl-C while a run merges the search index keeps every file the run wrote.

The merge (FTS5 ``optimize``, see ``bot.knowledge.compaction``) is the run's last transaction:
stopped half-way, it is rolled back, the index left as the run's files made it, whole.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import bot.knowledge.compaction as compaction
from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest


def _write(kb: Path, word: str) -> None:
    for n in range(20):
        (kb / f"doc{n}.md").write_text(f"# Doc {n}\n\nThe {word} desk {n} opens at nine.\n")


def test_ctrl_c_during_the_merge_keeps_the_files_and_an_unmerged_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    _write(kb, "heron")
    ingest([kb], settings)
    _write(kb, "walrus")
    measured: list[int] = []
    real = compaction.search_index_bytes

    def interrupted_after_optimize(conn: sqlite3.Connection) -> int:
        measured.append(real(conn))
        if len(measured) == 2:  # the merge has run, its transaction not yet committed
            raise KeyboardInterrupt
        return measured[-1]

    monkeypatch.setattr(compaction, "search_index_bytes", interrupted_after_optimize)
    with pytest.raises(KeyboardInterrupt):
        ingest([kb], settings)
    before, merged = measured
    assert merged < before
    with closing(sqlite3.connect(settings.path)) as conn:
        assert real(conn) == before  # rolled back, not committed by closing the writer
        conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")
        found = "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?"
        assert conn.execute(found, ("walrus",)).fetchone()[0] == 20
    index = KnowledgeIndex(settings.path)
    try:
        assert index.search("heron") == []
        assert len(index.search("walrus desk 7")) > 0
    finally:
        index.close()
