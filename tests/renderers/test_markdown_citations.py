"""The one mistune setup: `[^n]` citation tokens and block splitting for streaming."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import parse, plain_text, split_blocks
from renderers.document import cited_numbers


def test_citation_tokens_outside_code_only() -> None:
    tokens = parse("Fact.[^1][^2] `[^3]` \\[^4] [^0]\n\n```\n[^5]\n```\n\n    [^6]\n")
    assert cited_numbers(tokens) == [1, 2]
    assert plain_text(tokens[0]["children"]).startswith("Fact.[1][2] [^3]")


def test_raw_html_stays_a_token_renderers_show_as_text() -> None:
    kinds = [t["type"] for t in parse("<div>x</div>\n\nText <b>bold</b>")]
    assert kinds == ["block_html", "paragraph"]


def test_split_blocks_keeps_loose_lists_and_fences_together() -> None:
    text = "Intro\n\n- a\n\n- b\n\nAfter\n\n```\nx\n\ny\n```\n\nEnd\n"
    chunks, tail = split_blocks(text)
    assert "".join(chunks) + tail == text
    assert chunks == ["Intro\n\n- a\n\n- b\n\n", "After\n\n", "```\nx\n\ny\n```\n\n"]
    assert tail == "End\n"


def test_split_blocks_refuses_documents_with_reference_definitions() -> None:
    assert split_blocks("See [x].\n\nMore\n\n[x]: https://e.example\n") == (
        [],
        "See [x].\n\nMore\n\n[x]: https://e.example\n",
    )


def test_a_marker_like_html_inside_a_sentence_does_not_stop_splitting() -> None:
    # only an HTML block that starts a line runs across blank lines; "<!here>" mid-sentence is
    # inline, so the streaming renderer may still render each finished block once
    text = "Ping <!here> now [^1].\n\nNext paragraph.\n\nThird one.\n"
    chunks, tail = split_blocks(text)
    assert chunks == ["Ping <!here> now [^1].\n\n", "Next paragraph.\n\n"]
    assert tail == "Third one.\n"


@pytest.mark.parametrize("definition", ["> [r]: https://e.example", "- [r]: https://e.example"])
def test_reference_definitions_inside_quotes_and_lists_stop_splitting(definition: str) -> None:
    text = f"See [r].\n\nMore\n\n{definition}\n"
    assert split_blocks(text) == ([], text)


PIECES = [
    "Para [^1].",
    "# Head",
    "- item\n- item",
    "1. one\n2. two",
    "> quote",
    "```\ncode\n\nmore\n```",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "    indented",
    "<div>\nhtml\n</div>",
    "***",
    "  lazy",
    "- a\n\n  b",
    "Ping <!here> now [^1].",
    "- <pre>\nx\n\ny\n</pre>",
    "> <!-- c\n\nd -->",
    "See [r].",
    "> [r]: https://e.example",
    "- [r]: https://e.example",
]


@given(st.lists(st.sampled_from(PIECES), max_size=10), st.sampled_from(["\n\n", "\n", "\n\n\n"]))
def test_chunks_parse_like_the_whole_document(pieces: list[str], sep: str) -> None:
    text = sep.join(pieces)
    chunks, tail = split_blocks(text)
    assert "".join(chunks) + tail == text
    together = parse(text)
    apart = [token for chunk in [*chunks, tail] for token in parse(chunk)]
    assert apart == together


def test_citation_right_after_an_exclamation_mark_is_a_citation() -> None:
    tokens = parse("It works![^1]")
    assert cited_numbers(tokens) == [1]
    assert plain_text(tokens[0]["children"]) == "It works![1]"


# text that may come right before a citation, and how it reads once parsed
BEFORE_CITATION = {
    "!": "!", ")": ")", "]": "]", "*": "*", "_": "_", "`x`": "x", "**b**": "b", "*e*": "e",
    "~~s~~": "s", "\\\\": "\\", "\\!": "!", "!!": "!!", "?": "?", "\"": "\"", "[a]": "[a]",
}  # fmt: skip


@given(
    st.text(alphabet="abc .,", max_size=6),
    st.sampled_from(sorted(BEFORE_CITATION)),
    st.integers(1, 99999),
)
def test_punctuation_before_a_citation_never_hides_it(lead: str, before: str, n: int) -> None:
    text = f"Word {lead}{before}[^{n}] end"
    tokens = parse(text)
    assert cited_numbers(tokens) == [n], text
    assert f"{BEFORE_CITATION[before]}[{n}] end" in plain_text(tokens[0]["children"])


def test_an_escaped_bracket_is_not_a_citation() -> None:
    assert cited_numbers(parse("Literal \\[^1] and !\\[^2]")) == []


def test_a_citation_inside_link_text_follows_the_link_in_markdown_channels() -> None:
    from bot.models import Answer, Citation, Source
    from renderers import render

    source = Source(id="a", title="T", url="https://d.example/x")
    answer = Answer(text="See [the [^1] guide](http://e) now.", citations=(Citation(1, source, 1),))
    raw = render("discourse", answer)["raw"]
    assert raw.startswith("See [the guide](http://e)[^1] now.")
    assert "[^1]: [T](https://d.example/x)" in raw
    content = render("discord", answer)["messages"][0]["content"]
    assert content.startswith("See [the guide](<http://e>)\\[1\\] now.")
