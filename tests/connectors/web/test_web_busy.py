"""A model endpoint busy for longer than a turn may wait (HTTP 429 or 503 asking to retry after
more than ``assistant.openai.timeout``) is not a failure that "try again" helps: the web chat
says when to try again (a 503 with ``Retry-After``, and ``retry_after`` in the stream's error
event, whose status was sent before the answer failed); the turn is stored failed and the
server log keeps the backend's full reason.

Driven by the real ``openai`` client (the openai backend) against the loopback fake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.web_api import error_response
from bot.connectors.web_sse import error_event, public_headers, public_reason, public_status
from bot.errors import BackendBusyError, BackendError
from tests.connectors.web.conftest import build_harness, parse_sse
from tests.connectors.web.test_web_refused_key import FAILED, assistant
from tests.fakes.openai_server import FakeOpenAI, error_body

RATE_LIMITED = (
    '{"error": {"message": "Rate limit reached for gpt-4o", "code": "rate_limit_exceeded"}}'
)
BUSY = "the assistant is busy; try again in about 5 minutes"


async def test_a_long_rate_limit_says_when_to_try_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    limited = error_body(429, RATE_LIMITED, "application/json", retry_after="300")
    async with FakeOpenAI() as fake:
        fake.add(limited, limited)
        services, client = build_harness(tmp_path, assistant(tmp_path, fake.base_url, "test-key"))
        async with client:
            posted = await client.post("/api/ask", json={"question": "How do I install it?"})
            streamed = await client.get("/api/ask/stream", params={"question": "And on Linux?"})
    turns = [services.store.turn(n) for n in (1, 2)]
    services.store.close()
    assert (posted.status_code, posted.json()) == (503, {"error": BUSY})
    assert posted.headers["retry-after"] == "300"
    assert streamed.status_code == 200
    events = parse_sse(streamed.text)
    assert [name for name, _ in events] == ["start", "error"]
    assert events[1][1] == {"error": BUSY, "retry_after": 300}
    assert [turn.status if turn else None for turn in turns] == ["failed", "failed"]
    logged = [r.getMessage() for r in caplog.records if r.name == "bot.connectors.web_turns"]
    assert len(logged) == 2
    for line in logged:
        assert (
            "answered HTTP 429: Rate limit reached for gpt-4o (it asked to retry after 300 s"
            in (line)
        )


async def test_a_short_wait_still_says_try_again(tmp_path: Path) -> None:
    """A 503 asking for a wait the client may wait out (here with no retries left) is an
    outage like any other: a 502 saying "try again", no Retry-After."""
    async with FakeOpenAI() as fake:
        fake.add(error_body(503, "Service Unavailable", retry_after="2"))
        services, client = build_harness(tmp_path, assistant(tmp_path, fake.base_url, "test-key"))
        async with client:
            posted = await client.post("/api/ask", json={"question": "How do I install it?"})
    services.store.close()
    assert (posted.status_code, posted.json()) == (502, FAILED)
    assert "retry-after" not in posted.headers


@pytest.mark.parametrize(
    ("seconds", "words", "header"),
    [
        (0.2, "1 minute", "1"),
        (60, "1 minute", "60"),
        (61, "2 minutes", "61"),
        (90.5, "2 minutes", "91"),
        (7140, "119 minutes", "7140"),
        (7200, "2 hours", "7200"),
        (86400, "24 hours", "86400"),
    ],
)
def test_the_wait_is_said_in_whole_minutes_or_hours_rounded_up(
    seconds: float, words: str, header: str
) -> None:
    busy = BackendBusyError("the model endpoint answered HTTP 429", retry_after=seconds)
    assert public_reason(busy) == f"the assistant is busy; try again in about {words}"
    assert public_status(busy) == 503
    assert public_headers(busy) == {"Retry-After": header}
    assert error_event(busy) == {"error": public_reason(busy), "retry_after": int(header)}
    response = error_response(public_reason(busy), public_status(busy), public_headers(busy))
    assert (response.status_code, response.headers["retry-after"]) == (503, header)


def test_other_failures_carry_no_wait() -> None:
    plain = BackendError("the model endpoint answered HTTP 500")
    assert (public_status(plain), public_headers(plain)) == (502, {})
    assert error_event(plain) == FAILED
    assert "retry-after" not in error_response(public_reason(plain), 502).headers
