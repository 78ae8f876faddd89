"""A model endpoint that refuses citecast's setup (an unknown model, no tool calling, a request
field it requires) is not an outage: like a refused key, the web chat says the assistant is not
set up correctly (503, and the same reason in the stream's error event), not "try again".

Driven by the real ``openai`` client (the openai backend) against the loopback fake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.web.test_web_refused_key import assert_not_set_up, assistant
from tests.fakes.openai_server import Completion, FakeOpenAI, error_body, failure


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
        await assert_not_set_up(tmp_path, assistant(tmp_path, fake.base_url, "test-key", "llama9"))
