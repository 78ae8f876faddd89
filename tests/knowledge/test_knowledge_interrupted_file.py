"""A run stopped half-way through a file (a second Ctrl-C, a crash) never leaves that file half
indexed: its passages are written whole or not at all, and the next run reads it again."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest

# the module, not the function bot.knowledge exports under the same name
ingest_module = importlib.import_module("bot.knowledge.ingest_file")
TWO_SECTIONS = "# A\n\n## One\n\nAlpha text here.\n\n## Two\n\nBeta text there.\n"


def test_a_file_cut_off_half_way_is_read_again_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text(TWO_SECTIONS)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    whole = ingest_module.chunk_blocks

    def cut_after_the_first_passage(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for i, chunk in enumerate(whole(*args, **kwargs)):
            if i == 1:
                raise KeyboardInterrupt  # the user's second Ctrl-C, mid-file
            yield chunk

    monkeypatch.setattr(ingest_module, "chunk_blocks", cut_after_the_first_passage)
    with pytest.raises(KeyboardInterrupt):
        ingest([docs], settings)
    monkeypatch.setattr(ingest_module, "chunk_blocks", whole)
    assert KnowledgeIndex(settings.path).stats().chunks == 0  # nothing half-written stays

    again = ingest([docs], settings)
    assert (again.indexed, again.unchanged) == (1, 0)
    assert KnowledgeIndex(settings.path).stats().chunks == 2
