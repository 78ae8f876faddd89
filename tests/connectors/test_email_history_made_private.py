"""Email history leaves out an earlier answer whose knowledge-base file is no longer public.

The QA steps over the real connector and the built-in answerer: ingest a public file, ask about
it by mail, make the file private (front matter ``audience:`` or an ``audience_rules`` glob,
then ``citecast ingest``) or drop it from the index, and follow up in the same thread. The
stored answer still says ``public`` for the file, but the index as it is now decides, as for
the web (``bot.connectors.web_file_access.visible_now``): the follow-up's history must not
carry what the file said, or the next answer could repeat it to a sender who may no longer
read it. An earlier answer citing only public files stays history.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.assistant.assistant import Assistant
from bot.config import IndexSettings
from bot.connectors.email import EmailConnector
from bot.knowledge import ingest
from bot.models import Exchange
from tests.connectors.email_flow_harness import capture
from tests.connectors.web.conftest import make_settings
from tests.connectors.web.test_web_files_made_private import QUESTION, SECRET, kb_with_roadmap
from tests.connectors.web.test_web_share_made_private import MAIL, RecordingAnswerer, make_gone
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureServer

__all__ = ["capture"]

ROOT = "<q1@example.com>"


async def ask(connector: EmailConnector, question: str, message_id: str) -> None:
    """Mail ``question``; every mail after the first is a follow-up in the first one's thread."""
    thread = {"In-Reply-To": ROOT, "References": ROOT} if message_id != ROOT else None
    mail = inbound_mail(question, message_id=message_id, headers=thread)
    assert (await connector.handle_message(mail)).status == "answered"


def questions(history: tuple[Exchange, ...]) -> list[str]:
    return [exchange.question for exchange in history]


async def history_after(
    tmp_path: Path,
    capture: CaptureServer,
    kb: Path,
    index: IndexSettings,
    change: Callable[[], None],
) -> str:
    """Ask about the roadmap by mail and follow up (the roadmap answer is history then), make
    ``change`` to the knowledge base, follow up again: the history the model got that time,
    as text. An answer citing only the public welcome page stays history."""
    ingest([kb], index)
    settings = email_settings(capture.port).model_copy(update={"index": index})
    answerer = RecordingAnswerer(Assistant.from_settings(settings))
    connector = EmailConnector(services(tmp_path, answerer, settings))
    await connector.start()
    try:
        await ask(connector, QUESTION, ROOT)
        await ask(connector, MAIL, "<q2@example.com>")
        assert questions(answerer.histories[-1]) == [QUESTION]
        assert "Leipzig" in answerer.histories[-1][0].answer

        change()
        await ask(connector, MAIL, "<q3@example.com>")
        assert questions(answerer.histories[-1]) == [MAIL]
        return str(answerer.histories[-1])
    finally:
        await connector.stop()
        connector.services.store.close()


@pytest.mark.parametrize("how", ["front matter", "audience rule", "unreadable", "deleted"])
async def test_an_answer_citing_a_file_no_longer_public_leaves_the_thread_history(
    tmp_path: Path, capture: CaptureServer, how: str
) -> None:
    kb = kb_with_roadmap(tmp_path, "plans" if how == "audience rule" else "")
    index = make_settings(tmp_path).index  # where make_gone re-ingests
    history = await history_after(
        tmp_path, capture, kb, index, lambda: make_gone(kb, tmp_path, how)
    )
    assert "Leipzig" not in history
    assert SECRET not in history
