"""Answering that fails unexpectedly (a bug, not an outage): the viewer still gets a reason, the
turn is stored failed, and the server log has the traceback once."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.assistant.base import Reply, ReplyEvent
from bot.models import Exchange
from bot.store import Store
from tests.connectors.web.conftest import (
    CannedAnswerer,
    build_harness,
    cited_answer,
    parse_sse,
    passage,
)

FAILED = {"error": "the assistant failed to answer; try again"}


class BrokenAnswerer(CannedAnswerer):
    """An answerer with a bug: every call raises something that is no CitecastError."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        raise ZeroDivisionError("a bug in the answerer")

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        raise ZeroDivisionError("a bug in the answerer")
        yield  # an async generator, like the real one


def statuses(store: Store) -> list[str]:
    with store._lock:
        rows = store._db.execute("SELECT status FROM turns ORDER BY id").fetchall()
    return [row[0] for row in rows]


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info and r.name.startswith("bot.connectors")]


async def test_a_stream_whose_rendering_fails_ends_with_an_error_event(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # What QA hit: a bad capabilities entry made rendering raise ConfigError after the 200 was
    # sent (config now refuses it at start, so it is put in place after start here).
    services, client = build_harness(tmp_path, CannedAnswerer(cited_answer(passage(1))))
    services.settings.capabilities["web"] = {"max_text": "lots"}
    async with client:
        response = await client.get("/api/ask/stream?question=hi")
    events = parse_sse(response.text)
    assert response.status_code == 200
    assert [name for name, _ in events] == ["start", "error"]
    assert events[1][1] == FAILED
    assert statuses(services.store) == ["failed"], "never left pending"
    [logged] = tracebacks(caplog)
    assert "capabilities.web.max_text" in str(logged.exc_info[1])  # type: ignore[index]


async def test_an_unexpected_exception_is_a_json_502_and_a_failed_turn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    services, client = build_harness(tmp_path, BrokenAnswerer(cited_answer(passage(1))))
    async with client:
        posted = await client.post("/api/ask", json={"question": "hi"})
        streamed = parse_sse((await client.get("/api/ask/stream?question=hi")).text)
    assert (posted.status_code, posted.json()) == (502, FAILED)
    assert [name for name, _ in streamed] == ["start", "error"]
    assert streamed[1][1] == FAILED
    assert statuses(services.store) == ["failed", "failed"]
    logged = tracebacks(caplog)
    assert [type(r.exc_info[1]) for r in logged] == [ZeroDivisionError] * 2  # type: ignore[index]
