"""IMAP: the first start against a mailbox leaves the unread mail already there alone; mail that
arrives later is answered, also when it arrived while the bot was down."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.connectors.email_imap_names import mailbox_key
from tests.connectors.test_email_imap import (
    CountingAnswerer,
    capture,
    imap_connector,
    polling,
    seen,
)
from tests.core.test_store_state import previous_release_store
from tests.fakes.email_world import inbound_mail
from tests.fakes.imap_server import FakeImapServer
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]


def old_mail(number: int) -> bytes:
    return inbound_mail(f"Old question {number}?", message_id=f"<old{number}@example.com>")


async def test_first_start_answers_only_mail_that_arrives_after_it(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer()
    await imap.start()
    backlog = [imap.deliver(old_mail(n)) for n in range(3)]
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, first_start=True)
    caplog.set_level(logging.WARNING, logger="bot.connectors.email_imap")
    async with polling(imap, connector):
        await wait_for(lambda: "IDLE" in imap.commands)
        fresh = imap.deliver(inbound_mail("How do I rotate logs?", message_id="<n@example.com>"))
        await wait_for(lambda: seen(imap, fresh))
        # moved out of the folder and back: a new UID, so it is answered now
        again = imap.deliver(old_mail(0))
        await wait_for(lambda: seen(imap, again))
        await wait_for(lambda: len(capture.handler.mails) == 2)
    # before, all three old unread mails were answered (and marked read) at once
    assert answerer.questions == ["How do I rotate logs?", "Old question 0?"]
    assert not any(seen(imap, uid) for uid in backlog)
    notes = [r.getMessage() for r in caplog.records if "first start" in r.getMessage()]
    assert len(notes) == 1
    assert "3 unread messages" in notes[0] and "move it to another folder and back" in notes[0]


async def test_a_restart_answers_mail_that_arrived_while_the_bot_was_down(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer(idle=False)
    await imap.start()
    backlog = imap.deliver(old_mail(1))
    answerer = CountingAnswerer()
    first = imap_connector(tmp_path, answerer, imap, capture.port, idle=False, first_start=True)
    await first.start()
    try:
        await wait_for(lambda: "NOOP" in imap.commands)
    finally:
        await first.stop()
    waiting = imap.deliver(inbound_mail("Why is the disk full?", message_id="<w@example.com>"))
    second = imap_connector(tmp_path, answerer, imap, capture.port, idle=False, first_start=True)
    await second.start()
    try:
        await wait_for(lambda: seen(imap, waiting))
    finally:
        await second.stop()
        await imap.stop()
    assert answerer.questions == ["Why is the disk full?"]
    assert not seen(imap, backlog)


async def test_a_new_uidvalidity_is_a_first_start_again(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer()
    await imap.start()
    answerer = CountingAnswerer()
    first = imap_connector(tmp_path, answerer, imap, capture.port, first_start=True)
    await first.start()
    try:
        await wait_for(lambda: "IDLE" in imap.commands)
    finally:
        await first.stop()
    imap.deliver(old_mail(1))
    imap.deliver(old_mail(2))
    # the mailbox was recreated: every UID is new, so none of them says what arrived when
    imap.renumber(uidvalidity=7)
    caplog.set_level(logging.WARNING, logger="bot.connectors.email_imap")
    second = imap_connector(tmp_path, answerer, imap, capture.port, first_start=True)
    before = len(imap.commands)
    await second.start()
    try:
        await wait_for(lambda: "IDLE" in imap.commands[before:])
        fresh = imap.deliver(inbound_mail("Is there an API?", message_id="<api@example.com>"))
        await wait_for(lambda: seen(imap, fresh))
    finally:
        await second.stop()
        await imap.stop()
    assert answerer.questions == ["Is there an API?"]
    assert any("UIDVALIDITY changed" in r.getMessage() for r in caplog.records)


async def test_a_server_that_does_not_announce_uidnext_still_gets_a_start_point(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer(announce_uidnext=False)
    await imap.start()
    backlog = [imap.deliver(old_mail(n)) for n in range(2)]
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, first_start=True)
    async with polling(imap, connector):
        await wait_for(lambda: "IDLE" in imap.commands)
        fresh = imap.deliver(inbound_mail("Where are backups?", message_id="<b@example.com>"))
        await wait_for(lambda: seen(imap, fresh))
    assert answerer.questions == ["Where are backups?"]
    assert not any(seen(imap, uid) for uid in backlog)


async def test_a_start_point_saved_by_the_previous_release_is_moved_and_no_first_start(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    imap = FakeImapServer(idle=False)
    await imap.start()
    backlog = imap.deliver(old_mail(1))
    # the previous release started watching here, then stopped for the upgrade; meanwhile:
    waiting = imap.deliver(inbound_mail("Why is the disk full?", message_id="<w@example.com>"))
    key = f"127.0.0.1:{imap.port}/bot/INBOX"
    saved = f"{imap.uidvalidity} {waiting}"
    # where the previous release kept it: a record of a bot message on a channel of its own
    previous_release_store(tmp_path / "store.db", {("email-imap-start", key): saved})
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, idle=False, first_start=True)
    assert mailbox_key(connector.services.settings.email.imap) == key
    caplog.set_level(logging.WARNING, logger="bot.connectors.email_imap")
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, waiting))
    assert answerer.questions == ["Why is the disk full?"]
    assert not seen(imap, backlog)
    assert not [r for r in caplog.records if "first start" in r.getMessage()]
    store = connector.services.store
    assert store.state("email-imap-start", key) == saved  # moved: read from the state from now on
    assert store.conversation_of("email-imap-start", key) is None
