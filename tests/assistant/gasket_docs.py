"""Two documents for the reference-mark tests: a Markdown page and a text file whose one
sentence may carry the document's own bracketed number."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.knowledge import ingest

CHECKS = "# Gasket checks\n\nThe gasket is checked by the night crew every Friday.\n"


def gasket_settings(tmp_path: Path, sentence: str) -> Settings:
    """Settings whose index (under ``tmp_path``) holds ``gasket.md`` and ``refs.txt``, the
    latter "Tolerances" and ``sentence``."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "gasket.md").write_text(CHECKS, encoding="utf-8")
    (docs / "refs.txt").write_text(f"Tolerances\n\n{sentence}\n", encoding="utf-8")
    settings = Settings.model_validate({"index": {"path": str(tmp_path / "index.db")}})
    assert ingest([docs], settings.index).indexed == 2
    return settings
