"""The /files/ reading page holds each indexed sentence as the index quotes it, and no more:
a footnote mark or an MDX expression the index leaves out made the citation's ``#:~:text=``
quote match nothing on the page, so the link neither scrolled nor highlighted; the front
matter of a text or HTML file (which ingest reads as metadata) was shown as text."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from bot.filetokens import FileSigner
from bot.knowledge.readers import read_document
from bot.models import Source
from tests.connectors.web.test_web_file_viewer import PUBLIC, harness, kb_dir


def _token(signer: FileSigner, path: Path, media_type: str = "text/markdown") -> str:
    source = Source(
        id=str(path), path=str(path), filename=path.name, kind="file", media_type=media_type
    )
    issued = signer.token_for(source, PUBLIC)
    assert issued is not None
    return issued


def _shown(page: str) -> str:
    """The page's text as a text fragment matches it: no tags, runs of spaces as one (generated
    content, such as a footnote mark's, is not in it)."""
    main = page[page.index("<main") :]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", main)))


async def _page(
    tmp_path: Path, name: str, text: str, media_type: str = "text/markdown"
) -> tuple[list[str], str]:
    kb = kb_dir(tmp_path)
    (kb / name).write_text(text, encoding="utf-8")
    indexed = [b.text for b in read_document(kb / name, (kb / name).read_bytes()).blocks]
    signer, client = harness(tmp_path, kb)
    async with client:
        page = await client.get(f"/files/{_token(signer, kb / name, media_type)}")
    assert page.status_code == 200
    return indexed, page.text


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("notes.md", "# Notes\n\nThe footnote vole has a note[^1] attached to it.\n\n[^1]: Why.\n"),
        ("named.md", "# Notes\n\nThe vole has a named[^why] note here.\n\n[^why]: Because.\n"),
        ("rel.mdx", "# Release\n\nThe vole release {props.version} is out today for all users.\n"),
    ],
)
async def test_the_reading_page_holds_each_indexed_sentence_as_the_index_quotes_it(
    tmp_path: Path, name: str, text: str
) -> None:
    indexed, page = await _page(tmp_path, name, text)
    shown = _shown(page)
    for sentence in indexed:
        assert sentence in shown, (sentence, shown)


async def test_a_footnote_mark_is_still_seen_and_code_keeps_its_text(tmp_path: Path) -> None:
    text = "# Notes\n\nA note[^1] here and `x[^2]` in code.\n\n```\ny[^3] {a}\n```\n"
    _, page = await _page(tmp_path, "code.mdx", text)
    assert '<sup class="cc-fn" title="[^1]"></sup>' in page
    assert ".cc-fn::after { content: attr(title); }" in page
    assert "<code>x[^2]</code>" in page
    assert "y[^3] {a}" in page


@pytest.mark.parametrize(
    ("name", "media_type", "body"),
    [
        ("pay.txt", "text/plain", "The okapi salary is paid monthly.\n"),
        ("pay.rst", "text/plain", "Pay\n===\n\nThe okapi salary is paid monthly.\n"),
        ("pay.html", "text/html", "<p>The okapi salary is paid monthly.</p>\n"),
    ],
)
async def test_the_front_matter_of_a_text_or_html_file_is_not_shown(
    tmp_path: Path, name: str, media_type: str, body: str
) -> None:
    text = "---\ntitle: Okapi pay\nowner: payroll-team\n---\n" + body
    indexed, page = await _page(tmp_path, name, text, media_type)
    shown = _shown(page)
    assert "payroll-team" not in shown
    assert all(sentence in shown for sentence in indexed), (indexed, shown)


async def test_a_title_between_rules_in_a_text_file_is_still_shown(tmp_path: Path) -> None:
    """``---`` / ``FAQ`` / ``---`` is a reStructuredText title, text to ingest as well."""
    _, page = await _page(
        tmp_path, "faq.txt", "---\nFAQ\n---\n\nThe heron eats fish.\n", "text/plain"
    )
    assert "--- FAQ --- The heron eats fish." in _shown(page)
