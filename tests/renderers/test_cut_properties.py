"""Property tests of cut messages: every part closes its code, no bare URL is cut in two.

Random answers of long code blocks (in block quotes, nested or in list items, or not) and long
bare URLs, rendered for Discord and Slack and cut by :func:`renderers.limits.split_long` at
several limits: each part closes every code block it opens, each line of code shows as code,
and a part holding any of a bare URL outside code holds all of it (the rest shows as "(link too
long to show)").
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.models import Answer
from renderers import render
from renderers.limits import split_long
from tests.renderers.fence_checks import code_lines, fences_balanced

# (what opens the block before its first line, each line's prefix)
SHAPES = [
    ("", ""),
    ("", "> "),
    ("", "> > "),
    ("- item\n\n", "  > "),
    ("> - item\n>\n", ">   "),
    ("1. item\n\n", "   "),
]
CODE_LINES = [
    "# step {i}: run **now**",
    "see [this](https://x.example/{i})",
    "echo {i} && ls -la",
    "x" * 90,
    "plain words to fill the line {i}",
    "",
]
# one fill letter per URL, used nowhere else in a run of five
FILLS = "bcdfgjkqvz"


@st.composite
def code_blocks(draw: st.DrawFn) -> str:
    opener, prefix = draw(st.sampled_from(SHAPES))
    fence = draw(st.sampled_from(["```", "~~~", "```py"]))
    count = draw(st.integers(1, 160))
    picks = draw(st.lists(st.sampled_from(CODE_LINES), min_size=count, max_size=count))
    body = "\n".join((prefix + line.format(i=i)).rstrip() for i, line in enumerate(picks))
    return f"{opener}{prefix}{fence}\n{body}\n{prefix}{fence.rstrip('py')}"


@st.composite
def prose(draw: st.DrawFn, urls: list[str]) -> str:
    k = len(urls)
    url = f"https://u{k}.example/" + FILLS[k % len(FILLS)] * draw(st.integers(5, 4500))
    urls.append(url)
    before = draw(st.sampled_from(["", "See ", "word " * 50, "word " * 300, "> The page "]))
    after = draw(st.sampled_from(["", " [1].", ", then go on.", ". More words follow." * 30]))
    return f"{before}{url}{after}"


@st.composite
def answers(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """The answer's blocks, and the bare URLs in them."""
    urls: list[str] = []
    blocks = [
        draw(code_blocks()) if draw(st.booleans()) else draw(prose(urls))
        for _ in range(draw(st.integers(1, 5)))
    ]
    return blocks, urls


def _parts(channel: str, payload: dict[str, Any]) -> list[str]:
    if channel == "discord":
        return [str(m["content"]) for m in payload["messages"]]
    return [
        str(b["text"]["text"])
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]


def _check(parts: list[str], urls: list[str]) -> None:
    for part in parts:
        assert fences_balanced(part), (part[:60], part[-60:])
        code = [line for line, shown in code_lines(part) if shown]
        # a step line shown outside code would be a heading, its link live
        steps = [line for line, shown in code_lines(part) if "# step" in line and not shown]
        assert steps == [], steps[:2]
        for url in urls:
            run = re.escape(url[-1] * 5)
            if re.search(run, part) and not any(re.search(run, line) for line in code):
                assert url in part, (url[:40], len(url), part[-80:])


@settings(max_examples=60, deadline=None)
@given(answer=answers(), channel=st.sampled_from(["discord", "slack"]))
def test_every_rendered_part_closes_its_code_and_holds_urls_whole(
    answer: tuple[list[str], list[str]], channel: str
) -> None:
    blocks, urls = answer
    _check(_parts(channel, render(channel, Answer("\n\n".join(blocks), ()))), urls)


@settings(max_examples=60, deadline=None)
@given(answer=answers(), limit=st.sampled_from([120, 400, 2000, 3000]))
def test_every_cut_piece_closes_its_code_and_holds_urls_whole(
    answer: tuple[list[str], list[str]], limit: int
) -> None:
    blocks, urls = answer
    for block in blocks:
        pieces = split_long(block, limit)
        assert all(len(p) <= limit for p in pieces), [len(p) for p in pieces]
        _check(pieces, urls)
