"""An account out of quota (OpenAI's 429 ``insufficient_quota``) and a key refused with a 400
(Gemini's "API key not valid") are not outages: the web chat says the assistant is not set up
correctly (503, and the same in the stream's error event), not "try again" (502).

Driven by the real ``openai`` client (the openai backend) against the loopback fake.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.connectors.web.test_web_refused_key import assert_not_set_up, assistant
from tests.fakes.openai_server import Completion, FakeOpenAI, error_body

NO_QUOTA = {
    "message": "You exceeded your current quota, please check your plan and billing details.",
    "type": "insufficient_quota",
    "code": "insufficient_quota",
}
KEY_NOT_VALID = {"message": "API key not valid. Please pass a valid API key."}


@pytest.mark.parametrize(
    "refusal",
    [
        error_body(429, json.dumps({"error": NO_QUOTA}), "application/json"),
        error_body(400, json.dumps([{"error": KEY_NOT_VALID}]), "application/json"),
    ],
    ids=["no-quota", "key-not-valid"],
)
async def test_an_account_refusal_is_a_503_saying_the_assistant_is_not_set_up(
    tmp_path: Path, refusal: Completion
) -> None:
    async with FakeOpenAI() as fake:
        fake.add(refusal, refusal)
        await assert_not_set_up(tmp_path, assistant(tmp_path, fake.base_url, "test-key"))
