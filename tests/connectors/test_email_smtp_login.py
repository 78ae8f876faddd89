"""Outbound SMTP AUTH with a non-ASCII user name or password (aiosmtplib sends UTF-8).

Checked against a real aiosmtpd server with STARTTLS: the reply is sent and the server saw
the credentials exactly, as UTF-8 bytes; a wrong one is refused and kept for a retry with a
message that does not carry the password.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.connectors.test_email_tls import Authenticator, deliver_one
from tests.fakes.smtp_capture import TLS_PEM, CaptureHandler, CaptureServer, server_tls_context


def auth_server(auth: Authenticator, handler: CaptureHandler) -> CaptureServer:
    server = CaptureServer(
        handler, tls_context=server_tls_context(), require_starttls=True,
        authenticator=auth, auth_required=True,
    )  # fmt: skip
    server.start()
    return server


@pytest.mark.parametrize(
    ("user", "password"),
    [("bot", "pässwört"), ("jürgen@example.org", "密码-🔑"), ("bot", "s3cret")],
)
async def test_non_ascii_smtp_credentials_are_sent_as_utf8(
    tmp_path: Path, user: str, password: str
) -> None:
    auth = Authenticator(user.encode(), password.encode())
    handler = CaptureHandler()
    server = auth_server(auth, handler)
    outbound = {"starttls": True, "ca_file": str(TLS_PEM), "username": user, "password": password}
    try:
        await deliver_one(tmp_path, server.port, outbound=outbound)
    finally:
        server.stop()
    assert auth.seen == [(user.encode(), password.encode())]
    assert len(handler.mails) == 1


async def test_a_wrong_non_ascii_smtp_password_is_kept_for_retry_and_not_recorded(
    tmp_path: Path,
) -> None:
    auth = Authenticator(b"bot", "richtig-ä".encode())
    handler = CaptureHandler()
    server = auth_server(auth, handler)
    outbound = {"starttls": True, "ca_file": str(TLS_PEM), "username": "bot", "password": "fälsch"}
    try:
        connector = await deliver_one(tmp_path, server.port, outbound=outbound)
    finally:
        server.stop()
    assert handler.mails == []
    (item,) = connector.services.store.pending("email")
    assert item.attempts >= 1 and "fälsch" not in (item.last_error or "")
