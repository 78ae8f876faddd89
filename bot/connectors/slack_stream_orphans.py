"""A stream Slack started although the answer to its ``chat.startStream`` was lost.

A timeout or a connection lost mid-request (DeliveryUncertainError) may mean Slack ran the call
and only its answer, the new message's ts, never arrived. The answer is then posted as a plain
message instead; the stream Slack did start would stay beside it, still streaming, its ``[n]``
citing sources it never lists, and unrecorded, so not even a restart could tidy it. So the
thread is read from the moment of the try (less ``CLOCK_MARGIN_SECONDS``, as the outbox reads
it) and each of the bot's own messages there that is still streaming is stopped and deleted.

Only the bot's own: a message counts only when its ``bot_id`` is the one ``auth.test`` names
for the bot token. Another app streaming in the same thread (its answer still being written)
is never stopped or deleted; nothing relies on Slack refusing that
(``message_not_owned_by_app``). The id is asked only when the thread holds a candidate, so a
lost start that left nothing costs no call; when Slack does not say, nothing is touched and
the log says so. Still streaming is what tells the lost stream from the bot's other replies:
``chat.stopStream`` refuses a finished message (an earlier answer in the thread), which is
then left alone. A stream message carries no metadata, so it cannot be told by a delivery key
as a posted message can.
"""

from __future__ import annotations

import logging

from slack_sdk.web.async_client import AsyncWebClient

from bot.connectors.slack_client import SLACK_CALL_ERRORS, error_code
from bot.connectors.slack_delivery import Message, SlackPoster, keys_in
from bot.connectors.slack_thread import SlackThread
from bot.errors import ChannelError

log = logging.getLogger(__name__)


def _may_be_the_stream(message: Message, thread: SlackThread) -> bool:
    """A bot's reply with no delivery key (every message citecast posts has one)."""
    ts = message.get("ts")
    return (
        isinstance(ts, str)
        and ts != thread.thread_ts
        and bool(message.get("bot_id"))
        and not keys_in([message])
    )


async def _own_bot_id(client: AsyncWebClient) -> str | None:
    """The bot's own ``bot_id``, as ``auth.test`` names it; None when Slack does not say."""
    try:
        response = await client.auth_test()
    except SLACK_CALL_ERRORS as exc:
        log.debug("auth.test for the bot's own id failed: %s", error_code(exc))
        return None
    bot_id = response.get("bot_id")
    return bot_id if isinstance(bot_id, str) and bot_id else None


async def remove_lost_stream(
    client: AsyncWebClient,
    poster: SlackPoster,
    thread: SlackThread,
    since: float,
    bot_id: str | None = None,
) -> int:
    """Stop and delete the streams still open in ``thread`` that the bot itself started from
    ``since`` (Unix seconds) on; returns how many were removed. ``bot_id`` is the bot's own, as
    the connector learned it at start (asked of ``auth.test`` here only when not known). A
    thread that cannot be read, or a bot whose own id Slack does not say, is logged: the
    stream, if any, then stays."""
    try:
        replies = await poster.replies(thread, since)
    except ChannelError as exc:
        log.warning(
            "cannot read %s for a stream Slack may have started (%s); if one is there, "
            "delete it by hand",
            thread.channel,
            exc,
        )
        return 0
    candidates = [m for m in replies if _may_be_the_stream(m, thread)]
    if not candidates:
        return 0
    ours = bot_id or await _own_bot_id(client)
    if ours is None:
        log.warning(
            "cannot tell which message in %s is the bot's own (auth.test did not answer); a "
            "stream Slack may have started there stays: if one is there, delete it by hand",
            thread.channel,
        )
        return 0
    removed = 0
    for message in candidates:
        if message.get("bot_id") != ours:
            continue  # another app's message, perhaps still streaming: not ours to end
        ts = str(message["ts"])
        try:
            await client.chat_stopStream(channel=thread.channel, ts=ts)
        except SLACK_CALL_ERRORS as exc:
            # a finished message: not the stream whose start was lost
            log.debug("slack: %s is not a lost stream: %s", ts, error_code(exc))
            continue
        if await poster.delete(thread, ts):
            log.info("deleted the stream %s Slack started in %s unseen", ts, thread.channel)
            removed += 1
    return removed


__all__ = ["remove_lost_stream"]
