"""Bracket words as models write them: "[Ref. 3]" is a citation, "[Figure 3]" the reader's text."""

from __future__ import annotations

import pytest

from bot.markers import find_markers
from bot.models import Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import StreamResolver, resolve


def three_sources() -> SourceRegistry:
    registry = SourceRegistry(secret=b"ref-words-secret")
    registry.register_all([Source("a", title="A"), Source("b", title="B"), Source("c", title="C")])
    return registry


# raw, expected text, expected source numbers, expected dropped reasons
CASES = [
    ("Fact [Ref. 3].", "Fact [^1].", [3], []),
    ("Fact [ref. 2] and [REF.3].", "Fact [^1] and [^2].", [2, 3], []),
    ("Fact [Refs. 1, 3].", "Fact [^1][^2].", [1, 3], []),
    ("Fact [Source. 2] [Doc. 1].", "Fact [^1][^2].", [2, 1], []),
    ("Fact [Ref. 9].", "Fact.", [], ["out_of_range"]),
    ("Fact [Ref. N].", "Fact.", [], ["placeholder"]),
    # forms that were already read stay read
    (
        "Fact [Ref 3] then [Source 2] then [source: 1].",
        "Fact [^1] then [^2] then [^3].",
        [3, 2, 1],
        [],
    ),
    # the reader's own labels stay text: figures, tables, pages, "cf." (parenthesised words:
    # test_resolver_paren_words.py)
    (
        "See [Figure 3], [Fig. 3], [Table 2], [p. 3] and [cf. 2].",
        "See [Figure 3], [Fig. 3], [Table 2], [p. 3] and [cf. 2].",
        [],
        [],
    ),
]


@pytest.mark.parametrize(("raw", "text", "numbers", "reasons"), CASES)
def test_ref_words(raw: str, text: str, numbers: list[int], reasons: list[str]) -> None:
    answer = resolve(raw, three_sources())
    assert answer.text == text
    assert [c.source_number for c in answer.citations] == numbers
    assert [d.reason for d in answer.dropped] == reasons
    stream = StreamResolver(three_sources())
    shown = [e.text for ch in raw for e in stream.feed(ch) if isinstance(e, TextDelta)]
    events, streamed = stream.finish()
    shown += [e.text for e in events if isinstance(e, TextDelta)]
    assert "".join(shown) == streamed.text == text
    assert streamed == answer


def test_ref_with_a_dot_is_a_word_marker() -> None:
    found = find_markers("a [Ref. 3] b [refs. 1-2] c")
    assert [(m.family, m.numbers) for m in found] == [("word", (3,)), ("word", (1, 2))]
