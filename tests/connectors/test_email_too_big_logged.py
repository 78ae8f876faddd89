"""Mail refused over inbound SMTP as too big (``552``) is one WARNING naming it and why, as
every mail left unanswered is: aiosmtpd refuses it before any handler hook sees it."""

from __future__ import annotations

import logging

import aiosmtplib
import pytest

from tests.connectors.email_flow_harness import EmailFlow, flow, send
from tests.fakes.email_world import BOT, USER, inbound_mail

__all__ = ["flow"]

LOGGER = "bot.connectors.email_smtp_in"


def too_big_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and "max_message_bytes" in r.message]


async def test_data_over_the_limit_is_logged_with_its_sender(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with flow.running(max_message_bytes=100_000) as connector:
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=connector.listen_port)
        async with client:
            await client.mail(USER)  # no SIZE: the limit is met only in DATA
            await client.rcpt(BOT)
            with pytest.raises(aiosmtplib.SMTPDataError) as refused:
                await client.data(inbound_mail(attachment=bytes(200_000)))
    assert refused.value.code == 552
    (line,) = too_big_lines(caplog)
    assert line.levelno == logging.WARNING
    assert line.getMessage() == (
        f"email: not answering a mail from <{USER}> (its Message-ID is not known: the message"
        " is not read): it is over email.max_message_bytes (100000); refused with 552"
    )


async def test_a_declared_size_over_the_limit_is_logged_with_it(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with flow.running(max_message_bytes=100_000) as connector:
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=connector.listen_port)
        async with client:
            with pytest.raises(aiosmtplib.SMTPSenderRefused) as refused:
                await client.mail("big@example.net", options=["SIZE=31474270"])
            # MAIL keeps aiosmtpd's syntax though the session wraps it
            help_reply = await client.execute_command(b"HELP", b"MAIL")
    assert refused.value.code == 552
    assert help_reply.message.startswith("Syntax: MAIL FROM: <address>")
    (line,) = too_big_lines(caplog)
    assert "from <big@example.net>" in line.getMessage()
    assert "its declared size, 31474270 bytes, is over email.max_message_bytes (100000)" in (
        line.getMessage()
    )
    assert BOT not in line.getMessage()


async def test_a_declared_size_over_the_limit_is_logged_by_sendmail(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with flow.running(max_message_bytes=100_000) as connector:
        with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
            await send(connector, inbound_mail(attachment=bytes(200_000)))
    assert refused.value.code == 552 and flow.answerer.calls == []
    (line,) = too_big_lines(caplog)
    assert f"from <{USER}>" in line.getMessage() and "refused with 552" in line.getMessage()


async def test_mail_that_fits_logs_no_refusal(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with flow.running(max_message_bytes=100_000) as connector:
        await send(connector, inbound_mail())
    assert too_big_lines(caplog) == []
