"""An answer's files, uploaded once its messages are in the thread, kept in the outbox until done.

Files go after messages. Once every message of an answer is posted, what is left is its files,
and that is kept in the store's outbox as an item of its own (no messages, only ``files``)
before the first upload starts. The item is marked sent when every file is in the thread. When
the process stops mid-upload, or an upload fails in a way a later try may not (a 5xx, a
timeout, a lost connection), the item stays, and the outbox's next pass (also after a restart)
uploads the files again, but only those the thread does not show yet (read from the item's
``since`` on, by title): a completed upload whose answer was lost is not made twice, and the
answer's messages, long in the thread, are never posted again.

While the answering task uploads an item's files, the item is *busy*: a flush passes it by, as
it passes by an item another flush is resending. An item that keeps failing is dropped after
``MAX_ATTEMPTS`` tries (at once in a conversation closed to the bot), logged; its answer
stands, naming the file. Before the outbox uploads them, the answer is judged again for those
reading the thread now and the index as it is now (``slack_outbox_audience``): files of an
answer they may no longer read (a file made private since, a channel made public) are not
uploaded, and the item is dropped at once, logged. :func:`files_left` tells the recovery of a
question cut short by a stop that its answer was posted and only files were left
(``slack_unanswered``): it is not answered again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from bot.config import SlackSettings
from bot.connectors.outbox_turns import TURN_KEY, queued_turn
from bot.connectors.slack_client import UndeliverableError
from bot.connectors.slack_delivery import SlackPoster
from bot.connectors.slack_outbox_audience import (
    QueuedAudience,
    ReadersChangedError,
    ReadersUnknownError,
)
from bot.connectors.slack_outbox_tries import MAX_ATTEMPTS
from bot.connectors.slack_thread import SlackThread
from bot.connectors.slack_uploads import FileEntry, entry_title, shared_titles
from bot.errors import ChannelError, StoreError
from bot.store import OutboxItem, Store

log = logging.getLogger(__name__)

CHANNEL = "slack"


def is_files_only(payload: dict[str, Any]) -> bool:
    """Whether a queued Slack item holds only files: its answer's messages are all posted."""
    return not payload.get("messages") and bool(payload.get("files"))


def files_left(store: Store, turn_id: int | None) -> bool:
    """Whether the outbox holds files still to upload for the answer of turn ``turn_id``
    (so that answer's messages were all posted)."""
    if turn_id is None:
        return False
    try:
        items = store.pending(CHANNEL)
    except StoreError as exc:
        log.warning("slack: cannot read the outbox for turn %s: %s", turn_id, exc)
        return False
    return any(is_files_only(i.payload) and queued_turn(i.payload) == turn_id for i in items)


class FileUploads:
    """Uploads answers' files, now and, from the outbox, later."""

    def __init__(
        self,
        store: Store,
        poster: SlackPoster,
        settings: SlackSettings,
        busy: set[str],
        audience: QueuedAudience | None = None,
    ) -> None:
        self._store = store
        self._poster = poster
        self._settings = settings
        # the outbox items being worked on now, by anyone: a flush passes them by
        self._busy = busy
        # who reads the thread now, checked before a queued file is uploaded (None: not)
        self._audience = audience

    async def upload(
        self,
        thread: SlackThread,
        files: Sequence[FileEntry],
        *,
        turn_id: int | None,
        replacing: str | None = None,
    ) -> None:
        """Upload ``files`` (the answer's messages are all posted), kept in the outbox until
        done; ``replacing``: the item that held them with its messages, marked sent once the
        files are kept on their own."""
        if not files:
            if replacing is not None:
                self._store.mark_sent(replacing)
            return
        payload: dict[str, Any] = {
            **thread.to_json(),
            "messages": [],
            "files": list(files),
            # the thread is read from then on for the files already there
            "since": time.time(),
        }
        if turn_id is not None:
            payload[TURN_KEY] = turn_id
        item_id = self._store.enqueue(CHANNEL, payload)
        if replacing is not None:
            self._store.mark_sent(replacing)
        self._busy.add(item_id)
        try:
            left = await self._poster.upload_files(thread, files)
        finally:
            self._busy.discard(item_id)
        if not left:
            self._store.mark_sent(item_id)
        # else the item stays due: the outbox's next pass tries the files again

    async def resend(self, item: OutboxItem, thread: SlackThread) -> bool:
        """Upload the files of a files-only item that the thread lacks; True when done."""
        files: list[FileEntry] = list(item.payload.get("files") or [])
        if self._audience is not None:
            try:
                await self._audience.check(thread, item.payload)
            except ReadersChangedError as exc:
                # the answer above them stands, naming the files, as when uploads give up
                log.error(
                    "not uploading an answer's files into %s (%s): %s", thread.channel, item.id, exc
                )
                self._store.mark_failed_attempt(item.id, str(exc), retry_in=0.0, max_attempts=1)
                return False
            except ReadersUnknownError as exc:
                self._retry_later(item.id, str(exc))  # a failed try: asked again next pass
                return False
        since = item.payload.get("since")
        try:
            replies = await self._poster.replies(
                thread, since=float(since) if isinstance(since, int | float) else None
            )
        except ChannelError as exc:
            # unknown which files are there: none is uploaded blindly
            closed = isinstance(exc, UndeliverableError) and exc.conversation_closed
            self._retry_later(item.id, str(exc), max_attempts=1 if closed else MAX_ATTEMPTS)
            return False
        there = shared_titles(replies)
        missing = [entry for entry in files if entry_title(entry) not in there]
        left = await self._poster.upload_files(thread, missing)
        if left:
            self._retry_later(item.id, f"{len(left)} file(s) not uploaded")
            return False
        self._store.mark_sent(item.id)
        return True

    def _retry_later(self, item_id: str, error: str, max_attempts: int = MAX_ATTEMPTS) -> None:
        self._store.mark_failed_attempt(
            item_id, error, retry_in=self._settings.outbox_poll_seconds, max_attempts=max_attempts
        )
        item = self._store.outbox_item(item_id)
        if item is not None and item.status == "dead":
            log.warning(
                "gave up uploading an answer's files (%s): %s; the answer names them",
                item_id,
                error,
            )
