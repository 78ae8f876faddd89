"""A refused SMTP login reads as the server said it, with the keys to look at (530, 535).

Against a real aiosmtpd server on loopback: aiosmtplib's exception tuple,
"(SMTPAuthenticationError: (535, '5.7.8 …'))", is never what the log or the outbox shows.
"""

from __future__ import annotations

from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult

from bot.config import SmtpOutSettings
from bot.connectors.email_compose import OutboundMail
from bot.connectors.email_outbox import SendResult, SmtpSender
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer


def refuse(*_: Any) -> AuthResult:
    return AuthResult(success=False, handled=False)


async def send_to(server: CaptureServer, username: str = "", password: str = "") -> SendResult:
    server.start()
    try:
        settings = SmtpOutSettings(
            host="127.0.0.1", port=server.port, timeout=5, username=username, password=password
        )
        mail = OutboundMail(
            "help@docs.example.org", ("ann@example.com",), "<x@y>", "Subject: t\r\n\r\nhi\r\n"
        )
        return await SmtpSender(settings).send(mail)
    finally:
        server.stop()


async def test_a_refused_login_is_the_servers_reply_naming_the_keys() -> None:
    server = CaptureServer(CaptureHandler(), authenticator=refuse, auth_require_tls=False)
    result = await send_to(server, username="bot", password="wrong")
    assert (result.ok, result.permanent) == (False, False)  # retried: the password may be fixed
    assert result.error.startswith("535 5.7.8 Authentication credentials invalid; check that ")
    assert "email.outbound.username" in result.error
    assert "email.outbound.password" in result.error
    assert "SMTPAuthenticationError" not in result.error and "wrong" not in result.error


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")
async def test_a_server_that_wants_a_login_names_the_keys_to_set() -> None:
    server = CaptureServer(
        CaptureHandler(), authenticator=refuse, auth_required=True, auth_require_tls=False
    )
    result = await send_to(server)
    assert (result.ok, result.permanent) == (False, False)
    assert result.error.startswith("530 5.7.0 Authentication required; the server wants a login")
    assert "set email.outbound.username and email.outbound.password" in result.error
