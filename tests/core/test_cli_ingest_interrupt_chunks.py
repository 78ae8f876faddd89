"""Ctrl-C while one large text file is being cut into passages stops there, not at its end.

A 45 MB log has no next file and no pages: the stop used to wait for the whole file. It is now
checked between passages too, and the file being read is left out whole, as a PDF is.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.knowledge
from bot.cli import main
from tests.core.ingest_signals import config, leftovers

__all__ = ["config"]  # fixture


def signal_at_passage(monkeypatch: pytest.MonkeyPatch, passage: int) -> list[int]:
    """Make the next ``ingest`` receive SIGINT before its ``passage``-th passage; returns the
    list of passages the run went on to ask about (one per check)."""
    real = bot.knowledge.ingest
    asked: list[int] = []

    def ingest(*args: Any, on_chunk: Callable[[], None] | None = None, **kwargs: Any) -> Any:
        def signalling() -> None:
            asked.append(len(asked) + 1)
            if len(asked) == passage:
                os.kill(os.getpid(), signal.SIGINT)
            if on_chunk is not None:
                on_chunk()

        return real(*args, on_chunk=signalling, **kwargs)

    monkeypatch.setattr(bot.knowledge, "ingest", ingest)
    return asked


def test_ctrl_c_inside_one_large_file_stops_between_its_passages(
    tmp_path: Path,
    config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    lines = (f"2026-11-30 12:{n % 60:02d} worker {n} finished its job." for n in range(4000))
    (docs / "server.log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    asked = signal_at_passage(monkeypatch, 3)
    assert main(["--config", str(config), "ingest", str(docs)]) == 130
    assert len(asked) == 3  # it stopped at once, not after the file's 100-odd passages
    assert capsys.readouterr().err == (
        "citecast ingest: interrupted after 0 of 1 file; no index was written\n"
    )
    assert not (tmp_path / "kb" / "index.db").exists()
    assert leftovers(tmp_path) == []
