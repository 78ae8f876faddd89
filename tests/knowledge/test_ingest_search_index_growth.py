"""Re-ingesting changed files keeps the index near the size of a fresh one.

Found by QA (reproduced twice): 3,000 Markdown files (30,000 chunks) made a 40,268 KB index;
appending a line to every file and ingesting again, four times, grew it to 71,956 KB with the
same files and chunks, and no run said "index compacted". SQLite's freelist held 43 pages: FTS5
keeps a deleted chunk's words, beside a delete marker, in its own segments until it merges them,
so the quarter rule, which looked only at free pages, never saw the space. A run that replaced
or removed chunks now merges the search index before measuring what is free.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.compaction import search_index_bytes


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def _write(kb: Path, round_: int) -> None:
    for n in range(120):
        words = " ".join(f"w{(n * 7 + i) % 500}" for i in range(600))
        (kb / f"doc{n}.md").write_text(f"# Doc {n}\n\n{words} round{round_}.\n")


def test_updating_every_file_keeps_the_index_near_a_fresh_ones_size(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    for round_ in range(4):
        _write(kb, round_)
        ingest([kb], settings)
    fresh = IndexSettings(path=str(tmp_path / "fresh.db"))
    ingest([kb], fresh)
    assert _size(tmp_path / "index.db") < 1.25 * _size(tmp_path / "fresh.db")


def test_a_run_that_replaced_files_leaves_no_deleted_words_in_the_search_index(
    tmp_path: Path,
) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    _write(kb, 0)
    ingest([kb], settings)
    _write(kb, 1)
    report = ingest([kb], settings)
    ingest([kb], IndexSettings(path=str(tmp_path / "fresh.db")))
    with (
        closing(sqlite3.connect(tmp_path / "index.db")) as updated,
        closing(sqlite3.connect(tmp_path / "fresh.db")) as fresh,
    ):
        # merged into one segment: as large as a fresh index's, where the old entries and
        # their delete markers made it more than twice that
        assert search_index_bytes(updated) <= 1.1 * search_index_bytes(fresh)
    assert report.indexed == 120
    index = KnowledgeIndex(settings.path)
    try:
        assert index.search("round0") == []
        assert len(index.search("round1 w3")) > 0
    finally:
        index.close()


def test_changing_one_file_merges_without_rewriting_the_whole_file(tmp_path: Path) -> None:
    # The merge copies every live entry, leaving their old pages (a third of this index) free
    # for the next merge: counted as freed, each one-file run would VACUUM the whole index.
    kb = tmp_path / "kb"
    kb.mkdir()
    for n in range(200):
        words = " ".join(f"t{n}x{i}" for i in range(600))
        (kb / f"doc{n}.md").write_text(f"# Doc {n}\n\n{words}.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb], settings)
    sizes = []
    for round_ in range(3):
        (kb / "doc0.md").write_text(f"# Doc 0\n\nChanged in round {round_}.\n")
        report = ingest([kb], settings)
        assert (report.indexed, report.compacted) == (1, 0)
        sizes.append(_size(tmp_path / "index.db"))
    assert sizes[2] == sizes[1]  # the merge writes into the pages the one before left free
