"""What the tests of a signal during ``citecast ingest`` share: a folder of small documents, a
config whose index lies in its own folder, and a way to signal the run at a chosen file."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.knowledge

FILES = 30


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """``FILES`` Markdown files, each a heading and a sentence."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for number in range(FILES):
        (folder / f"doc{number:02d}.md").write_text(
            f"# Heron {number}\n\nHerons of kind {number} wade in shallow water.\n",
            encoding="utf-8",
        )
    return folder


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A config.yaml putting the index at ``kb/index.db``."""
    path = tmp_path / "config.yaml"
    path.write_text(f"index:\n  path: {tmp_path / 'kb' / 'index.db'}\n", encoding="utf-8")
    return path


def signal_after(monkeypatch: pytest.MonkeyPatch, files: int, signums: list[int]) -> None:
    """Make the next ``ingest`` receive ``signums`` (SIGINT as from Ctrl-C, SIGTERM as from
    ``kill``) while reading file ``files``."""
    real = bot.knowledge.ingest

    def ingest(*args: Any, on_file: Callable[[str], None] | None = None, **kwargs: Any) -> Any:
        seen = 0

        def signalling(name: str) -> None:
            nonlocal seen
            seen += 1
            if on_file is not None:
                on_file(name)
            if seen == files:
                for signum in signums:
                    os.kill(os.getpid(), signum)

        return real(*args, on_file=signalling, **kwargs)

    monkeypatch.setattr(bot.knowledge, "ingest", ingest)


def leftovers(tmp_path: Path) -> list[str]:
    """The names of unfinished new indexes (``index.db.new-…``) beside the index."""
    return sorted(p.name for p in (tmp_path / "kb").iterdir() if ".new-" in p.name)
