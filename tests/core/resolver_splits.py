"""One check for resolver tests: ``resolve()`` of a text, and the same text streamed in many
splits (one character at a time, small pieces, gathered deltas), must give one Answer."""

from __future__ import annotations

from collections.abc import Callable

from bot.markdown import citations_in, parse
from bot.models import Answer, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import ResolvePolicy, StreamResolver, resolve

# (piece size, StreamResolver coalesce): one character at a time scanned at once and gathered,
# small odd pieces, and the whole text as one delta
SPLITS = ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (7, 0), (1, 128), (4, 16))


def two_sources() -> SourceRegistry:
    """A registry with [1] "Install guide" and [2] "Manual"; any other number is out of range."""
    registry = SourceRegistry(["public"], secret=b"resolver-splits!")
    registry.register_all([Source("a", title="Install guide"), Source("b", title="Manual")])
    return registry


def streamed(raw: str, size: int, coalesce: int) -> Answer:
    """``raw`` fed to a StreamResolver in pieces of ``size``; its deltas must add up to the text."""
    resolver = StreamResolver(two_sources(), coalesce=coalesce)
    shown: list[str] = []
    for at in range(0, len(raw), size):
        shown += [e.text for e in resolver.feed(raw[at : at + size]) if isinstance(e, TextDelta)]
    events, answer = resolver.finish()
    shown += [e.text for e in events if isinstance(e, TextDelta)]
    assert "".join(shown) == answer.text
    return answer


def streamed_at(
    raw: str,
    cuts: list[int],
    registry: SourceRegistry,
    policy: ResolvePolicy | None = None,
    coalesce: int = 0,
) -> Answer:
    """``raw`` fed to a StreamResolver cut at ``cuts`` (taken modulo its length, in order, each
    once); its deltas must add up to the final text."""
    resolver = StreamResolver(registry, policy, coalesce=coalesce)
    shown: list[str] = []
    last = 0
    for cut in [*sorted({c % (len(raw) + 1) for c in cuts}), len(raw)]:
        shown += [e.text for e in resolver.feed(raw[last:cut]) if isinstance(e, TextDelta)]
        last = cut
    events, answer = resolver.finish()
    shown += [e.text for e in events if isinstance(e, TextDelta)]
    assert "".join(shown) == answer.text
    return answer


def resolved_alike(
    raw: str, make_registry: Callable[[], SourceRegistry], policy: ResolvePolicy
) -> Answer:
    """``resolve(raw)`` over a fresh ``make_registry()``, checked to equal every stream of it:
    cut at every character, at every third and once in the middle, coalesced 0, 16 and 128."""
    answer = resolve(raw, make_registry(), policy)
    for cuts in (list(range(len(raw))), list(range(0, len(raw), 3)), [len(raw) // 2]):
        for coalesce in (0, 16, 128):
            assert streamed_at(raw, cuts, make_registry(), policy, coalesce) == answer, cuts
    return answer


def resolved_everywhere(raw: str) -> str:
    """The resolved text of ``raw``, checked to be the same however the text was streamed."""
    answer = resolve(raw, two_sources())
    for size, coalesce in (*SPLITS, (max(len(raw), 1), 0)):
        assert streamed(raw, size, coalesce) == answer, (size, coalesce)
    return answer.text


def reads_as_mistune(raw: str, cited: bool) -> str:
    """Resolve ``raw`` with its ``[^1]`` written ``[1]``, as a model writes it, and check that
    mistune (reading ``raw``), the resolver, mistune reading the resolved text and every stream
    agree on whether that marker is a citation (``cited``) or code; the resolved text."""
    expected = [1] if cited else []
    assert citations_in(parse(raw)) == expected
    written = raw.replace("[^1]", "[1]")
    answer = resolve(written, two_sources())
    assert [c.n for c in answer.citations] == expected
    assert citations_in(parse(answer.text)) == expected
    assert resolved_everywhere(written) == answer.text
    return answer.text
