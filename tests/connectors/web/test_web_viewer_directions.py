"""The reading page shows a right-to-left document right to left.

nh3 dropped ``dir`` (only ``id``, ``lang`` and ``title`` were kept on any element) and the page
set no direction on ``<main>``: a Hebrew page with ``<html lang="he" dir="rtl">`` kept its
language but was set left to right, as was an Arabic Markdown note.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.connectors.web_file_viewer import ViewedFile, read_for_view, render_document, viewer_page
from bot.connectors.web_viewer_directions import with_block_directions
from bot.connectors.web_viewer_lang import html_direction

HEBREW = (
    '<!doctype html><html lang="he" dir="rtl"><head><meta charset="utf-8"><title>חניה</title>'
    "</head><body><p>החניון נפתח בשעה שש בבוקר.</p></body></html>"
)
ARABIC = "# سياسة السفر\n\nيجب حجز التذاكر قبل أسبوعين.\n\n- Booking portal: travel.example\n"


def _main_tag(page: str) -> str:
    start = page.index("<main")
    return page[start : page.index(">", start) + 1]


def _page(tmp_path: Path, name: str, text: str, kind: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return viewer_page(read_for_view(path, name, kind))


def test_the_reading_page_keeps_a_right_to_left_document_right_to_left(tmp_path: Path) -> None:
    page = _page(tmp_path, "חניה.html", HEBREW, "html")
    assert _main_tag(page) == '<main class="cc-doc" lang="he" dir="rtl">'

    note = _page(tmp_path, "عربي.md", ARABIC, "markdown")
    assert '<h1 dir="auto" id="سياسة-السفر">سياسة السفر</h1>' in note
    assert '<p dir="auto">يجب حجز التذاكر قبل أسبوعين.</p>' in note
    # an English item reads left to right by the same rule, on its own
    assert '<li dir="auto">Booking portal: travel.example</li>' in note
    assert _main_tag(note) == '<main class="cc-doc">'


def test_a_right_to_left_text_file_reads_in_its_own_direction(tmp_path: Path) -> None:
    page = _page(tmp_path, "notes.txt", "נא לנעול את הדלת.\nLock the door.\n", "text")
    assert '<pre dir="auto">נא לנעול' in page


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ('<p dir="RTL">א</p>', '<p dir="rtl">א</p>'),
        ('<p dir="ltr">א</p>', '<p dir="ltr">א</p>'),
        ('<p dir="sideways">א</p>', '<p dir="auto">א</p>'),  # not a direction: dropped
        ('<p dir="javascript:x">א</p>', '<p dir="auto">א</p>'),
        ('<div dir="auto">א</div>', '<div dir="auto">א</div>'),
    ],
)
def test_only_a_real_direction_is_kept(written: str, kept: str) -> None:
    """``dir`` passes the sanitizer with ltr, rtl or auto only; a Markdown block without a
    direction of its own (the one that was dropped) reads in its own first letter's."""
    viewed = ViewedFile("a.md", "markdown", written, truncated=False)
    assert render_document(viewed).strip() == kept


def test_a_block_with_its_own_direction_or_no_right_to_left_text_is_left_alone() -> None:
    assert with_block_directions('<p dir="ltr">שלום</p><p>שלום</p>') == (
        '<p dir="ltr">שלום</p><p dir="auto">שלום</p>'
    )
    english = '<h2 id="a">Setup</h2><table><tr><td>8080</td></tr></table><pre>x</pre>'
    assert with_block_directions(english) == english
    mixed = '<h2 id="a">Setup</h2><table><tr><td>٨٠</td></tr></table><pre>x</pre>'
    assert with_block_directions(mixed) == (
        '<h2 dir="auto" id="a">Setup</h2><table><tr><td dir="auto">٨٠</td></tr></table><pre>x</pre>'
    )


@pytest.mark.parametrize(
    ("markup", "direction"),
    [
        ('<html lang="he" dir="rtl">', "rtl"),
        ('<!-- dir="rtl" --><HTML DIR=" Auto ">', "auto"),
        ('<html dir="up">', None),
        ('<body dir="rtl">', None),  # only the root element speaks for the whole document
        ("<html>", None),
    ],
)
def test_the_root_element_names_the_direction(markup: str, direction: str | None) -> None:
    assert html_direction(markup) == direction


def test_the_main_element_has_no_direction_when_the_root_declares_none(tmp_path: Path) -> None:
    page = _page(tmp_path, "a.html", '<html lang="de" dir="bogus"><p>Hallo</p></html>', "html")
    assert re.search(r"<main[^>]*\bdir=", page) is None
