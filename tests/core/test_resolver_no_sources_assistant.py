"""The assistant resolves a model's answer with ``model_cites``: driven through the real
``openai`` client against the loopback fake of an OpenAI-compatible server.

A model told to cite that answers without searching, or writes ``[1]`` before its first tool
call, has invented that citation: it must not reach the reader. An answerer that was never told
to cite keeps DESIGN §5's reading (a bare ``[1]`` with no source is its text).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.openai_backend import OpenAIBackend
from bot.assistant.turn import Turn
from bot.config import Settings
from bot.knowledge import KnowledgeIndex, ingest
from tests.assistant.openai_turn import run
from tests.fakes.openai_server import Completion, FakeOpenAI, ToolCallSpec, text

DOC = "# Retries\n\nThe retry policy backs off exponentially and honours Retry-After.\n"

# the QA scenario's answer (scenario "markers"), written with no source registered
INVENTED = (
    "Bracket [1]. Footnote[^1]. Tag<citation>1</citation>. Word [cite: 1]. "
    "Source paren (Source 1). Sup <sup>1</sup>. Lenticular 【1】. Dagger 【1:0†source】. "
    "Unknown [99]. Zero [0]. Placeholder [n]. Range [1-1]. Year [2023].\n\n"
    "Sources:\n- [1] guide\n- [1] faq"
)


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """Settings of a one-document index, grounding off, answered by the OpenAI backend."""
    base = tmp_path_factory.mktemp("no-sources")
    docs = base / "docs"
    docs.mkdir()
    (docs / "retries.md").write_text(DOC, encoding="utf-8")
    settings = Settings.model_validate(
        {"index": {"path": str(base / "index.db")}, "grounding": {"policy": "off"}}
    )
    assert ingest([docs], settings.index).indexed == 1
    return settings


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as server:
        yield server


def model(settings: Settings, fake: FakeOpenAI) -> Assistant:
    options = {"base_url": fake.base_url, "api_key": "test-key", "max_retries": 0}
    openai = settings.assistant.openai.model_copy(update=options)
    assistant = settings.assistant.model_copy(update={"backend": "openai", "openai": openai})
    configured = settings.model_copy(update={"assistant": assistant})
    index = KnowledgeIndex(Path(settings.index.path))
    return Assistant(configured, index, OpenAIBackend(configured.assistant.openai))


@pytest.mark.parametrize("stream", [True, False])
async def test_a_model_answering_without_searching_shows_no_invented_citation(
    settings: Settings, fake: FakeOpenAI, stream: bool
) -> None:
    fake.add(text(INVENTED))
    reply = await run(model(settings, fake), "qqqzzzx wwwyyy?", stream)
    assert reply.answer.text == (
        "Bracket. Footnote. Tag. Word. Source paren. Sup. Lenticular. Dagger. Unknown. "
        "Zero [0]. Placeholder. Range. Year [2023]."
    )
    assert reply.answer.citations == ()
    assert [d.marker for d in reply.answer.dropped if d.reason == "out_of_range"] == [
        "[1]",
        "[^1]",
        "<citation>1</citation>",
        "[cite: 1]",
        "(Source 1)",
        "<sup>1</sup>",
        "【1】",
        "【1:0†source】",
        "[99]",
        "[1-1]",
    ]
    assert [d.marker for d in reply.answer.dropped if d.reason == "placeholder"] == ["[n]"]
    assert fake.problems == []


@pytest.mark.parametrize("stream", [True, False])
async def test_a_number_written_before_the_first_tool_call_is_dropped(
    settings: Settings, fake: FakeOpenAI, stream: bool
) -> None:
    search = ToolCallSpec("search_docs", {"query": "retry policy"})
    fake.add(
        Completion(content="Searching the docs for that [1]. ", tool_calls=(search,)),
        text("It backs off exponentially [1]."),
    )
    reply = await run(model(settings, fake), "What is the retry policy?", stream)
    # (the backend starts the next step's text on a paragraph of its own)
    assert reply.answer.text == (
        "Searching the docs for that. \n\nIt backs off exponentially [^1]."
    )
    assert [c.source.title for c in reply.answer.citations] == ["Retries"]
    assert [(d.marker, d.reason) for d in reply.answer.dropped] == [("[1]", "out_of_range")]
    assert fake.problems == []


class Scripted:
    """A backend that was never told to cite (it has no ``model_cites``): writes one text."""

    name = "scripted"

    def __init__(self, answer: str) -> None:
        self.answer = answer

    async def generate(self, turn: Turn) -> AsyncIterator[str]:
        yield self.answer


@pytest.mark.parametrize("stream", [True, False])
async def test_an_answerer_not_told_to_cite_keeps_its_brackets(
    settings: Settings, stream: bool
) -> None:
    index = KnowledgeIndex(Path(settings.index.path))
    bot = Assistant(settings, index, Scripted("See step [1] of [2]; (Source 1)."))
    reply = await run(bot, "steps?", stream)
    assert reply.answer.text == "See step [1] of [2]; (Source 1)."
    assert reply.answer.dropped == ()
