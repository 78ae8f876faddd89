"""Each later chunk of a long Markdown pipe table opens with the table's header and delimiter
lines again, so that a row far down the table keeps its column names: in the stored chunk, and
so in the answer quoting it ("Setting: retries; Default: 5; …", not "retries; 5; …")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.knowledge import KnowledgeIndex
from bot.knowledge.chunking import chunk_blocks, split_long
from bot.knowledge.document import Block

HEADER = "| Setting | Default | Meaning |\n|---|---|---|"
ROWS = [
    f"| option_{i} | {i * 3} | How many times the worker tries step {i} again |" for i in range(60)
]
ROWS[47] = "| retries | 5 | attempts for a failed request |"
TABLE = HEADER + "\n" + "\n".join(ROWS)


def _stored_chunks(tmp_path: Path, text: str, chunk_chars: int) -> tuple[Path, list[str]]:
    """The config of an index that ``citecast ingest`` built from ``settings.md`` (``text``),
    and the chunks it stored for it, in order."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "settings.md").write_text(text, encoding="utf-8")
    config = tmp_path / "citecast.yaml"
    config.write_text(
        f"index:\n  path: {tmp_path / 'index.db'}\n  chunk_chars: {chunk_chars}\n",
        encoding="utf-8",
    )
    assert main(["--config", str(config), "ingest", str(docs)]) == 0
    index = KnowledgeIndex(tmp_path / "index.db")
    chunks: list[str] = []
    try:
        while (source := index.source(f"docs/settings.md#{len(chunks) + 1}")) is not None:
            chunks.append(source.text or "")
    finally:
        index.close()
    return config, chunks


def test_every_passage_of_an_ingested_long_table_opens_with_its_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = f"# Settings\n\nThe worker reads these settings.\n\n{TABLE}\n"
    config, chunks = _stored_chunks(tmp_path, page, 600)
    table_chunks = [chunk for chunk in chunks if "| option_" in chunk or "| retries" in chunk]
    assert len(table_chunks) > 3
    assert table_chunks[0].startswith("The worker reads these settings.\n\n" + HEADER + "\n")
    assert all(chunk.startswith(HEADER + "\n") for chunk in table_chunks[1:])
    assert all(len(chunk) <= 600 for chunk in chunks)
    rows = [line for chunk in table_chunks for line in chunk.partition(HEADER)[2].split("\n")[1:]]
    assert rows == ROWS  # every row once, whole, in order
    [later] = [chunk for chunk in table_chunks if "| retries |" in chunk]
    assert later != table_chunks[0]

    capsys.readouterr()
    assert main(["--config", str(config), "ask", "How many attempts for a failed request?"]) == 0
    answer = capsys.readouterr().out.partition("\n\nSources:\n")[0]
    assert "Setting: retries; Default: 5; Meaning: attempts for a failed request" in answer


def test_overlap_never_puts_rows_before_a_repeated_header() -> None:
    blocks = [Block("Intro. The worker reads these settings.", "S"), Block(TABLE, "S")]
    chunks = [chunk.text for chunk in chunk_blocks(blocks, 500, overlap=200)]
    assert all(chunk.startswith(HEADER) for chunk in chunks[1:])


def test_a_header_longer_than_half_a_passage_is_not_repeated() -> None:
    wide = "| " + " | ".join(f"Column number {i}" for i in range(14)) + " |"
    header = wide + "\n|" + "---|" * 14
    table = header + "\n" + "\n".join(ROWS)
    pieces = split_long(table, 600)
    assert len(pieces) > 2
    assert "\n".join(pieces) == table  # cut between rows as before, nothing repeated
    assert all(len(piece) <= 600 for piece in pieces)


def test_a_table_inside_fenced_code_in_plain_text_gets_no_header() -> None:
    text = "```\n" + TABLE + "\n```"
    pieces = split_long(text, 500)
    assert len(pieces) > 2
    assert not any(piece.startswith(HEADER) for piece in pieces[1:])
    assert "\n".join(pieces) == text


def test_prose_around_a_table_stays_with_it() -> None:
    text = "Intro sentence.\n" + TABLE + "\nClosing remark after the table."
    pieces = split_long(text, 700)
    assert pieces[0].startswith("Intro sentence.\n" + HEADER)
    assert pieces[-1].endswith(ROWS[-1] + "\nClosing remark after the table.")
    assert all(piece.startswith(HEADER) for piece in pieces[1:])
    assert all(len(piece) <= 700 for piece in pieces)


def test_a_row_too_long_for_a_passage_is_cut_as_text() -> None:
    long_row = "| huge | 1 | " + "word " * 200 + "|"
    table = HEADER + "\n" + ROWS[0] + "\n" + long_row + "\n" + ROWS[1]
    pieces = split_long(table, 300)
    assert all(len(piece) <= 300 for piece in pieces)
    assert pieces[0] == HEADER + "\n" + ROWS[0]
    assert pieces[-1] == HEADER + "\n" + ROWS[1]
    assert " ".join(pieces[1:-1]).split() == long_row.split()
