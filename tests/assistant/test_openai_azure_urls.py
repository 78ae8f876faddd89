"""A ``base_url`` with a query (Azure OpenAI's ``?api-version=…``) keeps it on every request.

Driven by the real ``openai`` client against the loopback fake, which here stands in for an
Azure deployment: it refuses a request without the ``api-version`` query and reads the key from
the ``api-key`` header, as Azure does.
"""

from __future__ import annotations

import pytest

from bot.assistant.openai_backend import OpenAIBackend
from bot.config import Settings
from bot.errors import ConfigError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, model_settings
from tests.fakes.openai_server import FakeOpenAI, text, tools

VERSION = "2024-06-01"


def azure(deployment: str) -> FakeOpenAI:
    return FakeOpenAI(
        prefix=f"/openai/deployments/{deployment}",
        required_query=(("api-version", VERSION),),
        key_header="api-key",
    )


@pytest.mark.parametrize("suffix", ["", "/", "/chat/completions"])
@pytest.mark.parametrize("stream", [True, False])
async def test_an_azure_deployment_url_keeps_its_api_version_on_every_request(
    kb_settings: Settings, kb_index: KnowledgeIndex, suffix: str, stream: bool
) -> None:
    async with azure("gpt4o") as fake:
        fake.add(tools(("search_docs", {"query": "retry policy"})), text("It retries [1]."))
        url = f"{fake.base_url}{suffix}?api-version={VERSION}"
        bot = assistant_for(kb_settings, kb_index, url)
        reply = await run(bot, "What does the retry policy do?", stream)
        assert reply.answer.text == "It retries [^1]."
        assert fake.problems == []
        assert fake.queries == [{"api-version": VERSION}] * 2


@pytest.mark.parametrize("stream", [True, False])
async def test_an_azure_resource_url_takes_the_deployment_from_the_model_setting(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    async with azure("my-deployment") as fake:
        fake.add(text("Hello."))
        root = fake.base_url.removesuffix("/deployments/my-deployment")
        url = f"{root}?api-version={VERSION}"
        bot = assistant_for(kb_settings, kb_index, url, model="my-deployment")
        assert (await run(bot, "hi", stream)).answer.text == "Hello."
        assert fake.problems == []


@pytest.mark.parametrize("suffix", ["", "/chat/completions"])
async def test_any_other_query_is_kept_on_every_request_too(
    kb_settings: Settings, kb_index: KnowledgeIndex, suffix: str
) -> None:
    # a proxy that takes its token in the query; Azure's /openai/v1 API with ?api-version=preview
    query = (("token", "a b"), ("api-version", "preview"))
    async with FakeOpenAI(required_query=query) as fake:
        fake.add(tools(("search_docs", {"query": "retry policy"})), text("It retries [1]."))
        url = f"{fake.base_url}{suffix}?token=a%20b&api-version=preview"
        bot = assistant_for(kb_settings, kb_index, url)
        assert (await run(bot, "What does the retry policy do?", True)).answer.text == (
            "It retries [^1]."
        )
        assert fake.problems == []
        assert fake.queries == [dict(query)] * 2


def test_messages_name_an_azure_endpoint_without_its_query(kb_settings: Settings) -> None:
    url = f"https://example.openai.azure.com/openai/deployments/d?api-version={VERSION}&k=s"
    backend = OpenAIBackend(model_settings(kb_settings, url).assistant.openai)
    assert backend.where == "https://example.openai.azure.com/openai/deployments/d"


@pytest.mark.parametrize(
    ("url", "reason"),
    [("http://[::1/v1", "Invalid IPv6 URL"), ("http://localhost:abc/v1", "Invalid port: 'abc'")],
)
def test_a_base_url_the_client_cannot_parse_fails_at_the_start_in_one_line(
    kb_settings: Settings, url: str, reason: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(model_settings(kb_settings, url).assistant.openai)
    assert str(caught.value) == f"assistant.openai.base_url: {url!r} is not a valid URL ({reason})"
