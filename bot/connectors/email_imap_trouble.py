"""What the IMAP poller logs when its session fails: each trouble once at its level, then INFO.

A setting the server refuses (``ConfigError`` from ``email_imap_auth``, ``email_imap_select``
or ``email_imap_tls``, such as a password changed or a mailbox deleted while citecast runs) is
one ERROR naming the setting to fix; a session that fails otherwise (the server unreachable,
the connection lost) one WARNING, and a certificate that does not verify a WARNING of its own
(not hidden by an outage going on); an unexpected error one ERROR with its traceback. While the
same trouble goes on, each retry is one INFO line, so a long outage or a wrong password does
not fill the log with a warning per backoff step. Once a session has polled again, one INFO
line says so, and the next trouble is reported at its level again.

One message: a message over ``email.max_message_bytes`` is one WARNING naming its UID, its size
and the setting (its Message-ID is not known: the message is never fetched); a message whose
handling failed is one ERROR, with a traceback unless the error is our own ``StoreError`` (a
locked store says all there is to say in its message, and it is retried).
"""

from __future__ import annotations

import imaplib
import logging

from bot.connectors.email_imap_text import describe
from bot.connectors.email_imap_tls import UntrustedCertificate
from bot.errors import ConfigError, StoreError

# the poller's own logger: operators' filters (and the tests') know its lines by that name
log = logging.getLogger("bot.connectors.email_imap")

SESSION_ERRORS = (imaplib.IMAP4.error, OSError, EOFError)
"""What a session that failed raises (anything else is unexpected: logged with its traceback)."""


class SessionTrouble:
    """The poller's failure log: remembers the kind of trouble going on, if any."""

    def __init__(self) -> None:
        self._going_on: str | None = None

    def failed(self, exc: BaseException, delay: float) -> None:
        """Log the failure of a session (or of a login); the next attempt is in ``delay`` s."""
        if isinstance(exc, ConfigError):
            kind, level = "refused", logging.ERROR
            first = f"email: {exc}; trying again in {delay:.1f}s"
            # the retries say what was refused, without the advice the first line gave
            head, cut, _ = str(exc).partition("); ")
            said = head + ")" if cut else str(exc)
            again = f"email: {said}; trying again in {delay:.1f}s"
        elif isinstance(exc, SESSION_ERRORS):
            # a certificate that stopped verifying is news even during an outage: its own kind
            kind = "untrusted" if isinstance(exc, UntrustedCertificate) else "failed"
            level = logging.WARNING
            first = again = (
                f"email: IMAP session failed ({describe(exc)}); reconnecting in {delay:.1f}s"
            )
        else:  # a bug, or a store that cannot be read: where it happened is worth a traceback
            kind, level = "error", logging.ERROR
            first = f"email: IMAP poller error; reconnecting in {delay:.1f}s"
            again = f"email: IMAP poller error ({describe(exc)}); reconnecting in {delay:.1f}s"
        if kind == self._going_on:
            log.info("%s", again)
            return
        self._going_on = kind
        log.log(level, "%s", first, exc_info=exc if kind == "error" else None)

    def polled(self) -> None:
        """A session did its work: the trouble, if any, is over (said once, at INFO)."""
        if self._going_on is not None:
            self._going_on = None
            log.info("email: IMAP polling works again")


def message_too_big(uid: bytes, size: int, limit: int) -> None:
    """Log that the message ``uid`` (``size`` bytes, over ``limit``) is skipped, unanswered."""
    log.warning(
        "email: not answering IMAP message UID %s (its Message-ID is not known: the message is"
        " not fetched): %d bytes is over email.max_message_bytes (%d); marked seen",
        uid.decode(),
        size,
        limit,
    )


def message_failed(uid: bytes, exc: Exception, wait: float) -> None:
    """Log that handling the message ``uid`` failed with ``exc``; it is tried again (left
    unseen) in ``wait`` seconds."""
    if isinstance(exc, StoreError):
        log.error(
            "email: IMAP message %s not handled (%s); left unseen, will retry in %.0fs",
            uid.decode(),
            exc,
            wait,
        )
        return
    log.error(
        "email: IMAP message %s not handled; will retry in %.0fs", uid.decode(), wait, exc_info=exc
    )
