"""IMAP polling of a mailbox (stdlib imaplib in a worker thread, IDLE where offered).

Only mail that arrived after the bot first watched the mailbox is answered. On the first start
against a mailbox (nothing saved for it), its ``UIDNEXT`` is saved in the store with its
``UIDVALIDITY`` as the mailbox's start point: the unread mail already there is left alone (not
answered, not marked read) and one line says how much that was, while everything from the start
point on is answered, across restarts too (so mail that arrived while the bot was down is
answered when it is back). A mailbox whose ``UIDVALIDITY`` changed (recreated, renumbered) gets a
new start point, as on a first start.

Each round: ``UID SEARCH UNSEEN UID <start>:*``, then for every message ``UID FETCH
(RFC822.SIZE)`` (a message over ``email.max_message_bytes`` is marked seen and skipped), ``UID
FETCH (BODY.PEEK[])`` (which does not set \\Seen), the shared handler, and only after the handler
returned ``UID STORE +FLAGS (\\Seen)``. A message whose handling failed stays unseen and is tried
again: after ``imap.poll_seconds``, the wait doubling with each failure up to an hour, so a
message that fails every time (or an assistant that is down) costs a few attempts an hour, not
one a round. Between rounds the poller waits in ``IDLE`` (woken by the server's ``EXISTS``) when
the server advertises it and ``imap.idle`` is on, else it sleeps ``imap.poll_seconds``. A lost
connection is re-established with a short backoff, and so is the session after any unexpected
error (logged with its traceback): polling never ends on its own.

The first session is opened at start (:meth:`ImapPoller.start`): a setting that can never work
(a login the server refuses, a mailbox it does not have, ``starttls`` on a server without
STARTTLS, a certificate that does not verify) stops the start with one ``ConfigError`` naming
the setting, as a refused Slack or Discord token does, while a server that cannot be reached now
is one warning and polling keeps trying. What later sessions log is ``email_imap_trouble``'s: a
setting refused while running is one ERROR (an untrusted certificate, one WARNING), an outage
one WARNING, and each retry of either one INFO line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.config import ImapSettings
from bot.connectors.email_imap_mailbox import ImapMailbox
from bot.connectors.email_imap_names import mailbox_key
from bot.connectors.email_imap_start import StartPoints as StartPoints
from bot.connectors.email_imap_tls import UntrustedCertificate
from bot.connectors.email_imap_trouble import SessionTrouble, message_failed, message_too_big
from bot.errors import ConfigError

log = logging.getLogger(__name__)

MAX_RETRY_SECONDS = 3600.0
"""The longest wait before a message whose handling failed is tried again."""


Handler = Callable[[bytes, str | None], Awaitable[Any]]


class ImapPoller:
    """Runs :class:`ImapMailbox` rounds in the background and feeds the shared handler."""

    def __init__(
        self,
        settings: ImapSettings,
        handle: Handler,
        *,
        max_bytes: int,
        start_points: StartPoints,
    ) -> None:
        self._settings = settings
        self._handle = handle
        self._max_bytes = max_bytes
        self._start_points = start_points
        self._first_uid = 1
        self._mailbox = ImapMailbox(settings)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._stop_event = asyncio.Event()
        self._retry: dict[bytes, tuple[float, float]] = {}  # failed uid: (due, last wait)
        self._trouble = SessionTrouble()
        self.rounds = 0

    async def start(self) -> None:
        """Open the first session (connect, log in, select), then poll in the running loop.

        Raises ConfigError, leaving nothing running, when a setting can never work: the
        server refuses the login (or the credentials cannot be sent to it), has no such
        mailbox, does not offer STARTTLS, or presents a certificate that does not verify
        (``email.imap.ca_file``). A session that fails otherwise (the server unreachable, too
        slow) is one warning, and polling keeps trying in the background. Waits at most about
        ``imap.timeout`` per step of the session.
        """
        if self._task is not None:
            return
        self._stopping = False
        self._stop_event.clear()
        first: Exception | None = None
        try:
            await asyncio.to_thread(self._mailbox.connect)
        except ConfigError:
            await asyncio.to_thread(self._mailbox.close)
            raise
        except UntrustedCertificate as exc:  # at start, a setting to fix; later, retried
            await asyncio.to_thread(self._mailbox.close)
            raise exc.setting_error() from None
        except Exception as exc:  # logged by _run, which retries it
            first = exc
        self._task = asyncio.create_task(self._run(first), name="email-imap")

    def dispose(self) -> None:
        """Release what a poller whose :meth:`start` failed holds (:meth:`stop` does it else)."""
        if self._task is None:
            self._mailbox.dispose()

    async def stop(self) -> None:
        """Finish the current step, leave IDLE, log out; force it after ``imap.timeout``."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._stop_event.set()
        self._mailbox.interrupt()
        try:
            await asyncio.wait_for(asyncio.shield(task), self._settings.timeout)
        except (TimeoutError, Exception):
            self._mailbox.abort()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await asyncio.to_thread(self._mailbox.close)
        self._mailbox.dispose()

    async def _run(self, failure: Exception | None) -> None:
        """Poll until stopped; ``failure``: how the session opened at start failed, if it did
        (else that session is used)."""
        delay = min(1.0, self._settings.poll_seconds)
        connected = failure is None
        while not self._stopping:
            if failure is None:
                try:
                    if not connected:
                        await asyncio.to_thread(self._mailbox.connect)
                    await self._find_start_point()
                    delay = min(1.0, self._settings.poll_seconds)
                    while not self._stopping:
                        await self._round()
                        self._trouble.polled()
                        await self._wait()
                except Exception as exc:  # any: a task that ended would end all polling
                    failure = exc
            if failure is not None and not self._stopping:
                self._trouble.failed(failure, delay)
            failure, connected = None, False
            await asyncio.to_thread(self._mailbox.close)
            await self._pause(delay)
            delay = min(delay * 2, max(self._settings.poll_seconds, 1.0) * 4)

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._stop_event.wait()

    async def _find_start_point(self) -> None:
        """The first UID to answer: saved for this mailbox, else from now on (logged)."""
        mailbox = self._mailbox
        key = mailbox_key(self._settings)
        saved = self._start_points.get(key)
        if saved is not None and saved[0] == mailbox.validity:
            self._first_uid = saved[1]
            return
        self._first_uid = mailbox.uidnext
        self._start_points.put(key, mailbox.validity, self._first_uid)
        self._retry.clear()
        waiting = await asyncio.to_thread(mailbox.count_unseen_below, self._first_uid)
        why = "first start on" if saved is None else "UIDVALIDITY changed for"
        many = waiting != 1  # "1 unread message … is left", "3 unread messages … are left"
        count = f"{waiting} unread message{'s' * many} already there {'are' if many else 'is'}"
        log.warning(
            "email: IMAP %s %s: answering mail that arrives from now on; %s left unanswered"
            " and unread (to have one answered, move it to another folder and back)",
            why,
            self._settings.mailbox,
            count,
        )

    async def _round(self) -> None:
        unseen = await asyncio.to_thread(self._mailbox.unseen, self._first_uid)
        # forget failures of messages that are gone or were read elsewhere
        self._retry = {uid: entry for uid, entry in self._retry.items() if uid in unseen}
        for uid in unseen:
            if self._stopping:
                return
            if uid in self._retry and time.monotonic() < self._retry[uid][0]:
                continue
            size = await asyncio.to_thread(self._mailbox.size, uid)
            if size is not None and size > self._max_bytes:
                message_too_big(uid, size, self._max_bytes)
                await asyncio.to_thread(self._mailbox.mark_seen, uid)
                continue
            raw = await asyncio.to_thread(self._mailbox.fetch, uid)
            if raw is None:
                continue
            try:
                await self._handle(raw, None)
            except Exception as exc:
                message_failed(uid, exc, self._failed(uid))
                continue
            self._retry.pop(uid, None)
            await asyncio.to_thread(self._mailbox.mark_seen, uid)
        self.rounds += 1

    def _failed(self, uid: bytes) -> float:
        """Schedule the next attempt of a message whose handling failed; returns the wait."""
        last = self._retry.get(uid, (0.0, 0.0))[1]
        wait = min(MAX_RETRY_SECONDS, last * 2 if last else self._settings.poll_seconds)
        self._retry[uid] = (time.monotonic() + wait, wait)
        return wait

    async def _wait(self) -> None:
        if self._mailbox.can_idle:
            await asyncio.to_thread(self._mailbox.idle, self._settings.poll_seconds)
        else:
            await asyncio.to_thread(self._mailbox.noop)
            await self._pause(self._settings.poll_seconds)
