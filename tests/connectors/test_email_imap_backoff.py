"""IMAP: a message whose handling keeps failing is retried with a growing wait, not every round."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bot.assistant.base import Reply
from bot.errors import BackendError
from bot.models import Exchange
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


class FailsOnDisk(CountingAnswerer):
    """Fails every question about the disk (a message that can never be answered)."""

    async def reply(
        self, question: str, audience: frozenset[str], history: Sequence[Exchange] = ()
    ) -> Reply:
        if "disk" in question:
            self.questions.append(question)
            raise BackendError("this one always fails")
        return await super().reply(question, audience, history)


async def test_a_failing_message_is_retried_with_backoff_while_other_mail_is_answered(
    tmp_path: Path, capture: CaptureServer
) -> None:
    imap = FakeImapServer(idle=False)
    await imap.start()
    failing = imap.deliver(inbound_mail("Why is the disk full?", message_id="<f@example.com>"))
    # before, each round (every poll_seconds) asked the assistant again, for ever
    answerer = FailsOnDisk()
    connector = imap_connector(tmp_path, answerer, imap, capture.port, idle=False)
    async with polling(imap, connector):
        await wait_for(lambda: imap.commands.count("UID SEARCH") >= 60, timeout=60)
        fresh = imap.deliver(inbound_mail("How do I rotate logs?", message_id="<n@example.com>"))
        await wait_for(lambda: seen(imap, fresh))
        rounds = imap.commands.count("UID SEARCH")
        attempts = answerer.questions.count("Why is the disk full?")
    # retried (never dropped), but with a doubling wait: a handful of attempts in 60 rounds
    assert 2 <= attempts <= 15 < rounds
    assert not seen(imap, failing)
    assert "How do I rotate logs?" in answerer.questions
