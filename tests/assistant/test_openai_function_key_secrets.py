"""An Azure Functions key in ``base_url``'s query (``?code=…``) is hidden as ``?api_key=…`` is:
in the HTTP client's request lines of the serve log and in a refusal's message.

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.commands.serve import LOG_FORMAT, RedactingFormatter
from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from bot.url_secrets import redact_urls
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, error_body

FUNCTION_KEY = "FKEY-0d1e2f3a4b"


async def test_a_function_key_is_hidden_in_the_log_and_in_the_refusal(
    kb_settings: Settings, kb_index: KnowledgeIndex, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with FakeOpenAI(required_query=(("code", FUNCTION_KEY),)) as fake:
        url = f"{fake.base_url}?code={FUNCTION_KEY}"
        fake.add(error_body(401, f"Unauthorized: {url} is not allowed"))
        bot = assistant_for(kb_settings, kb_index, url, max_retries=0)
        with pytest.raises(BackendError) as caught:
            await asyncio.wait_for(run(bot, "anything", stream=False), 10)
    lines = [RedactingFormatter(LOG_FORMAT).format(record) for record in caplog.records]
    request_lines = [line for line in lines if "/chat/completions" in line]
    assert request_lines  # the HTTP client logged its request, URL and all
    assert not [line for line in lines if FUNCTION_KEY in line]
    assert "code=…" in request_lines[0]
    assert FUNCTION_KEY not in str(caught.value)
    assert "?code=***" in str(caught.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://f.example/api?code=abc&x=1", "https://f.example/api?code=…&x=1"),
        ("https://h/v1?auth=abc", "https://h/v1?auth=…"),
        ("https://h/v1?access_token=abc&sig=d", "https://h/v1?access_token=…&sig=…"),
        # a word that only ends in "code" or begins with "auth" is no credential
        ("https://h/v1?country_code=DE&oauth_flow=x", "https://h/v1?country_code=DE&oauth_flow=x"),
    ],
)
def test_credential_query_names(url: str, shown: str) -> None:
    assert redact_urls(url) == shown
