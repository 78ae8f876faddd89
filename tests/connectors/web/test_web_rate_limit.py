"""web.rate_limit_per_minute: questions per client address, refused with 429 + Retry-After."""

from __future__ import annotations

from pathlib import Path

import httpx

from bot.connectors.app import build_app
from bot.connectors.web_rate_limit import QuestionRateLimit
from tests.connectors.web.conftest import CannedAnswerer, build_harness, cited_answer, passage


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_window_slides_and_says_how_long_to_wait() -> None:
    clock = Clock()
    limit = QuestionRateLimit(3, clock)
    for _ in range(3):  # at +0, +10 and +20
        assert limit.wait_seconds("a") == 0
        clock.now += 10
    assert limit.wait_seconds("a") == 30  # at +30: the first question leaves the window at +60
    assert limit.wait_seconds("b") == 0  # every client has its own window
    clock.now += 30
    assert limit.wait_seconds("a") == 0  # at +60
    assert limit.wait_seconds("a") == 10  # refusals were not counted: the next frees at +70


def test_zero_means_no_limit_and_memory_stays_bounded() -> None:
    off = QuestionRateLimit(0, Clock())
    assert all(off.wait_seconds("a") == 0 for _ in range(1000))
    clock = Clock()
    small = QuestionRateLimit(1, clock, max_clients=2)
    for client in ("a", "b", "c"):
        assert small.wait_seconds(client) == 0
    assert small.wait_seconds("a") == 0  # forgotten as the least recently seen
    assert small.wait_seconds("c") == 60


async def test_the_api_refuses_a_client_over_the_limit_before_any_work(tmp_path: Path) -> None:
    answerer = CannedAnswerer(cited_answer(passage(1), text="Claim 1 is true.[^1]"))
    services, client = build_harness(tmp_path, answerer, rate_limit_per_minute=2)
    app = build_app(services, connectors=[], shutdown_grace=0.1)
    other = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=("203.0.113.9", 4000)),
        base_url="http://citecast.test",
    )
    async with client, other:
        for _ in range(2):
            assert (
                await client.post("/api/ask", json={"question": "Is it true?"})
            ).status_code == 200
        refused = await client.post("/api/ask", json={"question": "Is it true?"})
        assert refused.status_code == 429
        assert refused.json()["error"].startswith("too many questions; try again in ")
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        stream = await client.get("/api/ask/stream", params={"question": "Is it true?"})
        assert stream.status_code == 429 and stream.headers["content-type"] == "application/json"
        assert len(answerer.calls) == 2  # the refused questions never reached the assistant
        assert (await other.post("/api/ask", json={"question": "Is it true?"})).status_code == 200
    services.store.close()
