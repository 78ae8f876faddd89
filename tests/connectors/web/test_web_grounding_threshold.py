"""The web marks a citation weak (``[1?]``, class ``weak``) below ``grounding.threshold``: the
answer as posted and as streamed, the conversation reloaded, and the share page alike.

Found in a config-key audit: the web rendered with ``RenderContext``'s own 0.35 whatever
``grounding.threshold`` said, so a citation with support 0.49 showed ``[1]`` at threshold 0.6.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from tests.connectors.web.canned_client import canned_client
from tests.connectors.web.conftest import cited_answer, parse_sse, passage

WEAK_MARK = '<sup class="citation weak">'


async def client_for(
    tmp_path: Path, threshold: float | None, support: float
) -> AsyncIterator[httpx.AsyncClient]:
    sections = {} if threshold is None else {"grounding": {"threshold": threshold}}
    answer = cited_answer(passage(1), text="Claim 1 is true.[^1]\n")
    [citation] = answer.citations
    answer = replace(answer, citations=(replace(citation, support=support),))
    async with canned_client(tmp_path, answer, **sections) as client:
        yield client


@pytest.fixture
async def strict(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    async for client in client_for(tmp_path, 0.6, support=0.49):
        yield client


@pytest.fixture
async def lenient(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    async for client in client_for(tmp_path, 0.1, support=0.2):
        yield client


@pytest.fixture
async def default(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    async for client in client_for(tmp_path, None, support=0.34):
        yield client


async def shown_everywhere(client: httpx.AsyncClient) -> list[str]:
    """The answer's HTML as posted, streamed, reloaded and on its share page."""
    asked = (await client.post("/api/ask", json={"question": "Is it true?"})).json()
    stream = await client.get("/api/ask/stream", params={"question": "Is it true?"})
    events = parse_sse(stream.text)
    assert events[-1][0] == "done", events
    streamed = str(events[-1][1]["html"])
    cid = asked["conversation_id"]
    [reloaded] = (await client.get(f"/api/conversations/{cid}")).json()["turns"]
    shared = (await client.get(asked["share_url"].removeprefix("http://citecast.test"))).text
    return [asked["html"], streamed, reloaded["html"], shared]


async def test_a_citation_below_a_raised_threshold_is_weak_everywhere(
    strict: httpx.AsyncClient,
) -> None:
    for html in await shown_everywhere(strict):
        assert WEAK_MARK in html and "[1?]" in html, html


async def test_a_citation_above_a_lowered_threshold_is_not_weak_anywhere(
    lenient: httpx.AsyncClient,
) -> None:
    for html in await shown_everywhere(lenient):
        assert "[1]" in html and "[1?]" not in html and WEAK_MARK not in html, html


async def test_by_default_the_threshold_is_0_35(default: httpx.AsyncClient) -> None:
    for html in await shown_everywhere(default):
        assert WEAK_MARK in html and "[1?]" in html, html
