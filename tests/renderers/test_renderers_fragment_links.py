"""A deep link with the longest text fragment keeps its highlight on every channel.

``MAX_FRAGMENT_CHARS`` bounds the ``#:~:text=`` directive so that no channel has to give up a
highlight (or the link) for its length: a Slack source entry holds 2,000 characters, a Discord
source line a message's 2,000, an email reference any length at its richest levels.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.deeplinks import MAX_FRAGMENT_CHARS
from bot.models import Answer, Citation, Source
from renderers import CHANNELS, render
from tests.renderers.payload_checks import CHECKS

COUNT = 8
# a URL longer than most (a deep section of a handbook site)
BASE = "https://handbook.example.org/operations/security/building-access/badges-and-visitors"


def longest_link(n: int) -> str:
    """A deep link whose directive is as long as a fragment may be (Cyrillic, six a letter)."""
    letters = (MAX_FRAGMENT_CHARS - len(f":~:text={n}%20,")) // 6
    directive = f":~:text={n}%20" + "%D0%AF" * (letters // 2) + "," + "%D0%AF" * (letters // 2)
    assert MAX_FRAGMENT_CHARS - 12 <= len(directive) <= MAX_FRAGMENT_CHARS
    return f"{BASE}/{n}#{directive}"


def answer() -> Answer:
    citations = tuple(
        Citation(
            n=n,
            source=Source(id=f"s{n}", title=f"Badge rules, part {n}", url=f"{BASE}/{n}"),
            source_number=n,
            quote=f"Rule {n} of the badge policy.",
            deep_link=longest_link(n),
        )
        for n in range(1, COUNT + 1)
    )
    text = " ".join(f"Rule {n} of the badge policy holds.[^{n}]" for n in range(1, COUNT + 1))
    return Answer(text=text, citations=citations)


@pytest.mark.parametrize("channel", CHANNELS)
def test_the_longest_fragment_keeps_its_highlight(channel: str) -> None:
    payload: dict[str, Any] = render(channel, answer())
    CHECKS[channel](payload)
    shown = json.dumps(payload, ensure_ascii=False)
    if channel == "slack":  # the source list, not only the inline markers
        shown = "\n".join(
            element["text"]
            for message in payload["messages"]
            for block in message["blocks"]
            if block["type"] == "context"
            for element in block["elements"]
        )
    for n in range(1, COUNT + 1):
        assert longest_link(n) in shown, (channel, n)
