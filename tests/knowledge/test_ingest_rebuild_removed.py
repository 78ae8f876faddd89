"""``--rebuild`` counts the files it dropped: what the old index held and the new one does not.

Found by QA: ``citecast ingest --rebuild docs`` after ``citecast ingest docs handbook``
reported "0 removed" although the handbook's files were gone from the index.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.config import IndexSettings
from bot.knowledge import ingest


def _kb(tmp_path: Path) -> None:
    for folder, name in (("docs", "setup.md"), ("docs", "faq.md"), ("handbook", "pay.md")):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_text(f"# {name}\n\nAbout {name}.\n", encoding="utf-8")


def test_the_command_counts_the_files_a_rebuild_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    _kb(tmp_path)
    assert main(["ingest", "docs", "handbook"]) == 0
    capsys.readouterr()
    assert main(["ingest", "--rebuild", "docs"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        "2 files: 2 indexed, 0 unchanged, 0 skipped, 1 removed; 2 chunks and 0 PDF pages written"
    )
    # the same rebuild again drops nothing more
    assert main(["ingest", "--rebuild", "docs"]) == 0
    assert ", 0 removed;" in capsys.readouterr().out.splitlines()[0]


def test_a_first_build_removes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITECAST_CONFIG", raising=False)
    _kb(tmp_path)
    assert main(["ingest", "--rebuild", "docs"]) == 0
    assert ", 0 removed;" in capsys.readouterr().out.splitlines()[0]


def test_the_library_counts_them_too(tmp_path: Path) -> None:
    _kb(tmp_path)
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([tmp_path / "docs", tmp_path / "handbook"], settings)
    (tmp_path / "docs" / "faq.md").unlink()
    report = ingest([tmp_path / "docs"], settings, rebuild=True)
    assert (report.indexed, report.removed) == (1, 2)
