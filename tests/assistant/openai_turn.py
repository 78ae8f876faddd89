"""One assistant turn against the fake OpenAI server, streamed or not (shared by the tests)."""

from __future__ import annotations

from bot.assistant.assistant import Assistant
from bot.assistant.base import Reply
from bot.models import TextDelta

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
