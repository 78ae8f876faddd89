"""An audience tag that writes ``content`` twice with two audiences skips the page with why.

A browser (and the reader) takes the first copy of an attribute, so
``<meta name="citecast:audience" content="public" content="staff">`` was read as public,
silently: the page was published though its author may have meant the second value.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.html_reader import read_html

PUBLIC = frozenset({"public"})
SECRET = "The okapi salary is 450000 euros per year."


def _page(tag: str) -> str:
    return f"<html><head><title>Pay</title>{tag}</head><body><p>{SECRET}</p></body></html>"


@pytest.mark.parametrize(
    "tag",
    [
        '<meta name="citecast:audience" content="public" content="staff">',
        '<meta content="public" property="citecast:audience" content="staff">',
        '<meta name="citecast:audience" content="staff" content="public">',
        '<meta name="citecast:audience" content="staff" content="staff" content="">',
    ],
)
def test_an_audience_tag_with_two_contents_skips_the_page_with_the_reason(
    tmp_path: Path, tag: str
) -> None:
    with pytest.raises(Unreadable, match="writes content twice"):
        read_html(_page(tag), "pay.html")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "pay.html").write_text(_page(tag), encoding="utf-8")
    settings = IndexSettings(path=str(tmp_path / "index.db"))
    report = ingest([docs], settings)
    assert [s.path for s in report.skipped] == ["docs/pay.html"]
    assert "citecast:audience tag writes content twice" in report.skipped[0].reason
    assert KnowledgeIndex(settings.path).search("okapi salary", PUBLIC, 5) == []


@pytest.mark.parametrize(
    ("tag", "groups"),
    [
        ('<meta name="citecast:audience" content="staff" content="staff">', {"staff"}),
        ('<meta name="citecast:audience" content="staff, hr" content="hr,staff">', {"staff", "hr"}),
    ],
)
def test_the_same_audience_written_twice_is_read_as_it_says(tag: str, groups: set[str]) -> None:
    assert set(read_html(_page(tag), "pay.html").audience or ()) == groups
