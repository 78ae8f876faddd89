"""A Discord answer shows nothing while another answer is being posted in its channel.

Two long answers posted in one channel (or thread) at once would interleave message by message.
:func:`in_turn` stands between the assistant's events and the reply that posts them
(``discord_stream.StreamedReply``): while another answer holds the channel (see
``answer_places``) the events are still read, so the answer is written meanwhile, but they are
kept back rather than shown. Once the channel is free they are passed on, all of them in order;
the final reply waits for it. So the answer that starts showing first keeps the channel until
its last part is posted, and a later one starts showing as soon as it is complete.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.answer_places import Claim


async def in_turn(events: AsyncIterator[ReplyEvent], claim: Claim) -> AsyncIterator[ReplyEvent]:
    """``events``, passed on only while ``claim`` holds the answer's channel."""
    kept: list[ReplyEvent] = []
    async for event in events:
        if isinstance(event, Reply):
            await claim.take()  # the answer is complete: posting it is all that is left
        elif not claim.try_take():
            kept.append(event)
            continue
        for earlier in kept:
            yield earlier
        kept.clear()
        yield event


__all__ = ["in_turn"]
