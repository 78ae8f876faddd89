"""Web (and email) quotes show without markdown syntax: code spans as code, plain in attributes."""

from __future__ import annotations

import re
from html import unescape

from hypothesis import given
from hypothesis import strategies as st

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.quote_text import quote_html, quote_plain

QUOTE = "Run `brew install python@3.11` first, then **restart** the [shell](https://e.example)."
SOURCE = Source(id="s1", title="Setup guide", url="https://docs.example/setup")


def web_html(quote: str) -> str:
    answer = Answer(text="Install it.[^1]", citations=(Citation(1, SOURCE, 1, quote=quote),))
    return str(render("web", answer)["html"])


def test_hover_title_is_plain_text() -> None:
    title = re.search(r'<sup class="citation">\u2060<a [^>]*title="([^"]*)"', web_html(QUOTE))
    assert title is not None
    assert unescape(title.group(1)) == (
        "Setup guide: \u201cRun brew install python@3.11 first, then restart the shell.\u201d"
    )


def test_source_list_quote_shows_code_spans_as_code() -> None:
    quote = re.search(r'<span class="quote"[^>]*>(.*?)</span>', web_html(QUOTE))
    assert quote is not None
    assert quote.group(1) == (
        "\u201cRun <code>brew install python@3.11</code> first, then restart the shell.\u201d"
    )


def test_email_reference_quote_is_plain_text() -> None:
    answer = Answer(text="Install it.[^1]", citations=(Citation(1, SOURCE, 1, quote=QUOTE),))
    payload = render("email", answer)
    assert "Run brew install python@3.11 first, then restart the shell." in payload["html"]
    assert "`" not in payload["html"] and "**" not in payload["html"]


def test_quote_markup_is_escaped() -> None:
    assert quote_html("a <b>x</b> & `<i>`") == "a &lt;b&gt;x&lt;/b&gt; &amp; <code>&lt;i&gt;</code>"
    assert quote_plain("- one\n- two\n\n```\ncode\n```") == "one two code"


@given(st.text(max_size=60))
def test_any_quote_gives_one_line_without_backtick_fences(quote: str) -> None:
    plain = quote_plain(quote)
    assert "\n" not in plain and plain == plain.strip()
    assert "<" not in quote_html(quote).replace("<code>", "").replace("</code>", "")
