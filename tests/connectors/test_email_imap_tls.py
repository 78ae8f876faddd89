"""IMAP over TLS: STARTTLS before login, implicit TLS, private CAs, and refusing the clear.

The fake IMAP server speaks real TLS (the test certificate for 127.0.0.1) and, like a server
with ``LOGINDISABLED``, refuses LOGIN and AUTHENTICATE before STARTTLS; ``tls_commands`` records
what arrived encrypted.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config_file import parse_settings
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
from tests.connectors.test_email_imap_refused import free_port
from tests.fakes.email_world import BOT, email_settings, inbound_mail, services
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import TLS_PEM, CaptureServer, server_tls_context, wait_for

__all__ = ["capture"]

FAILED = "IMAP session failed"
UNTRUSTED = (
    "email.imap.ca_file: the IMAP server's certificate is not trusted (self-signed certificate); "
)


def tls_connector(
    tmp_path: Path, imap: FakeImapServer, smtp_port: int, poll_seconds: float = 0.05, **tls: object
) -> EmailConnector:
    """A connector polling ``imap`` with the TLS keys ``tls`` (mail already there is answered)."""
    section = {"host": "127.0.0.1", "port": imap.port, "username": "bot", "password": "secret"}
    section |= {"poll_seconds": poll_seconds, "timeout": 5, **tls}
    settings = email_settings(smtp_port, inbound="imap", imap=section)
    connector = EmailConnector(services(tmp_path, CountingAnswerer(), settings))
    StartPoints(connector.services.store).put(mailbox_key(settings.email.imap), 1, 1)
    return connector


def failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if FAILED in r.getMessage()]


async def test_starttls_upgrades_before_login_and_serves_fetch_store_and_idle(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(starttls=server_tls_context(), login_disabled=True)
    await imap.start()
    waiting = imap.deliver(inbound_mail("Why is the disk full?", message_id="<w@example.com>"))
    # a long poll interval: only the server's EXISTS during IDLE brings the new mail in time
    connector = tls_connector(
        tmp_path, imap, capture.port, 600, ssl=False, starttls=True, ca_file=str(TLS_PEM)
    )
    caplog.set_level(logging.INFO)
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, waiting) and "IDLE" in imap.tls_commands)
        fresh = imap.deliver(inbound_mail("How do I rotate logs?", message_id="<n@example.com>"))
        await wait_for(lambda: seen(imap, fresh))
        await wait_for(lambda: len(capture.handler.mails) == 2)
    answerer = connector.services.assistant
    assert isinstance(answerer, CountingAnswerer)
    assert answerer.questions == ["Why is the disk full?", "How do I rotate logs?"]
    # nothing but CAPABILITY went out before the upgrade; everything after it was encrypted
    upgrade = imap.commands.index("STARTTLS")
    assert imap.commands[:upgrade] == ["CAPABILITY"]
    assert imap.tls_commands == imap.commands[upgrade + 1 :]
    for command in ("LOGIN", "SELECT", "UID SEARCH", "UID FETCH", "UID STORE", "IDLE"):
        assert command in imap.tls_commands
    assert imap.logins == 1
    assert not failures(caplog)
    assert not any("in the clear" in r.getMessage() for r in caplog.records)


async def test_an_untrusted_certificate_at_start_stops_it_naming_ca_file(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    # it used to start and retry the handshake for ever, one warning per attempt
    imap = FakeImapServer(starttls=server_tls_context(), login_disabled=True)
    await imap.start()
    connector = tls_connector(tmp_path, imap, capture.port, ssl=False, starttls=True)
    caplog.set_level(logging.DEBUG, logger="bot.connectors")
    try:
        with pytest.raises(ConfigError) as stopped:
            await connector.start()
        assert connector._poller is None and connector.outbox._task is None
    finally:
        await connector.stop()
        await imap.stop()
    assert imap.tls_commands == [] and "LOGIN" not in imap.commands
    assert imap.commands.count("STARTTLS") == 1
    message = str(stopped.value)
    assert message.startswith(UNTRUSTED), message
    assert "\n" not in message and "set email.imap.ca_file to the CA that signed it" in message
    assert not failures(caplog) and all(r.exc_info is None for r in caplog.records)


async def test_validate_certs_false_accepts_the_certificate(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer(starttls=server_tls_context(), login_disabled=True)
    await imap.start()
    uid = imap.deliver(inbound_mail("Is there an API?", message_id="<api@example.com>"))
    connector = tls_connector(
        tmp_path, imap, capture.port, ssl=False, starttls=True, validate_certs=False
    )
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, uid))
    assert "LOGIN" in imap.tls_commands


async def test_a_server_without_starttls_gets_no_login_and_stops_the_start(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    # it used to start and retry for ever: no retry can make the server offer STARTTLS
    imap = FakeImapServer()
    await imap.start()
    connector = tls_connector(
        tmp_path, imap, capture.port, ssl=False, starttls=True, ca_file=str(TLS_PEM)
    )
    caplog.set_level(logging.DEBUG, logger="bot.connectors")
    try:
        with pytest.raises(ConfigError) as stopped:
            await connector.start()
        assert connector._poller is None
    finally:
        await connector.stop()
        await imap.stop()
    # the password never left: no LOGIN, no AUTHENTICATE, not even a STARTTLS attempt
    assert set(imap.commands) <= {"CAPABILITY", "LOGOUT"}
    message = str(stopped.value)
    assert message.startswith(
        "email.imap.starttls: the IMAP server does not offer STARTTLS (not in its CAPABILITY);"
        " not logging in"
    ), message
    assert "\n" not in message and "ssl: true" in message
    assert not failures(caplog) and all(r.exc_info is None for r in caplog.records)


async def test_implicit_tls_trusts_a_private_ca(tmp_path: Path, capture: CaptureServer) -> None:
    imap = FakeImapServer(implicit_tls=server_tls_context())
    await imap.start()
    uid = imap.deliver(inbound_mail("Where are backups?", message_id="<b@example.com>"))
    connector = tls_connector(tmp_path, imap, capture.port, ssl=True, ca_file=str(TLS_PEM))
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, uid))
    assert "LOGIN" in imap.tls_commands and imap.tls_commands == imap.commands


async def test_implicit_tls_with_an_untrusted_certificate_at_start_stops_it(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer(implicit_tls=server_tls_context())
    await imap.start()
    connector = tls_connector(tmp_path, imap, capture.port, ssl=True)
    try:
        with pytest.raises(ConfigError) as stopped:
            await connector.start()
    finally:
        await connector.stop()
        await imap.stop()
    assert imap.commands == []
    assert str(stopped.value).startswith(UNTRUSTED), str(stopped.value)


async def test_an_untrusted_certificate_while_running_is_retried_naming_ca_file(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    # down at start, so serving begins; the server then comes up with a certificate this
    # client does not trust (renewed by another CA, say): one warning, then INFO retries
    port = free_port()
    section = {"host": "127.0.0.1", "port": port, "ssl": True, "timeout": 5}
    section |= {"username": "bot", "password": "secret", "poll_seconds": 0.05}
    settings = email_settings(capture.port, inbound="imap", imap=section)
    connector = EmailConnector(services(tmp_path, CountingAnswerer(), settings))
    imap = FakeImapServer(implicit_tls=server_tls_context())
    caplog.set_level(logging.INFO, logger="bot.connectors")
    await connector.start()  # an outage at start is no setting to fix
    try:
        await imap.start(port)
        await wait_for(lambda: sum("not trusted" in m for m in failures(caplog)) >= 3)
    finally:
        await connector.stop()
        await imap.stop()
    assert imap.commands == []
    untrusted = [r for r in caplog.records if "not trusted" in r.getMessage()]
    assert untrusted[0].levelno == logging.WARNING
    assert all(r.levelno == logging.INFO for r in untrusted[1:])
    assert "set email.imap.ca_file to the CA that signed it" in untrusted[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_plain_login_warns_once_that_the_password_travels_in_the_clear(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(starttls=server_tls_context())
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port)
    caplog.set_level(logging.INFO)
    async with polling(imap, connector):
        await wait_for(lambda: imap.logins == 1)
        imap.disconnect_clients()
        await wait_for(lambda: imap.logins == 2)
    warnings = [r.getMessage() for r in caplog.records if "in the clear" in r.getMessage()]
    assert len(warnings) == 1
    assert "without TLS" in warnings[0] and "email.imap.starttls: true" in warnings[0]
    assert imap.tls_commands == []


def test_ssl_and_starttls_together_are_a_one_line_config_error() -> None:
    imap = {"host": "mail.example.org", "starttls": True, "ssl": True}
    with pytest.raises(ConfigError) as caught:
        parse_settings({"email": {"address": BOT, "inbound": "imap", "imap": imap}})
    message = str(caught.value)
    assert "\n" not in message
    assert "email.imap.starttls: cannot be combined with ssl: true" in message
    assert "set it to false" in message


@pytest.mark.parametrize(
    ("written", "ssl", "port"),
    [
        ({"starttls": True}, False, 143),
        ({"starttls": True, "port": 1143}, False, 1143),
        ({"starttls": True, "ssl": False, "port": 993}, False, 993),
        ({"ssl": False}, False, 143),
        ({"ssl": True}, True, 993),
    ],
)
def test_a_plain_connection_defaults_to_port_143(
    written: dict[str, object], ssl: bool, port: int
) -> None:
    imap = {"host": "mail.example.org", **written}
    settings = parse_settings({"email": {"address": BOT, "inbound": "imap", "imap": imap}})
    assert (settings.email.imap.ssl, settings.email.imap.port) == (ssl, port)
    plain = parse_settings({"email": {"address": BOT, "inbound": "imap"}}).email.imap
    assert (plain.ssl, plain.port, plain.starttls) == (True, 993, False)


def test_a_ca_file_that_cannot_be_loaded_stops_the_start(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-ca.pem"
    section = {"host": "127.0.0.1", "username": "bot", "password": "secret"}
    settings = email_settings(25, inbound="imap", imap={**section, "ca_file": str(missing)})
    with pytest.raises(ConfigError, match=r"^email\.imap\.ca_file: cannot load .*no-such-ca"):
        EmailConnector(services(tmp_path, CountingAnswerer(), settings))
