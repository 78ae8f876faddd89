"""Short plain messages around an answer: notices, the typing indicator, withdrawing replies.

A notice (an apology, a hint, "your question is long", "I can't read attached files") replies
to the question without pinging anyone; one that stands for an answer that failed takes the
place of what was posted of it. Typing is best effort. Withdrawing deletes what the
bot posted for a question that was deleted while it was being answered: those messages would
answer nothing anyone can see.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import discord

from bot.config import DiscordSettings
from bot.connectors.discord_send import NO_PINGS, MessageGoneError, created, reason, with_retries
from bot.errors import CitecastError

log = logging.getLogger(__name__)


# "what does this log mean?" with the log attached: an answer from the knowledge base alone
# would read as one about the file
async def notify(
    message: discord.Message,
    text: str,
    settings: DiscordSettings,
    on_sent: Callable[[discord.Message], None] | None = None,
    *,
    after_failure: bool = False,
) -> discord.Message | None:
    """A short plain reply to ``message``; it never pings anyone.

    Returns the message sent, or None when it could not be sent, logged in one line: an error,
    or with ``after_failure`` (the apology for an answer whose failure is already the error
    line: an outage fails both, and is one error) a warning.
    ``on_sent`` is told of the message once it exists, also when the caller is cancelled while
    it is being sent (the question was deleted), so that it is withdrawn like an answer.
    """

    async def send() -> discord.Message:
        return await message.channel.send(
            text[:2000],
            allowed_mentions=NO_PINGS,
            reference=message.to_reference(fail_if_not_exists=False),
            mention_author=False,
        )

    told = on_sent if on_sent is not None else _ignore
    try:
        sent = await created(with_retries(send, settings, "sending a notice"), told)
    except CitecastError as exc:
        if after_failure:
            log.warning(
                "discord: could not tell %s that the answer failed: %s", message.id, reason(exc)
            )
        else:
            log.error("discord: could not send a notice to the user: %s", exc)
        return None
    told(sent)
    return sent


def _ignore(sent: discord.Message) -> None:
    """No one to tell of a notice."""


async def notice_in_place_of(
    message: discord.Message,
    text: str,
    replies: Sequence[discord.Message],
    settings: DiscordSettings,
    on_sent: Callable[[discord.Message], None] | None = None,
    *,
    after_failure: bool = False,
) -> discord.Message | None:
    """The notice ``text`` to ``message`` in place of ``replies``, a half-written answer: the
    first reply is rewritten into the notice and the others are deleted, so no ``[n]`` marker
    stays behind without its source list. With no replies, or when the first is gone or
    Discord refuses to rewrite it (then it is deleted too, best effort), the notice is a new
    reply (``on_sent`` is told of it, as by :func:`notify`, and so is ``after_failure``).
    Returns the notice, or None when none could be posted (logged)."""
    first: discord.Message | None = None
    rest = list(replies)
    if rest:
        half = rest[0]

        async def rewrite() -> discord.Message:
            return await half.edit(
                content=text[:2000], embeds=[], attachments=[], allowed_mentions=NO_PINGS
            )

        try:
            first = await with_retries(rewrite, settings, "rewriting a half answer as a notice")
            rest = rest[1:]
        except MessageGoneError:
            rest = rest[1:]  # deleted meanwhile: the notice is a new reply
        except CitecastError as exc:
            log.warning("discord: could not rewrite half answer %s: %s", half.id, exc)
    for extra in rest:
        try:
            await with_retries(extra.delete, settings, "deleting a half answer")
        except MessageGoneError:
            continue
        except CitecastError as exc:
            log.warning("discord: could not delete message %s: %s", extra.id, exc)
    if first is not None:
        return first
    return await notify(message, text, settings, on_sent, after_failure=after_failure)


async def show_typing(channel: discord.abc.Messageable) -> None:
    """Show the typing indicator once (best effort: a refusal is only a debug line)."""
    try:
        await channel.typing()
    except discord.HTTPException as exc:
        log.debug("discord: typing indicator failed: %s", exc)


async def keep_typing(channel: discord.abc.Messageable, interval: float) -> None:
    """Show the typing indicator and renew it until cancelled (Discord shows it ~10 seconds).

    Run beside the answer, never before it: a rate-limited typing call waits out its
    ``retry_after`` here, not in front of the answer.
    """
    while True:
        await show_typing(channel)
        await asyncio.sleep(interval)


async def withdraw(
    question_id: int, posted: Sequence[discord.Message], settings: DiscordSettings
) -> int:
    """Delete the bot's messages in ``posted`` for the deleted question ``question_id`` and log
    one line; returns how many are gone (best effort)."""
    gone = 0
    for sent in posted:
        try:
            await with_retries(sent.delete, settings, "deleting a withdrawn reply")
            gone += 1
        except CitecastError as exc:
            log.warning("discord: could not delete message %s: %s", sent.id, exc)
    log.info(
        "discord: %s was deleted while being answered; %d reply(ies) withdrawn", question_id, gone
    )
    return gone
