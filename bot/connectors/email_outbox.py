"""The durable email outbox: replies are sent from the SQLite store, never straight from memory.

The connector enqueues a composed reply (``bot.store.Store.enqueue``) before anything is sent;
this worker sends due items with aiosmtplib and marks an item sent only after the server
accepted it. A transient failure (connection refused, timeout, any 4xx, authentication) is
retried after ``retry_initial_seconds``, doubling up to ``retry_max_seconds``; pending items
survive a restart and are sent when the connector starts again. A permanent refusal (5xx for
the recipient or the message) is retried no more: the item is marked dead and logged.

Before each attempt the reply's answer is judged again for its recipient as things are now
(``outbox_audience``: their ``audience_for`` groups, a knowledge-base file as the index has it
now): a reply citing or written from a file made private or dropped from the index since it was
queued is not sent; it is dropped (dead, its turn failed) with one ERROR line saying why.

Logging: a reply's first failed attempt is one WARNING with the server's reply as it said it
("451 4.3.0 Try again later"), each retry that fails again one INFO line, giving up one WARNING,
and the attempt that finally gets through the usual "answered" INFO line, naming the attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import aiosmtplib

from bot.config import EmailSettings, SmtpOutSettings
from bot.connectors.email_compose import OutboundMail
from bot.connectors.outbox_audience import ReadersChangedError, judged_turn
from bot.connectors.outbox_turns import fail_queued_turn
from bot.connectors.web_turn_page import visible_answer
from bot.connectors.web_viewer_links import FileIndex
from bot.store import OutboxItem, Store

log = logging.getLogger(__name__)

CHANNEL = "email"


@dataclass(frozen=True)
class SendResult:
    """Outcome of one delivery attempt."""

    ok: bool
    permanent: bool = False
    error: str = ""


class SmtpSender:
    """Delivers one composed reply through the configured SMTP server."""

    def __init__(self, settings: SmtpOutSettings) -> None:
        self._settings = settings

    async def send(self, mail: OutboundMail) -> SendResult:
        """Try once; SDK errors become a :class:`SendResult`, never an exception."""
        s = self._settings
        try:
            await aiosmtplib.send(
                mail.message,
                sender=mail.sender,
                recipients=list(mail.recipients),
                hostname=s.host,
                port=s.port,
                username=s.username or None,
                password=s.password or None,
                use_tls=s.tls,
                start_tls=s.starttls,
                validate_certs=s.validate_certs,
                cert_bundle=s.ca_file,
                timeout=s.timeout,
                local_hostname=_local_hostname(mail.sender),
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [err.code for err in exc.recipients]
            refused = "; ".join(_reply(err) for err in exc.recipients)
            return SendResult(False, all(500 <= c < 600 for c in codes), f"recipient {refused}")
        except (aiosmtplib.SMTPDataError, aiosmtplib.SMTPSenderRefused) as exc:
            return SendResult(False, 500 <= exc.code < 600 and exc.code != 530, _reply(exc))
        except aiosmtplib.SMTPResponseException as exc:
            # a refused login (535) and any other reply the server gave: as it said it, and
            # retried (a password can be corrected in the environment and the service restarted)
            return SendResult(False, False, _reply(exc))
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            return SendResult(False, False, f"{type(exc).__name__}: {exc}")
        return SendResult(True)


def _reply(exc: aiosmtplib.SMTPResponseException) -> str:
    """The server's reply as it said it, "451 4.3.0 Try again later" (not the exception's
    tuple, "(451, '4.3.0 Try again later')"), with the key to look at when it is about the
    login (530, 535), as IMAP errors name theirs."""
    said = " ".join(f"{exc.code} {exc.message}".split())
    return f"{said}{_login_hint(exc.code, said)}"


def _login_hint(code: int, said: str) -> str:
    if code == 535:
        return (
            "; check that email.outbound.username is the login name and email.outbound.password"
            " (such as ${SMTP_PASSWORD}) its current password"
        )
    if code != 530:
        return ""
    if "tls" in said.lower():
        # "530 5.7.0 Must issue a STARTTLS command first": the login is not the problem yet
        return "; the server wants TLS first: set email.outbound.starttls (or email.outbound.tls)"
    return "; the server wants a login: set email.outbound.username and email.outbound.password"


def _local_hostname(address: str) -> str:
    return address.partition("@")[2] or "localhost"


class OutboxWorker:
    """Sends due outbox items in the background; :meth:`wake` after an enqueue."""

    def __init__(
        self,
        store: Store,
        sender: SmtpSender,
        settings: EmailSettings,
        *,
        audience_for: Callable[[str], frozenset[str]] | None = None,
        files: FileIndex | None = None,
    ) -> None:
        self._store = store
        self._sender = sender
        self._settings = settings
        # who a recipient is (the connector's policy) and the index: a reply is judged again
        # before each attempt (None: not judged)
        self._audience_for = audience_for
        self._files = files
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        """Start the loop in the running event loop (sends what a previous run left)."""
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._run(), name="email-outbox")

    async def stop(self) -> None:
        """Stop the loop; an attempt in progress is abandoned and stays pending."""
        task, self._task = self._task, None
        self._stopping = True
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def wake(self) -> None:
        """Look for due items now instead of at the next poll."""
        self._wake.set()

    async def flush(self) -> int:
        """Attempt every due item once; returns how many were sent."""
        sent = 0
        for item in self._store.due(CHANNEL):
            if await self._deliver(item):
                sent += 1
        return sent

    async def _run(self) -> None:
        # The flag as well as the cancellation: asyncio on 3.11 can swallow a cancel that
        # races with a completing wait.
        while not self._stopping:
            self._wake.clear()
            wait = self._settings.outbox_poll_seconds
            try:
                await self.flush()
                # inside the guard too: a store error here ended the worker without a word,
                # and no reply was sent again until a restart
                wait = self._next_wait()
            except Exception:  # keep the worker alive; the item stays pending
                log.exception("email outbox: unexpected error")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()

    def _next_wait(self) -> float:
        poll = self._settings.outbox_poll_seconds
        pending = self._store.pending(CHANNEL)
        if not pending:
            return poll
        soonest = min(item.next_attempt_at for item in pending)
        return max(0.0, min(poll, soonest - time.time()))

    async def _deliver(self, item: OutboxItem) -> bool:
        try:
            mail = OutboundMail.from_json(item.payload)
        except (KeyError, TypeError, ValueError) as exc:
            self._store.mark_failed_attempt(item.id, f"bad payload: {exc}", 0, max_attempts=0)
            log.error("email outbox: item %s has a bad payload and was dropped", item.id)
            fail_queued_turn(self._store, item.payload, CHANNEL)
            return False
        to = ", ".join(mail.recipients)
        what = f"reply to {mail.in_reply_to}" if mail.in_reply_to else mail.message_id
        refusal = self._unreadable(item, mail)
        if refusal is not None:
            self._store.mark_failed_attempt(item.id, refusal, 0, max_attempts=0)
            log.error("email: %s not sent to %s: %s; dropped", what, to, refusal)
            fail_queued_turn(self._store, item.payload, CHANNEL)
            return False
        result = await self._sender.send(mail)
        if result.ok:
            self._store.mark_sent(item.id)
            # after failures (each logged), this one line says they are over
            late = f" on attempt {item.attempts + 1}" if item.attempts else ""
            if mail.in_reply_to:
                log.info(
                    "email: answered %s (reply %s sent to %s%s)",
                    mail.in_reply_to,
                    mail.message_id,
                    to,
                    late,
                )
            else:
                log.info("email outbox: sent %s to %s%s", mail.message_id, to, late)
            return True
        limit = 0 if result.permanent else self._settings.max_attempts
        delay = min(
            self._settings.retry_max_seconds,
            self._settings.retry_initial_seconds * (2**item.attempts),
        )
        self._store.mark_failed_attempt(item.id, result.error, delay, max_attempts=limit)
        dead = result.permanent or item.attempts + 1 >= limit
        # one WARNING for a reply that is not getting through (its first failure) and one for
        # giving up; the retries in between are INFO, or a server down for a day floods the log
        level = logging.WARNING if dead or item.attempts == 0 else logging.INFO
        if dead:
            fail_queued_turn(self._store, item.payload, CHANNEL)
            then = (
                "; given up"
                if item.attempts == 0
                else f"; given up after {item.attempts + 1} attempts"
            )
        elif item.attempts == 0:
            then = f"; queued, trying again in {delay:.1f}s"
        else:
            then = f"; attempt {item.attempts + 1} failed, trying again in {delay:.1f}s"
        log.log(level, "email: %s not sent to %s (%s)%s", what, to, result.error, then)
        return False

    def _unreadable(self, item: OutboxItem, mail: OutboundMail) -> str | None:
        """Why the reply may no longer go to its recipients (see the module docstring); None
        when it may, or when it is not judged."""
        if self._audience_for is None:
            return None
        try:
            turn = judged_turn(self._store, item.payload)
        except ReadersChangedError as exc:
            return str(exc)
        if turn is None:
            return None
        for recipient in mail.recipients:
            if visible_answer(turn, self._audience_for(recipient), self._files) is None:
                return (
                    f"{recipient} may not read every source the answer of turn {turn.id} cites "
                    f"or read (a file as the index has it now)"
                )
        return None
