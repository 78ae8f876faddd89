"""An ``email.imap.mailbox`` the server does not have stops the start, as a refused password does.

The line names the key and lists the mailboxes the server has (``LIST``), decoded as a mail
client shows them. A ``SELECT`` the server answers with a passing trouble (``NO [INUSE]``) is
not a wrong setting: serving goes on and citecast keeps trying. A mailbox that goes missing
while citecast runs is one ERROR naming the key, then INFO per retry, as a password refused
while running is.
"""

from __future__ import annotations

import logging
import os
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
from tests.connectors.test_email_imap_refused import free_port, records, serve_with_imap, texts
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]

LOGGER = "bot.connectors"
FOLDERS = ("Archive", "Support Requests", "Re&AOc-us")  # the last: "Reçus" on the wire
HAS = "it has 'INBOX', 'Archive', 'Support Requests', 'Reçus'; set email.imap.mailbox to the"


@pytest.mark.parametrize(
    ("nonexistent_code", "said"),
    [(False, "(no such mailbox)"), (True, "(NONEXISTENT no such mailbox)")],
)
async def test_a_mailbox_the_server_does_not_have_stops_the_start_listing_what_it_has(
    tmp_path: Path,
    capture: CaptureServer,
    caplog: pytest.LogCaptureFixture,
    nonexistent_code: bool,
    said: str,
) -> None:
    # it used to start and SELECT again for ever, one warning then INFO per backoff step
    imap = FakeImapServer(folders=FOLDERS, nonexistent_code=nonexistent_code)
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port, mailbox="Support")
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    try:
        with pytest.raises(ConfigError) as stopped:
            await connector.start()
        # nothing is left running: no poller selecting again, no outbox worker
        assert connector._poller is None and connector.outbox._task is None
    finally:
        await connector.stop()
        await imap.stop()
    assert imap.commands.count("SELECT") == 1 and imap.commands.count("LIST") == 1
    message = str(stopped.value)
    assert message == (
        f"email.imap.mailbox: the IMAP server has no mailbox 'Support' {said}; {HAS} folder's"
        " name as your mail client shows it"
    )
    assert not any("IMAP session failed" in r.getMessage() for r in caplog.records)


async def test_names_sent_as_literals_are_listed_and_folders_of_folders_left_out(
    tmp_path: Path, capture: CaptureServer
) -> None:
    # as Gmail: "[Gmail]" holds folders but is no mailbox (\Noselect), "[Gmail]/Sent Mail" is
    imap = FakeImapServer(
        folders=("[Gmail]/Sent Mail", 'Say "hi"'), parents=("[Gmail]",), literal_names=True
    )
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port, mailbox="Sent")
    try:
        with pytest.raises(ConfigError) as stopped:
            await connector.start()
    finally:
        await connector.stop()
        await imap.stop()
    assert "; it has 'INBOX', '[Gmail]/Sent Mail', 'Say \"hi\"'; set " in str(stopped.value)


async def test_a_mailbox_the_server_cannot_open_now_is_retried_not_a_stop(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(select_answer=b"NO [INUSE] mailbox locked by another session")
    await imap.start()
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port)
    caplog.set_level(logging.INFO, logger=LOGGER)
    async with polling(imap, connector):  # no ConfigError: the lock goes away
        await wait_for(lambda: imap.commands.count("SELECT") >= 3)
        imap.select_answer = None
        uid = imap.deliver(inbound_mail("Unlocked?", message_id="<u@example.com>"))
        await wait_for(lambda: seen(imap, uid))
    [warning] = [m for m in texts(caplog, logging.WARNING) if "IMAP session failed" in m]
    assert "cannot select 'INBOX': [INUSE] mailbox locked by another session" in warning
    assert "LIST" not in imap.commands  # a passing trouble: no need to ask what is there
    assert not records(caplog, logging.ERROR)


async def test_a_mailbox_missing_while_running_is_one_error_then_info(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    # down at start (one warning, serving goes on); it comes up without the mailbox
    port = free_port()
    section = {"host": "127.0.0.1", "port": port, "ssl": False, "timeout": 5}
    section |= {"username": "bot", "password": "secret", "poll_seconds": 0.05}
    settings = email_settings(capture.port, inbound="imap", imap={**section, "mailbox": "Help"})
    connector = EmailConnector(services(tmp_path, CountingAnswerer(), settings))
    StartPoints(connector.services.store).put(mailbox_key(settings.email.imap), 1, 1)
    imap = FakeImapServer(folders=("Archive",))
    caplog.set_level(logging.INFO, logger=LOGGER)
    await connector.start()
    try:
        await imap.start(port)
        await wait_for(lambda: imap.commands.count("SELECT") >= 3)
        imap.mailbox = "Help"  # someone created it
        uid = imap.deliver(inbound_mail("Found it?", message_id="<f@example.com>"))
        await wait_for(lambda: seen(imap, uid))
    finally:
        await connector.stop()
        await imap.stop()
    [error] = records(caplog, logging.ERROR)
    assert error.getMessage().startswith(
        "email: email.imap.mailbox: the IMAP server has no mailbox 'Help' (no such mailbox);"
        " it has 'INBOX', 'Archive'; set email.imap.mailbox"
    ), error.getMessage()
    retries = [m for m in texts(caplog, logging.INFO) if "has no mailbox 'Help'" in m]
    assert len(retries) >= 2 and all("it has" not in m for m in retries)
    assert "email: IMAP polling works again" in texts(caplog, logging.INFO)


async def test_citecast_serve_stops_on_a_mailbox_the_server_does_not_have(
    tmp_path: Path,
) -> None:
    imap = FakeImapServer(folders=("Support Requests",))
    await imap.start()
    section = {"host": "127.0.0.1", "port": imap.port, "ssl": False, "username": "bot"}
    section |= {"password": "secret", "mailbox": "Support"}
    returncode, stderr = await serve_with_imap(tmp_path, imap, section, dict(os.environ))
    assert returncode == 2, stderr
    last = stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last == (
        f"citecast serve: {tmp_path / 'config.yaml'}: email.imap.mailbox: the IMAP server has no"
        " mailbox 'Support' (no such mailbox); it has 'INBOX', 'Support Requests'; set"
        " email.imap.mailbox to the folder's name as your mail client shows it"
    ), stderr
    assert "Traceback" not in stderr and "IMAP session" not in stderr
