"""Long answers through the real connector: every message Slack is sent stays within the block
text it takes in one message (``msg_blocks_too_long``), and all of the answer arrives."""

from __future__ import annotations

from pathlib import Path

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.models import Answer, Citation
from renderers.limits import SLACK_MAX_BLOCKS_TEXT
from tests.connectors.slack_harness import (
    PUBLIC,
    CannedAnswerer,
    all_blocks,
    context_texts,
    mention,
    slack_world,
    source,
)
from tests.fakes.slack_api import FakeSlackAPI
from tests.fakes.slack_blocks import text_chars, validate_blocks

SENTENCE = "Sentence {i} states a fact about the system and explains it at some length."
TITLE = "Source document {n} with an extraordinarily long descriptive subtitle " * 3


def long_answer(parts: int, sources: int) -> Answer:
    """Some 14 KB of answer and 60 sources with long titles (as in QA's report: one message of
    62,050 characters of block text before the budget)."""
    sentences = " ".join(SENTENCE.format(i=i) for i in range(5))
    text = "\n\n".join(
        f"## Part {p}\n\n{sentences} {sentences}[^{p % sources + 1}]" for p in range(parts)
    )
    text += "\n\nFinally " + " ".join(f"[^{n}]" for n in range(1, sources + 1))
    citations = tuple(
        Citation(n=n, source=source(n, title=TITLE.format(n=n)), source_number=n)
        for n in range(1, sources + 1)
    )
    return Answer(text=text, citations=citations)


async def test_a_long_answer_with_sixty_long_sources_arrives_in_several_messages(
    tmp_path: Path,
) -> None:
    async with slack_world(tmp_path, CannedAnswerer(long_answer(30, 60))) as world:
        await world.post_event(mention("everything", ts="1600000000.030000"))
        fake = world.fake
        assert fake.calls and all(c.response.get("ok") for c in fake.calls)
        messages = fake.bot_messages(PUBLIC, thread_ts="1600000000.030000")
        assert len(messages) > 2
        for message in messages:
            assert validate_blocks(message["blocks"]) == []
            rendered = [b for b in message["blocks"] if b.get("block_id") != "citecast_feedback"]
            assert text_chars(rendered) <= SLACK_MAX_BLOCKS_TEXT
        body = " ".join(b["text"]["text"] for b in all_blocks(messages) if b["type"] == "section")
        assert all(f"Part {p}" in body for p in range(30))
        sources = context_texts(messages)
        for n in range(1, 61):
            assert sum(f"|[{n}] Source document {n} " in s for s in sources) == 1, n


async def test_the_fake_refuses_more_block_text_than_slack_takes() -> None:
    def section(size: int) -> dict[str, object]:
        return {"type": "section", "text": {"type": "mrkdwn", "text": "x" * size}}

    async with FakeSlackAPI() as fake:
        fake.add_channel("C1", "public")
        client = AsyncWebClient(token=fake.bot_token, base_url=fake.base_url, retry_handlers=[])
        ok = await client.chat_postMessage(channel="C1", text="t", blocks=[section(3000)] * 3)
        assert ok["ok"] is True
        with pytest.raises(SlackApiError) as info:
            await client.chat_postMessage(channel="C1", text="t", blocks=[section(2800)] * 4)
        assert info.value.response["error"] == "msg_blocks_too_long"
