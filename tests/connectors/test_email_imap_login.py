"""IMAP login with non-ASCII credentials: SASL PLAIN (UTF-8) when offered, else one clear line.

imaplib's LOGIN can only send ASCII; a password such as ``pässwort`` used to raise
``UnicodeEncodeError`` inside imaplib on every reconnect (logged with a traceback), so such a
mailbox was never polled.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.connectors.email import EmailConnector
from bot.connectors.email_imap import StartPoints
from bot.connectors.email_imap_names import mailbox_key
from bot.errors import ConfigError
from tests.connectors.test_email_imap import (
    CountingAnswerer,
    capture,
    imap_connector,
    polling,
    seen,
)
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]

LOGGER = "bot.connectors.email_imap"


def connector_for(
    tmp_path: Path, imap: FakeImapServer, smtp_port: int, user: str, password: str
) -> EmailConnector:
    """A connector logging in to ``imap`` as ``user``; mail already there is answered."""
    imap_settings = {"host": "127.0.0.1", "port": imap.port, "ssl": False, "timeout": 5}
    imap_settings |= {"username": user, "password": password, "poll_seconds": 0.05}
    settings = email_settings(smtp_port, inbound="imap", imap=imap_settings)
    connector = EmailConnector(services(tmp_path, CountingAnswerer(), settings))
    StartPoints(connector.services.store).put(mailbox_key(settings.email.imap), 1, 1)
    return connector


async def poll_once(
    tmp_path: Path, capture: CaptureServer, imap: FakeImapServer, user: str, password: str
) -> list[str]:
    """Deliver one mail and poll until it is answered (marked seen); the questions asked."""
    await imap.start()
    uid = imap.deliver(inbound_mail("Where are the logs?", message_id="<l@example.com>"))
    connector = connector_for(tmp_path, imap, capture.port, user, password)
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, uid))
    answerer = connector.services.assistant
    assert isinstance(answerer, CountingAnswerer)
    return answerer.questions


async def test_an_ascii_password_still_logs_in_with_login(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer(password='s3cr"et\\')
    questions = await poll_once(tmp_path, capture, imap, "bot", 's3cr"et\\')
    assert questions == ["Where are the logs?"]
    assert "LOGIN" in imap.commands and "AUTHENTICATE" not in imap.commands


@pytest.mark.parametrize(
    ("user", "password"),
    [("bot", "pässwört"), ("bot", "密码-пароль-🔑"), ("jürgen", "secret"), ("jürgen", "grüße")],
)
async def test_non_ascii_credentials_log_in_with_authenticate_plain(
    tmp_path: Path, capture: CaptureServer, user: str, password: str
) -> None:
    imap = FakeImapServer(username=user, password=password)
    questions = await poll_once(tmp_path, capture, imap, user, password)
    assert questions == ["Where are the logs?"]
    assert imap.plain_logins >= 1
    assert "LOGIN" not in imap.commands


async def test_a_wrong_non_ascii_password_is_refused_and_never_logged(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(password="richtig-ä")
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port, password="fälsch")
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    with pytest.raises(ConfigError) as refused:
        await connector.start()
    await connector.stop()
    await imap.stop()
    assert imap.logins == 0 and imap.commands.count("AUTHENTICATE") == 1
    message = str(refused.value)
    assert message.startswith("email.imap.password: the IMAP server refused the login for 'bot'")
    assert "fälsch" not in message
    assert not any("fälsch" in r.getMessage() for r in caplog.records)


async def test_a_server_without_auth_plain_gets_one_clear_line_and_no_attempt(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(password="pässwort", auth_plain=False)
    await imap.start()
    connector = imap_connector(
        tmp_path, CountingAnswerer(), imap, capture.port, password="pässwort"
    )
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    # it cannot log in however often it tries: the start stops, naming the key
    with pytest.raises(ConfigError) as refused:
        await connector.start()
    await connector.stop()
    await imap.stop()
    # nothing was sent that could carry (part of) the password
    assert "LOGIN" not in imap.commands and "AUTHENTICATE" not in imap.commands
    message = str(refused.value)
    assert message.startswith("email.imap.password: the password is not ASCII") and "\n" not in (
        message
    )
    assert "AUTH=PLAIN" in message and "ä" not in message
    messages = [r.getMessage() for r in caplog.records]
    assert not any("pässwort" in m or "ä" in m for m in messages)


async def test_an_unexpected_error_is_logged_and_the_poller_keeps_trying(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    # A store that cannot be read (here: closed) fails the session with a StoreError, not an
    # IMAP error: it is logged with its traceback and the poller connects again. (A non-ASCII
    # password was this test's trigger before such passwords could log in.)
    imap = FakeImapServer()
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port)
    connector.services.store.close()
    caplog.set_level(logging.ERROR, logger=LOGGER)
    async with polling(imap, connector):
        await wait_for(lambda: imap.logins >= 2)
    errors = [r for r in caplog.records if "IMAP poller error" in r.getMessage()]
    assert errors and errors[0].exc_info is not None
