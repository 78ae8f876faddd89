"""Small knowledge bases for the answerer's tests, built and asked through the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

TRAVEL = """# Travel and expenses

## Limits

| Expense | Limit per day | Receipt needed |
|---|---|---|
| Hotel | 140 EUR | yes |
| Meals | 45 EUR | over 10 EUR |
| Taxi | 60 EUR | yes |

Expenses are reimbursed with the next monthly salary payment.
"""
"""A travel policy whose limits are a Markdown table (its header row names every column)."""


def ingested(tmp_path: Path, documents: dict[str, str], *, records: str = "") -> Path:
    """A config file whose index holds ``documents`` (file name -> text), ingested by
    ``citecast ingest``; ``records`` is YAML appended under ``index:`` (``  records: …``)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in documents.items():
        (docs / name).write_text(text, encoding="utf-8")
    path = tmp_path / "config.yaml"
    path.write_text(f"index:\n  path: {tmp_path / 'index.db'}\n{records}", encoding="utf-8")
    assert main(["--config", str(path), "ingest", str(docs)]) == 0
    return path


def ask(config: Path, question: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """``citecast ask``'s answer text and its Sources list."""
    capsys.readouterr()
    assert main(["--config", str(config), "ask", question]) == 0
    text, _, sources = capsys.readouterr().out.partition("\n\nSources:\n")
    return text.strip(), sources.strip()
