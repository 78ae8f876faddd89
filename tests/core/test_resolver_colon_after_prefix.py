"""The resolver escapes the colon after a line's citations behind list and quote markers too:
``1. [^1]: Download`` would read as a reference definition elsewhere."""

from __future__ import annotations

import pytest

from bot.models import Source
from bot.registry import SourceRegistry
from bot.resolver import StreamResolver, resolve


def registry() -> SourceRegistry:
    reg = SourceRegistry()
    reg.register_all(
        [
            Source("a", title="Alpha guide", url="https://a.test/"),
            Source("b", title="Beta guide", url="https://b.test/"),
        ]
    )
    return reg


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (
            "Steps:\n1. [1]: Download\n2. [2]: Install",
            "Steps:\n1. [^1]\\: Download\n2. [^2]\\: Install",
        ),
        ("- [1]: setup.exe", "- [^1]\\: setup.exe"),
        ("> [1]: quoted", "> [^1]\\: quoted"),
        ("> - <CIT a />: nested", "> - [^1]\\: nested"),
        ("  3) [1][2]: both", "  3) [^1][^2]\\: both"),
    ],
)
def test_a_colon_after_a_prefixed_line_of_citations_is_escaped(raw: str, text: str) -> None:
    assert resolve(raw, registry()).text == text
    stream = StreamResolver(registry())
    for char in raw:
        stream.feed(char)
    assert stream.finish()[1].text == text


def test_a_colon_after_a_citation_inside_a_line_stays() -> None:
    assert resolve("- Fact [1]: yes", registry()).text == "- Fact [^1]: yes"
