"""Section names read as the rendered heading: code and identifiers keep their underscores."""

from __future__ import annotations

import pytest

from bot.knowledge.document import clean_heading
from bot.knowledge.html_reader import read_html
from bot.knowledge.markdown_reader import read_markdown


@pytest.mark.parametrize(
    ("heading", "shown"),
    [
        ("The `max_tokens` setting", "The max_tokens setting"),
        ("chunk_chars", "chunk_chars"),
        ("`__init__` and `b_c`", "__init__ and b_c"),
        ("[`api_key`](#api) option", "api_key option"),
        ("Using *args and **kwargs", "Using *args and **kwargs"),
        ("2 * 3 = 6", "2 * 3 = 6"),
        ("_private names", "_private names"),
        # decoration still goes
        ("**Bold**, _em_ and ***both***", "Bold, em and both"),
        ("**_nested_** ##", "nested"),
        ("![logo](l.png) Install", "logo Install"),
    ],
)
def test_markdown_heading_text_is_what_the_page_shows(heading: str, shown: str) -> None:
    assert clean_heading(heading) == shown


def test_markdown_sections_keep_identifiers() -> None:
    doc = read_markdown(
        "# Settings\n\n## `max_tokens`\n\nUp to 500.\n\nchunk_chars\n-----------\n\nUp to 1200.\n",
        "settings.md",
    )
    assert [b.section for b in doc.blocks] == [
        "Settings > max_tokens",
        "Settings > chunk_chars",
    ]


def test_html_heading_text_is_taken_as_it_is() -> None:
    page = "<h1>API</h1><h2>The <code>max_tokens</code> field</h2><p>x</p><h2>*args</h2><p>y</p>"
    doc = read_html(page, "api.html")
    assert [b.section for b in doc.blocks] == ["API > The max_tokens field", "API > *args"]
