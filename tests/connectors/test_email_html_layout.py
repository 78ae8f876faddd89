"""HTML-only mail: table cells and HTML5 block elements keep their words apart.

A question pasted as a table ("<td>version</td><td>3.2</td>") or written by an editor that uses
``<section>``/``<dl>`` used to reach the assistant with its words glued together
("version3.2", "OSDebian 12Why does it fail?").
"""

from __future__ import annotations

import pytest

from bot.connectors.email_parse import parse_mail
from bot.connectors.email_text import html_to_new_text


@pytest.mark.parametrize(
    ("html", "question"),
    [
        (
            "<p>It fails with</p><table><tr><th>Key</th><th>Value</th></tr>"
            "<tr><td>version</td><td>3.2</td></tr></table><p>Why?</p>",
            "It fails with\n\nKey Value\n\nversion 3.2\n\nWhy?",
        ),
        (
            "<dl><dt>OS</dt><dd>Debian 12</dd></dl><section>Why does it fail?</section>",
            "OS\n\nDebian 12\n\nWhy does it fail?",
        ),
        (
            "<article><header>Install problem</header><p>pip says no</p></article>",
            "Install problem\n\npip says no",
        ),
    ],
)
def test_cells_and_blocks_are_apart(html: str, question: str) -> None:
    assert html_to_new_text(html) == question


def test_an_html_only_mail_with_a_table_asks_readable_text() -> None:
    raw = (
        b"From: Ann <ann@example.com>\r\nTo: help@docs.example.org\r\nSubject: Disk\r\n"
        b"Message-ID: <t@example.com>\r\nMIME-Version: 1.0\r\n"
        b"Content-Type: text/html; charset=utf-8\r\n\r\n"
        b"<html><body><p>Our monitoring says</p><table><tr><td>/var</td><td>98%</td></tr>"
        b"</table><p>What can I delete?</p></body></html>\r\n"
    )
    assert parse_mail(raw).question == "Our monitoring says\n\n/var 98%\n\nWhat can I delete?"
