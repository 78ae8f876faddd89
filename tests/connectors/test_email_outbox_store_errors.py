"""The outbox worker survives a store error while working out its next wait.

Such an error (a locked or unreadable database for a moment) used to end the worker's task
without a word: every later reply stayed pending until citecast was restarted, and stopping
the connector raised the old error.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.connectors.email import EmailConnector
from bot.errors import StoreError
from bot.runtime import Services
from bot.store import OutboxItem, Store
from tests.connectors.test_email_outbox import OneAnswer, answer_one
from tests.fakes.email_world import email_settings
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer, wait_for


class FlakyStore(Store):
    """A real store whose ``pending`` fails the first ``failures`` times, as a locked one may."""

    failures = 2

    def pending(self, channel: str) -> list[OutboxItem]:
        if self.failures > 0:
            self.failures -= 1
            raise StoreError(f"{self.path}: database is locked")
        return super().pending(channel)


async def test_a_store_error_between_rounds_does_not_stop_the_outbox(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    handler = CaptureHandler()
    server = CaptureServer(handler)
    server.start()
    store = FlakyStore(tmp_path / "store.db")
    settings = email_settings(server.port)
    connector = EmailConnector(Services(settings=settings, store=store, assistant=OneAnswer()))
    caplog.set_level(logging.ERROR, logger="bot.connectors.email_outbox")
    await connector.start()
    try:
        await wait_for(lambda: store.failures == 0)
        await answer_one(connector)
        # the server takes the mail a moment before the worker marks it sent
        await wait_for(lambda: len(handler.mails) == 1 and not store.pending("email"))
    finally:
        await connector.stop()
        server.stop()
    assert any("unexpected error" in r.getMessage() for r in caplog.records)
