"""A hidden element left unclosed ends where a browser's tree builder ends it: at the end tag
of an element open around it ("generate implied end tags", "pop until"), so it never hides
the rest of the page (bot/knowledge/html_hidden.py). Raw text elements (``<template>``,
``<script>``) and scope boundaries (a table cell, ``<object>``) still end only at their own
end tag, as in a browser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.html_reader import read_html


def _texts(page: str) -> list[str]:
    return [block.text for block in read_html(page, "page.html").blocks]


@pytest.mark.parametrize(
    ("page", "shown"),
    [
        ("<div><nav>SECRET</div><p>Body</p>", ["Body"]),
        ("<div><footer>SECRET<p>SECRET too</div><p>Body</p>", ["Body"]),
        ('<section><div aria-hidden="true">SECRET</section><p>Body</p>', ["Body"]),
        ("<article><span hidden>SECRET</article><p>Body</p>", ["Body"]),
        ('<div><div role="navigation"><div>SECRET</div>SECRET too</div><p>Body', ["Body"]),
        ("<div><div><nav>SECRET</div>Shown</div><p>Body", ["Shown", "Body"]),
        ("<div><nav><div>SECRET</div></div><p>Body</p>", ["Body"]),
        ("<ul><li>Shown<nav>SECRET</li><li>Item</li></ul>", ["Shown", "Item"]),
        ("<table><tr><td>Team<nav>SECRET</td><td>$10</td></tr></table>", ["| Team | $10 |"]),
        ("<div><svg><g>SECRET</div><p>Body</p>", ["Body"]),
        # a sidebar (an <aside> outside <main>) left open in its column
        ("<body><div><aside>Related</div><main><p>Body</p></main>", ["Body"]),
    ],
)
def test_the_end_of_an_element_around_ends_the_hidden_one(page: str, shown: list[str]) -> None:
    assert _texts(page) == shown


@pytest.mark.parametrize(
    ("page", "shown"),
    [
        # raw text and templates end at their own end tag only
        ("<div><template><p>SECRET</div><p>SECRET too</p></template><p>Body", ["Body"]),
        ('<div><script>let a = "</div><p>SECRET";</script><p>Body', ["Body"]),
        ("<div><object>SECRET</div>SECRET too</object><p>Body", ["Body"]),
        ("<div><table hidden><tr><td>SECRET</div>SECRET too</table><p>Body", ["Body"]),
        # a table cell is a scope boundary: </div> does not reach out of it
        ("<div><table><tr><td><nav>SECRET</div>SECRET too</td></tr></table><p>Body", ["Body"]),
        # an inline end tag stops at <nav>: a browser ignores it
        ("<span><nav>SECRET</span>SECRET too</nav><p>Body", ["Body"]),
        # an end tag of nothing open is stray
        ("<nav>SECRET</div>SECRET too</nav><p>Body", ["Body"]),
        ("<div><nav>SECRET</section>SECRET too</nav></div><p>Body", ["Body"]),
    ],
)
def test_what_a_browser_keeps_hidden_stays_hidden(page: str, shown: list[str]) -> None:
    assert _texts(page) == shown


_WRAPPERS = st.lists(
    st.sampled_from(["div", "section", "article", "blockquote", "main", "form", "li"]),
    min_size=1,
    max_size=4,
)
_HIDDEN = st.sampled_from(
    ["<nav>", "<footer>", "<div hidden>", '<span aria-hidden="true">', "<svg>",
     '<div role="navigation">', '<section hidden="">']
)  # fmt: skip
# what a hidden element may hold: balanced elements, stray inline end tags, an open <p>
_INSIDE = st.lists(
    st.sampled_from(
        ["SECRET", "<div>SECRET</div>", "<p>SECRET", "</em>", "</b>", "<ul><li>SECRET</ul>",
         "<nav>SECRET</nav>", "<span>SECRET</span>", "<br>"]
    ),
    max_size=5,
).map("".join)  # fmt: skip


@given(_WRAPPERS, _HIDDEN, _INSIDE)
def test_a_hidden_element_left_open_ends_with_its_parent(
    wrappers: list[str], hidden: str, inside: str
) -> None:
    opening = "".join(f"<{tag}>" for tag in wrappers)
    closing = "".join(f"</{tag}>" for tag in reversed(wrappers))
    page = f"<body>{opening}{hidden}{inside}{closing}<p>Needle paragraph.</p>"
    texts = _texts(page)
    assert texts[-1:] == ["Needle paragraph."], page
    assert not any("SECRET" in text for text in texts), page
