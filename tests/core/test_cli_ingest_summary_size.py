"""The size the ingest summary shows is the index's: its file and its ``-wal``, not the ``-shm``.

Found by QA (newqa): the summary's "index …: N files, N chunks, N KB" added SQLite's ``-shm``
(a 32 KB map of the ``-wal`` that any reader makes, the summary's own read too) to the index's
size, so it never agreed with the index file the README says keeps its size, even right after
a run that moved everything into it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.knowledge import KnowledgeIndex
from tests.core.cli_runner import run_cli


def _shown_kb(out: str) -> int:
    found = re.search(r"^index .*: \d+ files?, \d+ chunks?, ([\d,]+) KB$", out, re.MULTILINE)
    assert found is not None, out
    return int(found[1].replace(",", ""))


def test_the_summary_shows_the_size_of_the_index_file_while_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nAbout apples.\n", encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, ["ingest", "docs"])
    assert code == 0, err
    index_file = tmp_path / ".citecast" / "index.db"
    reader = KnowledgeIndex(index_file)  # as `citecast serve` holds it open: -shm stays
    try:
        assert reader.search("apples")
        assert Path(f"{index_file}-shm").exists()
        code, out, err = run_cli(monkeypatch, capsys, ["ingest", "docs"])
        assert code == 0, err
        assert Path(f"{index_file}-wal").stat().st_size == 0
        assert _shown_kb(out) == round(index_file.stat().st_size / 1024)
    finally:
        reader.close()
