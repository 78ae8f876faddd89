"""A model endpoint that refuses citecast's setup (an unknown model, no tool calling, a request
field it requires) is not an outage: like a refused key, the web chat says the assistant is not
set up correctly (503, and the same reason in the stream's error event), not "try again".

Driven by the real ``openai`` client (the openai backend) against the loopback fake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.config_file import parse_settings
from tests.connectors.web.conftest import build_harness, parse_sse
from tests.fakes.openai_server import Completion, FakeOpenAI, error_body, failure

NOT_SET_UP = {"error": "the assistant is not set up correctly; tell whoever runs this site"}


def assistant(tmp_path: Path, base_url: str) -> Assistant:
    """The configured assistant with the openai backend at ``base_url`` (no retries)."""
    settings = parse_settings(
        {
            "index": {"path": str(tmp_path / "index.db")},
            "assistant": {
                "backend": "openai",
                "openai": {
                    "base_url": base_url,
                    "api_key": "test-key",
                    "model": "llama9",
                    "max_retries": 0,
                },
            },
        }
    )
    return Assistant.from_settings(settings)


@pytest.mark.parametrize(
    "refusal",
    [
        failure(404, 'model "llama9" not found, try pulling it first', code="api_error"),
        failure(400, "registry.ollama.ai/library/llama9 does not support tools"),
        error_body(
            400,
            '{"object": "error", "message": "max_tokens must be set for this deployment", '
            '"type": "BadRequestError", "code": 400}',
            "application/json",
        ),
    ],
    ids=["no-such-model", "no-tools", "needs-max-tokens"],
)
async def test_a_setup_refusal_is_a_503_saying_the_assistant_is_not_set_up(
    tmp_path: Path, refusal: Completion
) -> None:
    async with FakeOpenAI() as fake:
        fake.add(refusal, refusal)
        services, client = build_harness(tmp_path, assistant(tmp_path, fake.base_url))
        async with client:
            posted = await client.post("/api/ask", json={"question": "How do I install it?"})
            streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, NOT_SET_UP)
    assert parse_sse(streamed.text)[-1] == ("error", NOT_SET_UP)
