"""The re-read and rebuild commands the index's messages name, from its ``roots`` table.

Found on upgrade QA: ``serve`` said "run `citecast ingest PATH`" and the schema refusal
"`citecast ingest --rebuild PATH...` with the folders and files it holds", leaving the
operator to recall which folders the index was built from; and the warning did not say
that, until the re-read, a file the new reader makes private is still shown to everyone.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.errors import KnowledgeIndexError
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.ingest_command import ingest_command
from bot.knowledge.reader_age import older_reader_warning
from tests.knowledge.older_reader import as_an_older_citecast_read_it

EXPOSED = (
    "which reads some files differently: until they are read again, their audiences and "
    "links may be wrong (a file this citecast makes private may still be shown to everyone); "
)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def index(tmp_path: Path) -> Path:
    """An index of ``kb`` (then ``kb/guides`` again), ``my notes/x.md`` alone and ``gone``,
    a folder removed since."""
    _write(tmp_path / "kb" / "guides" / "setup.md", "# Setup\n\nHeron setup.\n")
    _write(tmp_path / "kb" / "faq.md", "# FAQ\n\nEgret answers.\n")
    _write(tmp_path / "my notes" / "x.md", "# X\n\nIbis notes.\n")
    _write(tmp_path / "gone" / "y.md", "# Y\n\nCrane notes.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    for root in ("kb", "kb/guides", "my notes/x.md", "gone"):
        ingest([tmp_path / root], settings)
    (tmp_path / "gone" / "y.md").unlink()
    (tmp_path / "gone").rmdir()
    return tmp_path / "index.db"


def test_serve_names_the_outermost_folders_holding_the_older_files(
    index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    as_an_older_citecast_read_it(index)
    monkeypatch.chdir(tmp_path)
    assert older_reader_warning(index, "/srv/cite cast/config.yaml") == (
        f"4 of 4 indexed files were read by an older citecast, {EXPOSED}run `citecast --config "
        "'/srv/cite cast/config.yaml' ingest kb 'my notes/x.md'` to re-read them (unchanged "
        "files are skipped)"
    )
    # only the folders that hold an older file, by their absolute path from elsewhere
    ingest([tmp_path / "kb"], IndexSettings(path=str(index)))
    monkeypatch.chdir(tmp_path / "kb")
    assert older_reader_warning(index) == (
        f"1 of 3 indexed files were read by an older citecast, {EXPOSED}run `citecast ingest "
        f"'{tmp_path}/my notes/x.md'` to re-read them (unchanged files are skipped)"
    )


def test_the_schema_refusal_names_the_rebuild_command(
    index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with sqlite3.connect(index) as conn:
        conn.execute("PRAGMA user_version = 3")
    conn.close()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KnowledgeIndexError) as caught:
        KnowledgeIndex(index)
    assert str(caught.value) == (
        f"{index} was built by an older citecast (schema 3, this one reads 6); rebuild it: "
        "`citecast ingest --rebuild kb 'my notes/x.md'`"
    )


def test_an_index_whose_folders_are_all_gone_keeps_the_placeholder(tmp_path: Path) -> None:
    assert ingest_command([]) == "citecast ingest PATH"
    assert ingest_command([], rebuild=True) == "citecast ingest --rebuild PATH..."
    _write(tmp_path / "kb" / "a.md", "# A\n\nAlpha.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([tmp_path / "kb"], settings)
    (tmp_path / "kb" / "a.md").unlink()
    (tmp_path / "kb").rmdir()
    with sqlite3.connect(settings.path) as conn:
        conn.execute("PRAGMA user_version = 5")
    conn.close()
    with pytest.raises(KnowledgeIndexError, match=r"rebuild it: `citecast ingest --rebuild PATH"):
        KnowledgeIndex(settings.path)
