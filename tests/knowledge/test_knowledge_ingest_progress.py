"""The ingest progress bar shows file names as they are, whatever brackets they hold."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress, TaskID, TextColumn

import bot.commands.output
from bot.cli import main


class _EveryUpdate(Progress):
    """A bar drawn at every update, so each file name it showed is in the output."""

    def update(self, task_id: TaskID, **fields: object) -> None:
        super().update(task_id, **fields)  # type: ignore[arg-type]
        self.refresh()


def test_file_names_with_brackets_are_shown_not_read_as_markup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "kb"
    (docs / "notes [").mkdir(parents=True)
    (docs / "[draft]").mkdir()
    for number in range(20):
        (docs / f"doc{number:02d}.md").write_text(f"Heron {number}.\n", encoding="utf-8")
    # the folder "notes [" and the file "i] draft.md": "[/i]" would close a tag never opened
    (docs / "notes [" / "i] draft.md").write_text("Heron notes.\n", encoding="utf-8")
    (docs / "[draft]" / "z.md").write_text("Heron draft.\n", encoding="utf-8")
    screen = io.StringIO()

    def progress_bar(verb: str, show: bool) -> Progress:
        # the real bar, on a terminal of its own (pytest's stderr is not one)
        console = Console(file=screen, force_terminal=True, width=200)
        return _EveryUpdate(TextColumn("{task.description}"), console=console, auto_refresh=False)

    monkeypatch.setattr(bot.commands.output, "progress_bar", progress_bar)
    config = tmp_path / "config.yaml"
    config.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n", encoding="utf-8")
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    shown = screen.getvalue()
    assert "kb/[draft]/z.md" in shown and "kb/notes [/i] draft.md" in shown
