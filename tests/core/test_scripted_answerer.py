"""ScriptedAnswerer: the Answerer fake connectors use, built on the real registry and resolver."""

from __future__ import annotations

from bot.assistant.base import Answerer, Reply, ReplyEvent
from bot.models import CitationAdded, Exchange, Source, TextDelta
from bot.registry import SourceRegistry
from bot.resolver import COALESCE
from tests.fakes.answerer import ScriptedAnswerer

SOURCES = [Source(f"s{i}", title=f"Doc {i}", url=f"https://docs.test/{i}") for i in range(1, 61)]
SOURCES.append(Source("private-id", title="Salaries", audience=("hr",)))


def sixty_markers() -> str:
    return " ".join(f"Fact {i} [{i}]." for i in range(1, 61)) + " Secret <CIT private-id />."


async def collect(answerer: Answerer, audience: frozenset[str]) -> list[ReplyEvent]:
    return [event async for event in answerer.stream("q?", audience)]


async def test_reply_resolves_with_real_core_and_records_the_call() -> None:
    answerer = ScriptedAnswerer(SOURCES, sixty_markers())
    history = (Exchange("earlier?", "earlier answer"),)
    reply = await answerer.reply("How?", frozenset({"public"}), history)
    assert len(reply.answer.citations) == 60
    assert reply.answer.text.endswith("Fact 60 [^60]. Secret.")
    assert [d.reason for d in reply.answer.dropped] == ["forbidden"]
    assert "Salaries" not in str(reply.answer.to_json())
    assert answerer.calls == [("How?", frozenset({"public"}), history)]
    registry = SourceRegistry.from_json(reply.registry)
    assert len(registry) == 60
    assert registry.number_for_id("private-id") == "forbidden"


async def test_audience_changes_what_can_be_cited() -> None:
    answerer = ScriptedAnswerer(SOURCES, sixty_markers())
    reply = await answerer.reply("How?", frozenset({"public", "hr"}))
    assert len(reply.answer.citations) == 61
    assert reply.answer.dropped == ()


async def test_stream_events_add_up_to_the_reply() -> None:
    answerer = ScriptedAnswerer(SOURCES, sixty_markers(), chunk=3)
    events = await collect(answerer, frozenset({"public"}))
    final = events[-1]
    assert isinstance(final, Reply)
    assert all(not isinstance(e, Reply) for e in events[:-1])
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    added = [e.citation for e in events if isinstance(e, CitationAdded)]
    assert text == final.answer.text
    assert tuple(added) == final.answer.citations
    seen: set[int] = set()
    for event in events:
        if isinstance(event, CitationAdded):
            seen.add(event.citation.n)
        elif isinstance(event, TextDelta):
            for n in range(1, 61):
                if f"[^{n}]" in event.text:
                    assert n in seen
    plain = await answerer.reply("q?", frozenset({"public"}))
    assert final.answer == plain.answer


async def test_long_answer_streams_in_chunks() -> None:
    raw = ("Long paragraph with a citation [1]. " * 200)[:7000]
    answerer = ScriptedAnswerer(SOURCES[:1], raw, chunk=7)
    events = await collect(answerer, frozenset({"public"}))
    deltas = [e for e in events if isinstance(e, TextDelta)]
    # after the first, deltas are gathered until COALESCE characters arrive, then scanned
    assert len(deltas) >= len(raw) // (COALESCE + 7)
    final = events[-1]
    assert isinstance(final, Reply)
    assert len(final.answer.text) > 6900
