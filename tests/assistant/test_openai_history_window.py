"""The model gets every earlier exchange the channel passes on.

Each channel bounds its history by its own setting (``slack.history_turns`` and
``discord.history_limit`` default to 10, ``web.history_turns`` goes up to 50). The model
backend cut every history to its latest six exchanges besides, so those settings did nothing
above six and a Discourse topic's opening question dropped out after six exchanges.
"""

from __future__ import annotations

from bot.config import Settings
from bot.knowledge import KnowledgeIndex
from bot.models import Exchange
from tests.assistant.test_assistant_openai import PUBLIC, assistant_for
from tests.fakes.openai_server import FakeOpenAI, text


async def test_ten_earlier_exchanges_all_reach_the_model(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(text("No sources needed."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    history = [Exchange(f"question {n}", f"answer {n}.") for n in range(10)]
    await bot.answer("and then?", PUBLIC, history)
    asked = [m["content"] for m in fake.requests[0]["messages"] if m["role"] == "user"]
    assert asked == [f"question {n}" for n in range(10)] + ["and then?"]
