"""Sending rendered answers into a Slack thread: messages, edits, files, statuses, apologies.

Everything here takes the Slack renderer's plain payload (``{messages: [{text, blocks,
unfurl_links, unfurl_media}], files}``) and sends it with slack_sdk. Messages go into the
question's thread in order. ``chat.update`` is limited to 4,000 characters of ``text``, so the
fallback text of an edited message is cut (the blocks carry the answer). Files are uploaded
with ``files_upload_v2`` into the same thread when they exist and fit ``max_file_bytes``; a file
that cannot be sent is logged and skipped, the citation still names it, or handed back for a
later try when one may succeed (``slack_uploads``). A timeout or a connection lost mid-request
surfaces as DeliveryUncertainError: the message may be posted. A reply Slack posts outside its
thread, because the question was deleted meanwhile, is deleted at once and surfaces as
UndeliverableError (``invalid_thread_ts``): nothing more is posted there.

In an assistant thread the asker sees a status (``slack.thinking_status``) until the bot replies
there (Slack then removes it, or after two minutes). Where no reply can arrive now, the status is
replaced with a short note (``slack.queued_status`` while the answer waits in the outbox,
``slack.failed_status`` when not even the apology could be posted), never left saying thinking.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.config import SlackSettings
from bot.connectors.slack_client import (
    QUESTION_GONE,
    SLACK_CALL_ERRORS,
    UndeliverableError,
    as_channel_error,
    error_code,
)
from bot.connectors.slack_files import UploadPermission
from bot.connectors.slack_replies import ReplyRecorder
from bot.connectors.slack_text import fit_text
from bot.connectors.slack_thread import SlackThread
from bot.connectors.slack_uploads import upload_into_thread
from bot.errors import ChannelError

log = logging.getLogger(__name__)

MAX_UPDATE_TEXT = 4000
# Message metadata naming a message's delivery key (see slack_outbox): invisible to people.
DELIVERY_EVENT_TYPE = "citecast_delivery"
# Slack stamps a message with its own clock, not ours: a read for the posts made since a moment
# starts this much earlier, so a clock that is off by up to ten minutes still finds them.
CLOCK_MARGIN_SECONDS = 600.0
# How much of a thread is read for delivery keys, from that moment on: 10 pages of 200 replies.
MAX_REPLY_PAGES = 10
REPLY_PAGE_SIZE = 200

# The default assistant-thread statuses that replace "thinking…" when no reply can be posted
# now (the settings slack.queued_status and slack.failed_status are what is shown).
DELAYED_STATUS: str = SlackSettings.model_fields["queued_status"].default
FAILED_STATUS: str = SlackSettings.model_fields["failed_status"].default
# the status when not even the "not set up" reply could be posted (Slack shows the app's name
# first: "citecast isn't set up correctly yet"); kept within the 50 characters of a status
NOT_SET_UP_STATUS = "isn't set up correctly yet"
NO_STATUS = ""

Message = dict[str, Any]


def oldest_ts(since: float) -> str:
    """The ``oldest`` (a Slack ts) of a thread read that finds every post made from ``since``
    (Unix seconds, our clock) on."""
    return f"{max(0.0, since - CLOCK_MARGIN_SECONDS):.6f}"


def keys_in(messages: Sequence[Message]) -> dict[str, str]:
    """The delivery keys in the messages' metadata, each with the ts of its message."""
    keys: dict[str, str] = {}
    for message in messages:
        metadata = message.get("metadata") or {}
        if metadata.get("event_type") == DELIVERY_EVENT_TYPE:
            key = str((metadata.get("event_payload") or {}).get("key"))
            keys[key] = str(message.get("ts") or "")
    return keys


def _unthreaded(response: AsyncSlackResponse) -> bool:
    """True when Slack took a reply but not into a thread (its ``message`` has no thread_ts)."""
    message = response.get("message")
    return isinstance(message, dict) and not message.get("thread_ts")


