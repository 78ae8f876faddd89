"""A Markdown table longer than ``index.chunk_chars`` is cut between rows, never inside one:
each chunk holds whole rows, so an option's name and its description stay together."""

from __future__ import annotations

from pathlib import Path

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from bot.knowledge.chunking import split_long

ROWS = [
    f"| option_{i} | {i * 10} | Controls behaviour number {i} of the worker, described at "
    "length so that the row is long |"
    for i in range(20)
]
TABLE = "| Name | Default | Description |\n|---|---|---|\n" + "\n".join(ROWS)


def test_a_long_table_is_cut_between_rows() -> None:
    pieces = split_long(TABLE, 400)
    assert len(pieces) > 1
    header = "| Name | Default | Description |\n|---|---|---|\n"
    assert all(piece.startswith(header) for piece in pieces)  # repeated after the first
    assert pieces[0] + "".join("\n" + piece.removeprefix(header) for piece in pieces[1:]) == TABLE
    for piece in pieces:
        assert len(piece) <= 400
        assert all(line.startswith("|") and line.endswith("|") for line in piece.split("\n"))


def test_prose_is_still_cut_at_sentence_ends() -> None:
    text = "First sentence here.\nIt wraps. " * 30
    assert all(piece.endswith(".") for piece in split_long(text.strip(), 200))


def test_an_ingested_wide_table_keeps_each_row_in_one_chunk(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "options.md").write_text(f"# Options\n\n{TABLE}\n", encoding="utf-8")
    config = tmp_path / "citecast.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n  chunk_chars: 500\n", encoding="utf-8"
    )
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    index = KnowledgeIndex(tmp_path / "index.db")
    try:
        sources = index.search("worker behaviour", limit=20)
    finally:
        index.close()
    assert len(sources) > 1
    rows = [line for source in sources for line in (source.text or "").split("\n")]
    assert sorted(row for row in rows if row.startswith("| option_")) == sorted(ROWS)
