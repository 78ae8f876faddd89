""" "and" and "&" between markers go with a removed marker, like "," and ";" do.

``Fact [1] and [9].`` with [9] removed used to read ``Fact [^1] and.``; it reads ``Fact [^1].``.
The word stays when it is the writer's (text follows it, or it only begins like "and").
Checked with ``resolve()`` and the stream fed in several splits.
"""

from __future__ import annotations

import pytest

from bot.models import Answer, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import StreamResolver, resolve


def two_sources() -> SourceRegistry:
    registry = SourceRegistry(["public"], secret=b"and-sep-secret!!")
    registry.register_all([Source("a", title="Install guide"), Source("b", title="Manual")])
    return registry


def streamed(raw: str, size: int, coalesce: int) -> Answer:
    resolver = StreamResolver(two_sources(), coalesce=coalesce)
    shown: list[str] = []
    for at in range(0, len(raw), size):
        shown += [e.text for e in resolver.feed(raw[at : at + size]) if isinstance(e, TextDelta)]
    events, answer = resolver.finish()
    shown += [e.text for e in events if isinstance(e, TextDelta)]
    assert "".join(shown) == answer.text
    return answer


def resolved_everywhere(raw: str) -> str:
    answer = resolve(raw, two_sources())
    for size, coalesce in ((1, 0), (2, 0), (3, 0), (4, 0), (1, 128), (len(raw), 0)):
        assert streamed(raw, size, coalesce) == answer, (size, coalesce)
    return answer.text


CASES = [
    ("Fact [1] and [9].", "Fact [^1]."),
    ("Fact [9] and [1].", "Fact [^1]."),
    ("Fact [1] & [9].", "Fact [^1]."),
    ("Fact [1], and [9].", "Fact [^1]."),
    ("Fact [9] and [10].", "Fact."),
    ("Fact [1], [9] and [2].", "Fact [^1], [^2]."),
    # inside parentheses, as "," is
    ("Fact ([9] and [1]).", "Fact ([^1])."),
    ("Fact (see [9] and [10]).", "Fact."),
    ("Fact ([9] andrew).", "Fact (andrew)."),
    # kept: between two citations, before the writer's words, or not (yet) the word
    ("Fact [1] and [2].", "Fact [^1] and [^2]."),
    ("Fact [1] and more.", "Fact [^1] and more."),
    ("Fact [1] an [9].", "Fact [^1] an."),
    ("Fact [9] an [1].", "Fact an [^1]."),
    ("Fact [1] andrew [9].", "Fact [^1] andrew."),
    ("Fact [1] and", "Fact [^1] and"),
]


@pytest.mark.parametrize(("raw", "text"), CASES)
def test_and_between_markers_is_a_separator(raw: str, text: str) -> None:
    assert resolved_everywhere(raw) == text
