"""``citecast ingest --rebuild`` leaves no side files of the new index it built.

Found by QA (newqa): every successful rebuild left ``.citecast/index.db.new-PID-shm`` and
``-wal`` behind. The new index is built under that name and moved into place; the writer's
own side files went when it closed, but the run then looked at the new index read-only (which
files it dropped, whose audience it narrowed), and a read-only connection cannot delete the
``-wal`` and ``-shm`` it makes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runner import run_cli


def _left(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / ".citecast").iterdir() if ".new-" in p.name)


def test_a_rebuild_leaves_no_side_files_of_its_new_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\nAbout apples.\n", encoding="utf-8")
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "b.md").write_text("# B\n\nAbout bananas.\n", encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, ["ingest", "docs", "old"])
    assert code == 0, err
    code, out, err = run_cli(monkeypatch, capsys, ["ingest", "--rebuild", "docs"])
    assert code == 0, err
    assert "1 removed" in out  # the old index was read, and so was the new one
    assert _left(tmp_path) == []
    code, out, err = run_cli(monkeypatch, capsys, ["ask", "apples"])
    assert (code, "apples" in out.lower()) == (0, True), err
