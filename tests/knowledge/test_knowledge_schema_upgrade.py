"""An index of schema 3 (before page maps) is refused with the rebuild command (DESIGN §8);
the rebuilt index has the maps."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.page_spans import narrow_source
from tests.knowledge.conftest import PdfBuilder

PAGE_TWO = "Walruses haul out on drifting ice floes to rest between their long dives."


@pytest.fixture
def old_index(tmp_path: Path, build_pdf: PdfBuilder) -> IndexSettings:
    """An index as citecast with schema 3 wrote it: no page map column, version 3."""
    pdf = build_pdf([("Notes", ["Otters sleep holding hands at night."]), ("Notes", [PAGE_TWO])])
    (tmp_path / "pdfs").mkdir()
    (tmp_path / "pdfs" / "animals.pdf").write_bytes(pdf)
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([tmp_path / "pdfs"], settings)
    with sqlite3.connect(settings.path) as conn:
        conn.execute("ALTER TABLE chunks DROP COLUMN page_starts")
        conn.execute("PRAGMA user_version = 3")
    return settings


def test_a_schema_3_index_is_refused_with_the_rebuild_command(
    old_index: IndexSettings, tmp_path: Path
) -> None:
    hint = (
        r"older citecast \(schema 3, this one reads 6\); "
        r"rebuild it: `citecast ingest --rebuild /\S+`"
    )
    with pytest.raises(KnowledgeIndexError, match=hint):
        KnowledgeIndex(old_index.path)
    with pytest.raises(KnowledgeIndexError, match=hint):
        ingest([tmp_path / "pdfs"], old_index)


def test_the_rebuilt_index_points_citations_at_the_quoted_page(
    old_index: IndexSettings, tmp_path: Path
) -> None:
    ingest([tmp_path / "pdfs"], old_index, rebuild=True)
    index = KnowledgeIndex(old_index.path)
    [chunk] = index.search("walruses")
    assert (chunk.page, chunk.page_end) == (1, 2)
    assert narrow_source(chunk, PAGE_TWO, index.page_starts(chunk)).page == 2


def test_an_empty_file_is_not_taken_for_an_old_index(tmp_path: Path) -> None:
    # it used to say "built by an older citecast (schema 0, ...)"
    path = tmp_path / "index.db"
    path.write_bytes(b"")
    with pytest.raises(KnowledgeIndexError, match=r"is not a citecast index \(an empty database\)"):
        KnowledgeIndex(str(path))


def test_another_programs_database_names_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "index.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.close()
    with pytest.raises(KnowledgeIndexError) as caught:
        KnowledgeIndex(str(path))
    # a rebuild would refuse to replace it, so the message must not suggest one
    assert str(caught.value).endswith(
        "is not a citecast index (tables: invoices); set index.path to a new file, or remove"
        " this one if nothing needs it"
    )


def test_an_index_missing_its_search_table_is_called_damaged(
    old_index: IndexSettings, tmp_path: Path
) -> None:
    # it used to say "built by a newer citecast"
    ingest([tmp_path / "pdfs"], IndexSettings(path=str(tmp_path / "new.db")))
    with sqlite3.connect(tmp_path / "new.db") as conn:
        conn.execute("DROP TABLE chunks_fts")
    conn.close()
    with pytest.raises(KnowledgeIndexError, match=r"is damaged \(no chunks_fts table\); rebuild"):
        KnowledgeIndex(str(tmp_path / "new.db"))
