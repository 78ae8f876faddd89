"""The inbound SMTP listener (aiosmtpd), for mail delivered directly or by a relay.

The server runs in the connector's event loop (no Controller thread). ``DATA`` is acknowledged
only after the connector has answered and stored the reply in the outbox, so a failure on our
side answers ``451`` and the sending server keeps the mail and retries: nothing is lost. Mail
larger than ``email.max_message_bytes`` is refused with ``552`` by aiosmtpd itself, at ``MAIL
FROM`` when the sender declares its ``SIZE``, else once its ``DATA`` outgrows the limit; no
handler hook sees that, so the session (:class:`_Session`) logs it: like every mail left
unanswered, it is one line naming it (by sender: its Message-ID is never read) and why.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from collections.abc import Awaitable, Callable
from typing import Any, AnyStr

from aiosmtpd.smtp import SMTP, syntax

from bot.errors import StoreError
from bot.listening import listen

log = logging.getLogger(__name__)

# aiosmtpd's logger: every SMTP command and reply at INFO, and "Connection lost during
# _handle_client()" for a sender that simply says QUIT
SESSION_LOG = "mail.log"
# the parts of a MAIL FROM command's argument: "FROM:<ann@example.com> SIZE=31474270"
_REVERSE_PATH = re.compile(r"<([^<>]*)>")
_DECLARED_SIZE = re.compile(r"\bSIZE=(\d+)", re.IGNORECASE)


def quiet_session_log() -> None:
    """Log only aiosmtpd's warnings and errors, unless the log level is DEBUG (a level set on
    ``mail.log`` itself is left as it is): its INFO lines are a transcript of each session,
    which buries citecast's own lines and reads as trouble where there is none."""
    session = logging.getLogger(SESSION_LOG)
    if session.level == logging.NOTSET and session.getEffectiveLevel() > logging.DEBUG:
        session.setLevel(logging.WARNING)


def bind_listener(host: str, port: int) -> socket.socket:
    """The SMTP listener's socket, bound and listening; a port in use is a ConfigError naming
    ``email.listen_port`` (an address that cannot be bound names ``email.listen_host``)."""
    return listen(host, port, port_key="email.listen_port", host_key="email.listen_host")


Deliver = Callable[[bytes, str | None, tuple[str, ...]], Awaitable[object]]
"""Answers one mail: its bytes, the envelope's sender and the recipients it was accepted for."""


class InboundSmtpHandler:
    """aiosmtpd handler: accepts mail for the bot's address and hands it to ``deliver``."""

    def __init__(self, deliver: Deliver, address: str, *, accept_any: bool, timeout: float) -> None:
        self._deliver = deliver
        self._address = address.strip().lower()
        self._accept_any = accept_any or not self._address
        self._timeout = timeout

    async def handle_RCPT(  # noqa: N802 (aiosmtpd hook name)
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        """Accept only the bot's own address (unless configured to accept any)."""
        if not self._accept_any and address.strip().lower() != self._address:
            return "550 5.1.1 No such recipient here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(  # noqa: N802 (aiosmtpd hook name)
        self, server: Any, session: Any, envelope: Any
    ) -> str:
        """Answer and enqueue the reply, then accept; any failure asks the sender to retry."""
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", errors="surrogateescape")
        try:
            # the recipients too: a Bcc'd bot is named only there (email_copied)
            recipients = tuple(str(rcpt) for rcpt in envelope.rcpt_tos)
            await asyncio.wait_for(
                self._deliver(raw, envelope.mail_from, recipients), self._timeout
            )
        except StoreError as exc:
            # our own error says what failed (a locked or damaged store): one line, no traceback
            log.error("email: could not handle an inbound message (%s); asking to retry", exc)
            return "451 4.3.0 Temporary failure, please try again later"
        except Exception:
            log.exception("email: could not handle an inbound message; asking to retry")
            return "451 4.3.0 Temporary failure, please try again later"
        return "250 2.0.0 Message accepted"


class SmtpListener:
    """Owns the asyncio server that speaks SMTP to senders."""

    def __init__(
        self, handler: InboundSmtpHandler, host: str, port: int, *, max_bytes: int, name: str
    ) -> None:
        self._handler = handler
        self._host = host
        self._port = port
        self._max_bytes = max_bytes
        self._name = name
        self._server: asyncio.Server | None = None

    @property
    def port(self) -> int:
        """The port actually bound (useful when configured as 0)."""
        if self._server is None or not self._server.sockets:
            return self._port
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        """Bind (see :func:`bind_listener`) and start accepting connections."""
        quiet_session_log()
        sock = bind_listener(self._host, self._port)
        loop = asyncio.get_running_loop()
        try:
            self._server = await loop.create_server(self._protocol, sock=sock)
        except BaseException:
            sock.close()
            raise
        log.info("email: SMTP listener on %s:%d", self._host, self.port)

    def _protocol(self) -> SMTP:
        return _Session(
            self._handler,
            hostname=self._name,
            data_size_limit=self._max_bytes,
            enable_SMTPUTF8=True,
            decode_data=False,
        )

    async def stop(self) -> None:
        """Stop accepting and close the server."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            try:
                await asyncio.wait_for(server.wait_closed(), 5)
            except TimeoutError:
                log.warning("email: SMTP listener did not close in time")


class _Session(SMTP):
    """aiosmtpd's SMTP session, which also logs a mail it refuses as too big (``552``)."""

    _mail_argument = ""

    @syntax("MAIL FROM: <address>", extended=" [SP <mail-parameters>]")
    async def smtp_MAIL(self, arg: str | None) -> None:  # noqa: N802 (aiosmtpd command name)
        """aiosmtpd's ``MAIL``, the argument kept: a ``552`` for a declared ``SIZE`` comes
        before the envelope holds the sender."""
        self._mail_argument = arg or ""
        await super().smtp_MAIL(arg)

    async def push(self, status: AnyStr) -> None:
        """Send ``status``; a ``552`` is logged first (the only one this listener says is
        aiosmtpd's, for a mail over ``email.max_message_bytes``)."""
        said = status if isinstance(status, str) else status.decode("ascii", "replace")
        if said.startswith("552"):
            self._log_too_big()
        await super().push(status)

    def _log_too_big(self) -> None:
        sender = self.envelope.mail_from if self.envelope is not None else None
        if sender is None:
            found = _REVERSE_PATH.search(self._mail_argument)
            sender = found.group(1) if found else "?"
        declared = _DECLARED_SIZE.search(self._mail_argument)
        limit = self.data_size_limit or 0
        if declared and int(declared.group(1)) > limit:
            size = f"its declared size, {declared.group(1)} bytes,"
        else:
            size = "it"
        log.warning(
            "email: not answering a mail from <%s> (its Message-ID is not known: the message is"
            " not read): %s is over email.max_message_bytes (%d); refused with 552",
            sender,
            size,
            limit,
        )
