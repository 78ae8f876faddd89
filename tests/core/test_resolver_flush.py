"""StreamResolver.flush(): gathered text is scanned now, against the registry as it is now."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.models import CitationAdded, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import COALESCE, StreamResolver, resolve
from tests.core.test_resolver_properties import make_registry, mixed


def two_sources() -> SourceRegistry:
    registry = SourceRegistry(["public"], secret=b"flush-secret-123")
    registry.register_all([Source("a", title="A"), Source("b", title="B")])
    return registry


def test_flush_resolves_gathered_text_before_the_registry_grows() -> None:
    registry = two_sources()
    resolver = StreamResolver(registry)
    events = list(resolver.feed("Retries back off [1]."))  # the first delta is scanned at once
    events += resolver.feed(" Backups: see [3].")  # gathered: shorter than COALESCE
    assert not any(isinstance(e, TextDelta) and "Backups" in e.text for e in events)
    flushed = resolver.flush()
    assert "".join(e.text for e in flushed if isinstance(e, TextDelta)) == " Backups: see."
    registry.register(Source("c", title="C"))  # a tool runs after the step's text
    events += flushed + resolver.feed("\n\nBack up nightly [3].")
    more, answer = resolver.finish()
    events += more
    assert answer.text == "Retries back off [^1]. Backups: see.\n\nBack up nightly [^2]."
    assert [(d.marker, d.reason) for d in answer.dropped] == [("[3]", "out_of_range")]
    assert [c.source_number for c in answer.citations] == [1, 3]
    assert [e.citation.n for e in events if isinstance(e, CitationAdded)] == [1, 2]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == answer.text


def test_flush_with_nothing_gathered_is_a_no_op() -> None:
    resolver = StreamResolver(two_sources())
    assert resolver.flush() == []
    resolver.feed("A [1].")
    assert resolver.flush() == []  # scanned already: nothing was gathered
    _, answer = resolver.finish()
    assert answer.text == "A [^1]."


@given(
    mixed,
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=8),
    st.sets(st.integers(min_value=0, max_value=8)),
    st.sampled_from([1, 16, COALESCE]),
)
def test_flush_never_changes_the_answer_while_the_registry_stays(
    raw: str, cuts: list[int], flush_after: set[int], coalesce: int
) -> None:
    resolver = StreamResolver(make_registry(), coalesce=coalesce)
    texts: list[str] = []
    last = 0
    for i, cut in enumerate([*sorted({c % (len(raw) + 1) for c in cuts}), len(raw)]):
        events = list(resolver.feed(raw[last:cut]))  # feed() may return a shared empty list
        if i in flush_after:
            events += resolver.flush()
        texts.extend(e.text for e in events if isinstance(e, TextDelta))
        last = cut
    events, answer = resolver.finish()
    texts.extend(e.text for e in events if isinstance(e, TextDelta))
    assert "".join(texts) == answer.text
    assert answer == resolve(raw, make_registry())
