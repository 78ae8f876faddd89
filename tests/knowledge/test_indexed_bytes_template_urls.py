"""A file whose own URL won over an ``index.url_templates`` one is still found unchanged.

Ingest fingerprints a file with the URL its template gives it, then cites it at its own URL
(front matter ``url:``, an HTML canonical link) when it has one. The check of ``/files/``
tried the stored URL and none, never the template's: such a file, unchanged, was refused
until it had no own URL any more, and links to it from reading pages were text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import ingest
from bot.knowledge.indexed_bytes import IndexedBytes

TEMPLATES = {"*.md": "https://docs.example.com/{stem}", "*.html": "https://docs.example.com/{stem}"}
FILES = {
    "absolute front matter": (
        "guide.md",
        "---\nurl: https://elsewhere.example.org/guide\n---\n# Guide\n\nThe depot opens in June.\n",
    ),
    "relative front matter": (
        "guide.md",
        "---\nurl: ../moved/guide\n---\n# Guide\n\nThe depot opens in June.\n",
    ),
    "canonical link": (
        "guide.html",
        '<html><head><title>Guide</title><link rel="canonical" '
        'href="https://elsewhere.example.org/guide"></head>'
        "<body><p>The depot opens in June.</p></body></html>",
    ),
}


@pytest.mark.parametrize("kind", list(FILES))
def test_a_file_whose_own_url_won_over_a_template_is_unchanged(tmp_path: Path, kind: str) -> None:
    name, text = FILES[kind]
    docs = tmp_path / "docs" / "guides"
    docs.mkdir(parents=True)
    file = docs / name
    file.write_text(text, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"), url_templates=TEMPLATES)
    ingest([tmp_path / "docs"], settings)
    assert IndexedBytes(settings).unchanged(file.resolve())
    judged = IndexedBytes(settings).judged(file.resolve())
    assert judged is not None
    with judged:
        assert judged.read_at(0, 1 << 20) == text.encode("utf-8")
    # and still only while it holds those bytes
    file.write_text(text.replace("June", "July"), encoding="utf-8")
    assert not IndexedBytes(settings).unchanged(file.resolve())


def test_a_template_the_config_no_longer_has_leaves_it_changed(tmp_path: Path) -> None:
    name, text = FILES["absolute front matter"]
    (tmp_path / "docs").mkdir()
    file = tmp_path / "docs" / name
    file.write_text(text, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"), url_templates=TEMPLATES)
    ingest([tmp_path / "docs"], settings)
    other = settings.model_copy(
        update={"url_templates": {"*.md": "https://new.example.com/{stem}"}}
    )
    # nothing is served on a guess: judged again by the next ingest
    assert not IndexedBytes(other).unchanged(file.resolve())
