"""The OpenAI-compatible backend says why an endpoint failed: the real cause of a connection
failure, the setting to fix when a key or a model is refused, and the reason a server gives when
it gives up on an answer halfway (never the fragment as if it were the answer).

Driven by the real ``openai`` client against the loopback fake.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.openai_errors import connection_reason
from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import Completion, FakeOpenAI, chunk, error_body, events, raw

DONE = "data: [DONE]\n\n"


async def failure_of(bot: Assistant, stream: bool) -> str:
    """The one-line message the turn failed with (a hang fails the test instead)."""
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "anything", stream), 10)
    message = str(caught.value)
    assert "\n" not in message
    return message


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- connections that fail ------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [True, False])
async def test_a_refused_connection_says_so(
    kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    bot = assistant_for(kb_settings, kb_index, url)
    assert await failure_of(bot, stream) == (
        f"cannot reach the model endpoint at {url}: connection refused (is the server running "
        "and listening there?)"
    )


async def test_an_https_url_for_a_plain_http_server_says_so(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    url = fake.base_url.replace("http://", "https://")
    bot = assistant_for(kb_settings, kb_index, url)
    assert await failure_of(bot, stream=True) == (
        f"cannot reach the model endpoint at {url}: TLS handshake failed (is it an http:// "
        "server behind an https:// URL?)"
    )


def wrapped(cause: BaseException) -> Exception:
    """``cause`` wrapped as the client wraps it: two layers that say nothing."""
    transport = OSError("All connection attempts failed")
    transport.__cause__ = cause
    error = Exception("Connection error.")
    error.__cause__ = transport
    return error


def test_a_host_name_that_does_not_resolve_and_other_causes_are_named() -> None:
    # no lookup here (tests stay on loopback): the exceptions as the client chains them
    unresolved = socket.gaierror(-2, "Name or service not known")
    assert connection_reason(wrapped(unresolved)) == (
        "cannot resolve its host name (Name or service not known)"
    )
    unreachable = OSError(101, "Network is unreachable")
    assert connection_reason(wrapped(unreachable)) == "Network is unreachable"
    assert connection_reason(Exception("Connection error.")) == "connection error"


# -- refusals that name the setting to fix --------------------------------------------------------


@pytest.mark.parametrize("stream", [True, False])
async def test_a_refused_key_names_the_setting(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, stream: bool
) -> None:
    bot = assistant_for(kb_settings, kb_index, fake.base_url, api_key="sk-wrong")
    assert await failure_of(bot, stream) == (
        f"the model endpoint at {fake.base_url} answered HTTP 401: Incorrect API key provided. "
        "(the key in assistant.openai.api_key was refused; retrying will not help)"
    )
    body = '{"error": {"message": "Project does not have access to model gpt-4o"}}'
    fake.add(error_body(403, body, "application/json"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert (await failure_of(bot, stream)).endswith(
        "answered HTTP 403: Project does not have access to model gpt-4o (the key in "
        "assistant.openai.api_key was refused for this request, such as for a model it has no "
        "access to; retrying will not help)"
    )


@pytest.mark.parametrize(
    "body",
    [
        # OpenAI, Ollama
        '{"error": {"message": "The model `gpt-4o-mini` does not exist or you do not have '
        'access to it.", "code": "model_not_found"}}',
        '{"error": "model \\"gpt-4o-mini\\" not found, try pulling it first"}',
    ],
    ids=["openai", "ollama"],
)
async def test_an_unknown_model_names_the_setting(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, body: str
) -> None:
    fake.add(error_body(404, body, "application/json"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, model="gpt-4o-mini")
    message = await failure_of(bot, stream=True)
    assert message.endswith(" (assistant.openai.model is 'gpt-4o-mini')")
    assert "base_url" not in message


# -- answers the server gave up on ----------------------------------------------------------------


def given_up(finish: str, error: dict[str, Any] | None) -> dict[str, Any]:
    """The last chunk of a stream the server ended with ``finish`` (OpenRouter: an error beside)."""
    last = chunk(finish=finish)
    if error is not None:
        last["choices"][0]["error"] = error
    return last


PROVIDER_ERROR = {"code": 502, "message": "Provider returned error"}


@pytest.mark.parametrize(
    ("finish", "error", "why"),
    [
        ("error", PROVIDER_ERROR, ": Provider returned error"),
        ("error", None, " (finish_reason 'error')"),
        ("abort", None, " (finish_reason 'abort')"),
    ],
)
async def test_a_streamed_answer_the_server_gave_up_on_is_an_error(
    fake: FakeOpenAI,
    kb_settings: Settings,
    kb_index: KnowledgeIndex,
    finish: str,
    error: dict[str, Any] | None,
    why: str,
) -> None:
    fake.add(events(chunk("Citecast retries deliveries"), given_up(finish, error), DONE))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert await failure_of(bot, stream=True) == (
        f"the model endpoint at {fake.base_url} stopped the answer with an error{why}"
    )


async def test_an_answer_the_server_gave_up_on_is_an_error_without_streaming(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    choice = {
        "index": 0,
        "message": {"role": "assistant", "content": "Citecast retries deliveries"},
        "finish_reason": "error",
        "error": PROVIDER_ERROR,
    }
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}
    fake.add(raw(json.dumps(body), "application/json"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert await failure_of(bot, stream=False) == (
        f"the model endpoint at {fake.base_url} stopped the answer with an error: "
        "Provider returned error"
    )


@pytest.mark.parametrize(
    ("event", "why"),
    [
        ({"error": "CUDA out of memory"}, "CUDA out of memory"),
        ({"error": {"message": "upstream overloaded"}}, "upstream overloaded"),
    ],
)
async def test_an_error_event_mid_stream_keeps_its_reason(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, event: Any, why: str
) -> None:
    fake.add(events(chunk("Half "), event, DONE))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert await failure_of(bot, stream=True) == (
        f"the model endpoint at {fake.base_url} failed: {why}"
    )


async def test_an_unknown_finish_reason_still_answers(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    # TGI ends a whole answer with "eos_token": only the reasons of a failure fail a turn
    fake.add(Completion(content="Hello there.", finish_reason="eos_token"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url)
    assert (await run(bot, "hi", stream=True)).answer.text == "Hello there."


# -- the endpoint as messages name it -------------------------------------------------------------


@pytest.mark.parametrize("userinfo", ["bob:s3cret@", "s3cret@"])
async def test_credentials_in_the_base_url_never_reach_a_message(
    kb_settings: Settings, kb_index: KnowledgeIndex, userinfo: str
) -> None:
    # a proxy in front of Ollama reached with basic auth, or a token as the user name (with no
    # api_key: beside one, they are refused at start, tests/assistant/test_openai_start_refusals.py)
    port = closed_port()
    bot = assistant_for(kb_settings, kb_index, f"http://{userinfo}127.0.0.1:{port}/v1/", api_key="")
    message = await failure_of(bot, stream=True)
    assert message.startswith(f"cannot reach the model endpoint at http://***@127.0.0.1:{port}/v1:")
    assert "s3cret" not in message


async def test_a_key_in_the_query_never_reaches_a_message(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex
) -> None:
    bot = assistant_for(kb_settings, kb_index, f"{fake.base_url}?key=s3cret")
    message = await failure_of(bot, stream=False)
    assert message.startswith(f"the model endpoint at {fake.base_url} answered HTTP ")
    assert "s3cret" not in message
