"""One assistant turn against the fake OpenAI server, streamed or not, and what the second
request of a turn carried (shared by the tests)."""

from __future__ import annotations

import re
from typing import Any

from bot.assistant.assistant import Assistant
from bot.assistant.base import Reply
from bot.models import TextDelta
from tests.fakes.openai_server import Completion, FakeOpenAI, text

PUBLIC = frozenset({"public"})


async def run(bot: Assistant, question: str, stream: bool) -> Reply:
    """One turn through stream() or reply(); the stream's deltas must spell its answer."""
    if not stream:
        return await bot.reply(question, PUBLIC)
    events = [e async for e in bot.stream(question, PUBLIC)]
    reply = events[-1]
    assert isinstance(reply, Reply)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == reply.answer.text
    return reply


async def searched_twice(
    fake: FakeOpenAI, bot: Assistant, first: Completion, stream: bool
) -> Reply:
    """A turn whose first step is ``first`` (two searches, for retries and for backups) and
    whose second answers citing the first passage of each: [1] and [3]."""
    fake.add(first, text("Retries back off [1]. Back up nightly [3]."))
    return await run(bot, "retries and backups?", stream)


def sent_assistant(request: dict[str, Any]) -> dict[str, Any]:
    """The one assistant message of a request (the step that asked for tools)."""
    [assistant] = [m for m in request["messages"] if m["role"] == "assistant"]
    assert isinstance(assistant, dict)
    return assistant


def sent_calls(request: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Each tool call the request sends back: its id, name and arguments."""
    return [
        (c["id"], c["function"]["name"], c["function"]["arguments"])
        for c in sent_assistant(request)["tool_calls"]
    ]


def first_cites(results: list[str]) -> list[int]:
    """The number of each result's first passage."""
    return [int(re.findall(r"^\[cite: (\d+)\]", r, re.MULTILINE)[0]) for r in results]
