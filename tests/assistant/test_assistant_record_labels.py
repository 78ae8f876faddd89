"""A model, driven through the real ``openai`` client against the loopback fake, is told a
record table's columns by their ``column_labels`` and reads its records under them."""

from __future__ import annotations

import json

from bot.assistant.assistant import Assistant
from bot.assistant.openai_backend import OpenAIBackend
from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.knowledge.records import RecordTables
from tests.assistant.test_assistant_openai import model_settings, tool_messages
from tests.fakes.openai_server import FakeOpenAI, text, tools

PUBLIC = frozenset({"public"})


async def test_the_model_is_told_and_reads_the_labels_never_the_raw_names(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    [products] = kb_settings.index.records
    labelled = products.model_copy(
        update={"column_labels": {"price_usd": "Price (USD)", "support": "Support"}}
    )
    settings = model_settings(kb_settings, fake.base_url)
    backend = OpenAIBackend(settings.assistant.openai)
    bot = Assistant(settings, kb_index, backend, records=RecordTables([labelled]))
    fake.add(
        tools(("lookup_records", {"table": "products", "query": "CC-TEAM"})),
        text("The Team plan costs 19 USD [1]."),
    )
    answer = await bot.answer("What does the Team plan cost?", PUBLIC)
    assert answer.text == "The Team plan costs 19 USD [^1]."
    first, second = fake.requests
    [spec] = [t for t in first["tools"] if t["function"]["name"] == "lookup_records"]
    assert "(tier, Price (USD), Support)" in spec["function"]["description"]
    [result] = tool_messages(second)
    team = json.loads(result)[0]
    assert team["columns"] == {
        "tier": "team",
        "Price (USD)": "19",
        "Support": "email within 2 business days",
    }
    assert "price_usd" not in result and "price_usd" not in json.dumps(first["tools"])
    assert fake.problems == []
