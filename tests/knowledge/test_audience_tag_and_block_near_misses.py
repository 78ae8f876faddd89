"""An audience written slightly wrong never makes a file public silently.

Found by a QA pass (reproduced twice): front matter already refused a near-miss key
(``audiences:``, ``Audiance:``), but an HTML meta tag with a misspelled name
(``citecast:audiences``, ``citecast_audience``) was ignored and the page indexed as public; so
was a Markdown file with a comment line above its front matter (``<!-- markdownlint-disable
MD041 -->``, read as a rule and a heading titled "audience: staff"), one with a second block
naming the audience right under its front matter, and one whose opening fence a pasted U+2028
joined to the ``audience:`` line. A comment above front matter is read as Hugo reads it; the
others skip the file with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.front_matter import split_front_matter
from bot.knowledge.ingest_report import IngestReport
from bot.knowledge.markdown_reader import read_markdown

PUBLIC = frozenset({"public"})
STAFF = frozenset({"public", "staff"})
SECRET = "The okapi salary is 450000 euros per year."
BODY = f"# Payroll\n\n{SECRET}\n"


def _ingest(tmp_path: Path, name: str, text: str) -> tuple[IngestReport, KnowledgeIndex]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / name).write_text(text, encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    return ingest([docs], settings), KnowledgeIndex(settings.path)


@pytest.mark.parametrize(
    "tag",
    [
        '<meta name="citecast:audiences" content="board">',
        '<meta name="citecast:audiance" content="board">',
        '<meta name="citecast_audience" content="board">',
        '<meta name="citecast-audience" content="board">',
        '<meta name="Citecast.Audience" content="board">',
        '<meta property="citecast:audiences" content="board">',
        '<meta name=" citecast:audience" content="board">',
    ],
)
def test_a_misspelled_audience_meta_tag_skips_the_page_naming_the_tag(
    tmp_path: Path, tag: str
) -> None:
    page = f"<html><head><title>Pay</title>{tag}</head><body><p>{SECRET}</p></body></html>"
    report, index = _ingest(tmp_path, "pay.html", page)
    assert index.search("okapi salary", PUBLIC, 5) == []
    assert [s.path for s in report.skipped] == ["docs/pay.html"]
    reason = report.skipped[0].reason
    assert "is not citecast's audience tag" in reason
    assert 'name="citecast:audience"' in reason


@pytest.mark.parametrize(
    "tag",
    [
        '<meta name="audience" content="all">',  # another vocabulary's tag, on public sites
        '<meta name="dc.audience" content="students">',
        '<meta name="citecast:url" content="https://example.com/pay">',
        '<meta name="citecast:target_audience" content="managers">',
    ],
)
def test_other_meta_tags_naming_an_audience_leave_the_page_as_it_was(
    tmp_path: Path, tag: str
) -> None:
    page = f"<html><head><title>Pay</title>{tag}</head><body><p>{SECRET}</p></body></html>"
    report, index = _ingest(tmp_path, "pay.html", page)
    assert report.skipped == []
    assert [s.id for s in index.search("okapi salary", PUBLIC, 5)] == ["docs/pay.html#1"]


@pytest.mark.parametrize(
    "head",
    [
        "<!-- markdownlint-disable MD041 -->\n---\naudience: staff\n---\n",
        "<!-- markdownlint-disable MD041 -->\n\n---\naudience: staff\n---\n",
        "<!-- generated: do not edit -->\n<!--\n  two lines\n-->\n---\naudience: staff\n---\n",
        '<!-- note -->\n+++\naudience = "staff"\n+++\n',
        # Hugo's front matter inside a comment (Hugo reads it)
        "<!--\n---\naudience: staff\n---\n-->\n",
    ],
    ids=["comment", "comment-blank", "comments", "toml", "commented-out"],
)
def test_front_matter_under_a_comment_line_keeps_the_file_private(
    tmp_path: Path, head: str
) -> None:
    report, index = _ingest(tmp_path, "pay.md", head + BODY)
    assert report.skipped == []
    assert index.search("okapi salary", PUBLIC, 5) == []
    found = index.search("okapi salary", STAFF, 5)
    assert [(s.id, s.title) for s in found] == [("docs/pay.md#1", "Payroll")]
    # the comment is not text, nor the ``-->`` closing Hugo's commented-out front matter
    assert [block.text for block in read_markdown(head + BODY, "pay.md").blocks] == [SECRET]


def test_a_block_under_a_comment_naming_no_audience_reads_as_before() -> None:
    text = "<!-- markdownlint-disable MD041 -->\n---\ntitle: Pay\n---\n" + BODY
    assert split_front_matter(text) == ({}, text)
    assert read_markdown(text, "pay.md").audience is None


@pytest.mark.parametrize(
    ("head", "words"),
    [
        (
            "---\ntitle: Pay\n---\n---\naudience: staff\n---\n",
            "a second front matter block opens on line 4, under the one closed on line 3",
        ),
        (
            "---\ntitle: Pay\n---\n\n+++\nAudience = 'staff'\n+++\n",
            "a second front matter block opens on line 5, under the one closed on line 3",
        ),
        ("---\u2028audience: staff\n---\n", "line 1 holds U+2028 (LINE SEPARATOR)"),
        ("---\u2029audience: staff\n---\n", "line 1 holds U+2029 (PARAGRAPH SEPARATOR)"),
        ("---\x85audience: staff\n---\n", "line 1 holds U+0085 (NEXT LINE)"),
        ("\n---\u2028title: Pay\u2028audience: staff\u2028---\n", "line 2 holds U+2028"),
    ],
    ids=["second-block", "second-toml", "u2028", "u2029", "u0085", "all-on-one-line"],
)
def test_an_audience_block_no_reader_sees_skips_the_file_with_the_reason(
    tmp_path: Path, head: str, words: str
) -> None:
    report, index = _ingest(tmp_path, "pay.md", head + BODY)
    assert index.search("okapi salary", STAFF, 5) == []
    assert [s.path for s in report.skipped] == ["docs/pay.md"]
    assert words in report.skipped[0].reason
    with pytest.raises(Unreadable, match="audience"):
        read_markdown(head + BODY, "pay.md")


@pytest.mark.parametrize(
    ("text", "meta"),
    [
        ("---\ntitle: Pay\n---\n\n---\n\nA rule, then a paragraph.\n", {"title": "Pay"}),
        ("---\ntitle: Pay\n---\n---\nNotes\n---\n", {"title": "Pay"}),  # no audience
        ("---\u2028title: Pay\n---\n", {}),  # no audience after the joined fence
        ("Prices\u2028rose\n", {}),  # a separator in text
    ],
)
def test_text_naming_no_audience_reads_as_before(text: str, meta: dict[str, str]) -> None:
    found, body = split_front_matter(text)
    assert found == meta
    assert body == (text if not meta else text.split("---\n", 2)[2])
    assert read_markdown(text, "pay.md").audience is None
