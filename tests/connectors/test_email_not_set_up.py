"""Email when citecast is not set up (a refused key, no index): the sender gets a reply saying
so, over real SMTP, instead of an SMTP 451 that has their server send the mail again (and fail
again) for days; the operator's log names the cause and its fix once, not once per mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.connectors.email import EmailConnector
from bot.connectors.setup_errors import NOT_SET_UP_REPLY
from tests.connectors.email_flow_harness import capture, send
from tests.connectors.setup_cases import CASES, assert_told_once, misconfigured
from tests.fakes.email_world import USER, email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]


@pytest.mark.parametrize("case", CASES)
async def test_each_mail_is_answered_that_citecast_is_not_set_up(
    tmp_path: Path, capture: CaptureServer, caplog: pytest.LogCaptureFixture, case: str
) -> None:
    async with misconfigured(case, tmp_path) as assistant:
        connector = EmailConnector(services(tmp_path, assistant, email_settings(capture.port)))
        await connector.start()
        try:
            await send(connector, inbound_mail(message_id="<q1@example.com>"))  # no 451
            await send(connector, inbound_mail(message_id="<q2@example.com>"))
            await wait_for(lambda: len(capture.handler.mails) == 2)
            store = connector.services.store
            await wait_for(lambda: not store.pending("email"))
        finally:
            await connector.stop()
    for mail in capture.handler.mails:
        assert mail.rcpt_tos == (USER,)
        message = mail.message()
        assert message["Subject"] == "Re: Installing on Linux"
        [plain] = [p for p in message.walk() if p.get_content_type() == "text/plain"]
        text = plain.get_content()
        assert NOT_SET_UP_REPLY in text
        assert "again" not in text.lower()
    with store._lock:
        rows = store._db.execute("SELECT status, answer_json FROM turns").fetchall()
    assert [tuple(row) for row in rows] == [("failed", None), ("failed", None)]
    store.close()
    assert_told_once(caplog, case)