class SlackPoster:
    """Posts, edits and uploads into threads; Slack failures become ChannelError."""

    def __init__(
        self,
        client: AsyncWebClient,
        settings: SlackSettings,
        *,
        recorder: ReplyRecorder | None = None,
    ) -> None:
        self._client = client
        self._settings = settings
        self.uploads = UploadPermission()
        self._recorder = recorder

    def record(self, thread: SlackThread, ts: str) -> None:
        """Record ``ts`` as a reply to the question of ``thread`` (see ``slack_replies``):
        every message posted into it is, and a stream once Slack has started it."""
        if self._recorder is not None:
            self._recorder(thread, ts)

    async def post(self, thread: SlackThread, message: Message) -> str:
        """Post one message into the thread; returns its ts."""
        ts = await self._post(thread.channel, thread.thread_ts, message)
        self.record(thread, ts)
        return ts

    async def post_top_level(self, channel: str, message: Message) -> str:
        """Post one message into the channel itself (not a thread); returns its ts."""
        return await self._post(channel, None, message)

    async def _post(self, channel: str, thread_ts: str | None, message: Message) -> str:
        """Raises ChannelError, or DeliveryUncertainError when the message may have arrived."""
        try:
            response = await self._client.chat_postMessage(
                channel=channel,
                thread_ts=thread_ts,
                text=message.get("text") or "",
                blocks=message.get("blocks") or None,
                metadata=message.get("metadata") or None,
                unfurl_links=False,
                unfurl_media=False,
            )
        except SLACK_CALL_ERRORS as exc:
            raise as_channel_error(exc, "chat.postMessage") from None
        ts = str(response.get("ts") or "")
        if thread_ts and _unthreaded(response) and await self._question_gone(channel, thread_ts):
            await self._withdraw(channel, ts, thread_ts)
        return ts

    async def _question_gone(self, channel: str, thread_ts: str) -> bool:
        """Whether the thread's first message is deleted (asked only when Slack's answer to
        a reply names no thread, so an answer of another shape never costs a reply). When the
        thread cannot be read, Slack's answer decides: the reply is withdrawn."""
        try:
            response = await self._client.conversations_replies(
                channel=channel, ts=thread_ts, limit=1
            )
        except SLACK_CALL_ERRORS as exc:
            log.info("conversations.replies %s/%s: %s", channel, thread_ts, error_code(exc))
            return True
        first = next(iter(response.get("messages") or []), None)
        if not isinstance(first, dict):
            return True
        if first.get("ts") == thread_ts and first.get("subtype") != "tombstone":
            log.warning(
                "Slack's answer to a reply in %s/%s named no thread, but the question is "
                "there; the reply is kept",
                channel,
                thread_ts,
            )
            return False
        return True

    async def _withdraw(self, channel: str, ts: str, thread_ts: str) -> None:
        """Delete a reply Slack posted outside its thread, then raise UndeliverableError.

        Slack does that with a reply to a message deleted (without replies) meanwhile: the
        answer would stand in the channel itself, out of context, for everyone to read.
        """
        if not await self.delete(SlackThread(channel, thread_ts), ts):
            log.error(
                "an answer to a deleted question stands in %s outside any thread (ts %s); "
                "delete it by hand",
                channel,
                ts,
            )
        raise UndeliverableError(
            f"Slack chat.postMessage: the question {thread_ts} was deleted before its answer "
            "was posted; the reply Slack put into the channel itself was withdrawn",
            QUESTION_GONE,
        )

    async def delivery_keys(
        self, thread: SlackThread, since: float | None = None
    ) -> dict[str, str]:
        """The delivery keys (message metadata) of the messages in the thread, each with the
        ts of its message.

        ``since`` (Unix seconds) is when the first of the posts looked for was attempted: the
        read starts there (less CLOCK_MARGIN_SECONDS) rather than at the thread's first reply,
        so its page bound is spent on the replies that can be ours however long the thread.
        Without it the thread is read from its start. Raises ChannelError when the thread
        cannot be read.
        """
        return keys_in(await self.replies(thread, since))

    async def replies(self, thread: SlackThread, since: float | None = None) -> list[Message]:
        """The thread's replies with their metadata, read as :meth:`delivery_keys` reads them
        (from ``since``, at most MAX_REPLY_PAGES pages); raises ChannelError when the thread
        cannot be read."""
        oldest = None if since is None else oldest_ts(since)
        replies: list[Message] = []
        cursor: str | None = None
        for _ in range(MAX_REPLY_PAGES):
            response = await self._replies_page(thread, oldest, cursor)
            if response is None:
                return replies  # the thread holds nothing, so nothing of ours either
            replies.extend(m for m in response.get("messages") or [] if isinstance(m, dict))
            cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
            if not cursor:
                return replies
        # What was read is all there is to go on: holding the resend back would never end (the
        # thread only grows), and an answer posted twice beats one never posted.
        log.warning(
            "read only %d replies of thread %s in %s (from %s) for delivery keys",
            MAX_REPLY_PAGES * REPLY_PAGE_SIZE,
            thread.thread_ts,
            thread.channel,
            oldest or "its start",
        )
        return replies

    async def _replies_page(
        self, thread: SlackThread, oldest: str | None, cursor: str | None
    ) -> AsyncSlackResponse | None:
        """One page of the thread's replies with their metadata; None when there is no thread."""
        try:
            response = await self._client.conversations_replies(
                channel=thread.channel,
                ts=thread.thread_ts,
                include_all_metadata=True,
                limit=REPLY_PAGE_SIZE,
                oldest=oldest,
                cursor=cursor,
            )
        except SLACK_CALL_ERRORS as exc:
            if error_code(exc) == "thread_not_found":
                return None
            raise as_channel_error(exc, "conversations.replies") from None
        return response

    async def post_all(self, thread: SlackThread, messages: Sequence[Message]) -> list[str]:
        """Post the messages in order; returns their ts values."""
        return [await self.post(thread, message) for message in messages]

    async def update(self, thread: SlackThread, ts: str, message: Message) -> None:
        """Replace a message the bot posted (text cut to chat.update's 4,000 characters)."""
        try:
            await self._client.chat_update(
                channel=thread.channel,
                ts=ts,
                text=fit_text(message.get("text") or "", MAX_UPDATE_TEXT),
                blocks=message.get("blocks") or [],
            )
        except SLACK_CALL_ERRORS as exc:
            raise as_channel_error(exc, "chat.update") from None

    async def delete(self, thread: SlackThread, ts: str) -> bool:
        """Delete a message the bot posted; False (logged) when Slack refuses."""
        try:
            await self._client.chat_delete(channel=thread.channel, ts=ts)
        except SLACK_CALL_ERRORS as exc:
            log.warning(
                "could not delete message %s in %s: %s", ts, thread.channel, error_code(exc)
            )
            return False
        return True

    async def upload_files(
        self, thread: SlackThread, files: Sequence[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Upload the payload's files into the thread; returns those a later try may upload
        (see ``slack_uploads``)."""
        return await upload_into_thread(
            self._client, self._settings, self.uploads, thread.channel, thread.thread_ts, files
        )

    async def set_status(self, thread: SlackThread, status: str) -> bool:
        """Show ``status`` under an assistant thread ("" removes it); False (logged) when
        Slack does not take it. Does nothing outside assistant threads."""
        if not thread.assistant:
            return False
        try:
            await self._client.assistant_threads_setStatus(
                channel_id=thread.channel, thread_ts=thread.thread_ts, status=status
            )
        except SLACK_CALL_ERRORS as exc:
            # debug: DM threads of apps without the assistant panel refuse every status
            log.debug("setting the status in %s failed: %s", thread.channel, error_code(exc))
            return False
        return True

    async def apologize(
        self, thread: SlackThread, replace_ts: str | None = None, text: str | None = None
    ) -> bool:
        """Tell the asker briefly that the answer failed (replacing a half-written message);
        False when Slack took no message. In an assistant thread the status then says so
        instead of "thinking…" (unless the conversation is closed to the bot).

        ``text`` replaces ``slack.apology`` for a failure asking again cannot fix (citecast is
        not set up: see ``bot.connectors.setup_errors``); its status then says that too."""
        message: Message = {"text": text or self._settings.apology}
        try:
            if replace_ts:
                try:
                    await self.update(thread, replace_ts, message)
                    return True
                except ChannelError as exc:
                    # gone (deleted to be posted anew) or not editable: say it in a new message
                    log.info("could not replace %s with the apology (%s)", replace_ts, exc)
            await self.post(thread, message)
            return True
        except ChannelError as exc:
            # Slack's reason is the whole story (a closed channel, a revoked token): one line.
            log.warning(
                "could not tell the user in %s that the answer failed: %s", thread.channel, exc
            )
            if isinstance(exc, UndeliverableError) and exc.conversation_closed:
                return False  # no status can be set there either
        except Exception:
            log.exception("could not tell the user in %s that the answer failed", thread.channel)
        # not "please ask again" when asking again cannot help
        await self.set_status(thread, NOT_SET_UP_STATUS if text else self._settings.failed_status)
        return False
