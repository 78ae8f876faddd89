"""``assistant.language`` in a real reply: the HTML part marks the answer and its sources as in
that language (the mail's own words stay English); the connector passes it to the renderer."""

from __future__ import annotations

from pathlib import Path

from bot.connectors.email import EmailConnector
from bot.models import Source
from tests.connectors.email_flow_harness import capture, send
from tests.connectors.test_email_citations import bodies
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]  # the fixture


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
        await send(connector, inbound_mail())
        await wait_for(lambda: not svc.store.pending("email"))
    finally:
        await connector.stop()
    text, html = bodies(capture.handler.mails[0].message())
    assert "So geht es" in text
    assert '<html lang="en">' in html
    start = html.index('<div lang="de">')
    assert start < html.index("So geht es") < html.index(">Sources</h2>")
    assert '<ol lang="de"' in html
