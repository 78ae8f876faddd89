"""The first start's warning counts the unread mail it leaves alone in good English: one
message is "1 unread message … is left", not "1 unread messages … are left"."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.connectors.test_email_imap import CountingAnswerer, capture, imap_connector, polling
from tests.fakes.email_world import inbound_mail
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]


async def test_one_unread_message_left_is_counted_in_the_singular(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer()
    await imap.start()
    imap.deliver(inbound_mail("Old question?", message_id="<old@example.com>"))
    connector = imap_connector(tmp_path, CountingAnswerer(), imap, capture.port, first_start=True)
    caplog.set_level(logging.WARNING, logger="bot.connectors.email_imap")
    async with polling(imap, connector):
        await wait_for(lambda: "IDLE" in imap.commands)
    notes = [r.getMessage() for r in caplog.records if "first start" in r.getMessage()]
    assert len(notes) == 1
    assert "; 1 unread message already there is left unanswered and unread (" in notes[0]
