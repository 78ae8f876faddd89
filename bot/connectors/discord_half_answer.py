"""The parts of an answer a crash hid from the store, found on Discord at the next start.

The replies to a question are saved as each one is posted (``discord_edits``), but only once
Discord has answered the request: a crash between Discord creating a part and the bot hearing
back leaves a message on Discord that the store does not know of. Answering the question
again at the next start would post a second answer beside that half one (its text cut off,
its markers pointing at no sources). So before a question left over by a restart is answered,
the channel's history after the last part the store knows of (the question when it knows of
none) is read once (``HISTORY_PAGE`` messages) and the bot's messages that continue the answer
are added to its replies: each part replies to the one before it, the first to the question.
The answer is then written into them in place, as after a shutdown that saved them.

Part nonces (``discord_send.part_nonce``) cover the same gap from the other side while Discord
remembers them (a few minutes); this covers a restart at any time after.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.connectors.discord_catch_up import HISTORY_PAGE
from bot.connectors.discord_history import MAX_ANSWER_PARTS
from bot.connectors.discord_triggers import where

log = logging.getLogger(__name__)


async def _posted_after(
    channel: discord.abc.Messageable, after: discord.Message
) -> list[discord.Message]:
    """Up to ``HISTORY_PAGE`` messages of ``channel`` posted after ``after``, oldest first;
    none when Discord refuses or cannot be reached (logged: the answer is then posted anew)."""
    try:
        return [
            message
            async for message in channel.history(limit=HISTORY_PAGE, after=after, oldest_first=True)
        ]
    except (discord.HTTPException, OSError, TimeoutError) as exc:
        log.warning("discord: cannot read %s for a half-posted answer: %s", where(channel), exc)
        return []


async def unsaved_parts(
    question: discord.Message, known: Sequence[discord.Message], me_id: int
) -> list[discord.Message]:
    """The bot's messages that continue the answer to ``question`` after ``known`` (the parts
    the store knew of), in order: each replying to the one before, the first to the last known
    part (to the question when none is known). Where several of the bot's messages reply to
    the question (a note before the answer), the latest is the answer's first part."""
    start = known[-1] if known else question
    replies: dict[int, list[discord.Message]] = {}
    for message in await _posted_after(question.channel, start):
        ref = message.reference
        if message.author.id == me_id and ref is not None and ref.message_id is not None:
            replies.setdefault(ref.message_id, []).append(message)
    parts: list[discord.Message] = []
    current = start.id
    while len(known) + len(parts) < MAX_ANSWER_PARTS and replies.get(current):
        part = replies[current][-1]
        parts.append(part)
        current = part.id
    if parts:
        log.info(
            "discord: found %d message(s) of the answer to %s that a restart cut short",
            len(parts),
            question.id,
        )
    return parts


__all__ = ["unsaved_parts"]
