"""IMAP: a folder name with spaces or accents is selected (imaplib sends names as given).

That an unexpected error never ends polling silently is tested in test_email_imap_login.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.email_imap_names import mailbox_argument, shown_name
from tests.connectors.test_email_imap import (
    CountingAnswerer,
    capture,
    imap_connector,
    polling,
    seen,
)
from tests.fakes.email_world import inbound_mail
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]


@pytest.mark.parametrize(
    ("name", "argument"),
    [
        ("INBOX", '"INBOX"'),
        ("Support Requests", '"Support Requests"'),
        ("Demandes reçues", '"Demandes re&AOc-ues"'),
        # the example of RFC 3501 §5.1.3
        ("~peter/mail/台北/日本語", '"~peter/mail/&U,BTFw-/&ZeVnLIqe-"'),
        ("R&D", '"R&-D"'),
        ("R&D-Team", '"R&-D-Team"'),
        ('Say "hi"', '"Say \\"hi\\""'),
        # already written for the wire: kept
        ("Demandes re&AOc-ues", '"Demandes re&AOc-ues"'),
        ('"Support Requests"', '"Support Requests"'),
    ],
)
def test_mailbox_argument_is_modified_utf7_and_quoted(name: str, argument: str) -> None:
    assert mailbox_argument(name) == argument


@pytest.mark.parametrize(
    ("listed", "shown"),
    [
        ("INBOX", "INBOX"),
        ("Demandes re&AOc-ues", "Demandes reçues"),
        ("~peter/mail/&U,BTFw-/&ZeVnLIqe-", "~peter/mail/台北/日本語"),
        ("R&-D", "R&D"),
        ("R&D", "R&D"),  # not modified UTF-7 (a sloppy server): shown as written
    ],
)
def test_a_listed_name_is_shown_as_a_mail_client_shows_it(listed: str, shown: str) -> None:
    # the names a missing email.imap.mailbox line lists (test_email_imap_mailbox_missing)
    assert shown_name(listed) == shown


@pytest.mark.parametrize(
    ("configured", "on_the_wire"),
    [("Support Requests", "Support Requests"), ("Demandes reçues", "Demandes re&AOc-ues")],
)
async def test_a_folder_with_spaces_or_accents_is_polled(
    tmp_path: Path, capture: CaptureServer, configured: str, on_the_wire: str
) -> None:
    # before, "SELECT Support Requests" was refused for ever, and "ç" could not be encoded at
    # all, which ended the polling task without a word
    imap = FakeImapServer(mailbox=on_the_wire)
    await imap.start()
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, mailbox=configured)
    async with polling(imap, connector):
        uid = imap.deliver(inbound_mail("Is there an API?", message_id="<api@example.com>"))
        await wait_for(lambda: seen(imap, uid))
    assert answerer.questions == ["Is there an API?"]
