"""``policy: drop`` on a group of adjacent citations keeps the space the kept ones stand after."""

from __future__ import annotations

import pytest

from bot.grounding import GroundingPolicy, verify
from bot.models import Source
from tests.grounding.cited_answers import cited_answer

RETRIES = Source(id="ops#1", text="Failed sends are retried up to 5 times with backoff.")
THEME = Source(id="web#2", text="The chat widget has a dark theme and a light theme.")
SOCKET = Source(id="faq#3", text="Socket Mode needs no public URL.")


@pytest.mark.parametrize(
    ("text", "sources", "expected"),
    [
        # the weak [^1] opened the group and took the space with it: "times[^1]."
        (
            "Failed sends are retried up to 5 times [^1][^2].",
            (THEME, RETRIES),
            "Failed sends are retried up to 5 times [^1].",
        ),
        (
            "Sends are retried up to 5 times [^1][^2][^3], and Socket Mode needs no public URL.",
            (THEME, SOCKET, RETRIES),
            "Sends are retried up to 5 times [^1], and Socket Mode needs no public URL.",
        ),
        # the weak one closes the group, or every one is weak: as before
        (
            "Failed sends are retried up to 5 times [^1][^2].",
            (RETRIES, THEME),
            "Failed sends are retried up to 5 times [^1].",
        ),
        (
            "Failed sends are retried up to 5 times [^1][^2].",
            (THEME, SOCKET),
            "Failed sends are retried up to 5 times.",
        ),
    ],
)
def test_dropping_part_of_a_group_keeps_one_space(
    text: str, sources: tuple[Source, ...], expected: str
) -> None:
    result = verify(cited_answer(text, *sources), None, GroundingPolicy(mode="drop"))
    assert result.text == expected
    assert [c.source.id for c in result.citations] == (["ops#1"] if "[^1]" in expected else [])
