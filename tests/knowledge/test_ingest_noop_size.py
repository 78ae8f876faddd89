"""An ingest run that changes nothing writes nothing, so the index does not grow.

Found by QA: the index grew on runs that changed nothing (1,245 -> 1,257 -> 1,265 KB). Each run
stamped every unchanged file's row with the run's number (to find the files it did not see),
so a no-op run rewrote the whole ``files`` table. With ``citecast serve`` reading the index,
SQLite cannot reset its write-ahead log (``-wal``), so each such run added those pages to it,
and the size the summary shows counts the ``-wal`` file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest


def _kb(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    for n in range(120):
        folder = kb / f"part{n % 4}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note{n}.md").write_text(
            f"# Note {n}\n\nHerons wade in pond number {n}.\n", encoding="utf-8"
        )
    return kb


def _on_disk(path: Path) -> tuple[int, int]:
    wal = Path(f"{path}-wal")
    return path.stat().st_size, wal.stat().st_size if wal.exists() else 0


def test_runs_that_change_nothing_leave_the_index_as_it_is_while_it_is_read(
    tmp_path: Path,
) -> None:
    kb = _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    assert ingest([kb], settings).indexed == 120
    reader = KnowledgeIndex(settings.path)  # as `citecast serve` holds it open
    try:
        assert reader.search("herons pond")
        before = _on_disk(Path(settings.path))
        shown = reader.stats().size_bytes
        for _ in range(3):
            report = ingest([kb], settings)
            assert (report.unchanged, report.indexed, report.removed) == (120, 0, 0)
            assert _on_disk(Path(settings.path)) == before
            assert reader.stats().size_bytes == shown
    finally:
        reader.close()


def test_a_run_that_changes_nothing_commits_nothing(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([kb], settings)
    watcher = sqlite3.connect(settings.path)  # data_version moves when another one commits
    try:
        version = int(watcher.execute("PRAGMA data_version").fetchone()[0])
        ingest([kb], settings)
        assert int(watcher.execute("PRAGMA data_version").fetchone()[0]) == version
    finally:
        watcher.close()


def test_files_gone_from_a_folder_are_still_removed(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([kb], settings)
    (kb / "part1" / "note1.md").unlink()
    (kb / "part2" / "note2.md").write_text("# Note 2\n\nEgrets now.\n", encoding="utf-8")
    report = ingest([kb], settings)
    assert (report.unchanged, report.indexed, report.removed) == (118, 1, 1)
    again = ingest([kb / "part3"], settings)  # a subfolder alone keeps the rest
    assert (again.unchanged, again.removed) == (30, 0)
    index = KnowledgeIndex(settings.path)
    try:
        assert index.stats().files == 119
    finally:
        index.close()


def test_a_run_that_wrote_leaves_no_write_ahead_log_behind_a_reader(tmp_path: Path) -> None:
    """What a run wrote is moved into the index file at its end, even with a server reading:
    its -wal otherwise kept every page of every run and the size shown grew with it."""
    kb = _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([kb], settings)
    reader = KnowledgeIndex(settings.path)
    try:
        assert reader.search("herons pond")
        for n in range(3):
            (kb / "part0" / "note0.md").write_text(f"# Note 0\n\nEgrets {n}.\n", encoding="utf-8")
            assert ingest([kb], settings).indexed == 1
            assert _on_disk(Path(settings.path))[1] == 0
            [found] = reader.search("egrets")  # the reader sees the run's writes
            assert found.text == f"Egrets {n}."
    finally:
        reader.close()
