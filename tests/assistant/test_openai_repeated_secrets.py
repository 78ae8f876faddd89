"""A server that repeats the credentials it was sent in its reason never puts them in a message.

LiteLLM-style proxies answer a refused key with "Invalid token: Bearer sk-…", and a 500 can
repeat the request's headers; the reason goes into the turn's error, which ``citecast ask``
prints and every channel logs and stores. Driven by the real ``openai`` client against the
loopback fake.
"""

from __future__ import annotations

import asyncio
import base64
import json

import pytest

from bot.assistant.openai_client import sent_secrets
from bot.assistant.openai_errors import redact
from bot.config import OpenAISettings, Settings
from bot.errors import BackendConfigError, BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, error_body, events

KEY = "sk-test-SECRETKEY123"


def said(message: str) -> str:
    return json.dumps({"error": {"message": message}})


async def failure(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool, **openai: str
) -> BackendError:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, **openai)
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream), 10)
    return caught.value


@pytest.mark.parametrize("stream", [True, False])
async def test_a_key_the_server_repeats_in_a_refusal_is_hidden(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    async with FakeOpenAI(api_key=KEY) as fake:
        fake.add(
            error_body(
                401, said(f"Invalid token: Bearer {KEY} (key not in db)"), "application/json"
            )
        )
        error = await failure(fake, kb_settings, kb_index, stream, api_key=KEY)
    assert isinstance(error, BackendConfigError)  # still a refusal only the operator can fix
    assert str(error) == (
        f"the model endpoint at {fake.base_url} answered HTTP 401: Invalid token: Bearer "
        "sk-te*** (key not in db) (the key in assistant.openai.api_key was refused; retrying "
        "will not help)"
    )


@pytest.mark.parametrize("stream", [True, False])
async def test_a_key_in_a_server_error_or_a_broken_stream_is_hidden(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    async with FakeOpenAI(api_key=KEY) as fake:
        fake.add(error_body(500, f"Traceback: headers={{'authorization': 'Bearer {KEY}'}}"))
        error = await failure(fake, kb_settings, kb_index, stream, api_key=KEY)
    assert KEY not in str(error)
    assert "'Bearer sk-te***'" in str(error)

    async with FakeOpenAI(api_key=KEY) as fake:  # an error event in a stream that had begun
        fake.add(events({"error": {"message": f"upstream refused {KEY}"}}))
        error = await failure(fake, kb_settings, kb_index, stream=True, api_key=KEY)
    assert str(error) == f"the model endpoint at {fake.base_url} failed: upstream refused sk-te***"


async def test_url_credentials_the_server_repeats_are_hidden(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # Azure's client sends the key in api-key, so the URL's Basic credentials go beside it
    basic = base64.b64encode(b"alice:pa ss/word").decode()
    async with FakeOpenAI(
        api_key=KEY,
        prefix="/openai/deployments/d",
        required_query=(("api-version", "2024-06-01"),),
        key_header="api-key",
    ) as fake:
        reason = f"user alice, password pa ss/word (pa%20ss%2Fword) sent as Basic {basic}"
        fake.add(error_body(500, reason))
        url = fake.base_url.replace("://", "://alice:pa%20ss%2Fword@") + "?api-version=2024-06-01"
        bot = assistant_for(kb_settings, kb_index, url, api_key=KEY)
        with pytest.raises(BackendError) as caught:
            await asyncio.wait_for(run(bot, "anything", stream=False), 10)
    message = str(caught.value)
    assert message.endswith(f": user alice, password *** (***) sent as Basic {basic[:5]}***")
    for secret in ("pa ss/word", "pa%20ss%2Fword", basic):
        assert secret not in message


def test_secrets_shorter_than_a_word_are_left_as_written() -> None:
    # "ollama" is no secret, and hiding it would make the server's reason unreadable
    settings = OpenAISettings(api_key="ollama", base_url="http://127.0.0.1:11434/v1")
    assert sent_secrets(settings) == ("ollama",)
    assert redact("model ollama/llama3 not found", sent_secrets(settings)) == (
        "model ollama/llama3 not found"
    )
    assert redact("token abcdefgh refused", ["abcdefgh"]) == "token *** refused"
