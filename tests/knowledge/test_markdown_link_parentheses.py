"""A Markdown link whose URL holds balanced parentheses (Wikipedia's ``Python_(…)``) reads as
its text, in a heading (a source's title and section) and in a paragraph, as CommonMark reads
it."""

from __future__ import annotations

from bot.knowledge.markdown_reader import read_markdown

WIKI = "https://en.wikipedia.org/wiki/Python_(programming_language)"


def test_a_heading_link_with_parentheses_in_its_url_is_its_text() -> None:
    document = read_markdown(
        f'# Using [Python]({WIKI}) with citecast\n\nSee [the page]({WIKI} "Python") first.\n',
        "python.md",
    )
    assert document.title == "Using Python with citecast"
    assert [(b.text, b.section) for b in document.blocks] == [
        ("See the page first.", "Using Python with citecast")
    ]


def test_an_unbalanced_parenthesis_still_ends_the_link() -> None:
    document = read_markdown("Read [notes](a.md) (updated) today.\n", "n.md")
    assert document.blocks[0].text == "Read notes (updated) today."
