"""One log line per message the poller or listener cannot handle, naming what and why.

Found by QA (emailqa): a message over ``email.max_message_bytes`` was logged as "email: IMAP
message 8 is 31474270 bytes; skipped", without the setting that skipped it or the "not
answering" wording every other unanswered mail is logged with; and a locked store (our own
``StoreError``, whose message says it all) was logged as an ERROR with a full traceback on
every retry, by the SMTP listener and the IMAP poller alike. The behaviour stays: SMTP answers
451 and the mail is delivered again, IMAP leaves it unseen and answers it later.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import aiosmtplib
import pytest

from bot.assistant.base import Reply
from bot.errors import StoreError
from bot.models import Exchange
from tests.connectors.email_flow_harness import EmailFlow, StaticAnswerer, flow, send
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

__all__ = ["capture", "flow"]

LOCKED = "store.db: database is locked"


class LockedOnce(CountingAnswerer):
    """Fails its first question with the error a locked store raises."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        if not self.questions:
            self.questions.append(question)
            raise StoreError(LOCKED)
        return await super().reply(question, audience, history)


class StaticLockedOnce(StaticAnswerer):
    """The flow's cited answer, after a first question that fails as a locked store does."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        if not self.calls:
            self.calls.append((question, audience, tuple(history)))
            raise StoreError(LOCKED)
        return await super().reply(question, audience, history)


def _records(caplog: pytest.LogCaptureFixture, words: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if words in r.getMessage()]


async def test_a_locked_store_is_one_line_without_traceback_over_smtp(
    flow: EmailFlow, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors")
    answerer = StaticLockedOnce(flow.answerer.answer)
    async with flow.running(answerer) as connector:
        with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
            await send(connector, inbound_mail("Where are backups?"))
        await send(connector, inbound_mail("Where are backups?"))  # the sender's retry
        await wait_for(lambda: len(flow.mails) == 1)
    assert refused.value.code == 451
    (record,) = _records(caplog, "could not handle an inbound message")
    assert record.getMessage() == (
        f"email: could not handle an inbound message ({LOCKED}); asking to retry"
    )
    assert (record.levelno, record.exc_info) == (logging.ERROR, None)


async def test_a_locked_store_is_one_line_without_traceback_over_imap(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors")
    imap = FakeImapServer()
    await imap.start()
    uid = imap.deliver(inbound_mail("Where are backups?", message_id="<locked@example.com>"))
    answerer = LockedOnce()
    connector = imap_connector(tmp_path, answerer, imap, capture.port)
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, uid))
    # answered on the retry, as before
    assert answerer.questions == ["Where are backups?", "Where are backups?"]
    (record,) = _records(caplog, "not handled")
    assert record.getMessage().startswith(
        f"email: IMAP message {uid} not handled ({LOCKED}); left unseen, will retry in "
    )
    assert (record.levelno, record.exc_info) == (logging.ERROR, None)


async def test_an_over_size_imap_message_names_the_setting_that_skipped_it(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.connectors")
    imap = FakeImapServer()
    await imap.start()
    raw = inbound_mail("big", message_id="<big@x>", attachment=bytes(50_000))
    uid = imap.deliver(raw)
    answerer = CountingAnswerer()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, max_message_bytes=20_000)
    async with polling(imap, connector):
        await wait_for(lambda: seen(imap, uid))
    assert answerer.questions == []
    (record,) = _records(caplog, "max_message_bytes")
    assert record.getMessage() == (
        f"email: not answering IMAP message UID {uid} (its Message-ID is not known: the message"
        f" is not fetched): {len(raw)} bytes is over email.max_message_bytes (20000); marked seen"
    )
    assert record.levelno == logging.WARNING
