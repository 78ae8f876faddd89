"""The progress bar shows while one long PDF is read, though a run of a few files has none."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress, TaskID, TextColumn

import bot.commands.output
from bot.cli import main
from tests.knowledge.conftest import PdfBuilder


class _EveryUpdate(Progress):
    """A bar drawn at every update, so each description it showed is in the output."""

    def update(self, task_id: TaskID, **fields: object) -> None:
        super().update(task_id, **fields)  # type: ignore[arg-type]
        self.refresh()


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, docs: Path) -> str:
    screen = io.StringIO()

    def progress_bar(verb: str, show: bool) -> Progress:
        # the real bar, on a terminal of its own (pytest's stderr is not one)
        console = Console(file=screen, force_terminal=True, width=200)
        return _EveryUpdate(
            TextColumn("{task.description}"), console=console, auto_refresh=False, disable=not show
        )

    monkeypatch.setattr(bot.commands.output, "progress_bar", progress_bar)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    return screen.getvalue()


def test_one_long_pdf_shows_its_pages_as_they_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, build_pdf: PdfBuilder
) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    pages = [(f"Part {n}", [f"The heron manual, part {n}."]) for n in range(1, 26)]
    (docs / "manual.pdf").write_bytes(build_pdf(pages))
    shown = _run(tmp_path, monkeypatch, docs)
    assert "kb/manual.pdf (page 25 of 25)" in shown


def test_a_few_short_files_show_no_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "a.md").write_text("Heron.\n", encoding="utf-8")
    (docs / "b.md").write_text("Egret.\n", encoding="utf-8")
    assert "kb/" not in _run(tmp_path, monkeypatch, docs)
