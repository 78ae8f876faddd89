"""A link in the answer's text too long for any message shows its text, noted, not cut in two.

A ``[the doc](…)`` link whose URL ran to thousands of characters was cut across Slack sections
and Discord messages: each piece showed a fragment of raw link syntax and no link worked.
Source lists already showed such a link as its title with "(link too long to show)".
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Answer, Citation, Source
from renderers import render
from renderers.limits import DISCORD_MAX_CONTENT, DISCOURSE_MAX_CHARS, SLACK_MAX_SECTION_CHARS
from tests.renderers.payload_checks import CHECKS

GUIDE = Source(id="g", title="Guide", url="https://docs.example/g")
CITED = (Citation(n=1, source=GUIDE, source_number=1),)


def long_url(length: int) -> str:
    return "https://docs.example/p?" + "q" * (length - 23)


def shown(channel: str, payload: dict[str, Any]) -> str:
    if channel == "slack":
        return "\n".join(
            str(block["text"]["text"])
            for message in payload["messages"]
            for block in message["blocks"]
            if block["type"] == "section"
        )
    if channel == "discord":
        return "\n".join(str(message["content"]) for message in payload["messages"])
    return "\n".join([payload["raw"], *payload.get("continued", [])])


@pytest.mark.parametrize(
    ("channel", "length", "expected"),
    [
        ("slack", SLACK_MAX_SECTION_CHARS + 500, "See the doc (link too long to show)<"),
        ("discord", DISCORD_MAX_CONTENT + 500, "See the doc (link too long to show)\\[1\\] now."),
        ("discourse", DISCOURSE_MAX_CHARS, "See the doc (link too long to show)[^1] now."),
    ],
)
def test_a_link_no_message_can_hold_shows_its_text(
    channel: str, length: int, expected: str
) -> None:
    url = long_url(length)
    payload = render(channel, Answer(text=f"See [the doc [^1]]({url}) now.", citations=CITED))
    CHECKS[channel](payload)  # Slack's check refuses a cut link
    text = shown(channel, payload)
    assert text.startswith(expected)
    assert "qqqq" not in text  # no piece of the URL, as raw text or a broken link


@pytest.mark.parametrize(
    ("channel", "length", "link"),
    [
        ("slack", SLACK_MAX_SECTION_CHARS - 200, "<{url}|the doc>"),
        ("discord", DISCORD_MAX_CONTENT - 200, "[the doc](<{url}>)"),
        ("discourse", DISCOURSE_MAX_CHARS // 2 - 100, "[the doc]({url})"),
    ],
)
def test_a_long_link_that_fits_a_message_stays_whole(channel: str, length: int, link: str) -> None:
    url = long_url(length)
    text = "Intro words. " * 40 + f"See [the doc]({url}) now.[^1]"
    payload = render(channel, Answer(text=text, citations=CITED))
    CHECKS[channel](payload)
    assert link.format(url=url) in shown(channel, payload)
