"""Never lose a Slack reply: what Slack cannot take now is kept in the store's outbox.

:meth:`SlackOutbox.deliver` posts an answer's messages in order and then uploads its files. If
Slack still refuses after the client's own retries (429 waits, 5xx backoff), the messages not
yet posted and the files are persisted in the SQLite outbox, and :meth:`flush` (run every
``outbox_poll_seconds`` by the connector, also after a restart) posts them later, in order.
Each message is posted once: after a partial flush the rest is re-queued as a new item and the
old one is marked sent, so a message Slack accepted is never sent again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bot.config import SlackSettings
from bot.connectors.slack_delivery import Message, SlackPoster, SlackThread
from bot.errors import ChannelError
from bot.store import OutboxItem, Store

log = logging.getLogger(__name__)

CHANNEL = "slack"
MAX_RETRY_SECONDS = 3600.0


class SlackOutbox:
    """Posts answers now, or later from the store."""

    def __init__(self, store: Store, poster: SlackPoster, settings: SlackSettings) -> None:
        self._store = store
        self._poster = poster
        self._settings = settings

    def _queue(
        self, thread: SlackThread, messages: Sequence[Message], files: Sequence[dict[str, Any]]
    ) -> str:
        payload = {
            "channel": thread.channel,
            "thread_ts": thread.thread_ts,
            "user": thread.user,
            "team_id": thread.team_id,
            "messages": list(messages),
            "files": list(files),
        }
        return self._store.enqueue(CHANNEL, payload)

    async def deliver(
        self, thread: SlackThread, messages: Sequence[Message], files: Sequence[dict[str, Any]]
    ) -> bool:
        """Post ``messages`` then upload ``files``; True when all went now, False if queued."""
        for index, message in enumerate(messages):
            try:
                await self._poster.post(thread, message)
            except ChannelError as exc:
                log.warning("Slack refused an answer in %s (%s); queued", thread.channel, exc)
                self._queue(thread, messages[index:], files)
                return False
        await self._poster.upload_files(thread, files)
        return True

    async def flush(self) -> int:
        """One pass over the queued answers that are due; returns how many were completed."""
        done = 0
        for item in self._store.due(CHANNEL):
            if await self._resend(item):
                done += 1
        return done

    async def _resend(self, item: OutboxItem) -> bool:
        payload = item.payload
        thread = SlackThread(
            str(payload["channel"]),
            str(payload["thread_ts"]),
            payload.get("user"),
            payload.get("team_id"),
        )
        messages: list[Message] = list(payload.get("messages") or [])
        files = list(payload.get("files") or [])
        for index, message in enumerate(messages):
            try:
                await self._poster.post(thread, message)
            except ChannelError as exc:
                if index:
                    # Part went through: keep only the rest, so nothing is posted twice.
                    self._queue(thread, messages[index:], files)
                    self._store.mark_sent(item.id)
                else:
                    wait = min(
                        MAX_RETRY_SECONDS, self._settings.outbox_poll_seconds * 2**item.attempts
                    )
                    self._store.mark_failed_attempt(item.id, str(exc), retry_in=wait)
                return False
        await self._poster.upload_files(thread, files)
        self._store.mark_sent(item.id)
        return True

    async def run(self) -> None:
        """Flush every ``outbox_poll_seconds`` until cancelled."""
        while True:
            try:
                await self.flush()
            except Exception:
                log.exception("flushing the Slack outbox failed")
            await asyncio.sleep(self._settings.outbox_poll_seconds)
