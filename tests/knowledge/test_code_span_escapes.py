"""Code spans as CommonMark reads them (bot/knowledge/document.py ``code_spans``): a backtick
escaped with a backslash outside a code span opens nothing; inside one a backslash is literal.
Checked by example, through the MDX and Markdown readers, and against mistune's own parsing
(bot/markdown.py) of random lines of backticks, backslashes, braces and letters."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bot.knowledge.document import clean_heading, code_spans
from bot.knowledge.markdown_markup import shown_text, without_expressions
from bot.markdown import parse


def _code(line: str) -> list[str]:
    return [piece for is_code, piece in code_spans(line) if is_code]


def test_an_escaped_backtick_opens_no_code_span() -> None:
    assert _code(r"x \` {a} `{b}`") == ["`{b}`"]
    assert _code(r"\``x`") == ["`x`"]  # the rest of an escaped run may open one
    assert _code(r"\\`x`") == ["`x`"]  # an escaped backslash escapes no backtick


def test_a_backslash_inside_a_code_span_is_literal() -> None:
    assert code_spans(r"`a\`b`") == [(True, r"`a\`"), (False, "b`")]
    assert _code(r"``a\``b``") == [r"``a\``"]


def test_the_pieces_are_the_line() -> None:
    for line in (r"x \` {a} `{b}`", r"`a\`b`", "``", r"\\\`", "a `b` c ``d`` e"):
        assert "".join(piece for _, piece in code_spans(line)) == line


def test_an_mdx_expression_in_a_code_span_after_an_escaped_backtick_is_kept() -> None:
    assert without_expressions(r"x \` {a} `{b}`") == r"x \` `{b}`"


def test_markup_after_an_escaped_backtick_is_read_as_markup() -> None:
    assert shown_text(r"a \` <b>bold</b> `<i>`") == r"a \` bold `<i>`"
    assert clean_heading(r"Use \` *this* `*that*`") == r"Use \` this *that*"


def _mistune_spans(tokens: list[dict[str, Any]]) -> list[str]:
    spans: list[str] = []
    for token in tokens:
        if token["type"] == "codespan":
            spans.append(token["raw"])
        spans.extend(_mistune_spans(token.get("children", [])))
    return spans


def _inner(span: str) -> str:
    """A code span's content as CommonMark gives it: without its backticks, and one space
    stripped from each end when both ends have one and it is not all spaces."""
    ticks = len(span) - len(span.lstrip("`"))
    inner = span[ticks:-ticks]
    if len(inner) > 1 and inner[0] == inner[-1] == " " and inner.strip(" "):
        inner = inner[1:-1]
    return inner


# Led by a letter: a line that starts with "```" is a fence, one with spaces maybe code
_LINES = st.text(alphabet="`\\{}ab ", max_size=30).map(lambda text: f"x{text}x")


@given(_LINES)
def test_code_spans_are_the_ones_mistune_reads(line: str) -> None:
    assert [_inner(span) for span in _code(line)] == _mistune_spans(parse(line)), line
    assert "".join(piece for _, piece in code_spans(line)) == line
