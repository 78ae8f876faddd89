"""A model or server that cannot call tools fails the turn with one line saying what to change.

citecast's model answers only through tools (that is where its sources come from), so a
server that refuses ``tools`` cannot be worked around by leaving them out; the server's own
reason does not say which setting picked that model. Driven by the real ``openai`` client
against the loopback fake.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.errors import BackendError
from bot.knowledge import KnowledgeIndex
from tests.assistant.openai_turn import run
from tests.assistant.test_assistant_openai import assistant_for
from tests.fakes.openai_server import FakeOpenAI, failure

HINT = (
    " (citecast needs a model that can call tools; assistant.openai.model is 'gemma2:2b'; "
    "some servers must also be started with tool calling enabled)"
)


@pytest.mark.parametrize(
    "reason",
    [
        "registry.ollama.ai/library/gemma2:2b does not support tools",  # Ollama
        '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        "tools param requires --jinja flag",  # llama.cpp
        "tools is not supported with this model.",  # OpenAI's older reasoning models
    ],
)
@pytest.mark.parametrize("stream", [True, False])
async def test_a_server_that_refuses_tools_names_the_model_setting(
    fake: FakeOpenAI, kb_settings: Settings, kb_index: KnowledgeIndex, reason: str, stream: bool
) -> None:
    fake.add(failure(400, reason, code="invalid_request_error"))
    bot = assistant_for(kb_settings, kb_index, fake.base_url, model="gemma2:2b")
    with pytest.raises(BackendError) as caught:
        await asyncio.wait_for(run(bot, "hi", stream), 10)
    assert str(caught.value) == (
        f"the model endpoint at {fake.base_url} answered HTTP 400: {reason}{HINT}"
    )
