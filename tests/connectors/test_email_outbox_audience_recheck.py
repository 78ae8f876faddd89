"""A reply waiting in the email outbox is judged again for its recipient before each attempt.

The QA steps (recheckfix) over the real connector, the built-in answerer and a real SMTP server
on loopback: ingest a public file, ask about it by mail, the server refuses the first attempt
(451), so the reply waits in the outbox; the file is made private (front matter ``audience:``,
then ``citecast ingest``) or dropped from the index. The next attempt must not mail what the
file said: the reply is dropped (dead, its turn failed) with one ERROR line. A reply whose file
is still public is sent on that attempt.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.connectors.email import EmailConnector
from bot.connectors.outbox_turns import TURN_KEY
from bot.knowledge import ingest
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import QUESTION, kb_with_roadmap
from tests.connectors.web.test_web_share_made_private import make_gone
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer


@pytest.mark.parametrize("how", ["front matter", "deleted", "kept public"])
async def test_a_queued_reply_citing_a_file_no_longer_public_is_not_sent(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    kb = kb_with_roadmap(tmp_path)
    index = make_settings(tmp_path).index  # where make_gone re-ingests
    ingest([kb], index)
    handler = CaptureHandler(refuse_first=1)
    server = CaptureServer(handler)
    server.start()
    try:
        settings = email_settings(server.port).model_copy(update={"index": index})
        connector = EmailConnector(services(tmp_path, Assistant.from_settings(settings), settings))
        store = connector.services.store
        outcome = await connector.handle_message(inbound_mail(QUESTION))
        assert outcome.status == "answered" and outcome.reply_id
        assert await connector.outbox.flush() == 0  # 451: the reply waits in the outbox
        assert handler.attempts == 1
        if how != "kept public":
            make_gone(kb, tmp_path, how)
        await asyncio.sleep(0.2)  # past the retry's 0.02 s backoff
        with caplog.at_level(logging.ERROR, logger="bot.connectors"):
            sent = await connector.outbox.flush()
        item = store.outbox_item(outcome.reply_id)
        assert item is not None
        turn = store.turn(int(item.payload[TURN_KEY]))
        assert turn is not None
    finally:
        server.stop()
    if how == "kept public":
        assert sent == 1 and item.status == "sent" and turn.status == "done"
        assert "Leipzig" in handler.mails[0].message().as_string()
        return
    assert (sent, handler.attempts, handler.mails) == (0, 1, [])
    assert item.status == "dead" and turn.status == "failed"
    [line] = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert line.startswith("email: reply to <q1@example.com> not sent to ")
    assert "may not read every source the answer of turn" in line and line.endswith("; dropped")
