"""An HTML comment opened inside a paragraph's line and closed on a later line is not text.

Found while fixing ``<script>``/``<style>``: ``Text <!--`` / ``price rises in May`` / ``--> more.``
was indexed whole, comment and all, though a Markdown renderer shows "Text more." and comments
hold what was never meant for readers. As CommonMark reads it, the comment ends the paragraph's
lines only when it closes before the paragraph ends: otherwise the "<!--" is text.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.markdown_reader import read_markdown


def texts(markdown: str) -> list[str]:
    return [block.text for block in read_markdown(markdown, "a.md").blocks]


def test_a_comment_across_lines_of_a_paragraph_is_left_out() -> None:
    assert texts("Text <!--\nprice rises in May\n--> more.\n") == ["Text more."]
    assert texts("Intro line\nText <!-- draft:\nsecret\n-->\n\nAfter.\n") == [
        "Intro line\nText",
        "After.",
    ]


def test_a_comment_closing_after_the_paragraph_ended_is_text_as_commonmark_shows_it() -> None:
    assert texts("Text <!-- never closed\n\nNext para.\n") == [
        "Text <!-- never closed",
        "Next para.",
    ]
    blocks = read_markdown("Text <!--\n# Heading\n-->\n", "a.md").blocks
    assert [(b.text, b.section) for b in blocks] == [("Text <!--", None), ("-->", "Heading")]


def test_a_comment_opener_in_a_code_span_opens_nothing() -> None:
    assert texts("A `<!--` b\nc --> d\n") == ["A `<!--` b\nc --> d"]


def test_what_follows_the_closing_keeps_its_own_comments_out() -> None:
    assert texts("One <!--\ntwo --> three <!-- four --> five\n") == ["One three  five"]


WORDS = st.sampled_from(["alpha", "beta", "gamma", "delta", "install", "the", "run"])
LINE = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)


@given(before=LINE, hidden=st.lists(LINE, min_size=0, max_size=4), after=LINE)
def test_no_word_of_a_closed_comment_is_text(before: str, hidden: list[str], after: str) -> None:
    secret = ["zqsecret " + line for line in hidden]
    markdown = "\n".join([f"{before} <!--", *secret, f"zqsecret --> {after}"]) + "\n"
    joined = " ".join(texts(markdown))
    assert "zqsecret" not in joined
    assert joined.split() == [*before.split(), *after.split()]
