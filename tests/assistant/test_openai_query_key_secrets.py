"""A key carried in ``base_url``'s query (Gemini's ``?key=…``, a proxy's ``?api_key=…``) that
the server repeats in its reason never reaches a message, as a key in ``api_key`` does not.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.assistant.openai_client import query_secrets, sent_secrets, without_query_credentials
from bot.config import OpenAISettings, Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, error_body

QUERY_KEY = "QKEY-5f3a9c2e71"


async def failure(kb_settings: Settings, kb_index: KnowledgeIndex, url: str, stream: bool) -> str:
    bot = assistant_for(kb_settings, kb_index, url)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream), 10)
    return str(caught.value)


@pytest.mark.parametrize("stream", [True, False])
async def test_a_query_key_the_server_repeats_is_hidden(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    async with FakeOpenAI(required_query=(("key", QUERY_KEY),)) as fake:
        reason = json.dumps({"error": {"message": f"API key not valid: {QUERY_KEY}."}})
        fake.add(error_body(400, reason, "application/json"))
        message = await failure(kb_settings, kb_index, f"{fake.base_url}?key={QUERY_KEY}", stream)
    assert QUERY_KEY not in message
    assert "API key not valid: ***." in message


async def test_a_short_query_key_in_a_url_the_server_repeats_is_hidden(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # shorter than any secret hidden by its value: hidden as the serve log hides a URL's
    async with FakeOpenAI(required_query=(("api_key", "SECRETQ"),)) as fake:
        fake.add(error_body(404, f"no route for {fake.base_url}/chat/completions?api_key=SECRETQ"))
        message = await failure(
            kb_settings, kb_index, f"{fake.base_url}?api_key=SECRETQ", stream=False
        )
    assert "SECRETQ" not in message
    assert message.endswith("/chat/completions?api_key=***")


def test_only_credential_query_values_are_secrets() -> None:
    url = "https://llm.example/openai/deployments/d?api-version=2024-06-01&sig=a%2Bb%3D%3D12345"
    assert query_secrets(url) == ["a%2Bb%3D%3D12345", "a+b==12345"]
    settings = OpenAISettings(api_key="", base_url=f"http://127.0.0.1:9/v1?key={QUERY_KEY}&x=1")
    assert sent_secrets(settings) == (QUERY_KEY, QUERY_KEY)
    assert query_secrets(None) == []
    assert without_query_credentials("sent to /v1?key=ab&x=1", "http://h/v1?x=1&key=ab") == (
        "sent to /v1?key=***&x=1"
    )
