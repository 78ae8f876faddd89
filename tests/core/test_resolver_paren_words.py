"""``(Source 3)`` written by a model is a citation when 3 is a registry number.

Left as text, it showed the registry number the model saw, which is not the number the reader
sees (citations are numbered by appearance), so it pointed at the wrong source. Read like
``[Source 3]`` and ``[Ref. 3]``, but only in parentheses that hold nothing else and only when
every number names a source of this turn: otherwise it is the writer's prose and stays.
"""

from __future__ import annotations

import pytest

from bot.markers import Grammar, find_markers
from bot.models import Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import StreamResolver, resolve


def three_sources() -> SourceRegistry:
    registry = SourceRegistry(secret=b"paren-words-secr")
    registry.register_all([Source("a", title="A"), Source("b", title="B"), Source("c", title="C")])
    registry.register(Source("hr", title="Pay", audience=("hr",)))
    return registry


# raw, expected text, expected source numbers
CASES = [
    ("Fact (Source 3).", "Fact [^1].", [3]),
    ("Fact (source 3) and more.", "Fact [^1] and more.", [3]),
    ("Fact (Sources 1, 3).", "Fact [^1][^2].", [1, 3]),
    ("Fact (sources 1 and 2).", "Fact [^1][^2].", [1, 2]),
    ("Fact (Source: 2) (Ref. 1) (doc 3).", "Fact [^1][^2][^3].", [2, 1, 3]),
    ("Fact (SOURCE 2).\n(Source 2)", "Fact [^1].\n[^1]", [2]),
    # prose, or numbers that name no source of this turn, stay as written
    ("Fact (Source 9).", "Fact (Source 9).", []),
    ("Fact (Sources 1 and 9).", "Fact (Sources 1 and 9).", []),
    ("Fact (Source 4).", "Fact (Source 4).", []),  # the viewer may not see it: never numbered
    ("Use (source 3 of 5).", "Use (source 3 of 5).", []),
    ("Open source 3 times (source code).", "Open source 3 times (source code).", []),
    ("Source: 3", "Source: 3", []),
    ("Pages (results 1-3).", "Pages (results 1-3).", []),
    ("Code `(Source 3)` stays.", "Code `(Source 3)` stays.", []),
    ("Fact (Source", "Fact (Source", []),
]


@pytest.mark.parametrize(("raw", "text", "numbers"), CASES)
def test_parenthesised_source_words(raw: str, text: str, numbers: list[int]) -> None:
    answer = resolve(raw, three_sources())
    assert answer.text == text
    assert [c.source_number for c in answer.citations] == numbers
    assert answer.dropped == ()
    for size in (1, 2, 3, 5):
        stream = StreamResolver(three_sources(), coalesce=0)
        shown: list[str] = []
        for at in range(0, len(raw), size):
            delta = raw[at : at + size]
            shown += [e.text for e in stream.feed(delta) if isinstance(e, TextDelta)]
        events, streamed = stream.finish()
        shown += [e.text for e in events if isinstance(e, TextDelta)]
        assert "".join(shown) == streamed.text == text
        assert streamed == answer


def test_a_removal_joins_the_halves_of_parenthesised_words_as_text() -> None:
    # the words are read from the model's raw text only: joined, they are the reader's text,
    # never a citation, and nothing (visible or invisible) is put between the halves
    answer = resolve("Fact (Sourc[9]e 3).", three_sources())
    assert answer.citations == ()
    assert answer.text == "Fact (Source 3)."


def test_without_a_registry_no_parenthesised_word_is_a_marker() -> None:
    assert find_markers("Fact (Source 3).") == []
    [found] = find_markers("Fact (Source 3).", Grammar(is_known_number=lambda n: n == 3))
    assert (found.family, found.raw, found.numbers) == ("word", "(Source 3)", (3,))
