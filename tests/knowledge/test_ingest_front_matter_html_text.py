"""Front matter in HTML and plain-text files (Jekyll and Hugo pages) is read like Markdown's:
its audience keeps the page private, and the block is never indexed as text."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.html_reader import read_html

# The package exports the function `ingest` under the module's name.
ingest_module = importlib.import_module("bot.knowledge.ingest_file")

YAML_HTML = (
    "---\ntitle: Payroll\naudience: [hr]\nurl: https://hr.example/pay\n---\n"
    "<html><body><h1>Salaries</h1><p>The ostrich salary band is 90000 euros.</p></body></html>\n"
)
TOML_TEXT = '+++\ntitle = "Bonus"\naudience = ["hr"]\n+++\nThe pelican bonus pool is 12000 euros.\n'


def _ingest_one(tmp_path: Path, name: str, text: str) -> tuple[KnowledgeIndex, int]:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / name).write_text(text, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    report = ingest([kb], settings)
    return KnowledgeIndex(settings.path), report.indexed


def test_an_html_page_with_front_matter_audience_never_reaches_the_public(
    tmp_path: Path,
) -> None:
    index, indexed = _ingest_one(tmp_path, "pay.html", YAML_HTML)
    assert indexed == 1
    assert index.search("ostrich salary") == []
    [found] = index.search("ostrich salary", audience={"hr"})
    assert (found.audience, found.title, found.url) == (
        ("hr",),
        "Payroll",
        "https://hr.example/pay",
    )
    assert "audience" not in (found.text or "")


@pytest.mark.parametrize("name", ["bonus.txt", "bonus.rst"])
def test_a_text_file_with_front_matter_audience_never_reaches_the_public(
    tmp_path: Path, name: str
) -> None:
    index, indexed = _ingest_one(tmp_path, name, TOML_TEXT)
    assert indexed == 1
    assert index.search("pelican bonus") == []
    [found] = index.search("pelican bonus", audience={"hr"})
    assert (found.audience, found.title, found.text) == (
        ("hr",),
        "Bonus",
        "The pelican bonus pool is 12000 euros.",
    )


def test_an_empty_front_matter_audience_in_html_skips_the_page(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pay.html").write_text(YAML_HTML.replace("[hr]", "[]"), encoding="utf-8")
    report = ingest([kb], IndexSettings(path=str(tmp_path / "i.db")))
    [skipped] = report.skipped
    assert skipped.path == "kb/pay.html" and "audience" in skipped.reason
    assert report.indexed == 0


def test_a_restructuredtext_title_between_rules_stays_text(tmp_path: Path) -> None:
    # "---" over and under a three-letter title is reStructuredText, not front matter
    index, indexed = _ingest_one(tmp_path, "faq.rst", "---\nFAQ\n---\n\nThe heron eats fish.\n")
    assert indexed == 1
    [found] = index.search("heron")
    assert found.audience == ("public",) and "heron" in (found.text or "")


def test_an_index_that_took_html_front_matter_for_text_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index written before HTML front matter was read holds the page as public text; the
    next run re-reads it (the reader version is part of every fingerprint)."""
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pay.html").write_text(YAML_HTML, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    as_text = read_html(YAML_HTML, "pay.html")
    with monkeypatch.context() as old:
        old.setattr(ingest_module, "READER_VERSION", "4")
        old.setattr(ingest_module, "read_document", lambda path, data: as_text)
        assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    assert {s.filename for s in index.search("ostrich salary")} == {"pay.html"}
    assert ingest([kb], settings).indexed == 1
    assert index.search("ostrich salary") == []
