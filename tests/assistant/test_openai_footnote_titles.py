"""A model's own footnote numbering, through the OpenAI backend: the definition's title decides
what the footnote cites (bot.resolver_listed), streamed and answered at once alike."""

from __future__ import annotations

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.models import TextDelta
from tests.assistant.test_assistant_openai import PUBLIC, assistant_for
from tests.fakes.openai_server import FakeOpenAI, text, tools

ANSWER = "Enterprise is the top plan[^1].\n\n[^1]: citecast Enterprise (CC-ENT)"


def _script(fake: FakeOpenAI) -> None:
    fake.add(
        tools(
            ("search_docs", {"query": "retry policy"}),
            ("lookup_records", {"table": "products", "query": "enterprise"}),
        ),
        text(ANSWER),
    )


async def test_a_footnote_defined_as_a_record_cites_the_record(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    _script(fake)
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    answer = await bot.answer("What is Enterprise?", PUBLIC)
    assert answer.text == "Enterprise is the top plan[^1]."
    assert [(c.n, c.source.kind, c.source.id) for c in answer.citations] == [
        (1, "record", "products/CC-ENT")
    ]


async def test_the_streamed_answer_cites_the_record_too(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    _script(fake)
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    events = [e async for e in bot.stream("What is Enterprise?", PUBLIC)]
    answer = events[-1].answer  # type: ignore[union-attr]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == answer.text
    assert [c.source.id for c in answer.citations] == ["products/CC-ENT"]
