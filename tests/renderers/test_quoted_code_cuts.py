"""A code block in a block quote, longer than a message, is closed and reopened in its quote.

Found by QA (chatqa finding 5): ``> ```…`` with 120 lines of ``> # step i: run **now** and see
[this](…)`` went to Discord as messages of which the first opened the code block and never
closed it, the middle ones had no fence at all (so "# step" showed as a heading, "**now**" in
bold and every link live), and the last closed a block it never opened; Slack's sections the
same, and Discord's streaming previews too. A code block in a list item was already cut right:
the cut only knew fences at the start of a line, after spaces. Now a fence after quote markers
(in a list item or not, quotes nested or not) is closed and reopened with them.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.models import Answer, Citation, CitationAdded, Source, TextDelta
from renderers import render
from renderers.limits import DISCORD_MAX_CONTENT, SLACK_MAX_SECTION_CHARS, split_long
from renderers.packing import pack
from renderers.streaming import StreamRenderer
from tests.cpu_time import best_cpu_seconds
from tests.renderers.fence_checks import code_lines, fences_balanced
from tests.renderers.payload_checks import check_discord, check_slack

GUIDE = Source(id="g", title="Guide", url="https://docs.example.com/g")
CITED = (Citation(n=1, source=GUIDE, source_number=1),)
STEP = "# step {i}: run **now** and see [this](https://x.example/{i})"


def quoted_code(lines: int, prefix: str = "> ", fence: str = "```", opener: str = "") -> str:
    """A code block of ``lines`` lines of live-looking markdown, each line after ``prefix``."""
    body = "\n".join(prefix + STEP.format(i=i) for i in range(lines))
    return f"{opener}{prefix}{fence}\n{body}\n{prefix}{fence}\n\nDone [1]."


def discord_parts(payload: dict[str, Any]) -> list[str]:
    return [str(m["content"]) for m in payload["messages"]]


def slack_sections(payload: dict[str, Any]) -> list[str]:
    return [
        str(b["text"]["text"])
        for m in payload["messages"]
        for b in m["blocks"]
        if b["type"] == "section"
    ]


def assert_code_in_every_part(parts: list[str], steps: int) -> None:
    """Every part closes the code it opens, and every step line shows as code, in a quote."""
    assert len(parts) >= 3, [len(p) for p in parts]
    assert [fences_balanced(p) for p in parts] == [True] * len(parts), [
        (p[:40], p[-40:]) for p in parts
    ]
    shown = [(line, code) for p in parts for line, code in code_lines(p) if "# step" in line]
    assert len(shown) == steps
    assert [line for line, code in shown if not code or ">" not in line] == []


def test_a_quoted_code_block_longer_than_a_message_stays_code_in_every_part() -> None:
    payload = render("discord", Answer(quoted_code(120), CITED))
    check_discord(payload)
    assert_code_in_every_part(discord_parts(payload), 120)


def test_a_quoted_code_block_longer_than_a_section_stays_code_in_every_section() -> None:
    payload = render("slack", Answer(quoted_code(120), CITED))
    check_slack(payload)
    assert_code_in_every_part(slack_sections(payload), 120)


@pytest.mark.parametrize(
    ("shape", "text"),
    [
        ("nested quotes", quoted_code(150, "> > ")),
        ("a quote in a list item", quoted_code(150, "  > ", opener="- item\n\n")),
        ("a list item in a quote", quoted_code(150, ">   ", opener="> - item\n>\n")),
        ("a tilde fence", quoted_code(150, fence="~~~")),
    ],
)
@pytest.mark.parametrize("channel", ["discord", "slack"])
def test_every_shape_of_quoted_code_stays_code_in_every_part(
    channel: str, shape: str, text: str
) -> None:
    payload = render(channel, Answer(text, CITED))
    parts = discord_parts(payload) if channel == "discord" else slack_sections(payload)
    assert_code_in_every_part(parts, 150)


def test_a_quoted_code_block_keeps_its_language_in_every_part() -> None:
    parts = discord_parts(render("discord", Answer(quoted_code(120, fence="```py"), CITED)))
    assert [p.startswith("> ```py\n") for p in parts] == [True] * len(parts)


def test_a_quoted_code_line_longer_than_a_message_goes_on_in_the_quote() -> None:
    line = "> " + " ".join(f"word{i}" for i in range(700))  # about 5,600 characters
    pieces = split_long(f"> ```\n{line}\n> ```", 2000)
    assert len(pieces) == 3
    for piece in pieces:
        assert fences_balanced(piece), piece[-60:]
        assert all(text.startswith(">") and code for text, code in code_lines(piece))


def test_streamed_previews_keep_quoted_code_in_every_message() -> None:
    answer = Answer(quoted_code(120), CITED)
    stream = StreamRenderer("discord")
    stream.feed([CitationAdded(CITED[0])])
    bounds = range(0, len(answer.text) + 500, 500)
    for a, b in itertools.pairwise(bounds):
        stream.feed([TextDelta(answer.text[a:b])])
        contents = stream.discord_contents()
        assert [fences_balanced(c) for c in contents] == [True] * len(contents), b
    assert_code_in_every_part(stream.discord_contents(), 120)
    assert stream.finish(answer) == render("discord", answer)


@pytest.mark.parametrize("limit", [DISCORD_MAX_CONTENT, SLACK_MAX_SECTION_CHARS])
def test_a_megabyte_of_quoted_code_is_cut_in_linear_time(limit: int) -> None:
    """The cut alone (the parser's own time for a long quote is not the renderers')."""

    def text(size: int) -> str:
        lines = "\n".join(f"> echo line {i} with some words" for i in range(size // 30))
        return f"> ```\n{lines}\n> ```"

    small, large = text(125_000), text(1_000_000)
    ratio = best_cpu_seconds(lambda: pack([large], limit)) / best_cpu_seconds(
        lambda: pack([small], limit)
    )
    # eight times the text: eight to fourteen times the time (what is left of the text is
    # copied at each cut, cheap next to the cut itself); a scan to the end of the text at
    # each cut made it over forty
    assert ratio < 24, ratio
