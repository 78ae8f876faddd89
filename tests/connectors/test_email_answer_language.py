"""``assistant.language`` in a real reply: the HTML part marks the answer and its sources as in
that language (the mail's own words stay English); the connector passes it to the renderer."""

from __future__ import annotations

from pathlib import Path

from bot.assistant.own_replies import NOT_FOUND
from bot.connectors.email import EmailConnector
from bot.models import Source
from tests.connectors.email_flow_harness import capture, send
from tests.connectors.test_email_citations import bodies
from tests.fakes.answerer import ScriptedAnswerer
from tests.fakes.email_world import email_settings, inbound_mail, services
from tests.fakes.smtp_capture import CaptureServer, wait_for

__all__ = ["capture"]  # the fixture


async def reply_html(tmp_path: Path, capture: CaptureServer, answerer: ScriptedAnswerer) -> str:
    """The HTML part of the reply a German deployment sends with ``answerer``."""
    settings = email_settings(capture.port)
    settings = settings.model_copy(
        update={"assistant": settings.assistant.model_copy(update={"language": "de"})}
    )
    svc = services(tmp_path, answerer, settings)
    connector = EmailConnector(svc)
    await connector.start()
    try:
        await send(connector, inbound_mail())
        await wait_for(lambda: not svc.store.pending("email"))
    finally:
        await connector.stop()
    return bodies(capture.handler.mails[0].message())[1]


async def test_the_html_part_marks_the_answer_in_the_configured_language(
    tmp_path: Path, capture: CaptureServer
) -> None:
    guide = Source(id="g", title="Anleitung", url="https://docs.example.org/anleitung")
    html = await reply_html(tmp_path, capture, ScriptedAnswerer([guide], "So geht es [1]."))
    assert '<html lang="en">' in html
    start = html.index('<div lang="de">')
    assert start < html.index("So geht es") < html.index(">Sources</h2>")
    assert '<ol lang="de"' in html


async def test_citecasts_own_not_found_reply_stays_english(
    tmp_path: Path, capture: CaptureServer
) -> None:
    html = await reply_html(tmp_path, capture, ScriptedAnswerer([], NOT_FOUND))
    assert f'<div lang="en"><p dir="auto" style="margin:0 0 12px;">{NOT_FOUND}' in html
