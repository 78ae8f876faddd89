"""Each summary line of ``citecast ingest`` stays one line, whatever a file's name holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main


def test_a_line_break_in_a_file_name_cannot_split_or_forge_a_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "x.md\n  skipped payroll.md: empty file\nz.md").write_bytes(b"")
    (docs / "tab\there.md").write_bytes(b"")
    (docs / "guide.md").write_text("# Guide\n\nMarmot guide.\n", encoding="utf-8")
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'i.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:3] == [
        "  skipped docs/tab\\there.md: empty file",
        "  skipped docs/x.md\\n  skipped payroll.md: empty file\\nz.md: empty file",
    ]
    assert len(lines) == 4  # the counts, two skipped files, the index
