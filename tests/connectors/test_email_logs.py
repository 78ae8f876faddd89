"""What the email log says, as an operator reads it: every mail left unanswered names its
Message-ID and why (a duplicate too), the SMTP server's refusal reads as the server said it, and
a reply that is not getting through is one WARNING, then INFO per retry, then one line once it is
sent. Against the real connector and a loopback aiosmtpd capture server."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.test_email_outbox import answer_one, connector_for
from tests.fakes.email_world import inbound_mail
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer, wait_for


def messages(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == level]


async def send_one_reply(
    tmp_path: Path, handler: CaptureHandler, caplog: pytest.LogCaptureFixture, sent: int
) -> None:
    """Answer one mail (``<q1@example.com>``) through a capture server run by ``handler``,
    logging the outbox at INFO; stop once ``sent`` mails arrived and nothing is pending."""
    server = CaptureServer(handler)
    server.start()
    connector = connector_for(tmp_path, server.port)
    caplog.set_level(logging.INFO, logger="bot.connectors.email_outbox")
    await connector.start()
    try:
        await answer_one(connector, "<q1@example.com>")
        await wait_for(lambda: len(handler.mails) == sent)
        await wait_for(lambda: not connector.services.store.pending("email"))
    finally:
        await connector.stop()
        server.stop()


async def test_a_duplicate_and_a_rate_limited_mail_are_logged_with_their_ids(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = CaptureServer(CaptureHandler())
    server.start()
    connector = connector_for(tmp_path, server.port, rate_limit_per_hour=1)
    await connector.start()
    caplog.set_level(logging.INFO, logger="bot.connectors.email")
    try:
        await answer_one(connector, "<q1@example.com>")
        again = await connector.handle_message(inbound_mail(message_id="<q1@example.com>"))
        over = await connector.handle_message(inbound_mail(message_id="<q2@example.com>"))
    finally:
        await connector.stop()
        server.stop()
    assert (again.status, over.reason) == ("duplicate", "rate limited")
    infos = messages(caplog, logging.INFO)
    assert "email: not answering <q1@example.com>: already answered" in infos
    [warning] = messages(caplog, logging.WARNING)
    assert warning.startswith("email: not answering <q2@example.com>: rate limit reached for ")
    assert "ann@example.com" in warning


async def test_a_refused_reply_warns_once_then_logs_retries_and_the_send(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await send_one_reply(tmp_path, CaptureHandler(refuse_first=3), caplog, sent=1)
    [warning] = messages(caplog, logging.WARNING)
    assert warning.startswith("email: reply to <q1@example.com> not sent to ann@example.com ")
    assert "(451 4.3.0 Try again later); queued, trying again in" in warning
    assert "(451," not in warning
    infos = messages(caplog, logging.INFO)
    retries = [m for m in infos if "not sent" in m]
    assert len(retries) == 2 and all("(451 4.3.0 Try again later)" in m for m in retries)
    assert "attempt 2 failed" in retries[0] and "attempt 3 failed" in retries[1]
    [sent] = [m for m in infos if m.startswith("email: answered <q1@example.com>")]
    assert sent.endswith("sent to ann@example.com on attempt 4)")


async def test_a_permanent_refusal_is_one_warning_with_the_servers_words(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    handler = CaptureHandler(reject_recipients="550 5.1.1 No such user")
    await send_one_reply(tmp_path, handler, caplog, sent=0)
    [warning] = messages(caplog, logging.WARNING)
    assert "(recipient 550 5.1.1 No such user); given up" in warning
    assert "SMTPRecipientRefused" not in warning
