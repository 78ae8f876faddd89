"""Source ids are unique per file, so a turn never merges two files into one citation."""

from __future__ import annotations

from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.models import Source
from bot.registry import SourceRegistry


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _by_path(index: KnowledgeIndex, query: str) -> dict[str, Source]:
    return {source.path or "": source for source in index.search(query, limit=10)}


def test_files_of_the_same_name_ingested_alone_get_their_own_ids(tmp_path: Path) -> None:
    _write(tmp_path / "p1" / "README.md", "# One\n\nThe quokka project one.\n")
    _write(tmp_path / "p2" / "README.md", "# Two\n\nThe quokka project two.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([tmp_path / "p1" / "README.md", tmp_path / "p2" / "README.md"], settings)
    index = KnowledgeIndex(settings.path)
    found = _by_path(index, "quokka")
    one, two = found[str(tmp_path / "p1" / "README.md")], found[str(tmp_path / "p2" / "README.md")]
    assert (one.id, two.id) == ("README.md#1", "p2/README.md#1")
    assert index.source(one.id) == one and index.source(two.id) == two

    registry = SourceRegistry(frozenset({"public"}))
    assert (registry.register(one), registry.register(two)) == (1, 2)


def test_folders_of_the_same_name_get_their_own_ids_and_keep_them(tmp_path: Path) -> None:
    for team in ("a", "b"):
        _write(tmp_path / team / "docs" / "guide.md", f"# Guide\n\nThe wombat guide of {team}.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([tmp_path / "a" / "docs", tmp_path / "b" / "docs"], settings)
    index = KnowledgeIndex(settings.path)
    ids = {path: source.id for path, source in _by_path(index, "wombat").items()}
    a_guide, b_guide = str(tmp_path / "a/docs/guide.md"), str(tmp_path / "b/docs/guide.md")
    assert ids == {a_guide: "docs/guide.md#1", b_guide: "b/docs/guide.md#1"}
    by_id = index.source("b/docs/guide.md#1")
    assert by_id is not None and by_id.path == b_guide

    # Changed and ingested alone, each keeps its id (the other still holds the plain one).
    _write(tmp_path / "b" / "docs" / "guide.md", "# Guide\n\nThe wombat guide of b, revised.\n")
    _write(tmp_path / "a" / "docs" / "guide.md", "# Guide\n\nThe wombat guide of a, revised.\n")
    assert ingest([tmp_path / "b" / "docs"], settings).indexed == 1
    assert ingest([tmp_path / "a" / "docs" / "guide.md"], settings).indexed == 1
    ids = {path: source.id for path, source in _by_path(index, "wombat revised").items()}
    assert ids == {a_guide: "docs/guide.md#1", b_guide: "b/docs/guide.md#1"}


def test_a_file_reingested_through_a_subfolder_keeps_its_id(tmp_path: Path) -> None:
    _write(tmp_path / "kb" / "sub" / "note.md", "# Note\n\nThe numbat note.\n")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    ingest([tmp_path / "kb"], settings)
    index = KnowledgeIndex(settings.path)
    [before] = index.search("numbat")
    assert before.id == "kb/sub/note.md#1"
    _write(tmp_path / "kb" / "sub" / "note.md", "# Note\n\nThe numbat note, changed.\n")
    assert ingest([tmp_path / "kb" / "sub"], settings).indexed == 1
    [after] = index.search("numbat")
    assert after.id == "kb/sub/note.md#1" and "changed" in (after.text or "")
