"""Tidying what a killed run left in reply to a question before it is answered again.

The replies an earlier run posted for a question are exactly those recorded for it
(``slack_replies``), never taken by their place in the thread: another question's answer posted
after it (a second question asked before the first one's answer arrived) is not this one's
half answer, and a colleague's remark between the question and the bot's reply does not hide
the half answer after it. Each is stopped (a stream left open), then deleted, or with an apology
the first one rewritten as that apology.
"""

from __future__ import annotations

import logging

from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.slack_client import SLACK_CALL_ERRORS, error_code
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_events import SlackQuestion
from bot.connectors.slack_replies import ReplyLog
from bot.errors import ChannelError

log = logging.getLogger(__name__)


async def tidy_half_answer(
    client: AsyncWebClient,
    poster: SlackPoster,
    replies: ReplyLog,
    question: SlackQuestion,
    apology: str | None,
) -> bool:
    """Stop any stream the earlier run left open in reply to ``question`` and remove the replies
    recorded for it: deleted, or with ``apology`` the first one rewritten as that text (the
    rest deleted). Whether the apology took the place of a reply (False: post it anew)."""
    thread = question.thread()
    replaced = False
    standing: list[str] = []
    for ts in replies.replies(question.channel, question.ts):
        try:  # a message still streaming cannot be edited or deleted cleanly
            await client.chat_stopStream(channel=question.channel, ts=ts)
        except SLACK_CALL_ERRORS as exc:
            log.debug("slack: stopping stream %s: %s", ts, error_code(exc))
        if apology is not None and not replaced:
            try:
                await poster.update(thread, ts, {"text": apology})
                replaced = True
                standing.append(ts)
                continue
            except ChannelError as exc:  # any refusal: deleted below instead
                log.info("slack: could not rewrite half answer %s: %s", ts, exc)
        if not await poster.delete(thread, ts):
            standing.append(ts)
    # the replies deleted are no longer the question's: a later restart does not ask again
    replies.keep_only(question.channel, question.ts, standing)
    return replaced


__all__ = ["tidy_half_answer"]
