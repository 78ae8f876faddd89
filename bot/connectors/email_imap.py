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
import imaplib
import logging
import re
import select
import socket
import ssl
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.config import ImapSettings
from bot.connectors.email_imap_auth import log_in
from bot.connectors.email_imap_names import mailbox_key
from bot.connectors.email_imap_select import select_mailbox
from bot.connectors.email_imap_start import StartPoints as StartPoints
from bot.connectors.email_imap_text import server_text
from bot.connectors.email_imap_tls import (
    UntrustedCertificate,
    open_session,
    secure,
    tls_context,
    warn_plain,
)
from bot.connectors.email_imap_trouble import SessionTrouble, message_failed, message_too_big
from bot.connectors.email_imap_wire import buffered, response_number
from bot.errors import ConfigError

log = logging.getLogger(__name__)

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
MAX_RETRY_SECONDS = 3600.0
"""The longest wait before a message whose handling failed is tried again."""


class ImapMailbox:
    """A blocking IMAP session; every method runs in a worker thread except :meth:`abort`."""

    def __init__(self, settings: ImapSettings) -> None:
        self._settings = settings
        self._tls = tls_context(settings)
        self._warned_plain = False
        self._imap: imaplib.IMAP4 | None = None
        self._idle_tags = 0
        self.validity = 0
        """The selected mailbox's UIDVALIDITY (0 when the server did not say)."""
        self.uidnext = 1
        """The UID the next message delivered to the selected mailbox will get."""
        # A self-pipe lets another thread end an IDLE wait politely (DONE, then LOGOUT).
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._wake_reader.setblocking(False)

    @property
    def can_idle(self) -> bool:
        """True when the server advertised IDLE and the settings allow it."""
        imap = self._imap
        return bool(imap and self._settings.idle and "IDLE" in imap.capabilities)

    def connect(self) -> None:
        """Connect (TLS as configured, see ``email_imap_tls``), log in, select the mailbox."""
        s = self._settings
        imap = open_session(s, self._tls)
        self._imap = imap
        # imaplib swaps in the TLS socket and its reader: everything below (IDLE's pending
        # and buffered checks included) reads imap.sock/imap.file afresh
        if secure(imap, s, self._tls) and not self._warned_plain:
            self._warned_plain = True
            warn_plain(imap, s)
        log_in(imap, s.username, s.password)
        select_mailbox(imap, s.mailbox)
        self.validity = response_number(imap, "UIDVALIDITY") or 0
        # RFC 3501 makes UIDNEXT part of every SELECT answer; a server that leaves it out
        # gets the highest UID there plus one
        self.uidnext = response_number(imap, "UIDNEXT") or max(self._search("ALL"), default=0) + 1

    def unseen(self, first_uid: int = 1) -> list[bytes]:
        """UIDs (``first_uid`` or higher) of messages without \\Seen."""
        # "n:*" also matches the highest UID when it is below n (RFC 3501 §6.4.8)
        return [
            uid for uid in self._uids("UNSEEN", "UID", f"{first_uid}:*") if int(uid) >= first_uid
        ]

    def count_unseen_below(self, uid: int) -> int:
        """How many messages with a UID below ``uid`` are without \\Seen."""
        return len(self._uids("UNSEEN", "UID", f"1:{uid - 1}")) if uid > 1 else 0

    def _search(self, *criteria: str) -> list[int]:
        return [int(uid) for uid in self._uids(*criteria)]

    def _uids(self, *criteria: str) -> list[bytes]:
        typ, data = self._session().uid("SEARCH", *criteria)
        if typ != "OK":
            raise imaplib.IMAP4.error(f"SEARCH failed: {server_text(data)}")
        # numbers only: a CONDSTORE server may append "(MODSEQ 917162500)"
        words = (word for chunk in data if isinstance(chunk, bytes) for word in chunk.split())
        return [word for word in words if word.isdigit()]

    def size(self, uid: bytes) -> int | None:
        """The message's RFC822.SIZE, or None when the server does not say."""
        typ, data = self._session().uid("FETCH", uid.decode(), "(RFC822.SIZE)")
        for item in data if typ == "OK" else []:
            found = _SIZE.search(item if isinstance(item, bytes) else b"")
            if found:
                return int(found.group(1))
        return None

    def fetch(self, uid: bytes) -> bytes | None:
        """The raw message, read without setting \\Seen; None when it vanished."""
        typ, data = self._session().uid("FETCH", uid.decode(), "(BODY.PEEK[])")
        if typ != "OK":
            raise imaplib.IMAP4.error(f"FETCH failed: {server_text(data)}")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                return item[1]
        return None

    def mark_seen(self, uid: bytes) -> None:
        """Set \\Seen on the message."""
        typ, data = self._session().uid("STORE", uid.decode(), "+FLAGS", "(\\Seen)")
        if typ != "OK":
            raise imaplib.IMAP4.error(f"STORE failed: {server_text(data)}")

    def noop(self) -> None:
        """Keep the session alive (and let the server report news)."""
        self._session().noop()

    def idle(self, timeout: float) -> bool:
        """Wait in IDLE until the server reports news or ``timeout``; true when it did."""
        imap = self._session()
        self._idle_tags += 1
        tag = b"CCIDLE%d" % self._idle_tags
        imap.send(tag + b" IDLE\r\n")
        while True:
            line = imap.readline()
            if not line:
                raise imaplib.IMAP4.abort("connection closed during IDLE")
            if line.startswith(b"+"):
                break
            if line.startswith(tag + b" "):
                raise imaplib.IMAP4.error(f"IDLE refused: {server_text(line)}")
        news = self._wait_readable(imap, timeout)
        if news and not imap.readline():
            raise imaplib.IMAP4.abort("connection closed during IDLE")
        imap.send(b"DONE\r\n")
        while True:
            line = imap.readline()
            if not line:
                raise imaplib.IMAP4.abort("connection closed after IDLE")
            if line.startswith(tag + b" "):
                return news

    def _wait_readable(self, imap: imaplib.IMAP4, timeout: float) -> bool:
        sock = imap.sock
        if buffered(imap) or (isinstance(sock, ssl.SSLSocket) and sock.pending()):
            return True
        readable, _, _ = select.select([sock, self._wake_reader], [], [], timeout)
        if self._wake_reader in readable:
            with contextlib.suppress(OSError):
                self._wake_reader.recv(64)
            return False
        return bool(readable)

    def interrupt(self) -> None:
        """End an IDLE wait early (thread-safe); the session stays usable."""
        with contextlib.suppress(OSError):
            self._wake_writer.send(b"!")

    def close(self) -> None:
        """Log out (best effort) and forget the session."""
        imap, self._imap = self._imap, None
        if imap is None:
            return
        with contextlib.suppress(Exception):
            imap.logout()

    def dispose(self) -> None:
        """Release the self-pipe (after :meth:`close`)."""
        self._wake_reader.close()
        self._wake_writer.close()

    def abort(self) -> None:
        """Unblock a thread waiting on the socket (called from the event loop thread)."""
        imap = self._imap
        if imap is not None:
            with contextlib.suppress(OSError):
                imap.sock.shutdown(socket.SHUT_RDWR)

    def _session(self) -> imaplib.IMAP4:
        if self._imap is None:
            raise imaplib.IMAP4.abort("not connected")
        return self._imap


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
