"""The OpenAI-compatible backend when the endpoint fails: HTTP errors with the bodies real
servers and proxies send, streams that stall or break, base URLs and API keys as people set them.

Driven by the real ``openai`` client against the loopback fake. Every failure must reach the user
as one line naming the endpoint (with a hint when the settings are the likely cause), never a
traceback or a hang.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.openai_backend import OpenAIBackend
from bot.config import Settings
from bot.errors import BackendError, ConfigError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for, model_settings
from tests.fakes.openai_server import Completion, FakeOpenAI, chunk, error_body, events, raw, text

PUBLIC = frozenset({"public"})


async def failure_of(bot: Assistant, stream: bool, within: float = 10) -> str:
    """The one-line message the turn failed with (a hang fails the test instead)."""
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream), within)
    message = str(caught.value)
    assert "\n" not in message and "Traceback" not in message
    return message


# -- streams that stop, stall or break ---------------------------------------------------------


@pytest.mark.parametrize(
    "stream_",
    [
        events(chunk("Half an ans"), keepalive=0.05),  # a proxy keeping a dead stream alive
        events(chunk("Half an ans"), stall=5),
    ],
    ids=["keep-alive-forever", "stall"],
)
async def test_a_stream_that_stops_sending_answer_fails_after_the_timeout(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream_: Completion
) -> None:
    fake.add(stream_)
    bot = assistant_for(kb_settings, kb_index, fake.base_url, timeout=0.5)
    message = await failure_of(bot, stream=True)
    assert message == (
        f"the model endpoint at {fake.base_url} stopped answering mid-stream (nothing for 0.5 s; "
        "assistant.openai.timeout sets how long it may pause)"
    )


async def test_a_connection_dropped_mid_answer_is_not_called_unreachable(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    fake.add(events(chunk("Half an ans"), abort=True))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert await failure_of(bot, stream=True) == (
        f"the connection to the model endpoint at {fake.base_url} broke before the answer was "
        "complete"
    )


# -- error bodies of every shape ------------------------------------------------------------------

NGINX_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>"
)
TRACEBACK = 'Internal Server Error\n\nTraceback (most recent call last):\n  File "x.py"\nKeyError'


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (error_body(502, NGINX_502, "text/html"), "HTTP 502: Bad Gateway"),
        (error_body(500, TRACEBACK), "HTTP 500: Internal Server Error"),
        (
            error_body(503, "<h1>Service\n  Unavailable</h1><p>later</p>", "text/html"),
            "HTTP 503: Service Unavailable",
        ),
        (
            error_body(
                404,
                '{"error": "model \\"llama9\\" not found, try pulling it first"}',
                "application/json",
            ),
            # the server's reason names a model: the hint names the setting that chose it
            'HTTP 404: model "llama9" not found, try pulling it first '
            "(assistant.openai.model is 'gpt-4o-mini')",
        ),
        (
            error_body(
                400,
                '{"object": "error", "message": "max_tokens is too large", '
                '"type": "BadRequestError", "code": 400}',
                "application/json",
            ),
            "HTTP 400: max_tokens is too large",
        ),
        (
            error_body(
                422,
                '{"detail": [{"loc": ["body", "messages"], "msg": "field required"}]}',
                "application/json",
            ),
            "HTTP 422: field required",
        ),
        (error_body(500, "x" * 5000), f"HTTP 500: {'x' * 199}…"),
        (error_body(502, ""), "HTTP 502"),
    ],
    ids=["nginx", "traceback", "html", "ollama", "vllm", "fastapi", "huge", "empty"],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_an_http_error_of_any_shape_reads_as_one_line(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    response: Completion,
    reason: str,
    stream: bool,
) -> None:
    fake.add(response)
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert (
        await failure_of(bot, stream) == f"the model endpoint at {fake.base_url} answered {reason}"
    )


@pytest.mark.parametrize(
    ("header", "wait"),
    [
        (
            {"retry_after": "300"},
            "300 s, longer than assistant.openai.timeout (60 s), so it was not retried",
        ),
        ({"retry_after_ms": "1500"}, "1.5 s"),
    ],
)
async def test_a_rate_limit_says_how_long_the_endpoint_asked_to_wait(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    header: dict[str, str],
    wait: str,
) -> None:
    body = '{"error": {"message": "Rate limit reached for gpt-4o", "code": "rate_limit_exceeded"}}'
    fake.add(error_body(429, body, "application/json", **header))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert await failure_of(bot, stream=True) == (
        f"the model endpoint at {fake.base_url} answered HTTP 429: Rate limit reached for gpt-4o "
        f"(it asked to retry after {wait})"
    )


async def test_a_refused_request_without_an_api_key_says_none_is_set(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, api_key="")
    assert (await failure_of(bot, stream=False)).endswith(
        "answered HTTP 401: Incorrect API key provided. (assistant.openai.api_key is not set, "
        "so a placeholder key was sent; retrying will not help)"
    )


async def test_a_server_that_needs_no_api_key_works_without_one(
    kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    async with FakeOpenAI(api_key="not-needed") as local:  # Ollama, llama.cpp, LM Studio
        local.add(text("Hello."))
        bot = assistant_for(kb_settings, kb_index, local.base_url, api_key="")
        assert (await run(bot, "hi", stream=True)).answer.text == "Hello."


# -- base URLs as people paste them ---------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["/v1/", "/v1/chat/completions", " /v1/chat/completions/ "])
@pytest.mark.parametrize("stream", [True, False])
async def test_a_base_url_with_a_slash_or_the_whole_endpoint_works(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, suffix: str, stream: bool
) -> None:
    url = fake.base_url.removesuffix("/v1") + suffix
    fake.add(text("Hello."))
    bot = assistant_for(kb_settings, kb_index, url)
    assert (await run(bot, "hi", stream)).answer.text == "Hello."


@pytest.mark.parametrize("stream", [True, False])
async def test_a_base_url_without_v1_gets_a_hint(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    root = fake.base_url.removesuffix("/v1")
    bot = assistant_for(kb_settings, kb_index, root + "/")
    assert await failure_of(bot, stream) == (
        f"the model endpoint at {root} answered HTTP 404: Not Found "
        "(most OpenAI-compatible servers need assistant.openai.base_url to end in /v1)"
    )


async def test_an_error_answered_with_status_200_is_reported_with_its_reason(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # LM Studio answers an unknown path with 200 and {"error": "..."}
    lm_studio = '{"error": "Unexpected endpoint or method. (POST /chat/completions)"}'
    fake.add(raw(lm_studio, "application/json"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert await failure_of(bot, stream=False) == (
        f"the model endpoint at {fake.base_url} returned no choices: Unexpected endpoint or "
        "method. (POST /chat/completions)"
    )


@pytest.mark.parametrize("stream", [True, False])
async def test_an_api_key_with_a_line_break_is_sent_without_it(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    # `${OPENAI_API_KEY}` from a CRLF .env file, or a key file written with `echo`
    fake.add(text("Hello."))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, api_key=" test-key\r\n")
    assert (await run(bot, "hi", stream)).answer.text == "Hello."


def test_an_api_key_no_header_can_carry_is_a_config_error_that_keeps_it_secret(
    kb_settings: Settings,
) -> None:
    settings = model_settings(kb_settings, "http://127.0.0.1:9/v1", api_key="sk-sécret\x00")
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(settings.assistant.openai)
    assert str(caught.value).startswith("assistant.openai.api_key: contains characters")
    assert "sécret" not in str(caught.value)


@pytest.mark.parametrize(
    "url", ["localhost:11434/v1", "127.0.0.1:8000", "http:/localhost/v1", "ftp://example.com/v1"]
)
def test_a_base_url_that_is_not_http_fails_at_the_start(kb_settings: Settings, url: str) -> None:
    settings = model_settings(kb_settings, url)
    with pytest.raises(ConfigError) as caught:
        OpenAIBackend(settings.assistant.openai)
    assert str(caught.value).startswith(f"assistant.openai.base_url: '{url}' is not an http://")


def test_an_empty_base_url_means_the_default_endpoint(
    kb_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)  # `${OPENAI_BASE_URL}` left unset
    backend = OpenAIBackend(model_settings(kb_settings, " ").assistant.openai)
    assert backend.where == "https://api.openai.com/v1"
