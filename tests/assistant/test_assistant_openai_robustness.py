"""The OpenAI-compatible backend against endpoints that misbehave as real compatible servers do.

Driven by the real ``openai`` client against the loopback fake, told to ignore ``tool_choice``,
stream parallel calls at one index, cut a stream off, or answer with something else entirely.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.openai_backend import CUT_NOTES, OpenAIBackend
from bot.assistant.openai_step import Step
from bot.assistant.prompts import history_messages
from bot.config import RecordTable, Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from bot.knowledge.records import RecordTables
from bot.models import Exchange
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, model_settings, tool_messages
from tests.fakes.openai_server import Completion, FakeOpenAI, ToolCallSpec, raw, text, tools

PUBLIC = frozenset({"public"})
STAFF = frozenset({"staff"})
RETRY = ToolCallSpec("search_docs", {"query": "retry policy"})
BACKUPS = ToolCallSpec("search_docs", {"query": "backups"})


# -- 1. the last tool round ---------------------------------------------------------------------


@pytest.mark.parametrize("stream", [True, False])
async def test_tools_called_in_the_last_round_are_not_run(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, max_tool_rounds=1)
    fake.add(tools(("search_docs", {"query": "retry policy"})))
    fake.add(Completion(tool_calls=(BACKUPS,), ignore_tool_choice=True))
    with pytest.raises(BackendError, match="kept calling tools after 1 round and wrote no answer"):
        await run(bot, "What is the retry policy?", stream)

    fake.add(tools(("search_docs", {"query": "retry policy"})))
    fake.add(
        Completion(content="It backs off [1].", tool_calls=(BACKUPS,), ignore_tool_choice=True)
    )
    reply = await run(bot, "What is the retry policy?", stream)
    assert reply.answer.text == "It backs off [^1]."
    # the ignored call registered nothing: only the first round's two passages are numbered
    assert len(reply.registry["numbered"]) == 2
    assert len(fake.requests) == 4 and fake.problems == []


# -- 4. incomplete and empty steps ----------------------------------------------------------------


async def test_a_stream_cut_off_before_its_finish_reason_is_an_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(Completion(content="Half an ans", cut_off=True))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError, match="ended the stream before the answer was complete"):
        await run(bot, "anything", stream=True)


@pytest.mark.parametrize("stream", [True, False])
async def test_an_empty_answer_is_an_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    fake.add(text(""))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError, match="returned an empty answer"):
        await run(bot, "anything", stream)


@pytest.mark.parametrize(
    "body",
    [
        raw("<html><body>Please log in to the proxy</body></html>"),
        raw('{"id": "x", "object": "chat.completion", "choices": []}', "application/json"),
        raw("data: [DONE]\n\n", "text/event-stream"),
    ],
    ids=["html", "json-completion", "only-done"],
)
async def test_a_stream_request_answered_without_a_stream_is_an_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, body: Completion
) -> None:
    fake.add(body)
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError, match="not a chat completion stream"):
        await run(bot, "anything", stream=True)


@pytest.mark.parametrize("stream", [True, False])
async def test_an_answer_cut_at_the_token_limit_is_kept_with_a_warning_and_a_note(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    stream: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake.add(Completion(content="Truncated answ", finish_reason="length"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with caplog.at_level(logging.WARNING, logger="bot.assistant.openai_backend"):
        reply = await run(bot, "anything", stream)
    # the reader is told: half an answer must not read as a whole one
    assert reply.answer.text == f"Truncated answ\n\n{CUT_NOTES['length']}"
    assert "finish_reason 'length'" in caplog.text


# -- 5. malformed responses -------------------------------------------------------------------


async def test_a_non_completion_reply_is_a_one_line_backend_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(raw("<html>Bad gateway</html>"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError, match="returned a response that is not a chat completion"):
        await run(bot, "anything", stream=False)


async def test_invalid_json_in_a_stream_is_a_one_line_backend_error(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(Completion(content="ok ", sse_data=("{not json",)))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    with pytest.raises(BackendError) as caught:
        await run(bot, "anything", stream=True)
    message = str(caught.value)
    assert message == (
        f"the model endpoint at {fake.base_url} returned a response that is not a chat completion"
    )


# -- 2. parallel tool calls at one index ------------------------------------------------------


async def test_parallel_calls_streamed_at_one_index_stay_apart(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(
        Completion(tool_calls=(RETRY, BACKUPS), same_index=True),
        text("Retries back off [1]. Back up nightly [3]."),
    )
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    reply = await run(bot, "retries and backups?", stream=True)
    [assistant] = [m for m in fake.requests[1]["messages"] if m["role"] == "assistant"]
    assert [
        (c["function"]["name"], c["function"]["arguments"]) for c in assistant["tool_calls"]
    ] == [
        ("search_docs", '{"query": "retry policy"}'),
        ("search_docs", '{"query": "backups"}'),
    ]
    retry, backups = tool_messages(fake.requests[1])
    assert "[cite: 1]" in retry and "[cite: 3]" in backups
    assert [c.source_number for c in reply.answer.citations] == [1, 3]
    assert fake.problems == []


# -- 3. text is resolved against the sources of its own round -----------------------------------

PREAMBLE = "Retries back off [1]. Backups: see [3]. Checking."


async def test_text_before_a_tool_call_cannot_cite_what_the_tool_registers(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    answers = []
    # streamed in 5- and 100-character pieces, and in one go: one answer
    for stream, piece in [(True, 5), (True, 100), (False, len(PREAMBLE))]:
        pieces = tuple(PREAMBLE[i : i + piece] for i in range(0, len(PREAMBLE), piece))
        fake.add(
            tools(("search_docs", {"query": "retry policy"})),
            Completion(content=PREAMBLE, pieces=pieces, tool_calls=(BACKUPS,)),
            text("Back up nightly [3]."),
        )
        answers.append((await run(bot, "retries and backups", stream)).answer)
    # "[3]" in round 2 named nothing the model had seen yet: dropped, whatever the chunking
    for answer in answers:
        assert answer.text == (
            "Retries back off [^1]. Backups: see. Checking.\n\nBack up nightly [^2]."
        )
        assert [(d.marker, d.reason) for d in answer.dropped] == [("[3]", "out_of_range")]
        assert [c.source_number for c in answer.citations] == [1, 3]
    assert answers[0] == answers[1] == answers[2]


# -- 6. staff-only record tables ----------------------------------------------------------------


@pytest.fixture
def staff_tables(kb_settings: Settings, tmp_path: Path) -> RecordTables:
    salaries = tmp_path / "salaries.csv"
    salaries.write_text("level,band\nL1,walrus-100k\nL2,walrus-150k\n", encoding="utf-8")
    staff_only = RecordTable(
        name="salary_bands",
        csv=str(salaries),
        id_column="level",
        label_column="level",
        columns=["band"],
        audience=["staff"],
        description="Confidential walrus salary bands",
    )
    return RecordTables([*kb_settings.index.records, staff_only])


async def test_a_staff_only_table_is_never_described_to_a_public_viewer(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, staff_tables: RecordTables
) -> None:
    settings = model_settings(kb_settings, fake.base_url)
    backend = OpenAIBackend(settings.assistant.openai)
    bot = Assistant(settings, kb_index, backend, records=staff_tables)
    fake.add(tools(("lookup_records", {"table": "nope", "query": ""})), text("Nothing."))
    await bot.answer("What are the walrus salary bands?", PUBLIC)
    [spec] = [t for t in fake.requests[0]["tools"] if t["function"]["name"] == "lookup_records"]
    assert spec["function"]["parameters"]["properties"]["table"]["enum"] == ["products"]
    assert "salary" not in str(spec) and "walrus" not in str(spec)
    [error] = tool_messages(fake.requests[1])
    assert error == "error: no record table named 'nope' (tables: products)"

    fake.add(text("Ask HR."))
    await bot.answer("What are the walrus salary bands?", STAFF)
    [spec] = [t for t in fake.requests[2]["tools"] if t["function"]["name"] == "lookup_records"]
    enum = spec["function"]["parameters"]["properties"]["table"]["enum"]
    assert enum == ["products", "salary_bands"]
    assert "Confidential walrus salary bands (band)" in spec["function"]["description"]


# -- 7. history in each channel's form --------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "sent"),
    [
        ("It retries [1] and honours Retry-After [1][2].", "It retries and honours Retry-After."),
        ("It retries <https://example.com/admin#retry|[1]>.", "It retries."),
        ("It retries \\[1\\] and backs off \\[2\\].", "It retries and backs off."),
        (
            "Index `row[1]` [1] in 2023 [2023]:\n```\nx[1]\n```",
            "Index `row[1]` in 2023 [2023]:\n```\nx[1]\n```",
        ),
        # weakly supported citations (grounding's annotate policy), glued to their word
        (
            "Retries back off\u00a0[1?]. Outbox\u00a0<https://x.example/a|[2?]>.",
            "Retries back off. Outbox.",
        ),
        ("Retries back off\u00a0\\[1?\\] and wait\u2060[^2].", "Retries back off and wait."),
        # a Discourse post's footnote definitions are its source list, not the answer
        (
            "Retries back off.[^1]\n\n[^1]: [Admin guide](https://x.example/a), weak support?\n",
            "Retries back off.\n\n",
        ),
    ],
    ids=[
        "slack",
        "slack-link",
        "discord",
        "code-and-years-stay",
        "weak-slack",
        "weak-discord",
        "discourse-definitions",
    ],
)
def test_history_drops_old_citations_in_every_channel_form(stored: str, sent: str) -> None:
    [_, answer] = history_messages([Exchange("How do retries work?", stored)])
    assert answer == {"role": "assistant", "content": sent}


def test_calls_of_one_tool_at_one_index_without_ids_stay_apart() -> None:
    step = Step()
    for piece in [("search", None), ("_docs", '{"query"'), (None, ': "a"}')]:
        step.add_call_delta(0, None, *piece)
    step.add_call_delta(0, None, "search_docs", '{"query": "b"}')  # whole arguments before
    assert [(c.name, c.arguments) for c in step.tool_calls()] == [
        ("search_docs", '{"query": "a"}'),
        ("search_docs", '{"query": "b"}'),
    ]
