"""``assistant.language`` in a real reply: the HTML part marks the answer and its sources as in
that language (the mail's own words stay English); the connector passes it to the renderer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import aiosmtplib
import pytest

from bot.connectors.email import EmailConnector
from bot.models import Source
from tests.connectors.test_email_citations import bodies
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.email_world import BOT, USER, email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureHandler, CaptureServer, wait_for


@pytest.fixture
def capture() -> Iterator[CaptureServer]:
    server = CaptureServer(CaptureHandler())
    server.start()
    yield server
    server.stop()


async def test_the_html_part_marks_the_answer_in_the_configured_language(
    tmp_path: Path, capture: CaptureServer
) -> None:
    settings = email_settings(capture.port)
    settings = settings.model_copy(
        update={"assistant": settings.assistant.model_copy(update={"language": "de"})}
    )
    guide = Source(id="g", title="Anleitung", url="https://docs.example.org/anleitung")
    svc = services(tmp_path, ScriptedAnswerer([guide], "So geht es [1]."), settings)
    connector = EmailConnector(svc)
    await connector.start()
    try:
        await aiosmtplib.send(
            inbound_mail(), sender=USER, recipients=[BOT],
            hostname="127.0.0.1", port=connector.listen_port,
        )  # fmt: skip
        await wait_for(lambda: not svc.store.pending("email"))
    finally:
        await connector.stop()
    text, html = bodies(capture.handler.mails[0].message())
    assert "So geht es" in text
    assert '<html lang="en">' in html
    start = html.index('<div lang="de">')
    assert start < html.index("So geht es") < html.index(">Sources</h2>")
    assert '<ol lang="de"' in html
