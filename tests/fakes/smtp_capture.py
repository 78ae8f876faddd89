"""A real aiosmtpd server on loopback that captures the email connector's outbound replies.

``CaptureServer`` is an aiosmtpd ``Controller`` (its own thread and event loop) bound to
127.0.0.1 on port 0 (or a given port, to bring a "downed" server back on the same address).
The handler records every accepted envelope and can refuse ``DATA`` with a 4xx for the first N
attempts, or refuse every recipient with a 5xx, like a real server under load or policy.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any, cast

from aiosmtpd.controller import Controller


@dataclass(frozen=True)
class CapturedMail:
    """One accepted envelope."""

    mail_from: str
    rcpt_tos: tuple[str, ...]
    content: bytes

    def message(self) -> EmailMessage:
        """The message parsed back with the standard library."""
        return email.message_from_bytes(self.content, policy=email.policy.default)


class CaptureHandler:
    """Records envelopes; refuses the first ``refuse_first`` DATA attempts with ``refuse_with``."""

    def __init__(
        self,
        refuse_first: int = 0,
        refuse_with: str = "451 4.3.0 Try again later",
        reject_recipients: str | None = None,
    ) -> None:
        self.refuse_first = refuse_first
        self.refuse_with = refuse_with
        self.reject_recipients = reject_recipients
        self.attempts = 0
        self.mails: list[CapturedMail] = []
        self._lock = threading.Lock()

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.reject_recipients:
            return self.reject_recipients
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self._lock:
            self.attempts += 1
            if self.attempts <= self.refuse_first:
                return self.refuse_with
            self.mails.append(
                CapturedMail(envelope.mail_from, tuple(envelope.rcpt_tos), envelope.content)
            )
        return "250 2.0.0 Queued"


class CaptureServer(Controller):
    """``Controller`` that may bind port 0 and then reports the real port."""

    def __init__(
        self,
        handler: CaptureHandler,
        port: int = 0,
        ssl_context: ssl.SSLContext | None = None,
        **smtp: Any,
    ) -> None:
        super().__init__(
            handler, hostname="127.0.0.1", port=port, server_hostname="capture.test",
            ssl_context=ssl_context, **smtp,
        )  # fmt: skip
        self.handler = handler

    def _trigger_server(self) -> None:
        # aiosmtpd connects to self.port to trigger the factory; with port 0 read the real one.
        server = cast(asyncio.Server, self.server)
        self.port = int(server.sockets[0].getsockname()[1])
        if self.ssl_context is None:
            super()._trigger_server()  # type: ignore[no-untyped-call]
        else:  # aiosmtpd's own TLS trigger insists on verifying; a plain connect suffices
            import socket

            socket.create_connection(("127.0.0.1", self.port), 1.0).close()


async def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait (polling) until ``condition()`` holds; fails the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


TLS_PEM = Path(__file__).with_name("smtp_tls_localhost.pem")
"""A self-signed certificate and key for 127.0.0.1/localhost (valid until 2126; tests only)."""


def server_tls_context() -> ssl.SSLContext:
    """A server-side TLS context with the test certificate."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(TLS_PEM)
    return context
