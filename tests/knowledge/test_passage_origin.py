"""``found_in_index`` tells a passage the knowledge index returned from an answerer's own source
for a file, from the stored source alone (``bot.knowledge.passage_origin``): the rule that a
file whose folder the index no longer covers was dropped with it depends on it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.passage_origin import found_in_index
from bot.models import Source


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_every_passage_the_index_returns_is_found_in_it(tmp_path: Path) -> None:
    # two guide.md under folders of the same name: the second gets more parent folders
    write(tmp_path / "a" / "docs" / "guide.md", "# Guide\n\nThe alpha depot opens in May.\n")
    write(tmp_path / "b" / "docs" / "guide.md", "# Guide\n\nThe beta depot opens in June.\n")
    single = write(tmp_path / "c" / "notes.md", "# Notes\n\nThe gamma depot opens in July.\n")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    ingest([tmp_path / "a" / "docs", tmp_path / "b" / "docs", single], settings)
    index = KnowledgeIndex(tmp_path / "index.db")
    found = [index.search(f"{name} depot")[0] for name in ("alpha", "beta", "gamma")]
    assert [source.id for source in found] == ["docs/guide.md#1", "b/docs/guide.md#1", "notes.md#1"]
    assert all(found_in_index(source) for source in found)
    # as stored with an answer and read back
    assert all(found_in_index(Source.from_json(source.to_json())) for source in found)


def test_an_answerers_own_source_for_a_file_is_not_found_in_the_index() -> None:
    passage = Source(id="kb/hr/pay.md#2", path="/srv/kb/hr/pay.md", chunk=2, kind="passage")
    assert found_in_index(passage)
    assert found_in_index(dataclasses.replace(passage, id="/srv/kb/hr/pay.md#2"))
    others = [
        dataclasses.replace(passage, kind="file"),  # a whole file, as web.file_roots serves it
        dataclasses.replace(passage, chunk=None),
        dataclasses.replace(passage, path=None),
        dataclasses.replace(passage, id="pay"),  # the answerer's own id
        dataclasses.replace(passage, id="kb/hr/pay.md#3"),  # not its chunk
        dataclasses.replace(passage, id="kb/hr/pay.md"),
        dataclasses.replace(passage, id="#2"),
        dataclasses.replace(passage, id="r/pay.md#2"),  # not the end of its path by folders
        dataclasses.replace(passage, id="kb/hr/other.md#2"),
    ]
    assert [found_in_index(source) for source in others] == [False] * len(others)
