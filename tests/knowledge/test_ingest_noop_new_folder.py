"""An ingest run that adds no file still moves what it wrote out of the ``-wal``.

Found by QA (newqa): with ``citecast serve`` reading the index, every run that added nothing
but a new path (an empty folder, a folder holding only an ignored ``.csv``) grew
``index.db-wal`` by 8 KB: remembering the path as an ingested folder is a write, but not one
the writer counted when deciding whether to checkpoint after the run, so those pages were
never moved into the index file (the README: "after a run that wrote, what it wrote is moved
from index.db-wal into the index file").
"""

from __future__ import annotations

from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest


def _wal_bytes(index_path: Path) -> int:
    wal = Path(f"{index_path}-wal")
    return wal.stat().st_size if wal.exists() else 0


def test_new_folders_that_add_no_file_leave_no_pages_in_the_wal_while_it_is_read(
    tmp_path: Path,
) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "a.md").write_text("# A\n\nHerons wade.\n", encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([tmp_path / "kb"], settings)
    reader = KnowledgeIndex(settings.path)  # as `citecast serve` holds it open
    try:
        assert reader.search("herons")
        assert _wal_bytes(Path(settings.path)) == 0
        for n in range(3):
            empty = tmp_path / f"empty{n}"
            empty.mkdir()
            sheet = tmp_path / f"sheets{n}"
            sheet.mkdir()
            (sheet / "prices.csv").write_text("item,price\nkettle,20\n", encoding="utf-8")
            report = ingest([empty], settings)
            assert (report.files, report.indexed) == (0, 0)
            assert _wal_bytes(Path(settings.path)) == 0
            report = ingest([sheet], settings)
            assert (report.files, report.ignored) == (0, 1)
            assert _wal_bytes(Path(settings.path)) == 0
        assert reader.search("herons")
    finally:
        reader.close()


def test_a_folder_ingested_again_writes_nothing(tmp_path: Path) -> None:
    """The other half of the README's promise: once remembered, the path is not written again."""
    (tmp_path / "empty").mkdir()
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([tmp_path / "empty"], settings)
    index_file = Path(settings.path)
    reader = KnowledgeIndex(settings.path)
    try:
        reader.stats()
        before = (index_file.stat().st_size, index_file.stat().st_mtime_ns)
        ingest([tmp_path / "empty"], settings)
        assert (index_file.stat().st_size, index_file.stat().st_mtime_ns) == before
        assert _wal_bytes(index_file) == 0
    finally:
        reader.close()
