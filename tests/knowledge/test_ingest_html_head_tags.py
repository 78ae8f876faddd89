"""Whoever writes an HTML page's body cannot publish it, nor send its citations elsewhere.

Found by a security QA pass: the last ``<meta name="citecast:audience">`` anywhere in the page
decided its audience, in ``<head>`` or ``<body>``, inside an inline ``<svg>``, a ``<template>``
or a hidden element; so a layout's default ``public`` tag after the page's own ``staff`` one,
or a tag pasted into the body, published a page its template marks staff. The same way a
``citecast:url`` meta tag or ``<link rel="canonical">`` in the body (even hidden) replaced the
head's URL, and citations linked to another site. Now every audience tag only narrows (the
page is for the groups all of them allow; none: skipped with the reason), front matter's
``audience`` too, and the URL tags and ``<base>`` are the first ones in ``<head>``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import IndexSettings
from bot.knowledge import KnowledgeIndex, ingest
from bot.knowledge.document import Unreadable
from bot.knowledge.html_reader import read_html
from bot.knowledge.readers import read_document

STAFF = '<meta name="citecast:audience" content="staff">'
PUBLIC = '<meta name="citecast:audience" content="public">'
TEXT = "<p>The okapi salary is 450000 euros per year.</p>"


def _page(head: str, body: str) -> str:
    return f"<html><head><title>Pay</title>{head}</head><body>{body}{TEXT}</body></html>"


@pytest.mark.parametrize(
    ("head", "body"),
    [
        (STAFF + PUBLIC, ""),  # a layout's default tag after the page's own
        (PUBLIC + STAFF, ""),
        (STAFF, f"<svg>{PUBLIC}</svg>"),
        (STAFF, f"<template>{PUBLIC}</template>"),
        (STAFF, f"<div hidden>{PUBLIC}</div>"),
        (STAFF, f'<div aria-hidden="true">{PUBLIC}</div>'),
        (STAFF, PUBLIC),
        (f"<template>{PUBLIC}</template>" + STAFF, ""),
        # a tag a browser moves to the body (after text in the head) still keeps it private
        ("", STAFF),
        ('<meta name="citecast:audience" content="staff, hr">', f"<svg>{STAFF}</svg>"),
    ],
)
def test_no_audience_tag_widens_a_staff_page(head: str, body: str) -> None:
    assert read_html(_page(head, body), "pay.html").audience == ("staff",)


def test_audience_tags_that_no_group_may_all_see_skip_the_page() -> None:
    hr = '<meta name="citecast:audience" content="hr">'
    with pytest.raises(
        Unreadable,
        match=r"^its citecast:audience tags name staff and hr: no group may see all of them",
    ):
        read_html(_page(STAFF, f"<div hidden>{hr}</div>"), "pay.html")


CANONICAL = '<link rel="canonical" href="https://docs.example.com/pay">'
EVIL = "https://evil.example/phish"


@pytest.mark.parametrize(
    "body",
    [
        f'<link rel="canonical" href="{EVIL}">',
        f'<div hidden><link rel="canonical" href="{EVIL}"></div>',
        f'<svg><link rel="canonical" href="{EVIL}"></svg>',
        f'<meta name="citecast:url" content="{EVIL}">',
        f'<template><meta name="citecast:url" content="{EVIL}"></template>',
        '<base href="https://evil.example/">',
    ],
)
def test_a_url_tag_in_the_body_never_replaces_the_heads(body: str) -> None:
    doc = read_html(_page(CANONICAL, body), "pay.html")
    assert doc.url == "https://docs.example.com/pay"


def test_the_first_url_tags_in_the_head_count() -> None:
    head = (
        '<meta name="citecast:url" content="https://docs.example.com/meta">'
        '<template><link rel="canonical" href="https://evil.example/a"></template>'
        '<base href="https://docs.example.com/guide/"><link rel="canonical" href="pay">'
        f'<link rel="canonical" href="{EVIL}"><base href="https://evil.example/">'
        f'<meta name="citecast:url" content="{EVIL}">'
    )
    assert read_html(_page(head, ""), "pay.html").url == "https://docs.example.com/guide/pay"
    meta_only = '<meta name="citecast:url" content="https://docs.example.com/meta">'
    doc = read_html(_page(meta_only + f'<meta name="citecast:url" content="{EVIL}">', ""), "p.html")
    assert doc.url == "https://docs.example.com/meta"


def test_a_page_whose_body_says_public_and_links_away_keeps_its_head(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    body = f'<svg>{PUBLIC}</svg><div hidden><link rel="canonical" href="{EVIL}"></div>'
    (kb / "pay.html").write_text(_page(STAFF + CANONICAL, body), "utf-8")
    settings = IndexSettings(path=str(tmp_path / "i.db"))
    assert ingest([kb], settings).indexed == 1
    index = KnowledgeIndex(settings.path)
    assert index.search("okapi salary") == []
    [found] = index.search("okapi salary", audience={"staff"})
    assert (found.audience, found.url) == (("staff",), "https://docs.example.com/pay")


def test_front_matter_public_never_widens_a_pages_staff_tag() -> None:
    """A Jekyll page's front matter and its meta tag both narrow, as two tags do."""
    page = _page(STAFF, "").encode()
    doc = read_document(Path("pay.html"), b"---\naudience: public\n---\n" + page)
    assert doc.audience == ("staff",)
    with pytest.raises(Unreadable, match=r"^front matter audience hr and citecast:audience staff"):
        read_document(Path("pay.html"), b"---\naudience: hr\n---\n" + page)
