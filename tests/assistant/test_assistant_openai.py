"""The OpenAI-compatible backend, driven by the real ``openai`` client against a fake server."""

from __future__ import annotations

import re
import socket
from typing import Any

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.base import Reply
from bot.assistant.openai_backend import OpenAIBackend
from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from bot.models import CitationAdded, Exchange, TextDelta
from tests.fakes.openai_server import Completion, FakeOpenAI, ToolCallSpec, failure, text, tools

PUBLIC = frozenset({"public"})


def model_settings(base: Settings, base_url: str, **openai: Any) -> Settings:
    options = {"base_url": base_url, "api_key": "test-key", "max_retries": 0, **openai}
    return base.model_copy(
        update={
            "assistant": base.assistant.model_copy(
                update={
                    "backend": "openai",
                    "top_k": 2,
                    "openai": base.assistant.openai.model_copy(update=options),
                }
            )
        }
    )


def assistant_for(
    kb_settings: Settings, kb_index: KnowledgeIndex, base_url: str, **openai: Any
) -> Assistant:
    settings = model_settings(kb_settings, base_url, **openai)
    return Assistant(settings, kb_index, OpenAIBackend(settings.assistant.openai))


def tool_messages(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "tool"]


async def test_tool_call_then_cited_answer(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        text("citecast waits for Retry-After [1] and then backs off exponentially [1]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    answer = await bot.answer("What does the retry policy do?", PUBLIC)
    assert answer.text == (
        "citecast waits for Retry-After [^1] and then backs off exponentially [^1]."
    )
    [citation] = answer.citations
    assert citation.source.section == "Administration guide > Delivery and retries > Retry policy"
    first, second = fake.requests
    # The model gets citation rules and tool results; never a numbered source list up front.
    shown = " ".join(str(m.get("content")) for m in first["messages"])
    assert not re.search(r"\[cite: \d+\]", shown) and "administration" not in shown.lower()
    assert "Cite only numbers the tools gave you" in shown
    assert [t["function"]["name"] for t in first["tools"]] == ["search_docs", "lookup_records"]
    # the model learns what each table is for and which columns it shows
    assert (
        "products: Plans and pricing (what each plan costs and its support) (tier, price_usd, "
        "support)" in first["tools"][1]["function"]["description"]
    )
    [result] = tool_messages(second)
    assert result.startswith("[cite: 1] citecast administration guide — Administration guide")
    assert fake.problems == []


async def test_parallel_tool_calls_are_numbered_in_call_order(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        tools(
            ("search_docs", {"query": "retry policy"}),
            ("search_docs", {"query": "signed file downloads"}),
            ("lookup_records", {"table": "products", "query": "enterprise"}),
        ),
        text("Retries back off [1]. Download links expire after an hour [3]. Enterprise [5]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    answer = await bot.answer("Tell me about retries, downloads and Enterprise", PUBLIC)
    retry, downloads, records = tool_messages(fake.requests[1])
    assert "[cite: 1]" in retry and "[cite: 2]" in retry
    assert "[cite: 3]" in downloads and "[cite: 4]" in downloads
    assert '"cite": 5' in records and "citecast Enterprise (CC-ENT)" in records
    assert [(c.n, c.source_number) for c in answer.citations] == [(1, 1), (2, 3), (3, 5)]
    assert answer.citations[1].source.section == "Security model > Signed file downloads"
    assert answer.citations[2].source.kind == "record"


async def test_streamed_markers_split_across_chunks(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    pieces = ("Retries honour Retry-After [", "1", "] and back off [1", "][", "9", "]. Done.")
    fake.add(tools(("search_docs", {"query": "retry policy"})), text("".join(pieces), *pieces))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    events = [e async for e in bot.stream("What does the retry policy do?", PUBLIC)]
    reply = events[-1]
    assert isinstance(reply, Reply)
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert "".join(deltas) == reply.answer.text
    assert all("[1" not in d and "[9" not in d for d in deltas)
    assert [e.citation.n for e in events if isinstance(e, CitationAdded)] == [1]
    assert reply.answer.text.count("[^1]") == 2 and "9" not in reply.answer.text
    assert [(d.marker, d.reason) for d in reply.answer.dropped] == [("[9]", "out_of_range")]
    assert fake.requests[0]["stream"] is True


async def test_hallucinated_and_hidden_sources_are_never_cited(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        tools(("search_docs", {"query": "walrus salary band"})),
        text(
            "The band is secret <CIT private/salaries.md#1 /> and [cite: 7]. It says so "
            "<citation>2</citation>."
        ),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    answer = await bot.answer("What is the walrus salary band?", PUBLIC)
    [result] = tool_messages(fake.requests[1])
    assert "confidential" not in result  # the public viewer's search never returns it
    assert answer.citations == ()
    assert "CIT" not in answer.text and "cite" not in answer.text and "citation" not in answer.text
    # the "and" joined two markers, so it goes with them
    assert answer.text == "The band is secret. It says so."
    assert {d.reason for d in answer.dropped} <= {"forbidden", "unknown", "out_of_range"}
    assert len(answer.dropped) == 3


async def test_tool_rounds_are_capped_then_tools_are_refused(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        tools(("search_docs", {"query": "retry"})),
        tools(("search_docs", {"query": "outbox"})),
        text("Enough [1]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_tool_rounds=2)
    answer = await bot.answer("retries?", PUBLIC)
    assert [r["tool_choice"] for r in fake.requests] == ["auto", "auto", "none"]
    assert len(answer.citations) == 1 and fake.problems == []


async def test_history_is_sent_without_old_citation_numbers(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(text("No sources needed."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    history = [Exchange("How do I install it?", "Use pip[^1][^2].")]
    await bot.answer("Thanks!", PUBLIC, history)
    roles = [(m["role"], m["content"]) for m in fake.requests[0]["messages"]][1:]
    assert roles == [
        ("user", "How do I install it?"),
        ("assistant", "Use pip."),
        ("user", "Thanks!"),
    ]


async def test_slow_endpoint_times_out_with_a_clear_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(Completion(content="too late", delay=5))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, timeout=0.2)
    with pytest.raises(BackendError, match=r"did not answer within 0\.2 s"):
        await bot.answer("anything", PUBLIC)


async def test_unreachable_endpoint_is_a_backend_error(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    bot = assistant_for(kb_settings, kb_index, url)
    with pytest.raises(BackendError, match=f"cannot reach the model endpoint at {url}"):
        await bot.answer("anything", PUBLIC)
    with pytest.raises(BackendError, match="cannot reach"):
        [e async for e in bot.stream("anything", PUBLIC)]


async def test_server_errors_are_retried_then_reported(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(failure(503, retry_after_ms=5), text("Recovered."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_retries=2)
    assert (await bot.answer("anything", PUBLIC)).text == "Recovered."
    assert len(fake.requests) == 2

    fake.add(failure(500, "the model is on fire"))
    strict = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError, match="answered HTTP 500: the model is on fire"):
        await strict.answer("anything", PUBLIC)


async def test_wrong_api_key_is_reported(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, api_key="wrong")
    with pytest.raises(BackendError, match="HTTP 401: Incorrect API key"):
        await bot.answer("anything", PUBLIC)


async def test_from_settings_picks_the_openai_backend(
    fake: FakeOpenAI, kb_settings: Settings
) -> None:
    settings = model_settings(kb_settings, fake.base_url)
    bot = Assistant.from_settings(settings)
    assert isinstance(bot.backend, OpenAIBackend)
    fake.add(tools(("search_docs", {"query": "backups"})), text("Back up nightly [1]."))
    answer = await bot.answer("How do I back up?", PUBLIC)
    assert answer.citations[0].source.filename == "operations-handbook.pdf"


async def test_preamble_before_tool_calls_does_not_disable_bare_markers(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    preamble = Completion(
        content="Let me look that up.",
        tool_calls=(ToolCallSpec("search_docs", {"query": "retry policy"}),),
    )
    fake.add(preamble, text("It honours Retry-After [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    events = [e async for e in bot.stream("What does the retry policy do?", PUBLIC)]
    reply = events[-1]
    assert isinstance(reply, Reply)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == reply.answer.text
    assert reply.answer.text == "Let me look that up.\n\nIt honours Retry-After [^1]."
    assert len(reply.answer.citations) == 1

    fake.add(preamble, text("It honours Retry-After [1]."))
    assert (await bot.answer("What does the retry policy do?", PUBLIC)) == reply.answer


async def test_an_answer_without_tools_streams_as_plain_text(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(text("Hello! Ask me about citecast [1]."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    events = [e async for e in bot.stream("hi", PUBLIC)]
    reply = events[-1]
    assert isinstance(reply, Reply)
    # a model told to cite that cites with no source invented the citation (model_cites)
    assert reply.answer.text == "Hello! Ask me about citecast."
    assert reply.answer.citations == ()
    assert [(d.marker, d.reason) for d in reply.answer.dropped] == [("[1]", "out_of_range")]


async def test_file_id_markers_name_index_sources(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    [best, *_] = kb_index.search("retry policy", limit=2)
    assert "/" in best.id and "#" in best.id  # "<folder>/<file>#<chunk>"
    fake.add(
        tools(("search_docs", {"query": "retry policy"})),
        text(f"Retries back off <CIT {best.id} />."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    answer = await bot.answer("retry policy?", PUBLIC)
    assert [c.source.id for c in answer.citations] == [best.id]
    assert answer.text.endswith("[^1].") and not answer.dropped


@pytest.mark.parametrize(("temperature", "sent"), [(0.7, 0.7), (None, "absent")])
async def test_temperature_is_sent_or_left_out_for_models_that_refuse_it(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    temperature: float | None,
    sent: float | str,
) -> None:
    fake.add(text("Nothing to cite here."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, temperature=temperature)
    await bot.answer("Hello?", PUBLIC)
    assert fake.requests[0].get("temperature", "absent") == sent


def test_a_temperature_out_of_range_is_refused_and_null_means_none() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="temperature"):
        Settings.model_validate({"assistant": {"openai": {"temperature": 5}}})
    unset = Settings.model_validate({"assistant": {"openai": {"temperature": None}}})
    assert unset.assistant.openai.temperature is None
