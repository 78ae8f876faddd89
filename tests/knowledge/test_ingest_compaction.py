"""The index gives back the space a run freed when that is a large share of it.

Found by QA: removing a 20 MB file from the knowledge base left the 30 MB index at 30 MB: SQLite
keeps deleted rows' pages in the file. A run that leaves a quarter of the index free (and at
least a megabyte) now compacts it, and says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.compaction import MIN_FREE_BYTES
from tests.core.cli_runner import run_cli


def _kb(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    (kb / "old").mkdir(parents=True)
    (kb / "keep.md").write_text("# Keep\n\nThe heron desk opens at nine.\n")
    for n in range(12):  # about 1.2 MB of passages, then removed
        words = " ".join(f"word{n}x{i}" for i in range(10_000))
        (kb / "old" / f"log{n}.md").write_text(f"# Log {n}\n\n{words}.\n")
    return kb


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def test_a_run_that_removed_most_of_the_index_compacts_it(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb], settings)
    before = _size(tmp_path / "index.db")
    for log in (kb / "old").iterdir():
        log.unlink()
    report = ingest([kb], settings)
    assert report.removed == 12
    assert report.compacted > MIN_FREE_BYTES
    assert _size(tmp_path / "index.db") < before - MIN_FREE_BYTES
    index = KnowledgeIndex(settings.path)
    try:
        assert [s.filename for s in index.search("heron desk")] == ["keep.md"]
        assert index.search("word3x17") == []
    finally:
        index.close()


def test_a_run_that_removed_little_leaves_the_file_as_it_is(tmp_path: Path) -> None:
    kb = _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([kb], settings)
    (kb / "old" / "log0.md").unlink()
    report = ingest([kb], settings)
    assert (report.removed, report.compacted) == (1, 0)


def test_the_ingest_command_says_it_compacted_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kb = _kb(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.yaml").write_text("index:\n  path: index.db\n")
    assert run_cli(monkeypatch, capsys, ["ingest", "kb"])[0] == 0
    for log in (kb / "old").iterdir():
        log.unlink()
    code, out, err = run_cli(monkeypatch, capsys, ["ingest", "kb"])
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("1 file: 0 indexed, 1 unchanged, 0 skipped, 12 removed")
    assert lines[-2].startswith("index compacted: ")
    assert lines[-2].endswith(" KB that this run freed given back to the disk (VACUUM)")
    assert lines[-1].startswith("index index.db: 1 file, 1 chunk, ")
