"""A model endpoint that refuses citecast's key (HTTP 401 or 403) is not an outage: asking again
cannot help, so the web chat says the assistant is not set up correctly (a 503, and the same
reason in the stream's error event) instead of "try again", and never shows the key's details;
the server log keeps the backend's full reason.

Driven by the real ``openai`` client (the openai backend) against the loopback fake.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.assistant.base import Reply, ReplyEvent
from bot.config_file import parse_settings
from bot.errors import BackendConfigError, KnowledgeIndexError
from bot.models import Exchange
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    parse_sse,
    passage,
)
from tests.fakes.openai_server import FakeOpenAI, error_body, text

NOT_SET_UP = {"error": "the assistant is not set up correctly; tell whoever runs this site"}
FAILED = {"error": "the assistant failed to answer; try again"}


def assistant(tmp_path: Path, base_url: str, api_key: str, model: str = "") -> Assistant:
    """The configured assistant with the openai backend at ``base_url`` (no retries)."""
    openai = {"base_url": base_url, "api_key": api_key, "max_retries": 0}
    settings = parse_settings(
        {
            "index": {"path": str(tmp_path / "index.db")},
            "assistant": {
                "backend": "openai",
                "openai": openai | ({"model": model} if model else {}),
            },
        }
    )
    return Assistant.from_settings(settings)


async def assert_not_set_up(tmp_path: Path, answerer: Assistant) -> None:
    """Both web endpoints answer ``answerer``'s failure as "not set up": a 503, and the
    stream's last event an error saying the same."""
    services, client = build_harness(tmp_path, answerer)
    async with client:
        posted = await client.post("/api/ask", json={"question": "How do I install it?"})
        streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, NOT_SET_UP)
    assert parse_sse(streamed.text)[-1] == ("error", NOT_SET_UP)


async def test_a_refused_key_is_a_503_saying_the_assistant_is_not_set_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors.setup_errors")
    async with FakeOpenAI() as fake:
        services, client = build_harness(tmp_path, assistant(tmp_path, fake.base_url, "sk-wrong"))
        async with client:
            posted = await client.post("/api/ask", json={"question": "How do I install it?"})
            streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, NOT_SET_UP)
    assert streamed.status_code == 200
    assert [name for name, _ in parse_sse(streamed.text)] == ["start", "error"]
    assert parse_sse(streamed.text)[1][1] == NOT_SET_UP
    assert "sk-wrong" not in posted.text + streamed.text
    # the deployment's setup alarm: an ERROR line, then an INFO line for the same cause
    logged = [r.getMessage() for r in caplog.records if r.name == "bot.connectors.setup_errors"]
    assert len(logged) == 2
    for line in logged:
        assert "answered HTTP 401: Incorrect API key provided." in line
        assert "assistant.openai.api_key was refused; retrying will not help" in line


async def test_a_key_refused_for_a_model_is_a_503_too(tmp_path: Path) -> None:
    body = '{"error": {"message": "Project does not have access to model gpt-4o"}}'
    async with FakeOpenAI() as fake:
        fake.add(error_body(403, body, "application/json"))
        fake.add(error_body(403, body, "application/json"))
        await assert_not_set_up(tmp_path, assistant(tmp_path, fake.base_url, "test-key"))


async def test_an_outage_still_says_try_again(tmp_path: Path) -> None:
    # a 500 may pass: it stays a 502 with "try again"
    async with FakeOpenAI() as fake:
        fake.add(error_body(500, "Internal Server Error"))
        services, client = build_harness(tmp_path, assistant(tmp_path, fake.base_url, "test-key"))
        async with client:
            posted = await client.post("/api/ask", json={"question": "How do I install it?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (502, FAILED)


async def test_the_backend_raises_its_config_error_for_a_refused_key(tmp_path: Path) -> None:
    async with FakeOpenAI() as fake:
        fake.add(text("never reached"))
        bot = assistant(tmp_path, fake.base_url, "")
        with pytest.raises(BackendConfigError, match="placeholder key was sent"):
            await bot.reply("How do I install it?", frozenset({"public"}))


class NoIndex(CannedAnswerer):
    """An answerer whose index is unusable (missing, corrupt, or of an older schema)."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        raise KnowledgeIndexError("no index at index.db; run citecast ingest")

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        raise KnowledgeIndexError("no index at index.db; run citecast ingest")
        yield  # an async generator, like the real one


async def test_an_unusable_index_says_the_same_in_both_endpoints(tmp_path: Path) -> None:
    # the other failure only the operator can fix: a 503, with the stream's reason
    services, client = build_harness(tmp_path, NoIndex(cited_answer(passage(1))))
    async with client:
        posted = await client.post("/api/ask", json={"question": "How do I install it?"})
        streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    services.store.close()
    reason = "the knowledge base is not available; ask the operator to run citecast ingest"
    assert (posted.status_code, posted.json()) == (503, {"error": reason})
    assert parse_sse(streamed.text)[-1] == ("error", {"error": reason})
