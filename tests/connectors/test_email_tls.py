"""Outbound TLS and authentication against real aiosmtpd servers (STARTTLS and implicit TLS)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword

from bot.assistant.base import Reply, ReplyEvent
from bot.connectors.email import EmailConnector
from bot.models import Answer, Exchange
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import (
    TLS_PEM,
    CaptureHandler,
    CaptureServer,
    server_tls_context,
    wait_for,
)


class PlainAnswer:
    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        return Reply(Answer(text="Yes."), {})

    async def stream(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> AsyncIterator[ReplyEvent]:
        yield Reply(Answer(text="Yes."), {})


class Authenticator:
    """Accepts one login; records every attempt."""

    def __init__(self, user: bytes, password: bytes) -> None:
        self.user, self.password = user, password
        self.seen: list[tuple[bytes, bytes]] = []

    def __call__(
        self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        assert isinstance(data, LoginPassword)
        self.seen.append((data.login, data.password))
        return AuthResult(success=(data.login, data.password) == (self.user, self.password))


async def deliver_one(tmp_path: Path, port: int, **email: object) -> EmailConnector:
    connector = EmailConnector(services(tmp_path, PlainAnswer(), email_settings(port, **email)))
    await connector.start()
    try:
        outcome = await connector.handle_message(inbound_mail())
        assert outcome.status == "answered"
        store = connector.services.store

        def attempted() -> bool:
            item = store.outbox_item(outcome.reply_id or "")
            return item is not None and (item.status == "sent" or item.attempts > 0)

        await wait_for(attempted)
    finally:
        await connector.stop()
    return connector


async def test_starttls_with_auth_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECAST_TEST_SMTP_PASSWORD", "s3cret")
    auth = Authenticator(b"bot", b"s3cret")
    handler = CaptureHandler()
    server = CaptureServer(
        handler, tls_context=server_tls_context(), require_starttls=True,
        authenticator=auth, auth_required=True,
    )  # fmt: skip
    server.start()
    try:
        outbound = {
            "starttls": True, "ca_file": str(TLS_PEM), "username": "bot",
            "password": "${CITECAST_TEST_SMTP_PASSWORD}",
        }  # fmt: skip
        await deliver_one(tmp_path, server.port, outbound=outbound)
    finally:
        server.stop()
    assert auth.seen == [(b"bot", b"s3cret")]
    assert len(handler.mails) == 1


async def test_implicit_tls(tmp_path: Path) -> None:
    handler = CaptureHandler()
    server = CaptureServer(handler, ssl_context=server_tls_context())
    server.start()
    try:
        await deliver_one(tmp_path, server.port, outbound={"tls": True, "ca_file": str(TLS_PEM)})
    finally:
        server.stop()
    assert len(handler.mails) == 1


async def test_untrusted_certificate_is_refused_and_kept_for_retry(tmp_path: Path) -> None:
    handler = CaptureHandler()
    server = CaptureServer(handler, tls_context=server_tls_context(), require_starttls=True)
    server.start()
    try:
        connector = await deliver_one(tmp_path, server.port, outbound={"starttls": True})
    finally:
        server.stop()
    assert handler.mails == []
    (item,) = connector.services.store.pending("email")
    assert item.attempts >= 1 and "CERTIFICATE" in (item.last_error or "").upper()
