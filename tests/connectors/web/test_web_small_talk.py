"""The reply to small talk ("thanks!", "hello") is flagged ``small_talk`` in the web API, so the
chat shows it without "Answered without sources." and without the vote: in ``POST /api/ask``,
in the stream's ``done`` event and in the stored conversation a reload reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.models import Answer
from tests.connectors.web.conftest import (
    CannedAnswerer,
    WebHarness,
    build_harness,
    cited_answer,
    parse_sse,
    passage,
)

WELCOME = Answer(text="You're welcome!\n", citations=())
NOTHING_FOUND = Answer(text="I could not find anything about that.\n", citations=())


async def small_talk_of(tmp_path: Path, answer: Answer, question: str) -> list[Any]:
    """``small_talk`` of the answer to ``question`` as ask, stream and reload give it."""
    services, client = build_harness(tmp_path, CannedAnswerer(answer))
    async with client:
        posted = (await client.post("/api/ask", json={"question": question})).json()
        streamed = await client.get("/api/ask/stream", params={"question": question})
        [done] = [data for name, data in parse_sse(streamed.text) if name == "done"]
        conversation = posted["conversation_id"]
        stored = (await client.get(f"/api/conversations/{conversation}")).json()
    services.store.close()
    return [posted.get("small_talk"), done.get("small_talk"), stored["turns"][0].get("small_talk")]


@pytest.mark.parametrize("question", ["thanks!", "Hello", "ok", "Great, thank you so much!"])
async def test_the_reply_to_small_talk_is_flagged(tmp_path: Path, question: str) -> None:
    assert await small_talk_of(tmp_path, WELCOME, question) == [True, True, True]


async def test_an_answer_without_sources_to_a_question_is_not_small_talk(tmp_path: Path) -> None:
    # "Answered without sources." stays for a question the knowledge base has nothing on
    found = await small_talk_of(tmp_path, NOTHING_FOUND, "What is the capital of France?")
    assert found == [False, False, False]


async def test_an_answer_citing_a_source_is_never_small_talk(tmp_path: Path) -> None:
    # a model that answers "thanks" with a cited passage gave an answer to be judged
    found = await small_talk_of(tmp_path, cited_answer(passage(1)), "thanks")
    assert found == [False, False, False]


async def test_a_cited_answer_is_not_small_talk(web: WebHarness) -> None:
    body = (await web.ask("How do I install it?")).json()
    assert body["small_talk"] is False
