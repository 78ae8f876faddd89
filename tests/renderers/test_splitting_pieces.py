"""renderers.limits' splitting: a long text splits into pieces that never cut a link, a code
block or a block apart."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import parse
from bot.models import Answer
from renderers import render
from renderers.limits import split_long
from renderers.packing import pack
from tests.renderers.payload_checks import (
    code_blocks,
)

SENTENCE = "The gateway caches every policy it has seen so a restart keeps its state. "


def test_split_long_never_cuts_a_link() -> None:
    link = "[the installation guide](https://docs.example/install)"
    text = "word " * 30 + link + " tail"
    for limit in range(60, 200, 7):
        pieces = split_long(text, limit)
        assert all(len(p) <= limit for p in pieces)
        assert sum(link in p for p in pieces) == 1


def test_split_long_never_cuts_a_link_reaching_far_past_the_limit() -> None:
    # a link that starts before the cut and ends more than 200 characters after it used to go
    # unseen, so the cut fell at a space inside its text
    link = "[" + "the guide " * 30 + "](https://docs.example/?q=" + "u" * 600 + ")"
    text = "word " * 100 + link + " tail"
    for limit in (950, 1000, 1200):
        pieces = split_long(text, limit)
        assert all(len(p) <= limit for p in pieces)
        assert sum(link in p for p in pieces) == 1


@pytest.mark.parametrize(
    "link",
    [
        "[the [install] guide](https://docs.example/install)",  # brackets in the link text
        "[Foo](https://en.wikipedia.org/wiki/Foo_(bar))",  # parentheses in the URL
    ],
)
def test_split_long_never_cuts_a_link_with_nested_brackets_or_parentheses(link: str) -> None:
    text = "word " * 30 + link + " tail"
    for limit in range(60, 200, 7):
        pieces = split_long(text, limit)
        assert all(len(p) <= limit for p in pieces)
        assert sum(link in p for p in pieces) == 1


def test_a_bracketed_run_too_long_to_keep_whole_is_still_not_cut_through_a_link() -> None:
    # "[… <url|[1]> … ](url)" that is no link (it holds one) shows as text: kept whole it does
    # not fit, and the cut used to fall inside the Slack link in it (found by hypothesis)
    first = "<https://kb.example/1?q=" + "u" * 1900 + "|[1]>"
    second = "<https://kb.example/2?q=" + "v" * 1900 + "|[2]>"
    text = "[Intro <http://a.example|x> " + "word " * 40 + first + " and " + second + " end](x)"
    pieces = split_long(text, 3000)
    assert all(len(p) <= 3000 for p in pieces)
    assert sum(first in p for p in pieces) == 1 and sum(second in p for p in pieces) == 1


def test_a_line_opening_with_a_code_span_is_not_a_fence_to_reopen_in_every_piece() -> None:
    # "```a a``b b…" is one code span (a backtick fence's info string holds no backtick): taken
    # for a fence, each cut reopened it with the whole line as its info string, so the pieces
    # grew without end (a Discourse render of "`a a`" x 6400 made thousands of posts)
    line = "```" + "a a``" * 2000 + "`"
    pieces = split_long(line, 1000)
    assert len(pieces) == 11
    # each piece closes the span with its run and the next reopens it: 6 characters a cut
    assert sum(len(piece) for piece in pieces) <= len(line) + 6 * (len(pieces) - 1)
    assert all(p.startswith("```") and p.endswith("```") for p in pieces)
    payload = render("discourse", Answer(text="`a a`" * 6400, citations=()))
    posts = [payload["raw"], *payload["continued"]]
    assert len(posts) == 2 and sum(len(post) for post in posts) < 32_100


@given(
    lines=st.lists(st.text("abc =()#_", min_size=1, max_size=70), min_size=1, max_size=40),
    item=st.sampled_from([("1. Do it:", 3), ("- Do it:", 2), ("1. Do it:\n\n   - Sub:", 5)]),
    fence=st.sampled_from(["```", "~~~~"]),
    limit=st.integers(200, 700),
)
def test_split_long_gives_whole_code_blocks_from_a_fence_in_a_list(
    lines: list[str], item: tuple[str, int], fence: str, limit: int
) -> None:
    lead, indent = item
    pad = " " * indent
    lines = [line.strip() or "x" for line in lines]
    code = "\n".join(pad + line for line in lines)
    text = f"{lead}\n\n{pad}{fence}sh\n{code}\n{pad}{fence}\n\n{pad}Done."
    pieces = split_long(text, limit)
    assert all(len(piece) <= limit for piece in pieces)
    blocks = [block for piece in pieces for block in code_blocks(parse(piece))]
    assert "".join(blocks).splitlines() == lines


def test_pack_keeps_blocks_whole_and_in_order() -> None:
    blocks = [f"block {i} " + "x" * (i * 10) for i in range(20)]
    messages = pack(blocks, 400)
    assert all(len(m) <= 400 for m in messages)
    assert "\n\n".join(messages) == "\n\n".join(blocks)
